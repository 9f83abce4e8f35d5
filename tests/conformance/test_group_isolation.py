"""Group isolation: nothing written in one group is visible from another, for every read, on
every store; ``forget`` removes one group only."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest

from temporal_graph import TemporalGraph
from temporal_graph.errors import NotFound

T_POINTS = ("2019-06-01", "2021-06-01", "2023-06-01", "2030-01-01")


@pytest.fixture
def two_groups(tg: TemporalGraph, tick, groups) -> tuple[str, str, dict]:
    """Group A with revisions, ends and a retraction; group B with the same names, fewer facts."""
    a, b = groups("a"), groups("b")
    written = {}
    tick()
    written["beijing"] = tg.add_fact("Alice", "lives in", "Beijing", valid_at="2020", episode_id="ep-a",
                                     group_id=a)
    tick()
    tg.add_fact("Alice", "lives in", "Shanghai", valid_at="2022", group_id=a)
    tick()
    tg.add_fact("Alice", "works at", "Acme", valid_at="2019", group_id=a)
    tick()
    tg.end_fact("Alice", "works at", "Acme", at="2023", group_id=a)
    tick()
    tg.add_fact("Alice", "likes", "tea", group_id=a)
    tick()
    tg.add_fact("Zed", "likes", "Alice", group_id=a)  # a name only group A knows
    tick()
    tg.add_fact("Alice", "visited", "Oslo", valid_at="2021", group_id=a)
    tick()
    tg.retract_fact("Alice", "visited", "Oslo", group_id=a)
    tick()
    written["rome"] = tg.add_fact("Alice", "lives in", "Rome", valid_at="2018", group_id=b)
    tick()
    return a, b, written


def ids_in(data) -> set[str]:
    """Every id-like value in a JSON document."""
    found: set[str] = set()
    if isinstance(data, dict):
        for key, value in data.items():
            if key in ("id", "fact_id", "subject_id", "object_id") and isinstance(value, str):
                found.add(value)
            found |= ids_in(value)
    elif isinstance(data, list):
        for item in data:
            found |= ids_in(item)
    return found


def test_no_read_of_group_b_shows_anything_of_group_a(tg: TemporalGraph, two_groups, clock) -> None:
    a, b, written = two_groups
    a_ids = ids_in(tg.export(a)) - ids_in(tg.export(b))
    assert a_ids, "group A should hold rows and entities of its own"

    def assert_only_b(facts) -> None:
        for f in facts:
            assert f.group_id == b and f.id not in a_ids and f.fact_id not in a_ids, f"{f} leaked from {a}"

    assert [f.object for f in tg.now(group_id=b)] == ["Rome"]
    assert_only_b(tg.now("Alice", group_id=b))
    for t in T_POINTS:
        for k in (None, clock() - timedelta(days=3), clock() - timedelta(days=30)):
            assert_only_b(tg.as_of(t, known_at=k, group_id=b))
            assert_only_b(tg.as_of(t, known_at=k, subject="Alice", relation="lives in", group_id=b))
    assert [f.object for f in tg.as_of("2021-06-01", group_id=b)] == ["Rome"]
    assert [f.object for f in tg.history("Alice", group_id=b)] == ["Rome"]
    assert tg.history("Zed", group_id=b) == []
    assert tg.now("Zed", group_id=b) == [] and tg.as_of("2021", object="Beijing", group_id=b) == []
    assert tg.history("Alice", "works at", group_id=b) == []

    # audit with group A's fact id (or its short form), asked in group B: not found there.
    for fact_id in (written["beijing"].fact_id, written["beijing"].fact_id[:8]):
        with pytest.raises(NotFound):
            tg.audit(fact_id, group_id=b)
    assert len(tg.audit(written["beijing"].fact_id, group_id=a)) == 2

    change = tg.diff("2000-01-01", "2100-01-01", group_id=b)
    for bucket in (change.started, change.ended, change.revised):
        assert_only_b(bucket)
    assert tg.diff("2000-01-01", "2100-01-01", subject="Zed", group_id=b).started == []

    for t in T_POINTS:
        graph = tg.snapshot(as_of=t, group_id=b)
        assert not (set(graph.nodes) & a_ids)
        assert not ({key for _, _, key in graph.edges(keys=True)} & a_ids)
        assert {data["name"] for _, data in graph.nodes(data=True)} <= {"Alice", "Rome"}

    exported = tg.export(b)
    assert not (ids_in(exported) & a_ids)
    assert "Beijing" not in json.dumps(exported) and "ep-a" not in json.dumps(exported)


def test_group_a_is_unchanged_by_group_b(tg: TemporalGraph, two_groups) -> None:
    a, _b, _ = two_groups
    assert sorted(f.object for f in tg.now("Alice", group_id=a)) == ["Shanghai", "tea"]
    assert [f.object for f in tg.history("Alice", "lives in", group_id=a)] == ["Beijing", "Shanghai"]


def test_forget_removes_group_a_only(tg: TemporalGraph, two_groups) -> None:
    a, b, _ = two_groups
    b_before = tg.export(b)
    assert tg.forget(a) > 0
    after = tg.export(a)
    assert all(after[k] == [] for k in ("entities", "episodes", "facts", "assertions") if k in after)
    assert tg.now(group_id=a) == [] and tg.history("Alice", group_id=a) == []
    assert tg.as_of("2021", known_at="2024-01-01", group_id=a) == []
    assert tg.export(b) == b_before
    assert [f.object for f in tg.now(group_id=b)] == ["Rome"]
