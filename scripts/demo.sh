#!/usr/bin/env bash
# Import the sample chat log shipped in examples/ into an embedded store and ask it about time.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
export HF_HUB_OFFLINE=1 TRANSFORMERS_OFFLINE=1
DB=${DB:-demo.db}
rm -f "$DB" "$DB-wal" "$DB-shm"
# Each command is echoed quoted for the shell and run as echoed (tgraph from .venv/bin on the PATH),
# so after `source .venv/bin/activate` it can be pasted and runs exactly as shown.
export PATH="$PWD/.venv/bin:$PATH"
echo "# to run these yourself: source .venv/bin/activate"
quote() {
    if [[ $1 =~ ^[A-Za-z0-9_./:=@%+,-]+$ ]]; then printf '%s' "$1"; else printf "'%s'" "${1//\'/\'\\\'\'}"; fi
}
tg() {
    local shown="tgraph --db $(quote "$DB")" arg
    for arg in "$@"; do shown+=" $(quote "$arg")"; done
    echo; echo "\$ $shown"
    tgraph --db "$DB" "$@"
}
# --replay: each message is also *learned* at its own time, as if the memory had been listening live.
tg import examples/sample_chat.jsonl --quiet --replay
tg now "Zhang Wei" --group demo
tg as-of 2023-06-01 "Zhang Wei" --group demo
tg history "Zhang Wei" --group demo --relation LIVES_IN
tg history "Zhang Wei" --group demo --relation LIKES
# Where does he live in July 2024, as the memory believed in January 2024 (before the move was told)?
tg as-of 2024-07-01 "Zhang Wei" --group demo --known-at 2024-01-01 --relation LIVES_IN
tg as-of 2024-07-01 "Zhang Wei" --group demo --relation LIVES_IN
tg ask "Where does Zhang Wei live now?" --group demo
tg ask "Where did Zhang Wei live in June 2023?" --group demo
tg search "badminton" --group demo --limit 5
