"""A fact told again and again (issue 42, item 7): every confirmation is kept, and a write's reads
do not grow with the number of confirmations before it."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from temporal_graph import TemporalGraph
from temporal_graph.core.stores.sqlite import SQLiteStore

T0 = datetime(2024, 1, 1, tzinfo=UTC)


def _tell(tg: TemporalGraph, i: int) -> str:
    return tg.add_episode("I like tea.", reference_time=T0 + timedelta(minutes=i), speaker="Ana").episode.id


def _episode_ids_read(tg: TemporalGraph, i: int) -> int:
    """Episode ids the store's key reads hand back while confirmation ``i`` is written."""
    store = tg.core.store
    assert isinstance(store, SQLiteStore)
    counted = []
    original = SQLiteStore.key_rows

    def counting(self, query):  # type: ignore[no-untyped-def]
        rows = original(self, query)
        counted.append(sum(len(r.episode_ids) for r in rows))
        return rows

    SQLiteStore.key_rows = counting  # type: ignore[method-assign]
    try:
        _tell(tg, i)
    finally:
        SQLiteStore.key_rows = original  # type: ignore[method-assign]
    return sum(counted)


def test_every_confirmation_is_cited_and_one_can_be_withdrawn(tmp_path) -> None:
    with TemporalGraph.open(tmp_path / "m.db") as tg:
        told = [_tell(tg, i) for i in range(30)]
        (fact,) = tg.now("Ana", "likes")
        assert list(fact.episode_ids) == told  # every message, in order, once
        tg.retract_episode(told[7])
        (fact,) = tg.now("Ana", "likes")
        assert list(fact.episode_ids) == told[:7] + told[8:]
        again = tg.add_episode("I like tea.", reference_time=T0 + timedelta(days=1), speaker="Ana")
        (merged,) = again.merged  # reported as it now stands: every message still citing it
        assert list(merged.episode_ids) == [*told[:7], *told[8:], again.episode.id]


def test_a_confirmation_reads_no_more_when_the_fact_was_told_more(tmp_path) -> None:
    with TemporalGraph.open(tmp_path / "m.db") as tg:
        for i in range(5):
            _tell(tg, i)
        early = _episode_ids_read(tg, 5)
        for i in range(6, 200):
            _tell(tg, i)
        late = _episode_ids_read(tg, 200)
        assert late == early == 0
        (fact,) = tg.now("Ana", "likes")
        assert len(fact.episode_ids) == len(set(fact.episode_ids)) == 201


def test_an_import_never_reads_a_repeated_fact_whole_and_cites_every_message(tmp_path, monkeypatch) -> None:
    """300 repeats in one file, in batches: each message is counted as one merge and the fact cites
    every message in order, yet no write reads the fact with its citations (a batch read it whole
    once, so each later batch cost more than the one before: issue 54)."""
    import json

    from ingestion import batch
    from ingestion.ingest import Ingestion

    lines = [{"id": f"m{i}", "speaker": "Ana", "text": "I like tea.",
              "timestamp": (T0 + timedelta(minutes=i)).isoformat()} for i in range(300)]
    path = tmp_path / "tea.jsonl"
    path.write_text("".join(json.dumps(m) + "\n" for m in lines), encoding="utf-8")
    results, whole_reads = [], []
    real_count, real_facts = batch._count, SQLiteStore.facts

    def counting(report, result, masked):  # type: ignore[no-untyped-def]
        results.append(result)
        real_count(report, result, masked)

    def reading(self, query):  # type: ignore[no-untyped-def]
        if query.ids:
            whole_reads.append(query.ids)
        return real_facts(self, query)

    monkeypatch.setattr(batch, "_count", counting)
    monkeypatch.setattr(SQLiteStore, "facts", reading)
    with TemporalGraph.open(tmp_path / "m.db") as tg:
        report = Ingestion(tg.core).import_file(path, group_id="g", progress=False, embed=False,
                                                batch_size=40)
        (fact,) = tg.now("Ana", "likes", group_id="g")
    assert report.facts_added == 1 and report.facts_merged == 299
    assert [len(r.added) + len(r.merged) for r in results] == [1] * 300
    assert list(fact.episode_ids) == [r.episode.id for r in results]
    assert whole_reads == []  # 8 before: once per batch, with ever more citations
