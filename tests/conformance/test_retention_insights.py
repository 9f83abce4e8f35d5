"""Retention and insights on every store: ``prune(history_before=T)`` drops the insight versions no
longer believed since before T with the fact versions, and no insight version is left citing a fact
version that no longer exists (``insights(known_at=old)`` included)."""

from __future__ import annotations

from datetime import timedelta

from temporal_graph import Insight, TemporalGraph
from temporal_graph.core.stores.protocol import ChangeSet, FactQuery


def _cited_records_exist(tg: TemporalGraph, group: str) -> bool:
    store = tg.core.store
    present = {f.id for f in store.facts(FactQuery(group, all_versions=True))}
    present |= {e.id for e in store.episodes(group)}
    return all(set(i.derived_from) <= present for i in store.insights(group, all_versions=True))


def test_pruning_history_takes_the_insights_built_on_what_it_prunes(tg: TemporalGraph, tick, groups) -> None:
    g = groups()
    tick()
    moves = (("Denver", "2016-01"), ("Boston", "2017-01"), ("Austin", "2017-07"), ("Miami", "2018-01"))
    for city, start in moves:
        tg.add_fact("Ana", "LIVES_IN", city, valid_at=f"{start}-01", group_id=g)
    tg.add_fact("Ana", "WORKS_AT", "Acme", valid_at="2015-01-01", group_id=g)
    tick()
    tg.reflect(group_id=g)
    old = tg.core.now()
    tick()
    tg.retract_fact("Ana", "LIVES_IN", "Austin", group_id=g)
    tick()
    assert any("Austin" in i.text for i in tg.insights(group_id=g, known_at=old))

    report = tg.prune(history_before=tg.core.now(), group_id=g)

    assert report.versions_removed >= 2
    assert all("Austin" not in i.text for i in tg.insights(group_id=g, known_at=old))
    assert _cited_records_exist(tg, g)
    assert any("Acme" in i.text for i in tg.insights(group_id=g))  # built on what stays: stands


def test_no_insight_version_is_left_citing_a_pruned_fact_version(
    tg: TemporalGraph, clock, tick, groups
) -> None:
    """Even one still believed (a copy brought it so, or it was made from history): it goes."""
    g, other = groups(), groups("other")
    tick()
    tg.add_fact("Ana", "lives in", "Paris", valid_at="2020-01-01", group_id=g)
    old_row = tg.core.store.facts(FactQuery(g))[0].id
    tick()
    tg.add_fact("Ana", "lives in", "Rome", valid_at="2022-01-01", group_id=g)  # Paris's row expires
    tick()
    kept = tg.core.store.facts(FactQuery(g))[0].id
    at = clock()
    insights = [Insight(id=i, group_id=group, text=f"insight {i}", subject_ids=("ana",), subjects=("Ana",),
                        derived_from=cites, created_at=at, pattern=f"test {i}")
                for i, group, cites in (("on-history", g, (old_row,)), ("on-current", g, (kept,)),
                                        ("elsewhere", other, (old_row,)))]
    tg.core.store.write(lambda tx: tx.apply(ChangeSet(insights=insights)))
    tick()
    tg.prune(history_before=clock(), group_id=g)
    assert [i.id for i in tg.core.store.insights(g, all_versions=True)] == ["on-current"]
    assert [i.id for i in tg.core.store.insights(other)] == ["elsewhere"]  # another group's stays
    assert _cited_records_exist(tg, g)


def test_pruning_keeps_insight_history_younger_than_the_cut(tg: TemporalGraph, tick, groups) -> None:
    g = groups()
    tick()
    tg.add_fact("Ana", "WORKS_AT", "Acme", valid_at="2010-01-01", group_id=g)
    tick()
    tg.reflect(group_id=g)
    made = tg.core.now()
    tick()
    tg.end_fact("Ana", "WORKS_AT", "Acme", at="2025-06-01", group_id=g)  # the insight on it expires
    ended = tg.core.now()
    tick()
    tg.prune(history_before=ended - timedelta(hours=1), group_id=g)  # the cut is before the expiry
    assert any("Acme" in i.text for i in tg.insights(group_id=g, known_at=made))
    tg.prune(history_before=tg.core.now(), group_id=g)
    assert tg.insights(group_id=g, known_at=made) == []
    assert _cited_records_exist(tg, g)
