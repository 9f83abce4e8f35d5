"""Entity summary versions on every store: each new version supersedes the entity's current one,
reads by transaction time see the version believed then, groups never see each other's, and
forgetting a group removes its summaries."""

from __future__ import annotations

from datetime import datetime, timedelta

from temporal_graph import EntitySummary, TemporalGraph
from temporal_graph.core.time import UTC


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


def test_newest_facts_come_newest_first_a_page_at_a_time(tg: TemporalGraph, clock, tick, groups) -> None:
    g, other = groups(), groups("other")
    tick()
    tg.add_fact("Ana", "lives in", "Rome", valid_at="2001", group_id=g)
    tg.add_fact("Ana", "likes", "jazz", group_id=g)  # no start: counts from when it was recorded
    tg.add_fact("Bo", "knows", "Ana", valid_at="2010", group_id=g)  # Ana as the object
    tg.add_fact("Ana", "works at", "Acme", valid_at="2005", invalid_at="2008", group_id=g)  # ended
    tg.add_fact("Ana", "knows", "Ana", valid_at="2015", group_id=g)  # both sides: counted once
    tg.add_fact("Ana", "lives in", "Rome", valid_at="2001", group_id=other)
    store, ana = tg.core.store, tg.find_entity("Ana", g).id
    rows = store.newest_facts(g, ana, at=clock(), limit=10)
    assert [(f.subject, f.relation, f.object) for f in rows] == [
        ("Ana", "LIKES", "jazz"), ("Ana", "KNOWS", "Ana"), ("Bo", "KNOWS", "Ana"),
        ("Ana", "LIVES_IN", "Rome"),
    ]
    page = store.newest_facts(g, ana, at=clock(), limit=2, offset=1)
    assert [f.id for f in page] == [f.id for f in rows[1:3]]
    then = store.newest_facts(g, ana, at=datetime(2006, 1, 1, tzinfo=UTC), limit=9)  # Acme had not ended
    assert [f.object for f in then][-2:] == ["Acme", "Rome"]
    assert store.newest_facts(g, ana, at=clock(), limit=0) == []
    theirs = store.newest_facts(other, tg.find_entity("Ana", other).id, at=clock(), limit=9)
    assert [(f.group_id, f.object) for f in theirs] == [(other, "Rome")]
    assert store.newest_facts(g, tg.find_entity("Ana", other).id, at=clock(), limit=9) == []


def test_stale_summaries_are_those_whose_facts_changed_since_they_were_made(
    tg: TemporalGraph, clock, tick, groups
) -> None:
    g = groups()
    tick()
    tg.add_facts([("Ana", "lives in", "Rome"), ("Bo", "lives in", "Oslo")], group_id=g, summaries=False)
    store = tg.core.store
    ids = {tg.find_entity(name, g).id: name for name in ("Ana", "Rome", "Bo", "Oslo")}
    stale = store.stale_summaries(g, at=clock(), limit=10)
    assert stale == sorted(ids)
    assert store.stale_summaries(g, at=clock(), after=stale[1], limit=1) == [stale[2]]
    assert tg.refresh_summaries(g) == 4 and store.stale_summaries(g, at=clock(), limit=10) == []
    tick()
    tg.add_facts([("Ana", "lives in", "Lima")], group_id=g, summaries=False)  # ends Rome, Ana's changes
    names = {ids.get(i) or "Lima" for i in store.stale_summaries(g, at=clock(), limit=10)}
    assert names == {"Ana", "Rome", "Lima"}
    assert tg.refresh_summaries(g) == 3 and tg.summary("Rome", group_id=g) is None
    assert tg.summary("Ana", group_id=g).text == "Ana lives in Lima since 2025-01-03."
