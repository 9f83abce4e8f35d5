"""A load larger than the file builds once, at its end, the indexes its writes do not read: those only
queries read, and in a group with no entity yet those a write reads a key through. A file is never
left without them: not after a load that fails, not after one killed midway."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from temporal_graph import TemporalGraph
from temporal_graph.core.stores import sql
from temporal_graph.core.stores import sqlite as sqlite_store
from temporal_graph.core.writer import FactWriter
from temporal_graph.times import ManualClock

QUERY_INDEXES, KEY_INDEXES = set(sql.QUERY_INDEXES), set(sql.KEY_INDEXES)
DEFERRABLE = QUERY_INDEXES | KEY_INDEXES
PEOPLE = [(f"Person {i}", "lives in", f"City {i % 3}", str(1990 + i % 20)) for i in range(30)]


def indexes(path: Path) -> set[str]:
    with sqlite3.connect(path) as conn:
        return {name for (name,) in conn.execute("SELECT name FROM sqlite_master WHERE type = 'index'")}


def open_file(path: Path) -> TemporalGraph:
    return TemporalGraph.open(path, clock=ManualClock("2030-01-01T00:00:00+00:00"), embed=False)


def seen_in_each_batch(tg: TemporalGraph, path: Path, monkeypatch) -> list[set[str]]:
    """The deferrable indexes the file holds while each batch of a load is written."""
    seen: list[set[str]] = []
    write = tg.core.store.write

    def spied(fn):
        seen.append(indexes(path) & DEFERRABLE)
        return write(fn)

    monkeypatch.setattr(tg.core.store, "write", spied)
    return seen


def answers(tg: TemporalGraph) -> list:
    """Reads served by the query indexes: a fact's versions, rows by object, the group's current rows."""
    city = tg.now(object="City 1")
    return [sorted(f.subject for f in city), [f.id for f in tg.audit(city[0].fact_id)],
            sorted(f.id for f in tg.now()), sorted(f.id for f in tg.as_of("2000-06-01"))]


def test_a_large_load_builds_them_at_its_end_and_a_small_one_keeps_them(tmp_path, monkeypatch) -> None:
    monkeypatch.setattr(sqlite_store, "BULK_INDEXES_AT", 10)
    path = tmp_path / "m.db"
    with open_file(path) as tg:
        seen = seen_in_each_batch(tg, path, monkeypatch)
        report = tg.add_facts(PEOPLE, batch_size=10)
        assert report.rows_written == 30 and len(seen) == 3
        assert seen == [set(), set(), set()]  # not kept up to date while the load ran
        assert DEFERRABLE <= indexes(path)  # built when it ended
        # 20 facts into a file of 30: the indexes are kept, not rebuilt over the whole file.
        seen.clear()
        tg.add_facts([(f"Other {i}", "likes", "tea") for i in range(20)], batch_size=10)
        assert seen == [DEFERRABLE, DEFERRABLE]


def test_a_group_with_entities_keeps_the_indexes_its_keys_are_read_through(tmp_path, monkeypatch) -> None:
    """There a load may state more about a subject that has facts: that key is read as one by one."""
    monkeypatch.setattr(sqlite_store, "BULK_INDEXES_AT", 10)
    path = tmp_path / "m.db"
    with open_file(path) as tg:
        tg.add_fact("Person 1", "lives in", "City 2", valid_at="1980")
        seen = seen_in_each_batch(tg, path, monkeypatch)
        tg.add_facts(PEOPLE, batch_size=10)
        assert seen == [KEY_INDEXES, KEY_INDEXES, KEY_INDEXES]
        assert DEFERRABLE <= indexes(path)
        history = [(f.object, f.valid_at.year) for f in tg.history("Person 1")]
        assert history == [("City 2", 1980), ("City 1", 1991)]


def test_a_load_that_fails_midway_keeps_its_committed_batches_and_builds_them(tmp_path, monkeypatch) -> None:
    monkeypatch.setattr(sqlite_store, "BULK_INDEXES_AT", 10)
    calls = 0
    start_many = FactWriter.start_many

    def failing(self, *args, **kwargs):
        nonlocal calls
        calls += 1
        if calls > 10:  # the second batch (ten people a batch, one key each)
            raise RuntimeError("disk on fire")
        return start_many(self, *args, **kwargs)

    monkeypatch.setattr(FactWriter, "start_many", failing)
    path = tmp_path / "m.db"
    with open_file(path) as tg:
        with pytest.raises(RuntimeError, match="disk on fire"):
            tg.add_facts(PEOPLE, batch_size=10)
        assert DEFERRABLE <= indexes(path)
        assert len(tg.now()) == 10  # the first batch, whole


def test_a_file_a_killed_load_left_without_them_gets_them_back_when_opened(tmp_path) -> None:
    path = tmp_path / "m.db"
    with open_file(path) as tg:
        tg.add_facts(PEOPLE)
        before = answers(tg)
    with sqlite3.connect(path) as conn:  # what a load killed between two batches leaves
        for name in DEFERRABLE:
            conn.execute(sql.drop_index(name))
    with open_file(path) as tg:
        assert DEFERRABLE <= indexes(path)
        assert answers(tg) == before


def test_queries_answer_the_same_while_they_are_missing(tmp_path) -> None:
    """Another process reading during a large load gets the same answers, through other indexes."""
    path = tmp_path / "m.db"
    with open_file(path) as tg:
        tg.add_facts(PEOPLE)
        tg.add_fact("Person 4", "lives in", "City 1", valid_at="2021")  # restated: merged
        before = answers(tg)
        with sqlite3.connect(path) as conn:
            for name in DEFERRABLE:
                conn.execute(sql.drop_index(name))
        assert not DEFERRABLE & indexes(path)
        assert answers(tg) == before
        # A write of a key with history, as another process may make between two batches.
        tg.add_fact("Person 4", "lives in", "City 2", valid_at="2022")
        history = [(f.object, f.valid_at.year, f.invalid_at and f.invalid_at.year)
                   for f in tg.history("Person 4")]
        assert history == [("City 1", 1994, 2022), ("City 2", 2022, None)]


def test_a_file_opened_while_another_connection_writes_opens_without_waiting_to_build_them(
    tmp_path, monkeypatch
) -> None:
    """The writer may be a load still running (it builds them at its end): the file opens and
    answers at once, and a later open builds them."""
    monkeypatch.setenv("TGRAPH_LOCK_TIMEOUT", "30")  # waiting for the writer would take that long
    path = tmp_path / "m.db"
    with open_file(path) as tg:
        tg.add_facts(PEOPLE)
        before = answers(tg)
    writer = sqlite3.connect(path, isolation_level=None)
    for name in DEFERRABLE:
        writer.execute(sql.drop_index(name))
    writer.execute("BEGIN IMMEDIATE")  # a batch of the load, being written
    try:
        with open_file(path) as tg:
            assert not DEFERRABLE & indexes(path)
            assert answers(tg) == before
    finally:
        writer.execute("ROLLBACK")
        writer.close()
    with open_file(path):
        assert DEFERRABLE <= indexes(path)
