#!/usr/bin/env bash
# The pictures of the README and docs/, drawn from a real memory: the demo's chat log imported as
# scripts/demo.sh does (--replay: each message learned at its own time), then tgraph view's
# bi-temporal chart of Zhang Wei written as SVG. Run again after a change to the chart or the sample.
set -euo pipefail
cd "$(dirname "$0")/.."
export HF_HUB_OFFLINE=1 TRANSFORMERS_OFFLINE=1
work="$(mktemp -d "${TMPDIR:-/tmp}/tgraph-pictures.XXXXXX")"
trap 'rm -rf "$work"' EXIT
tgraph() { .venv/bin/python -m temporal_graph --db "$work/demo.db" "$@"; }
tgraph import examples/sample_chat.jsonl --quiet --replay --no-embed >/dev/null
# Now, as believed now: every version, the ones no longer believed hatched apart.
tgraph --group demo view --entity "Zhang Wei" --svg docs/img/zhang-wei.svg
# The two axes at work: valid time June 2023, as known on 1 January 2024 (before the move was told).
tgraph --group demo view --entity "Zhang Wei" --as-of 2024-07-01 --known-at 2024-01-01 \
    --svg docs/img/zhang-wei-known-at.svg
echo "docs_pictures: wrote docs/img/zhang-wei.svg and docs/img/zhang-wei-known-at.svg" >&2
