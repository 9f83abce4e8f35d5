#!/usr/bin/env bash
# Install everything the test suite needs, then run it. Extra arguments go to pytest.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
# Neo4j's own Cypher parser and semantic analysis, for the lint tests.
(cd cypher/lint && npm ci --silent --no-audit --no-fund)
echo "test: ruff (lint) and mypy (types)" >&2
.venv/bin/ruff check .
.venv/bin/mypy
export HF_HUB_OFFLINE=1 TRANSFORMERS_OFFLINE=1
exec .venv/bin/python -m pytest -q "$@"
