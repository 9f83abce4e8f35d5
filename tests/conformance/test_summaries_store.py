"""Entity summary versions on every store: each new version supersedes the entity's current one,
reads by transaction time see the version believed then, groups never see each other's, and
forgetting a group removes its summaries."""

from __future__ import annotations

from datetime import timedelta

from temporal_graph import EntitySummary, TemporalGraph


def _version(group: str, entity_id: str, text: str, at, *, method: str = "offline") -> EntitySummary:
    return EntitySummary(id=f"{entity_id}-{text}", group_id=group, entity_id=entity_id,
                         entity=entity_id.title(), text=text, method=method, fact_ids=("f1", "f2"),
                         created_at=at)


def test_versions_supersede_and_are_read_by_transaction_time(tg: TemporalGraph, clock, groups) -> None:
    g, other = groups(), groups("other")
    t0 = clock()
    t1, t2 = t0 + timedelta(days=1), t0 + timedelta(days=2)
    store = tg.core.store
    store.apply_summaries(g, [_version(g, "ana", "first", t0), _version(g, "bo", "bo's", t0)])
    store.apply_summaries(g, [_version(g, "ana", "second", t1, method="llm")])
    store.apply_summaries(other, [_version(other, "ana", "theirs", t0)])

    current = {s.entity_id: s for s in store.summaries(g)}
    assert {k: s.text for k, s in current.items()} == {"ana": "second", "bo": "bo's"}
    assert current["ana"].method == "llm" and current["ana"].fact_ids == ("f1", "f2")
    assert current["ana"].created_at == t1 and current["ana"].expired_at is None
    assert [s.text for s in store.summaries(g, "ana", known_at=t0)] == ["first"]
    assert [s.text for s in store.summaries(g, "ana", known_at=t1)] == ["second"]
    assert store.summaries(g, "ana", known_at=t0 - timedelta(seconds=1)) == []
    versions = sorted(store.summaries(g, "ana", all_versions=True), key=lambda s: s.created_at)
    assert [(s.text, s.expired_at) for s in versions] == [("first", t1), ("second", None)]
    assert [s.text for s in store.summaries(other)] == ["theirs"]

    store.apply_summaries(g, [], ended=[("bo", t2)])  # Bo has no facts left: no successor
    assert [s.entity_id for s in store.summaries(g)] == ["ana"]
    assert [s.text for s in store.summaries(g, "bo", known_at=t1)] == ["bo's"]


def test_forget_removes_the_summaries_of_the_group_only(tg: TemporalGraph, tick, groups) -> None:
    g, other = groups(), groups("other")
    tick()
    tg.add_fact("Ana", "lives in", "Rome", group_id=g)
    tg.add_fact("Ana", "lives in", "Rome", group_id=other)
    assert tg.core.store.summaries(g) and tg.export(g)["summaries"]
    tg.forget(g)
    assert tg.core.store.summaries(g, all_versions=True) == []
    assert sorted(s.entity for s in tg.core.store.summaries(other)) == ["Ana", "Rome"]
