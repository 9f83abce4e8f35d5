"""The erasure log on every store: one receipt per erasure, written with it, in the order written,
per group, kept after a forget; and the backtest guard's lists, the same on both stores."""

from __future__ import annotations

from datetime import timedelta

from temporal_graph import TemporalGraph
from temporal_graph.core.receipts import ERASED_KINDS


def test_each_erasure_leaves_one_receipt_in_its_group_log(tg: TemporalGraph, clock, groups) -> None:
    g, other = groups(), groups("other")

    def tick() -> None:
        clock.set(clock() + timedelta(days=1))

    told = [tg.add_episode(text, reference_time="2023-01-05", speaker="Ana", group_id=g).episode.id
            for text in ("I live in Paris.", "I work at Acme.", "Good morning!")]
    tg.add_fact("Bo", "lives in", "Oslo", group_id=g)
    tg.add_fact("Ana", "lives in", "Rome", valid_at="2024-01-01", group_id=g)
    tg.add_fact("Ana", "lives in", "Rome", group_id=other)
    tick()
    first = tg.erase_episode(told[1], group_id=g, request_id="r-1").receipt
    tick()
    second = tg.erase_entity("Bo", group_id=g, request_id="r-2").receipt
    tick()
    pruned = tg.prune(history_before=clock(), episodes_before="2024-01-01", group_id=g, request_id="r-3")
    assert first is not None and second is not None
    assert first.counts["episodes"] == 1 and first.counts["fact_versions"] >= 1
    assert second.operation == "erase_entity" and second.counts["entities"] == 2  # Bo, and Oslo only he named
    assert [r.operation for r in pruned.receipts] == ["prune_history", "prune_episode_texts"]
    assert pruned.receipts[1].counts["episode_texts"] == 2  # the two messages left
    assert tg.erasures(group_id=g) == [first, second, *pruned.receipts]
    assert tg.erasures(group_id=other) == []
    assert tg.erasures(group_id=g, since=second.at) == [second, *pruned.receipts]
    assert all(set(r.counts) == set(ERASED_KINDS) for r in tg.erasures(group_id=g))

    tick()
    gone = tg.forget(g, request_id="r-4")
    assert gone.receipt.counts["episodes"] == 2 and gone.receipt.counts["assertions"] >= 1
    assert [r.request_id for r in tg.erasures(group_id=g)] == ["r-1", "r-2", "r-3", "r-3", "r-4"]
    assert tg.now(group_id=g) == [] and [f.object for f in tg.now("Ana", group_id=other)] == ["Rome"]


def test_learned_after_lists_what_came_after_and_reads_at_k_see_none_of_it(
    tg: TemporalGraph, clock, groups
) -> None:
    g = groups()

    def tick() -> None:
        clock.set(clock() + timedelta(days=1))

    paris = tg.add_episode("I live in Paris.", reference_time="2023-01-05", speaker="Ana", group_id=g)
    tick()
    k = clock()
    tick()
    berlin = tg.add_episode("I moved to Berlin.", reference_time="2024-01-05", speaker="Ana", group_id=g)
    report = tg.learned_after(k, group_id=g)
    assert report.clean and report.leaked == []
    assert report.episodes == [berlin.episode.id]
    assert {f.id for f in berlin.added} <= set(report.fact_versions)
    [old] = [f for f in paris.added if f.relation == "LIVES_IN"]
    assert report.expired_fact_versions == [old.id]  # Paris as believed at K, revised since
    assert report.counts["episodes"] == 1 and report.counts["summary_versions"] >= 1
    assert "Berlin" in {e.name for e in tg.core.store.entities(g, ids=report.entities)}
    assert report.leaks(tg.as_of("2024-06-01", known_at=k, group_id=g)) == []
    assert report.leaks(tg.now(group_id=g)) != []  # a read of now has learned since
    assert tg.learned_after(clock(), group_id=g).counts == dict.fromkeys(report.counts, 0)


def test_forget_reports_the_records_its_receipt_counts(tg: TemporalGraph, groups) -> None:
    """``forget`` says how many records it removed: the total of its receipt's counts, kind by kind,
    not the index rows beside them (an entity's name keys: "17 records removed" beside a receipt of
    11, issue 54)."""
    g = groups()
    tg.add_episode("I live in Paris. I work at Acme.", reference_time="2023-01-05", speaker="Ana", group_id=g)
    tg.alias_speaker("ana_b", "Ana", group_id=g)  # one more name key of Ana's, no record of its own
    tg.add_fact("Bo", "lives in", "Oslo", group_id=g)
    gone = tg.forget(g)
    counts = gone.receipt.counts
    assert counts["episodes"] == 1 and counts["entities"] >= 5 and counts["fact_versions"] >= 3
    assert int(gone) == gone.receipt.total == sum(counts.values())
