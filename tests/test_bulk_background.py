"""A bulk load's inserts run on a second thread of the SQLite store (as one JSON array of rows per
statement) while the next keys are derived: what is stored is exactly what the synchronous inserts
store, a statement of the load reads what was handed over before it, and a failure on that thread
fails the write it belongs to, which leaves nothing behind."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from pathlib import Path

import pytest

from temporal_graph import TemporalGraph
from temporal_graph.core.errors import StoreError
from temporal_graph.core.model import Fact
from temporal_graph.core.stores import background as background_module
from temporal_graph.core.stores import sqlite as sqlite_store
from temporal_graph.core.stores.protocol import ChangeSet
from temporal_graph.times import ManualClock

ITEMS = [
    ("Zoë Ångström", "lives in", "Saint-Étienne", "1999-02-03", None),
    {"subject": "Zoë Ångström", "relation": "works at", "object": 'ACME "Rockets" \\ Co', "valid_at": "2001",
     "text": "Zoë 🚀 works at ACME\u2028(line separator), tab\tand \"quotes\"", "confidence": 0.1,
     "importance": 9, "attributes": {"note": "a\u0000b escaped in JSON", "n": [1, 2.5, None]},
     "episode_id": "chat-1"},
    {"subject": "茶", "relation": "won", "object": "Award 7", "confidence": 1 / 3, "episode_id": "chat-2"},
    ("Bob", "plays for", "Club 1", "2000", "2004"),
    ("Bob", "plays for", "Club 2", "2004"),
    ("Bob", "lives in", "Paris", None, "2010-05-06T07:08:09.123456+00:00"),
    *[(f"Person {i}", "won", f"Award {i % 4}", str(1950 + i)) for i in range(40)],
]


def open_file(path: Path) -> TemporalGraph:
    return TemporalGraph.open(path, clock=ManualClock("2030-01-01T00:00:00+00:00"), embed=False)


def stored(path: Path) -> dict[str, list]:
    """Every table a load writes, random row ids replaced by what the row says."""
    queries = {
        "facts": "SELECT group_id, subject_id, relation, object_id, text, valid_at, invalid_at, created_at, "
                 "expired_at, confidence, importance, attributes, typeof(confidence), typeof(valid_at), "
                 "embedding FROM facts",
        "assertions": "SELECT group_id, subject_id, relation, object_id, kind, at, until, created_at, seq, "
                      "episode_id, text, confidence, importance, attributes, typeof(confidence) "
                      "FROM assertions",
        "entities": "SELECT id, group_id, name, type, aliases, summary, created_at FROM entities",
        "entity_keys": "SELECT * FROM entity_keys",
        "entity_names": "SELECT e.id, n.names FROM entities_fts n JOIN entities e ON e.rowid = n.rowid",
        "fact_texts": "SELECT f.text FROM facts_fts t JOIN facts f ON f.rowid = t.rowid",
        "provenance": "SELECT f.text, p.seq, p.episode_id FROM fact_episodes p "
                      "JOIN facts f ON f.id = p.fact_row",
        "summaries": "SELECT entity_id, entity, text, method, created_at, expired_at FROM summaries",
    }
    with sqlite3.connect(path) as conn:
        return {table: sorted(conn.execute(q).fetchall(), key=repr) for table, q in queries.items()}


def test_rows_inserted_on_the_second_thread_are_stored_exactly_as_the_synchronous_inserts_store_them(
    tmp_path, monkeypatch
) -> None:
    jobs: list[object] = []
    submit = background_module.Background.submit
    monkeypatch.setattr(background_module.Background, "submit",
                        lambda self, job: (jobs.append(job), submit(self, job)))
    monkeypatch.setattr("temporal_graph.core.bulk.RELEASE_ROWS", 7)
    with open_file(tmp_path / "threaded.db") as tg:
        report = tg.add_facts(ITEMS, batch_size=20)
    assert not report.errors and len(jobs) >= 6  # several hand-overs a batch, in every batch

    monkeypatch.setattr(sqlite_store, "_new_rows_only", lambda changes: False)
    jobs.clear()
    with open_file(tmp_path / "inline.db") as tg:
        assert tg.add_facts(ITEMS, batch_size=20).rows_written == report.rows_written
    assert not jobs

    threaded, inline = stored(tmp_path / "threaded.db"), stored(tmp_path / "inline.db")
    assert threaded == inline
    assert len(threaded["facts"]) == len(ITEMS) and len(threaded["provenance"]) == 2
    texts = {row[4] for row in threaded["facts"]}
    assert "Zoë 🚀 works at ACME\u2028(line separator), tab\tand \"quotes\"" in texts
    assert {row[12] for row in threaded["facts"]} == {"real"}
    assert 1 / 3 in {row[9] for row in threaded["facts"]}


def test_a_text_holding_a_nul_is_inserted_whole_the_synchronous_way(tmp_path) -> None:
    """SQLite's JSON reader would cut it at the NUL, so that change set does not go to the thread."""
    with open_file(tmp_path / "m.db") as tg:
        fact = {"subject": "Ann", "relation": "likes", "object": "tea", "text": "before\x00after"}
        report = tg.add_facts([fact])
        assert not report.errors
        assert [f.text for f in tg.now("Ann")] == ["before\x00after"]


@pytest.fixture
def ann(tmp_path) -> Iterator[tuple[TemporalGraph, Fact]]:
    """A memory holding one row, "Ann lives in Oslo", to copy rows from."""
    with open_file(tmp_path / "m.db") as tg:
        tg.add_fact("Ann", "lives in", "Oslo")
        yield tg, tg.now("Ann")[0]


def test_a_read_in_the_write_sees_what_was_handed_to_the_thread_before_it(ann) -> None:
    tg, row = ann
    copy = row.model_copy(update={"id": "a" * 32, "fact_id": "b" * 32, "relation": "WORKS_AT"})

    def write(tx) -> list[Fact]:
        tx.apply(ChangeSet(insert=[copy]))
        return tx.current_rows(row.group_id, row.subject_id, "WORKS_AT")

    with tg.core.store.bulk_loading(row.group_id, 1):
        assert [f.id for f in tg.core.store.write(write)] == [copy.id]


def test_a_failure_on_the_thread_fails_its_write_which_leaves_nothing_behind(ann) -> None:
    tg, row = ann
    fresh = row.model_copy(update={"id": "c" * 32, "fact_id": "d" * 32, "relation": "WORKS_AT"})
    same_id = row.model_copy(update={"relation": "LIKES"})  # its id is taken: the insert fails

    def write(tx) -> None:
        tx.apply(ChangeSet(insert=[fresh]))
        tx.apply(ChangeSet(insert=[same_id]))

    with tg.core.store.bulk_loading(row.group_id, 1):
        with pytest.raises(StoreError):
            tg.core.store.write(write)
        assert [f.relation for f in tg.now("Ann")] == ["LIVES_IN"]  # the first insert is gone too
        tg.add_fact("Ann", "works at", "Mill")  # the store goes on
    assert sorted(f.relation for f in tg.now("Ann")) == ["LIVES_IN", "WORKS_AT"]
