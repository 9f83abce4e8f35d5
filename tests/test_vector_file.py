"""The vector matrix saved beside the database: a fresh process's first search reads it instead of
every stored vector, and a saved matrix that is stale (another process added or erased records) is
never used: the vectors are loaded from the database again."""

from __future__ import annotations

import shutil
import sqlite3

import numpy as np
import pytest

from temporal_graph import TemporalGraph
from temporal_graph.core.stores import sqlite as sqlite_store
from temporal_graph.core.stores import vector_file
from temporal_graph.core.stores.vector_index import VectorIndex
from temporal_graph.times import ManualClock

GROUP = "default"


def memory(path) -> TemporalGraph:
    return TemporalGraph.open(path, clock=ManualClock("2030-01-01T00:00:00+00:00"))


@pytest.fixture
def loads(monkeypatch) -> list[str]:
    """The kinds whose vectors were read from the database (not from a saved matrix)."""
    seen: list[str] = []
    real = sqlite_store.sql.stored_vectors

    def counting(kind: str) -> str:
        seen.append(kind)
        return real(kind)

    monkeypatch.setattr(sqlite_store.sql, "stored_vectors", counting)
    return seen


def nearest(tg: TemporalGraph, kind: str, text: str) -> list[str]:
    vector = list(tg.embedder.encode([text])[0])
    return [item_id for item_id, _ in tg.core.store.vector_search(GROUP, kind, vector, 10)]


def test_a_fresh_process_reads_the_saved_matrix_not_every_vector(tmp_path, loads) -> None:
    db = tmp_path / "m.db"
    with memory(db) as first:
        first.add_fact("Ana", "lives in", "Rome")
        first.add_fact("Bo", "works at", "Acme")
        before = nearest(first, "fact", "Ana lives in Rome")
    assert loads == ["fact"]
    with memory(db) as fresh:
        assert nearest(fresh, "fact", "Ana lives in Rome") == before
    assert loads == ["fact"]  # the second process read the file
    assert list((tmp_path / "m.db.vectors").iterdir())


def test_records_another_process_added_are_found_not_the_stale_matrix(tmp_path, loads) -> None:
    db = tmp_path / "m.db"
    with memory(db) as long_lived, memory(db) as other:
        long_lived.add_fact("Ana", "lives in", "Rome")
        assert len(nearest(long_lived, "fact", "Bo lives in Oslo")) == 1  # matrix saved
        added = other.add_fact("Bo", "lives in", "Oslo")
        assert nearest(long_lived, "fact", "Bo lives in Oslo")[0] == added.id
        with memory(db) as fresh:
            assert nearest(fresh, "fact", "Bo lives in Oslo")[0] == added.id
    assert len(loads) >= 2  # loaded again: the saved matrix was older than the database


def test_an_erased_records_vector_is_never_returned_even_from_an_old_file(tmp_path) -> None:
    db = tmp_path / "m.db"
    text = "I adopted a grey cat called Pixel."
    with memory(db) as long_lived, memory(db) as other:
        episode = long_lived.add_episode(text, reference_time="2029-05-01", speaker="Ana").episode.id
        long_lived.add_episode("The weather was fine.", reference_time="2029-05-02", speaker="Ana")
        assert nearest(long_lived, "episode", text)[0] == episode
        saved = tmp_path / "saved"
        shutil.copytree(tmp_path / "m.db.vectors", saved)
        other.erase_episode(episode)
        assert not (tmp_path / "m.db.vectors").exists()  # erasing scrubs the saved matrices too
        assert episode not in nearest(long_lived, "episode", text)
    shutil.rmtree(tmp_path / "m.db.vectors")
    shutil.copytree(saved, tmp_path / "m.db.vectors")  # as a process that never scrubbed left it
    with memory(db) as fresh:
        found = nearest(fresh, "episode", text)
        assert found and episode not in found


def test_a_damaged_file_is_loaded_again_from_the_database(tmp_path, loads) -> None:
    db = tmp_path / "m.db"
    with memory(db) as first:
        first.add_fact("Ana", "lives in", "Rome")
        before = nearest(first, "fact", "Ana lives in Rome")
    for saved in (tmp_path / "m.db.vectors").iterdir():
        saved.write_bytes(b"not a matrix")
    with memory(db) as fresh:
        assert nearest(fresh, "fact", "Ana lives in Rome") == before
    assert loads == ["fact", "fact"]


def test_a_database_without_marks_neither_trusts_nor_writes_an_unlabelled_matrix(tmp_path) -> None:
    db = tmp_path / "m.db"
    with memory(db) as old:
        kept = old.add_fact("Ana", "lives in", "Rome")
    with sqlite3.connect(db) as conn:  # as a file written before vector marks existed
        conn.execute("DELETE FROM vector_marks")
    shutil.rmtree(tmp_path / "m.db.vectors", ignore_errors=True)
    # An unlabelled matrix at this path, as another database once at the same path could leave it.
    stray = VectorIndex()
    stray.add([("not-a-record", np.ones(384, dtype=np.float32) / np.sqrt(384))])
    vector_file.write(str(db), GROUP, "fact", "", stray)
    with memory(db) as fresh:
        assert nearest(fresh, "fact", "Ana lives in Rome")[0] == kept.id
        assert "not-a-record" not in nearest(fresh, "fact", "Ana lives in Rome")
