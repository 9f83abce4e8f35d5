"""One range for every time the library takes: 0001-01-01T00:00:00Z to 9999-12-31T23:59:59.999999Z
(what a Python ``datetime`` holds in UTC). Every time inside it can be stored, ended, compared
and shown, in the library, the CLI and the MCP tools; a time outside it is refused with the
range named, before anything is written (issue 54)."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta, timezone

import pytest

from temporal_graph import TemporalGraph
from temporal_graph.errors import InvalidTime
from temporal_graph.interfaces.cli import main
from temporal_graph.testing import neo4j_store_from_env
from temporal_graph.times import EARLIEST, LATEST, ManualClock, to_utc
from temporal_graph.tools import call_tool

MICRO = timedelta(microseconds=1)


@pytest.fixture(params=["sqlite", pytest.param("neo4j", marks=pytest.mark.neo4j)])
def edge_tg(request: pytest.FixtureRequest, clock: ManualClock) -> Iterator[tuple[TemporalGraph, str]]:
    if request.param == "sqlite":
        graph, group = TemporalGraph.open(":memory:", clock=clock, embed=False), "default"
    else:
        graph = TemporalGraph(neo4j_store_from_env(), clock=clock, embed=False)
        group = f"t{uuid.uuid4().hex[:10]}"
    yield graph, group
    try:
        if request.param != "sqlite":
            graph.forget(group)
            graph.forget(group + "-b")
    finally:
        graph.close()


def test_the_range_is_what_a_datetime_holds_in_utc():
    assert EARLIEST == datetime(1, 1, 1, tzinfo=UTC)
    assert LATEST == datetime(9999, 12, 31, 23, 59, 59, 999999, tzinfo=UTC)
    assert to_utc("9999-12-31T23:59:59.999999") == LATEST
    assert to_utc("0001-01-01") == EARLIEST


@pytest.mark.parametrize("text", ["9999-12-31T23:00:00-05:00", "0001-01-01T00:30:00+01:00"])
def test_a_time_outside_the_range_is_refused_naming_it(text):
    with pytest.raises(InvalidTime) as caught:
        to_utc(text, name="at")
    message = str(caught.value)
    assert text in message and "0001-01-01T00:00:00Z" in message and "9999-12-31T23:59:59.999999Z" in message


def test_a_fact_ends_at_the_last_moment(edge_tg, tick):
    tg, group = edge_tg
    tick()
    tg.add_fact("Alice", "lives in", "Paris", valid_at="2020-01-01", group_id=group)
    tick()
    [ended] = tg.end_fact("Alice", "lives in", at="9999-12-31T23:59:59.999999", group_id=group)
    assert ended.invalid_at == LATEST
    assert [f.object for f in tg.as_of(LATEST - MICRO, group_id=group)] == ["Paris"]
    assert tg.as_of(LATEST, group_id=group) == []  # valid until it, not at it
    [fact] = tg.now("Alice", group_id=group)
    assert fact.invalid_at == LATEST


def test_moments_keep_their_microseconds_and_instant_on_every_store(edge_tg, clock):
    """Neo4j is sent moments as text made datetimes in Cypher (a bulk load's speed): a moment
    before the epoch, one given at another offset, and the clock's own time with its
    microseconds come back as the same instants."""
    tg, group = edge_tg
    clock.set(datetime(2026, 3, 1, 8, 15, 30, 123457, tzinfo=UTC))
    before_epoch = datetime(1969, 12, 31, 23, 59, 59, 999999, tzinfo=UTC)
    elsewhere = datetime(2024, 2, 29, 12, 0, 0, 1, tzinfo=timezone(timedelta(hours=5, minutes=30)))
    added = tg.add_fact("Alice", "lives in", "Paris", valid_at=before_epoch, invalid_at=elsewhere,
                        group_id=group)
    [read] = tg.history("Alice", group_id=group)
    assert (read.valid_at, read.invalid_at, read.created_at) == (before_epoch, elsewhere, clock())
    assert read.created_at == added.created_at
    tg.add_fact("Alice", "works at", "Acme", group_id=group)  # Neo4j reads her rows back to summarise
    assert tg.history("Alice", "lives in", group_id=group)[0].valid_at == before_epoch
    told = tg.add_episode("A note with no fact in it.", reference_time=elsewhere, group_id=group).episode
    [episode] = tg.core.store.episodes(group, ids=[told.id])
    assert (episode.reference_time, episode.created_at) == (elsewhere, clock())


# Statements at three moments, "first", "mid" and "last"; written with the ends of the range and
# with ordinary years, they must leave the same timelines.
SCRIPT = (
    ("add", "Bob", "lives in", "Rome", "first", None), ("add", "Bob", "lives in", "Oslo", "last", None),
    ("add", "Bob", "lives in", "Lima", "last", None), ("add", "Cy", "likes", "tea", "mid", None),
    ("add", "Cy", "likes", "tea", "last", None), ("add", "Cy", "likes", "jazz", "last", None),
    ("end", "Cy", "likes", "tea", "last", None), ("add", "Dee", "works at", "Acme", "first", "last"),
    ("end", "Dee", "works at", None, "last", None), ("add", "Eve", "likes", "chess", "first", "mid"),
    ("end", "Eve", "likes", "chess", "first", None),
)


def _timelines(tg: TemporalGraph, group: str, tick, moments: dict[str, datetime]) -> list[tuple]:
    for op, subject, relation, obj, at, until in SCRIPT:
        tick()
        if op == "add":
            tg.add_fact(subject, relation, obj, valid_at=moments[at], invalid_at=until and moments[until],
                        group_id=group)
        else:
            tg.end_fact(subject, relation, obj, at=moments[at], group_id=group)
    named = {v: k for k, v in moments.items()}
    rows = []
    for subject in ("Bob", "Cy", "Dee", "Eve"):
        for fact in tg.history(subject, group_id=group):
            rows.append((subject, fact.object, named.get(fact.valid_at), named.get(fact.invalid_at)))
        for at in moments.values():
            rows.append((subject, named[at], sorted(f.object for f in tg.as_of(at, subject=subject,
                                                                                  group_id=group))))
    return rows


def test_facts_at_the_ends_of_the_range_follow_the_rules_of_any_other_time(edge_tg, tick):
    tg, group = edge_tg
    edges = _timelines(tg, group, tick, {"first": EARLIEST, "mid": datetime(2020, 1, 1, tzinfo=UTC),
                                         "last": LATEST})
    ordinary = _timelines(tg, group + "-b", tick, {"first": datetime(1900, 1, 1, tzinfo=UTC),
                                                   "mid": datetime(2020, 1, 1, tzinfo=UTC),
                                                   "last": datetime(2100, 1, 1, tzinfo=UTC)})
    assert edges == ordinary
    assert ("Bob", "Rome", "first", "last") in edges  # Rome held from the first moment to the last


def test_the_cli_and_the_mcp_tool_end_a_fact_at_the_last_moment(tmp_path, capsys):
    db = str(tmp_path / "m.db")
    assert main(["--db", db, "add-fact", "Alice", "lives in", "Paris", "--valid-at", "0001-01-01"]) == 0
    assert "0001-01-01" in capsys.readouterr().out  # a four-digit year, as it was given
    assert main(["--db", db, "end-fact", "Alice", "lives in", "--at", "9999-12-31T23:59:59.999999"]) == 0
    assert "9999-12-31 23:59" in capsys.readouterr().out
    assert main(["--db", db, "end-fact", "Alice", "lives in", "--at", "9999-12-31T23:00-05:00"]) == 2
    err = capsys.readouterr().err
    assert "9999-12-31T23:00-05:00" in err and "9999-12-31T23:59:59.999999Z" in err
    with TemporalGraph.open(":memory:") as tg:
        call_tool(tg, "add_fact", {"subject": "Ana", "relation": "lives in", "object": "Lima",
                                   "valid_at": "0001-01-01"})
        ended = call_tool(tg, "end_fact", {"subject": "Ana", "relation": "lives in",
                                           "at": "9999-12-31T23:59:59.999999"})
        assert "9999-12-31T23:59:59.999999" in str(ended)
