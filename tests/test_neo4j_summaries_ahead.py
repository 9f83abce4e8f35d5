"""A Neo4j write reads what its summary refresh needs with its read-ahead and keeps it as it
writes (``Neo4jTx._newest_after``), so the refresh reads nothing more: the summaries it writes
must be those the embedded store writes, after every write of a random history, for entities
with fewer rows than are read ahead and for one with more."""

from __future__ import annotations

import random
from collections.abc import Iterator
from datetime import timedelta

import pytest

from temporal_graph import TemporalGraph
from temporal_graph.core.stores.neo4j import NEWEST_AHEAD
from temporal_graph.testing import neo4j_store_from_env, unique_test_group
from temporal_graph.times import ManualClock

pytestmark = pytest.mark.neo4j

START = "2024-01-01"
PEOPLE = ("Ana", "Ben", "Cy")
THINGS = tuple(f"Thing {i}" for i in range(12))
SAID = ("I moved to Oslo.", "I moved to Rome.", "I love Thing 1.", "I work at Acme.", "I left Acme.")


@pytest.fixture(params=[400, 20_000], ids=["short", "whole"])
def memories(request) -> Iterator[tuple[list[TemporalGraph], list[str], list[ManualClock]]]:
    # A "whole" summary tells every fact: it reads past the rows held, after the write's changes.
    clocks = [ManualClock(START), ManualClock(START)]
    store = neo4j_store_from_env()
    assert store is not None
    group = unique_test_group("summaries")
    embedded = TemporalGraph.open(":memory:", clock=clocks[0], embed=False, summary_chars=request.param)
    server = TemporalGraph(store, clock=clocks[1], embed=False, summary_chars=request.param)
    try:
        yield [embedded, server], ["default", group], clocks
    finally:
        server.forget(group)
        server.close()
        embedded.close()


def _history(seed: int, count: int) -> list[tuple[str, ...]]:
    rng = random.Random(seed)
    ops = []
    for _ in range(count):
        kind = rng.choice(("like", "like", "like", "live", "end", "say", "retract"))
        person, year = rng.choice(PEOPLE), str(rng.randint(1850, 2023))
        values = {"live": ("Oslo", "Rome", "Lima"), "say": SAID}.get(kind, THINGS)
        value = rng.choice(values)
        ops.append((kind, person, value, year))
    return ops


def _write(tg: TemporalGraph, group: str, op: tuple[str, ...]) -> str | None:
    kind, person, value, year = op
    try:
        if kind == "like":
            tg.add_fact(person, "likes", value, valid_at=year, group_id=group)
        elif kind == "live":
            tg.add_fact(person, "lives in", value, valid_at=year, group_id=group)
        elif kind == "end":
            tg.end_fact(person, "likes", value, at=year, group_id=group)
        elif kind == "retract":
            tg.retract_fact(person, "likes", value, group_id=group)
        else:
            tg.add_episode(value, speaker=person, reference_time=f"{year}-06-01", group_id=group)
    except Exception as error:  # the same refusal on both stores (an end before any start, ...)
        return type(error).__name__
    return None


def _summaries(tg: TemporalGraph, group: str) -> list[tuple[str, str]]:
    return sorted((s.entity, s.text) for s in tg.core.store.summaries(group))


@pytest.mark.parametrize("seed", [1, 2])
def test_the_summaries_a_write_refreshes_are_the_embedded_stores(memories, seed) -> None:
    tgs, groups, clocks = memories
    if seed == 2:  # Ana with more current rows than are read ahead: her summary is read again
        many = [("Ana", "likes", f"Item {i}", str(1900 + i)) for i in range(NEWEST_AHEAD + 6)]
        for tg, group in zip(tgs, groups, strict=True):
            tg.add_facts(many, group_id=group)
    for n, op in enumerate(_history(seed, 60)):
        for clock in clocks:
            clock.set(ManualClock(START)() + timedelta(minutes=n + 1))
        outcomes = [_write(tg, group, op) for tg, group in zip(tgs, groups, strict=True)]
        assert outcomes[0] == outcomes[1], (n, op, outcomes)
        assert _summaries(tgs[0], groups[0]) == _summaries(tgs[1], groups[1]), (n, op)
