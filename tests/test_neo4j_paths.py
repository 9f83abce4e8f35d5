"""The paths beyond the store protocol, on the real Neo4j server, measured against the embedded
store: the Cypher console, MCP and the async client over Neo4j, search through Neo4j's own vector
and full-text indexes, two processes writing one group at once, and a copy killed with SIGKILL."""

from __future__ import annotations

import asyncio
import io
import json
import os
import signal
import subprocess
import sys
import time
from datetime import timedelta
from pathlib import Path

import pytest
from mcp import Client, StdioServerParameters
from rich.console import Console

from temporal_graph import AsyncTemporalGraph, TemporalGraph
from temporal_graph.core.model import RecordKind
from temporal_graph.core.stores.protocol import FactQuery
from temporal_graph.interfaces.console import run_console
from temporal_graph.testing import neo4j_store_from_env, unique_test_group
from temporal_graph.times import ManualClock

pytestmark = pytest.mark.neo4j
ROOT = Path(__file__).resolve().parents[1]
ENV = {**os.environ, "HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1", "PYTHONPATH": str(ROOT)}
SAMPLE = ROOT / "examples" / "sample_chat.jsonl"


def _neo4j(clock: ManualClock, **options) -> TemporalGraph:
    store = neo4j_store_from_env()
    assert store is not None
    return TemporalGraph(store, clock=clock, **options)


# -- the Cypher console -------------------------------------------------------------------------
def test_the_console_on_neo4j_answers_asof_and_stays_read_only(clock: ManualClock) -> None:
    group = unique_test_group("console")
    with _neo4j(clock, embed=False) as tg:
        try:
            clock.set("2024-01-10")
            tg.add_fact("Zhang Wei", "lives in", "Hangzhou", valid_at="2019-05-01", group_id=group)
            clock.set("2024-03-05")
            tg.add_fact("Zhang Wei", "lives in", "Shanghai", valid_at="2024-03-01", group_id=group)

            def console(*statements: str) -> tuple[int, list, str]:
                buffer, errors = io.StringIO(), io.StringIO()
                code = run_console(tg, group_id=group, clock=clock, statements=list(statements),
                                   json_lines=True, out=Console(file=buffer, width=200),
                                   err=Console(file=errors, width=200))
                rows = [json.loads(line) for line in buffer.getvalue().splitlines() if line.startswith("{")]
                return code, rows, errors.getvalue()

            asof = ("MATCH (s {group_id: $group_id})-[r:LIVES_IN]->(o) "
                    "WHERE (r.valid_at IS NULL OR r.valid_at <= $t) "
                    "AND (r.invalid_at IS NULL OR r.invalid_at > $t) AND r.created_at <= $k "
                    "AND (r.expired_at IS NULL OR r.expired_at > $k) RETURN o.name AS home")
            code, rows, _ = console(":asof 2023-06-01", asof, ":asof 2024-06-01 2024-02-01", asof,
                                    ":asof 2024-06-01", asof)
            assert code == 0
            assert [r["rows"] for r in rows] == [[["Hangzhou"]], [["Hangzhou"]], [["Shanghai"]]]
            from temporal_graph.interfaces.console import SNIPPETS

            code, rows, _ = console(SNIPPETS["now"])
            assert code == 0 and [row[2] for row in rows[0]["rows"]] == ["Shanghai"]

            code, rows, errors = console("MATCH (n {group_id: $group_id}) DETACH DELETE n")
            assert code == 2 and "read-only" in errors
            code, rows, errors = console("CALL db.createLabel('Intruder')")  # refused by the server itself
            assert code == 2 and errors.strip()
            assert [f.object for f in tg.now("Zhang Wei", group_id=group)] == ["Shanghai"]
        finally:
            tg.forget(group)


