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
