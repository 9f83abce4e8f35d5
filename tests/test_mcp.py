"""``tgraph mcp`` end to end: the MCP SDK's own client against the server in a subprocess, over
stdio and over streamable HTTP. Every tool answers, a bad argument is a tool error with one line,
and the server keeps serving after it."""

from __future__ import annotations

import asyncio
import json
import os
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from mcp import Client, StdioServerParameters

ROOT = Path(__file__).resolve().parents[1]
TOOLS = ["add_episode", "supersede", "add_fact", "end_fact", "retract_fact", "search", "now", "as_of",
         "history", "summary", "reflect", "insights", "paths", "ask", "context"]
ENV = {**os.environ, "HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1", "PYTHONPATH": str(ROOT)}


def _command(db: Path, *options: str) -> list[str]:
    return [sys.executable, "-m", "temporal_graph", "--db", str(db), "--create", "mcp", *options]


def _text(result) -> str:
    return "".join(block.text for block in result.content)


async def _call(client: Client, name: str, arguments: dict) -> dict:
    result = await client.call_tool(name, arguments)
    assert not result.is_error, _text(result)
    assert json.loads(_text(result)) == result.structured_content  # the same data as text, for any client
    return result.structured_content


async def _every_tool(client: Client) -> None:
    """Call each tool with good arguments, then bad ones, on a fresh memory."""
    listed = (await client.list_tools()).tools
    assert [t.name for t in listed] == TOOLS  # no forget_group unless --allow-forget
    for tool in listed:
        assert tool.input_schema["type"] == "object" and tool.output_schema["type"] == "object"
        writes = tool.name in (*TOOLS[:5], "reflect")
        assert tool.description and tool.annotations.read_only_hint == (not writes)

    added = await _call(client, "add_episode", {"content": "I moved to Lisbon in March 2024.",
                                                "speaker": "Ana", "reference_time": "2024-06-01"})
    assert [f["object"] for f in added["added"]] == ["Lisbon"]
    dry = await _call(client, "supersede", {"old": added["episode"]["id"], "content": "I moved to Porto.",
                                            "reference_time": "2024-07-01", "dry_run": True})
    assert [e["id"] for e in dry["matched"]] == [added["episode"]["id"]] and dry["episode"] is None
    fact = await _call(client, "add_fact", {"subject": "Alice", "relation": "lives in", "object": "Paris",
                                            "valid_at": "2020-01-01"})
    assert fact["fact"]["relation"] == "LIVES_IN"
    await _call(client, "add_fact", {"subject": "Alice", "relation": "works at", "object": "Acme",
                                     "valid_at": "2021"})
    await _call(client, "add_fact", {"subject": "Alice", "relation": "likes", "object": "jazz"})
    ended = await _call(client, "end_fact", {"subject": "Alice", "relation": "works at", "at": "2024-05-01"})
    assert [f["invalid_at"] for f in ended["facts"]] == ["2024-05-01T00:00:00Z"]
    jazz = {"subject": "Alice", "relation": "likes", "object": "jazz"}
    retracted = await _call(client, "retract_fact", jazz)
    assert [f["object"] for f in retracted["facts"]] == ["jazz"]

    now = await _call(client, "now", {"subject": "Alice"})
    assert [f["object"] for f in now["facts"]] == ["Paris"]
    then = await _call(client, "as_of", {"valid_time": "2022-01-01", "subject": "Alice",
                                         "known_at": "2100-01-01"})
    assert sorted(f["object"] for f in then["facts"]) == ["Acme", "Paris"]
    history = await _call(client, "history", {"subject": "Alice", "relation": "works at"})
    assert [f["object"] for f in history["facts"]] == ["Acme"]
    summary = (await _call(client, "summary", {"entity": "Alice"}))["summary"]
    assert "Paris" in summary["text"]
    reflected = await _call(client, "reflect", {"subject": "Alice"})
    assert reflected["group_id"] == "default" and reflected["producer"] == "offline"
    believed = await _call(client, "insights", {"subject": "Alice"})
    assert [i["text"] for i in believed["insights"]] == sorted(
        (i["text"] for i in reflected["written"]), key=[i["text"] for i in believed["insights"]].index)
    chains = await _call(client, "paths", {"start": "Alice", "as_of": "2022-01-01", "max_hops": 1})
    assert sorted(p[0]["object"] for p in chains["paths"]) == ["Acme", "Paris"]
    hits = await _call(client, "search", {"query": "Lisbon", "limit": 3})
    assert any("Lisbon" in json.dumps(h) for h in hits["hits"])
    answer = await _call(client, "ask", {"question": "Where does Alice live?"})
    assert "Paris" in answer["text"]
    mine = await _call(client, "ask", {"question": "Where do I live?", "speaker": "Ana"})  # who asks
    assert "Lisbon" in mine["text"]
    block = await _call(client, "context", {"query": "Where does Ana live?", "budget_tokens": 300})
    assert "Lisbon" in block["context"]

    for name, arguments, message in [
        ("add_fact", {"subject": "Alice", "relation": "lives in"}, "add_fact: object is required"),
        ("as_of", {"valid_time": "the day after never"}, "valid_time: cannot read 'the day after never'"),
        ("now", {"subjet": "Alice"}, "now: unknown argument 'subjet'"),
        ("paths", {"start": "Alice", "max_hops": 0}, "max_hops: 0 must be a whole number from 1 to 10"),
        # issue 22: out of range, booleans as numbers, unknown names, over-long text
        ("search", {"query": "Alice", "limit": 2**70}, f"limit: {2**70} must be a whole number from 1"),
        ("add_fact", {"subject": "Bo", "relation": "likes", "object": "tea", "importance": True},
         "add_fact: importance: Input should be a valid integer, got True"),
        ("end_fact", {"subject": "Typo", "relation": "lives in", "at": "2024"},
         "subject: no entity named 'Typo'"),
        ("ask", {"question": "x" * 2001}, "question: 2,001 characters is over the limit of 2,000"),
        ("forget_group", {"group_id": "default"}, "unknown tool 'forget_group'"),
    ]:
        result = await client.call_tool(name, arguments)
        assert result.is_error, name
        assert _text(result).startswith(message) and "\n" not in _text(result)
    # Still serving, and nothing was written by the bad calls.
    assert [f["object"] for f in (await _call(client, "now", {"subject": "Alice"}))["facts"]] == ["Paris"]

    resources = (await client.list_resources()).resources
    assert [str(r.uri) for r in resources] == ["memory://groups/default/summary"]
    summary = json.loads((await client.read_resource("memory://groups/default/summary")).contents[0].text)
    assert summary["group_id"] == "default" and summary["current_facts"] == 2  # Ana in Lisbon, Alice in Paris


