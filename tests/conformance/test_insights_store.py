"""Insights on every store: versions read by transaction time and subject, expired with any fact
version or episode they cite in the same write, deleted by id or by what they cite (erase), and
forgotten with their group."""

from __future__ import annotations

from datetime import timedelta

from temporal_graph import Insight, TemporalGraph
from temporal_graph.core.stores.protocol import ChangeSet


def _insight(group: str, id: str, at, *, cites=("f1",), about=("ana",), **fields) -> Insight:
    return Insight(id=id, group_id=group, text=f"insight {id}", subject_ids=about,
                   subjects=tuple(a.title() for a in about), derived_from=cites, created_at=at,
                   pattern=f"test {id}", **fields)


def _apply(tg: TemporalGraph, changes: ChangeSet) -> None:
    tg.core.store.write(lambda tx: tx.apply(changes))


def test_insight_versions_are_read_by_transaction_time_and_subject(
    tg: TemporalGraph, clock, groups
) -> None:
    g, other = groups(), groups("other")
    t0 = clock()
    t1 = t0 + timedelta(days=1)
    store = tg.core.store
    _apply(tg, ChangeSet(insights=[
        _insight(g, "a", t0, importance=8, valid_at=t0 - timedelta(days=900), producer="llm"),
        _insight(g, "b", t0, about=("ana", "bo"), cites=("f2", "e1")),
        _insight(other, "c", t0),
    ]))
    _apply(tg, ChangeSet(insights=[_insight(g, "a2", t1, replaces="a")], insights_expired=[(g, "a", t1)]))

    assert sorted(i.id for i in store.insights(g)) == ["a2", "b"]
    assert sorted(i.id for i in store.insights(g, known_at=t0)) == ["a", "b"]
    assert store.insights(g, known_at=t0 - timedelta(seconds=1)) == []
    assert sorted(i.id for i in store.insights(g, subject_id="bo")) == ["b"]
    versions = {i.id: i for i in store.insights(g, all_versions=True)}
    assert versions["a"].expired_at == t1 and versions["a2"].replaces == "a"
    a = versions["a"]
    assert (a.importance, a.producer, a.subjects) == (8, "llm", ("Ana",))
    assert a.valid_at == t0 - timedelta(days=900)
    assert versions["b"].derived_from == ("f2", "e1") and versions["b"].subject_ids == ("ana", "bo")
    assert [i.id for i in store.insights(other)] == ["c"]


def test_insights_expire_with_a_cited_record_in_the_same_write(tg: TemporalGraph, clock, groups) -> None:
    g, other = groups(), groups("other")
    t0 = clock()
    t1 = t0 + timedelta(days=1)
    _apply(tg, ChangeSet(insights=[_insight(g, "a", t0, cites=("f1", "f2")),
                                   _insight(g, "b", t0, cites=("f3",)),
                                   _insight(other, "c", t0, cites=("f1",))]))
    _apply(tg, ChangeSet(insights_expire_citing=[(g, "f2", t1), (g, "e9", t1)]))
    store = tg.core.store
    assert [i.id for i in store.insights(g)] == ["b"]
    assert [i.id for i in store.insights(g, known_at=t0)] != [] and len(store.insights(g, known_at=t0)) == 2
    assert [i.id for i in store.insights(other)] == ["c"]  # another group's insight citing "f1" stands


def test_retracting_ending_or_superseding_a_fact_expires_the_insights_on_it(
    tg: TemporalGraph, tick, groups
) -> None:
    g = groups()
    tick()
    moves = (("Denver", "2016-01"), ("Boston", "2017-01"), ("Austin", "2017-07"), ("Miami", "2018-01"))
    for city, start in moves:
        tg.add_fact("Ana", "LIVES_IN", city, valid_at=f"{start}-01", group_id=g)
    tg.add_fact("Ana", "WORKS_AT", "Acme", valid_at="2015-01-01", group_id=g)
    tick()
    made = tg.reflect(group_id=g)
    patterns = {i.pattern.split()[0] for i in made.written}
    assert {"changes", "long_held", "streak"} <= patterns
    before = tg.core.now()
    tick()
    tg.retract_fact("Ana", "LIVES_IN", "Austin", group_id=g)
    left = tg.insights(group_id=g)
    assert all("Austin" not in i.text for i in left)
    assert any("Acme" in i.text for i in left)  # not built on the retracted fact: stands
    assert any("Austin" in i.text for i in tg.insights(group_id=g, known_at=before))
    tick()
    tg.end_fact("Ana", "WORKS_AT", "Acme", at="2025-06-01", group_id=g)
    assert all("Acme" not in i.text for i in tg.insights(group_id=g))
    current = {f.id for f in tg.core.store.facts(_current_query(g))}
    assert all(set(i.derived_from) <= current for i in tg.insights(group_id=g))


def _current_query(group: str):
    from temporal_graph.core.stores.protocol import FactQuery

    return FactQuery(group)


def test_insights_are_deleted_by_id_and_by_what_they_cite(tg: TemporalGraph, clock, groups) -> None:
    g = groups()
    t0 = clock()
    t1 = t0 + timedelta(days=1)
    _apply(tg, ChangeSet(insights=[_insight(g, "a", t0, cites=("f1",)),
                                   _insight(g, "b", t0, cites=("e1", "f2")),
                                   _insight(g, "c", t0, cites=("f3",))]))
    _apply(tg, ChangeSet(insights=[_insight(g, "b2", t1, cites=("e1",), replaces="b")],
                         insights_expired=[(g, "b", t1)]))
    _apply(tg, ChangeSet(insights_deleted=[(g, "a")], insights_deleted_citing=[(g, "e1")]))
    assert [i.id for i in tg.core.store.insights(g, all_versions=True)] == ["c"]


def test_forget_removes_the_insights_of_the_group_only(tg: TemporalGraph, clock, groups) -> None:
    g, other = groups(), groups("other")
    t0 = clock()
    _apply(tg, ChangeSet(insights=[_insight(g, "a", t0), _insight(other, "b", t0)]))
    tg.add_fact("Ana", "lives in", "Rome", group_id=g)
    tg.forget(g)
    assert tg.core.store.insights(g, all_versions=True) == []
    assert [i.id for i in tg.core.store.insights(other)] == ["b"]