# -- forget in batches --------------------------------------------------------------------------
def test_forget_deletes_a_group_in_batches_and_counts_as_the_embedded_store(
    tmp_path: Path, clock: ManualClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A group larger than a forget transaction holds (here 2 records) goes whole, with the same
    count and receipt as on the embedded store (a 100,000-fact group in one transaction ended a
    server with a 1 GB heap)."""
    from temporal_graph.core.stores import neo4j as neo4j_module

    monkeypatch.setattr(neo4j_module, "FORGET_BATCH", 2)
    group = unique_test_group("forget")

    def fill(tg: TemporalGraph, g: str) -> None:
        for i, (city, year) in enumerate((("Paris", 2019), ("Rome", 2021), ("Oslo", 2023))):
            clock.set(f"2024-01-0{i + 1}")
            tg.add_episode(f"I live in {city}.", speaker="Ana", reference_time=f"{year}-01-01", group_id=g)
        tg.add_fact("Bo", "works at", "Acme", valid_at="2020", group_id=g)
        tg.reflect(group_id=g)

    with TemporalGraph.open(tmp_path / "m.db", clock=clock, embed=False) as local:
        fill(local, "demo")
        expected = local.forget("demo", request_id="r-1")
    with _neo4j(clock, embed=False) as tg:
        fill(tg, group)
        removed = tg.forget(group, request_id="r-1")
        assert int(removed) == int(expected) > 2
        assert removed.receipt.counts == expected.receipt.counts
        data = tg.export(group)
        assert (data["entities"], data["facts"], data["episodes"]) == ([], [], [])
        assert [r.request_id for r in tg.erasures(group_id=group)] == ["r-1"]
        assert tg.forget(group) == 0


# -- tgraph view --------------------------------------------------------------------------------
def test_the_view_on_neo4j_draws_what_it_draws_on_the_embedded_store(tmp_path: Path) -> None:
    """The sample chat on both stores: the same chart bars, the same neighbourhood at a date, and a
    console result drawn as a graph."""
    import http.client
    import re
    from urllib.parse import quote

    from temporal_graph.core.stores.statements import statement
    from temporal_graph.interfaces.view import Server

    def pages(tg: TemporalGraph, group: str) -> dict[str, str]:
        server = Server(tg, group)
        server.start()
        try:
            got = {}
            for key, path in (("chart", "/chart.svg?name=Zhang+Wei"),
                              ("entity", "/entity?name=Zhang+Wei&as_of=2023-06-01"),
                              ("cypher", "/cypher?q=" + quote(statement("console/now_graph").readable))):
                connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=120)
                connection.request("GET", path)
                response = connection.getresponse()
                assert response.status == 200, path
                got[key] = response.read().decode("utf-8")
            return got
        finally:
            server.stop()

    def bars(svg: str) -> list[str]:  # each version's tooltip: subject, relation, object, valid, believed
        return sorted(re.findall(r'<g class="version[^"]*"[^>]*><title>([^<]*)</title>', svg))

    group = unique_test_group("view")
    with TemporalGraph.open(tmp_path / "m.db") as local:
        local.import_file(SAMPLE, progress=False, replay=True)
        embedded = pages(local, "demo")
    store = neo4j_store_from_env()
    assert store is not None
    with TemporalGraph(store) as tg:
        try:
            tg.import_file(SAMPLE, group_id=group, progress=False, replay=True)
            on_neo4j = pages(tg, group)
        finally:
            tg.forget(group)
    assert bars(on_neo4j["chart"]) == bars(embedded["chart"]) and len(bars(embedded["chart"])) >= 10
    graph = on_neo4j["entity"][on_neo4j["entity"].index("<h2>Neighbourhood"):]
    assert "Hangzhou" in graph and "Shanghai" not in graph
    assert on_neo4j["cypher"].count('<g class="edge">') == embedded["cypher"].count('<g class="edge">') > 0


# -- MCP and the async client -------------------------------------------------------------------
def test_mcp_over_neo4j_serves_the_memory(tmp_path: Path) -> None:
    group = unique_test_group("mcp")
    command = [sys.executable, "-m", "temporal_graph", "--neo4j", os.environ["NEO4J_URI"], "--group", group,
               "mcp"]

    async def session() -> None:
        params = StdioServerParameters(command=command[0], args=command[1:], cwd=str(ROOT), env=ENV)
        async with Client(params, mode="legacy") as client:
            async def call(name: str, arguments: dict) -> dict:
                result = await client.call_tool(name, arguments)
                assert not result.is_error, result.content
                return result.structured_content

            added = await call("add_episode", {"content": "I moved to Lisbon in March 2024.",
                                               "speaker": "Ana", "reference_time": "2024-06-01"})
            assert [f["object"] for f in added["added"]] == ["Lisbon"]
            await call("add_fact", {"subject": "Ana", "relation": "works at", "object": "Acme",
                                    "valid_at": "2021"})
            now = (await call("now", {"subject": "Ana"}))["facts"]
            assert [f["object"] for f in now] == ["Acme", "Lisbon"]
            hits = await call("search", {"query": "Lisbon", "limit": 3})
            assert any("Lisbon" in json.dumps(h) for h in hits["hits"])
            assert "Lisbon" in (await call("ask", {"question": "Where does Ana live?"}))["text"]
            assert "Lisbon" in (await call("context", {"query": "Where does Ana live?"}))["context"]

    try:
        asyncio.run(session())
    finally:
        with _neo4j(ManualClock("2025-01-01"), embed=False) as tg:
            tg.forget(group)


def test_the_async_client_over_neo4j_answers_as_over_the_embedded_store() -> None:
    from test_async_client import CALLS, CLOCK, _seen

    groups = {"default": unique_test_group("async"), "team": unique_test_group("async")}

    def calls(on_neo4j: bool) -> list[tuple[str, tuple, dict]]:
        if not on_neo4j:
            return CALLS
        return [(name, args, {**kwargs, "group_id": groups[kwargs.get("group_id", "default")]})
                for name, args, kwargs in CALLS]

    async def concurrently(memory: TemporalGraph, on_neo4j: bool) -> list:
        async with AsyncTemporalGraph(memory) as tg:
            return [_seen(r) for r in await asyncio.gather(*(getattr(tg, name)(*args, **kwargs)
                                                            for name, args, kwargs in calls(on_neo4j)))]

    embedded = asyncio.run(concurrently(TemporalGraph.open(":memory:", clock=ManualClock(CLOCK)), False))
    neo4j = _neo4j(ManualClock(CLOCK))
    try:
        assert asyncio.run(concurrently(neo4j, True)) == embedded
    finally:
        with _neo4j(ManualClock(CLOCK), embed=False) as cleanup:
            for group in groups.values():
                cleanup.forget(group)


# -- search through Neo4j's own indexes -----------------------------------------------------------
QUESTIONS = ["badminton", "Where does Zhang Wei live?", "What is his job?", "his sister", "a cat named Mochi",
             "tennis court", "Shenzhen"]


def test_search_through_neo4js_vector_and_full_text_indexes_finds_what_the_embedded_store_finds(
    tmp_path: Path, clock: ManualClock
) -> None:
    group = unique_test_group("search")
    with TemporalGraph.open(tmp_path / "m.db", clock=clock) as embedded, _neo4j(clock) as neo4j:
        try:
            for tg in (embedded, neo4j):
                tg.import_file(SAMPLE, group_id=group, replay=True, progress=False)
            es, ns = embedded.core.store, neo4j.core.store
            texts = {f.id: f.text for tg in (embedded, neo4j)
                     for f in tg.core.store.facts(FactQuery(group, all_versions=True))}
            vector = embedded.core.embedder.encode(["Where does Zhang Wei live?"])[0]
            for kind in (RecordKind.FACT, RecordKind.ENTITY, RecordKind.EPISODE):
                def nearest(store) -> list[str]:
                    return [texts.get(i, i) for i, _ in store.vector_search(group, kind, vector, 5)]  # noqa: B023

                assert nearest(ns) == nearest(es), kind  # exact cosine on both sides: the same neighbours
                scores = dict(ns.vector_search(group, kind, vector, 5))
                assert all(abs(scores[i] - s) < 1e-4 for i, s in es.vector_search(group, kind, vector, 5)
                           if i in scores), kind
                for word in ("badminton", "Shanghai", "sister"):
                    def matched(store) -> set[str]:
                        return {texts.get(i, i) for i, _ in store.text_search(group, kind, word, 50)}  # noqa: B023

                    assert matched(ns) == matched(es), (kind, word)
            for question in QUESTIONS:
                def hits(tg: TemporalGraph) -> set[tuple[str, str]]:
                    return {(h.kind, h.text) for h in tg.search(question, group_id=group, limit=8)}  # noqa: B023

                assert hits(neo4j) == hits(embedded), question
        finally:
            neo4j.forget(group)


# -- two processes, one group -------------------------------------------------------------------
_WRITER = r"""
import sys
from temporal_graph import TemporalGraph
from temporal_graph.testing import neo4j_store_from_env
group, start, count = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
with TemporalGraph(neo4j_store_from_env(), embed=False) as tg:
    for i in range(start, start + count):
        tg.add_fact("Ana", "lives in", f"Town {i}", valid_at=f"{2000 + i % 40}-0{1 + i % 9}-01",
                    group_id=group)
        tg.add_fact("Ana", "likes", f"thing {i % 7}", group_id=group)
"""


def test_two_processes_writing_one_group_at_once_give_the_belief_of_one_writer(tmp_path: Path) -> None:
    group, count = unique_test_group("two"), 40
    writers = [subprocess.Popen([sys.executable, "-c", _WRITER, group, str(start), str(count)], env=ENV,
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE) for start in (0, count)]
    outcomes = [w.communicate(timeout=600) for w in writers]
    assert [w.returncode for w in writers] == [0, 0], [err.decode()[-2000:] for _, err in outcomes]
    with _neo4j(ManualClock("2030-01-01"), embed=False) as neo4j:
        try:
            history = neo4j.history("Ana", group_id=group)
            got = {(f.relation, f.object, f.valid_at, f.invalid_at) for f in history}
            # The same statements one after another on the embedded store: a belief does not depend
            # on the order statements arrive in, so the interleaving of the two writers cannot show.
            with TemporalGraph.open(tmp_path / "one.db", embed=False) as one:
                for i in range(2 * count):
                    one.add_fact("Ana", "lives in", f"Town {i}", valid_at=f"{2000 + i % 40}-0{1 + i % 9}-01")
                    one.add_fact("Ana", "likes", f"thing {i % 7}")
                expected = {(f.relation, f.object, f.valid_at, f.invalid_at) for f in one.history("Ana")}
            lives = sorted((f for f in history if f.relation == "LIVES_IN"), key=lambda f: f.valid_at)
            assert all(a.invalid_at == b.valid_at for a, b in zip(lives, lives[1:], strict=False))
            assert {x for x in got if x[0] == "LIVES_IN"} == {x for x in expected if x[0] == "LIVES_IN"}
            assert {x[1] for x in got if x[0] == "LIKES"} == {f"thing {i}" for i in range(7)}
            assert len(neo4j.core.store.group_assertions(group)) == 4 * count  # no statement lost
        finally:
            neo4j.forget(group)


# -- a copy into Neo4j killed with SIGKILL --------------------------------------------------------
_COPY = r"""
import sys
from temporal_graph import TemporalGraph
from temporal_graph.testing import neo4j_store_from_env
with TemporalGraph.open(sys.argv[1], embed=False) as source:
    with TemporalGraph(neo4j_store_from_env(), embed=False) as neo:
        source.copy_to(neo, group_id=sys.argv[2], batch_size=100)
"""


@pytest.mark.slow
def test_a_copy_into_neo4j_killed_with_sigkill_completes_when_run_again(tmp_path: Path) -> None:
    group, clock = unique_test_group("copy"), ManualClock("2024-01-01")
    path = tmp_path / "source.db"
    with TemporalGraph.open(path, clock=clock, embed=False) as source:
        source.add_facts([(f"Person {i % 150}", ("lives in", "works at", "likes")[i % 3], f"Place {i % 97}",
                           str(1990 + i % 30)) for i in range(3000)], group_id=group)
        for i in range(60):  # revisions after the load: expired versions with later transaction times
            clock.set(clock() + timedelta(days=1))
            source.add_fact(f"Person {i}", "lives in", "Lisbon", valid_at="2023", group_id=group)
    with _neo4j(clock, embed=False) as neo:
        try:
            copying = subprocess.Popen([sys.executable, "-c", _COPY, str(path), group], env=ENV,
                                       stderr=subprocess.PIPE)
            deadline = time.monotonic() + 300
            while (neo.core.store.count_rows(group) < 500 and time.monotonic() < deadline
                   and copying.poll() is None):
                time.sleep(0.05)
            assert copying.poll() is None, "the copy ended before it could be killed"
            os.kill(copying.pid, signal.SIGKILL)
            copying.wait()
            assert 0 < neo.core.store.count_rows(group)
            with TemporalGraph.open(path, clock=clock, embed=False) as source:
                report = source.copy_to(neo, group_id=group)
                assert report.ok, report
                copied = next(g for g in report.groups if g.group_id == group)
                assert copied.samples > 0 and copied.source == copied.target
                assert neo.export(group) == source.export(group)
                again = source.copy_to(neo, group_id=group)
                assert again.ok and sum(again.groups[0].written.values()) == 0
        finally:
            neo.forget(group)