def test_stdio_initialize_list_and_call_every_tool(tmp_path):
    async def session():
        params = StdioServerParameters(command=sys.executable, args=_command(tmp_path / "memory.db")[1:],
                                       cwd=str(ROOT), env=ENV)
        async with Client(params, mode="legacy") as client:  # the initialize handshake
            assert client.server_info.name == "temporal-graph"
            assert "add_episode" in (client.instructions or "")
            await _every_tool(client)

    asyncio.run(session())


def test_stdio_says_ready_on_stderr_and_nothing_on_stdout(tmp_path):
    process = subprocess.Popen(_command(tmp_path / "memory.db"), cwd=ROOT, env=ENV, stdin=subprocess.PIPE,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    said: list[str] = []
    guard = threading.Timer(300, process.kill)  # a server that never says ready fails the test, not hangs it
    guard.start()
    try:
        assert process.stderr is not None
        for line in process.stderr:  # until the model is loaded (a fresh machine first exports it)
            said.append(line.decode())
            if "ready" in said[-1]:
                break
    finally:
        out, _ = process.communicate(b"", timeout=60)  # no client: the server ends
        guard.cancel()
    assert said and said[-1] == "tgraph mcp: ready (stdio)\n", said
    assert out == b""  # stdout is the protocol: not a byte of anything else


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _wait_for_ready(url: str, process: subprocess.Popen, log: Path, seconds: float = 120) -> None:
    """Until the server says on stderr that it is ready, at ``url``: listening, model loaded."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        said = log.read_text(errors="replace")
        if f"tgraph mcp: ready at {url}" in said:
            return
        if process.poll() is not None:
            raise AssertionError(f"server exited: {said[-2000:]}")
        time.sleep(0.1)
    raise AssertionError("server did not say it was ready")


@pytest.fixture
def http_server(tmp_path):
    def start(*options: str) -> str:
        port = _free_port()
        command = _command(tmp_path / "memory.db", "--http", str(port), *options)
        log = open(tmp_path / f"server-{port}.log", "wb")  # a file: a full pipe would stall the server
        process = subprocess.Popen(command, cwd=ROOT, env=ENV, stdout=subprocess.DEVNULL, stderr=log)
        started.append((process, log))
        url = f"http://127.0.0.1:{port}/mcp"
        _wait_for_ready(url, process, tmp_path / f"server-{port}.log")
        return url

    started: list = []
    yield start
    for process, log in started:
        process.terminate()
        process.wait(timeout=20)
        log.close()


def test_http_serves_the_same_tools(http_server):
    url = http_server()

    async def session():
        async with Client(url) as client:
            await _every_tool(client)

    asyncio.run(session())


def test_forget_group_only_with_allow_forget_and_only_for_the_served_group(http_server):
    url = http_server("--group", "team a", "--allow-forget")

    async def session():
        async with Client(url) as client:
            assert "forget_group" in [t.name for t in (await client.list_tools()).tools]
            await _call(client, "add_fact", {"subject": "Alice", "relation": "lives in", "object": "Rome"})
            refused = await client.call_tool("forget_group", {"group_id": "default"})
            assert refused.is_error and "serves group 'team a'" in _text(refused)
            uri = "memory://groups/team%20a/summary"
            assert [str(r.uri) for r in (await client.list_resources()).resources] == [uri]
            assert json.loads((await client.read_resource(uri)).contents[0].text)["current_facts"] == 1
            done = await _call(client, "forget_group", {"group_id": "team a"})
            assert done["removed"] > 0
            assert (await _call(client, "now", {}))["facts"] == []

    asyncio.run(session())
