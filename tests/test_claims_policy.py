"""The claims policy (issue 26), per read: own facts first; someone else's claim only where no own
fact of the same subject and relation covers that time, labelled with who claimed it and whether
the subject's own record says otherwise; claims="own" / "only" on every read, the CLI and the MCP
tools."""

from __future__ import annotations

import asyncio
import json

import pytest

from temporal_graph import AsyncTemporalGraph, TemporalGraph
from temporal_graph.core.claims import covered, select
from temporal_graph.core.errors import InvalidInput
from temporal_graph.interfaces.cli import main as tgraph
from temporal_graph.times import ManualClock
from temporal_graph.tools import call_tool

CHAT = [
    ("Bob", "2023-01-10T10:00:00+00:00", "I live in Paris."),
    ("Mallory", "2023-02-10T10:00:00+00:00", "Bob lives in Mordor."),
    ("Eve", "2023-03-10T10:00:00+00:00", "Carol works at Initech."),
]


@pytest.fixture
def memory(tmp_path):
    tg = TemporalGraph.open(tmp_path / "memory.db", clock=ManualClock("2024-06-01T00:00:00+00:00"))
    for speaker, at, text in CHAT:
        tg.add_episode(text, reference_time=at, speaker=speaker)
    yield tg
    tg.close()


def seen(facts):
    return {(f.subject, f.object, f.claimed_by, f.contradicted) for f in facts}


def test_now_shows_one_home_and_the_uncovered_claim_labelled(memory):
    # Bob's own home covers Mallory's claim: one current home, not two.
    assert seen(memory.now("Bob", "lives in")) == {("Bob", "Paris", None, False)}
    # Nobody covers Eve's word about Carol: it shows, as Eve's claim.
    assert seen(memory.now("Carol")) == {("Carol", "Initech", "Eve", False)}
    assert seen(memory.now("Bob", "lives in", claims="own")) == {("Bob", "Paris", None, False)}
    assert seen(memory.now("Bob", "lives in", claims="only")) == {("Bob", "Mordor", "Mallory", True)}
    assert memory.now("Carol", claims="own") == []


def test_as_of_covers_only_where_an_own_fact_holds_at_that_time(memory):
    memory.end_fact("Bob", "lives in", "Paris", at="2023-06-01")
    # While Paris held, Mallory's claim is covered; after it ended, only her claim is left.
    assert seen(memory.as_of("2023-03-01", subject="Bob")) == {("Bob", "Paris", None, False)}
    after = memory.as_of("2023-07-01", subject="Bob")
    assert seen(after) == {("Bob", "Mordor", "Mallory", True)}  # still contradicted: it overlapped Paris
    with pytest.raises(InvalidInput, match="claims"):
        memory.as_of("2023-07-01", subject="Bob", claims="mine")


def test_search_and_context_follow_the_policy(memory):
    hits = memory.search("Where does Bob live?", kinds=("fact",))
    assert {h.fact.object for h in hits} == {"Paris"}
    only = memory.search("Where does Bob live?", kinds=("fact",), claims="only")
    assert seen(h.fact for h in only) == {("Bob", "Mordor", "Mallory", True)}
    block = memory.context("Where does Bob live?", claims="only")
    assert "Bob lives in Mordor" in block and "[claimed by Mallory; Bob said otherwise]" in block
    assert "Mordor" not in memory.context("Where does Bob live?").split("Supporting messages:")[0]


def test_ask_answers_from_own_facts_and_names_a_claim(memory):
    assert memory.ask("Where does Bob live?").text.startswith("Bob lives in Paris")
    carol = memory.ask("Where does Carol work?")
    assert carol.known and "[claimed by Eve]" in carol.text
    assert not memory.ask("Where does Carol work?", claims="own").known


def test_cli_and_mcp_take_claims(memory, tmp_path, capsys):
    db = str(tmp_path / "memory.db")
    memory.close()
    for mode, expected in (("all", {"Paris"}), ("own", {"Paris"}), ("only", {"Mordor"})):
        assert tgraph(["--db", db, "now", "Bob", "--claims", mode, "--json"]) == 0
        assert {r["object"] for r in json.loads(capsys.readouterr().out)} == expected
    tg = TemporalGraph.open(db, clock=ManualClock("2024-06-01T00:00:00+00:00"))
    facts = call_tool(tg, "now", {"subject": "Bob", "claims": "only"})["facts"]
    assert [(f["object"], f["attributes"]["claimed_by"], f["attributes"]["contradicted"]) for f in facts] == [
        ("Mordor", "Mallory", True)]
    answer = call_tool(tg, "ask", {"question": "Where does Bob live?", "claims": "own"})
    assert answer["text"].startswith("Bob lives in Paris")
    tg.close()


def test_the_rules_are_pure_functions(memory):
    rows = memory.now("Bob", "lives in", claims="own") + memory.now("Bob", "lives in", claims="only")
    own = [f for f in rows if f.claimed_by is None]
    claim = next(f for f in rows if f.claimed_by)
    assert covered(claim, own, "one") and not covered(claim, own, "many")  # many: only the same value
    shown = select(rows, "all", lambda key: own, lambda relation: "one")
    assert [f.object for f in shown] == ["Paris"]


def test_a_claim_the_subject_retracted_is_labelled_contradicted_and_answers_no(memory):
    # Eve said Carol works at Initech; Carol has no job of her own on record, then says it was never so.
    assert memory.ask("Did Carol ever work at Initech?").text.startswith("Yes, according to Eve")
    memory.retract_fact("Carol", "works at", "Initech")
    assert seen(memory.now("Carol")) == {("Carol", "Initech", "Eve", True)}  # still Eve's word, now disputed
    answer = memory.ask("Did Carol ever work at Initech?")
    assert answer.verdict == "no" and "Eve claimed it on 2023-03-10" in answer.text
    assert answer.text.endswith("Carol said otherwise.")


def test_the_async_client_takes_claims(memory):
    async def read():
        async with AsyncTemporalGraph(memory) as tg:
            return await tg.now("Bob", claims="only"), await tg.context("Where does Bob live?", claims="own")

    claims, block = asyncio.run(read())
    assert seen(claims) == {("Bob", "Mordor", "Mallory", True)}
    assert "Mordor" not in block.split("Supporting")[0]


def test_labelling_claims_is_a_read_it_never_waits_for_a_writer(memory, tmp_path, monkeypatch):
    import sqlite3

    monkeypatch.setenv("TGRAPH_LOCK_TIMEOUT", "0.2")
    reader = TemporalGraph.open(tmp_path / "memory.db")
    writer = sqlite3.connect(tmp_path / "memory.db", isolation_level=None)
    writer.execute("BEGIN IMMEDIATE")  # another process in the middle of a write
    try:
        assert ("Bob", "Mordor", "Mallory", True) in seen(reader.now("Bob", claims="only"))
    finally:
        writer.execute("ROLLBACK")
        writer.close()
        reader.close()
