"""Saved vector matrices that are damaged (issue 42, 14): an empty label or matrix file, or a matrix
of another width put under a label that was kept, is never used. Search loads the vectors from the
database, as for any other damage, finds what it found before, and the files are written again."""

from __future__ import annotations

import shutil
from pathlib import Path

import numpy as np
import pytest

from temporal_graph import TemporalGraph
from temporal_graph.core.stores import vector_file
from temporal_graph.times import ManualClock

GROUP = "default"


def memory(path: Path) -> TemporalGraph:
    return TemporalGraph.open(path, clock=ManualClock("2030-01-01T00:00:00+00:00"))


def saved(db: Path, suffix: str) -> list[Path]:
    found = sorted(Path(f"{db}.vectors").glob(f"*-fact*{suffix}"))
    return [p for p in found if not p.name.endswith(".ids.npy")]  # the matrix, not its saved ids


@pytest.fixture(scope="module")
def written(tmp_path_factory) -> tuple[Path, list[str]]:
    """A memory whose fact matrix is saved, and what an embedding search for Ana finds in it."""
    db = tmp_path_factory.mktemp("vectors") / "m.db"
    with memory(db) as tg:
        tg.add_fact("Ana", "lives in", "Rome")
        tg.add_fact("Bo", "works at", "Acme")
        found = [h.fact.id for h in tg.search("where does Ana live", methods=("embedding",), kinds=("fact",))
                 if h.fact]
    assert found and saved(db, ".npz") and saved(db, ".npy")
    return db, found


def embedding_hits(db: Path) -> list[str]:
    with memory(db) as fresh:
        hits = fresh.search("where does Ana live", methods=("embedding",), kinds=("fact",))
        return [h.fact.id for h in hits if h.fact]


def copy_of(written: tuple[Path, list[str]], tmp_path: Path) -> Path:
    db, _ = written
    target = tmp_path / "m.db"
    shutil.copy(db, target)
    shutil.copytree(f"{db}.vectors", f"{target}.vectors")
    return target


def rewritten(db: Path) -> bool:
    got = vector_file.read(str(db), GROUP, "fact")
    return got is not None and len(got[1]) == 2 and got[1].dimensions == 384


@pytest.mark.parametrize("suffix", [".npz", ".npy"])
def test_an_empty_saved_file_is_loaded_from_the_database_and_written_again(written, tmp_path, suffix) -> None:
    db = copy_of(written, tmp_path)
    for path in saved(db, suffix):
        path.write_bytes(b"")  # a disk that filled up, a copy cut short
    assert embedding_hits(db) == written[1]  # not "internal error (EOFError)"
    assert rewritten(db)


def test_a_matrix_of_another_width_under_a_kept_label_is_discarded_and_rebuilt(written, tmp_path) -> None:
    db = copy_of(written, tmp_path)
    (matrix,) = saved(db, ".npy")
    rows = np.ones((2, 16), dtype=np.float32) / 4.0
    np.save(matrix, rows)  # same name, same row count, so the label still names it
    assert embedding_hits(db) == written[1]  # not silently empty
    assert rewritten(db)


def test_reindex_leaves_a_memory_whose_matrix_was_replaced_searchable(written, tmp_path) -> None:
    db = copy_of(written, tmp_path)
    (matrix,) = saved(db, ".npy")
    np.save(matrix, np.ones((2, 16), dtype=np.float32) / 4.0)
    with memory(db) as tg:
        tg.reindex()
    assert embedding_hits(db) == written[1]
    assert rewritten(db)


@pytest.mark.parametrize("garbage", [b"\x93NUMPY", b"PK\x03\x04" + b"\0" * 40, bytes(range(256)) * 8])
def test_saved_files_of_garbage_bytes_never_break_search(written, tmp_path, garbage) -> None:
    db = copy_of(written, tmp_path)
    for path in (*saved(db, ".npz"), *saved(db, ".npy")):
        path.write_bytes(garbage)
    assert embedding_hits(db) == written[1]
    assert rewritten(db)
