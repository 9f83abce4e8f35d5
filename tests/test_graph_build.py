"""The HNSW graph is built in the background (a child process): searches meanwhile take the exact
path, writes made during the build are in the graph once it is taken over, and a process that
closes or dies mid-build leaves no file the next one would trust."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from temporal_graph import TemporalGraph
from temporal_graph.core.stores import vector_file
from temporal_graph.core.stores.vector_index import VectorIndex
from temporal_graph.times import ManualClock

GROUP = "default"
ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture
def approximate(monkeypatch) -> None:
    monkeypatch.setenv("TGRAPH_APPROXIMATE_FROM", "0")


def unit_rows(n: int, seed: int, dims: int = 32) -> np.ndarray:
    rows = np.random.default_rng(seed).standard_normal((n, dims)).astype(np.float32)
    return rows / np.linalg.norm(rows, axis=1, keepdims=True)


def rounded(found: list[tuple[str, float]]) -> list[tuple[str, float]]:
    return [(i, round(s, 5)) for i, s in found]


def builds_left(folder: Path) -> list[Path]:
    return sorted(folder.glob("tgraph-build-*"))


def test_searches_during_a_build_are_the_exact_answers(approximate) -> None:
    rows = unit_rows(3000, seed=1)  # more than the re-rank's candidates: the graph proposes them
    index = VectorIndex()
    index.add((f"r{i}", v) for i, v in enumerate(rows))
    first = index.search(rows[0], 10)  # starts the build, and does not wait for it
    assert index.building and index.graph is None
    assert rounded(first) == rounded(index.search(rows[0], 10, exact=True))
    for q in unit_rows(10, seed=2):
        found = index.search(q, 10)
        assert rounded(found) == rounded(index.search(q, 10, exact=True))
    assert index.wait_for_graph() and not index.building
    assert index.graph is not None and len(index.graph) == 3000


def test_writes_during_a_build_are_in_the_graph_after_it(approximate) -> None:
    rows = unit_rows(3000, seed=3)
    index = VectorIndex()
    index.add((f"r{i}", v) for i, v in enumerate(rows))
    index.search(rows[0], 5)
    assert index.building
    fresh = unit_rows(200, seed=4)
    gone = {f"r{i}" for i in range(0, 3000, 7)}
    index.remove(gone)
    index.add([("r1", -rows[1])])  # replaced
    index.add((f"new{i}", v) for i, v in enumerate(fresh))  # freed slots reused, then new ones
    assert index.wait_for_graph()
    assert index.graph is not None and len(index.graph) == len(index) == 3000 - len(gone) + 200
    for i, v in enumerate(fresh):  # the graph itself finds each vector written during the build
        assert index.graph.candidates(v, 1)[0] == index._slots()[f"new{i}"]
    for q in [-rows[1], rows[1], *fresh[:20], *unit_rows(10, seed=5)]:
        found = index.search(q, 10)
        assert not gone & {i for i, _ in found}
        assert rounded(found) == rounded(index.search(q, 10, exact=True))
    assert index.search(-rows[1], 1)[0][0] == "r1"


def test_a_stopped_build_leaves_nothing(tmp_path, approximate) -> None:
    index = VectorIndex()
    index.build_folder = tmp_path
    index.add((f"r{i}", v) for i, v in enumerate(unit_rows(20_000, seed=6, dims=128)))
    index.search(unit_rows(1, seed=7, dims=128)[0], 5)
    assert index.building and builds_left(tmp_path)
    index.stop_build()
    assert not index.building and index.graph is None and not builds_left(tmp_path)


def memory(path, when: str = "2030-01-01T00:00:00+00:00") -> TemporalGraph:
    return TemporalGraph.open(path, clock=ManualClock(when))


def saved_without_graph(tmp_path, monkeypatch) -> tuple[Path, list[float], list[tuple[str, float]]]:
    """A memory of 30 facts whose saved matrix has no graph (below the crossover when written)."""
    monkeypatch.setenv("TGRAPH_APPROXIMATE_FROM", "1000000")
    db = tmp_path / "m.db"
    with memory(db) as tg:
        for i in range(30):
            tg.add_fact(f"Person {i}", "lives in", f"Town {i}")
        vector = [float(x) for x in tg.embedder.encode(["Person 3 lives in Town 3"])[0]]
        exact = rounded(tg.core.store.vector_search(GROUP, "fact", vector, 10))
    saved = vector_file.read(str(db), GROUP, "fact")
    assert saved is not None and saved[1].graph is None
    monkeypatch.setenv("TGRAPH_APPROXIMATE_FROM", "0")
    return db, vector, exact


def test_a_store_closed_mid_build_leaves_no_damaged_file(tmp_path, monkeypatch) -> None:
    db, vector, exact = saved_without_graph(tmp_path, monkeypatch)
    folder = Path(f"{db}.vectors")
    with memory(db) as tg:
        assert rounded(tg.core.store.vector_search(GROUP, "fact", vector, 10)) == exact  # exact meanwhile
    assert not builds_left(folder)
    saved = vector_file.read(str(db), GROUP, "fact")  # no graph, or one whose file checks out whole
    assert saved is not None
    with memory(db) as tg:
        assert rounded(tg.core.store.vector_search(GROUP, "fact", vector, 10)) == exact
        assert tg.core.store.wait_for_graph(GROUP, "fact")
        assert rounded(tg.core.store.vector_search(GROUP, "fact", vector, 10)) == exact
    saved = vector_file.read(str(db), GROUP, "fact")
    assert saved is not None and saved[1].graph is not None and not builds_left(folder)


_DIES_MID_BUILD = """
import os, signal, sys
from temporal_graph import TemporalGraph
from temporal_graph.times import ManualClock
tg = TemporalGraph.open(sys.argv[1], clock=ManualClock("2030-01-01T00:00:00+00:00"))
tg.search("where does Person 3 live")
assert any(i.building for i in tg.core.store._indexes.values())
os.kill(os.getpid(), signal.SIGKILL)
"""


def test_a_process_killed_mid_build_leaves_the_next_one_to_build(tmp_path, monkeypatch) -> None:
    db, vector, exact = saved_without_graph(tmp_path, monkeypatch)
    died = subprocess.run([sys.executable, "-c", _DIES_MID_BUILD, str(db)], cwd=ROOT,
                          env={**os.environ, "PYTHONPATH": str(ROOT)}, capture_output=True, text=True)
    assert died.returncode == -signal.SIGKILL, died.stderr
    saved = vector_file.read(str(db), GROUP, "fact")
    assert saved is not None and saved[1].graph is None  # nothing half-built was saved
    with memory(db) as tg:
        assert rounded(tg.core.store.vector_search(GROUP, "fact", vector, 10)) == exact
        assert tg.core.store.wait_for_graph(GROUP, "fact")
        assert rounded(tg.core.store.vector_search(GROUP, "fact", vector, 10)) == exact
    saved = vector_file.read(str(db), GROUP, "fact")
    assert saved is not None and saved[1].graph is not None
    assert not builds_left(Path(f"{db}.vectors"))  # the dead process's snapshot swept


def test_many_writes_during_a_build_are_brought_in_by_another_build(approximate, monkeypatch) -> None:
    from temporal_graph.core.stores import vector_index

    monkeypatch.setattr(vector_index, "APPLY_AT_ONCE", 50)  # fewer than the writes below
    rows = unit_rows(3000, seed=8)
    index = VectorIndex()
    index.add((f"r{i}", v) for i, v in enumerate(rows))
    index.search(rows[0], 5)
    first = index._build
    gone = {f"r{i}" for i in range(0, 3000, 5)}
    index.remove(gone)
    fresh = unit_rows(400, seed=9)
    index.add((f"new{i}", v) for i, v in enumerate(fresh))
    assert first is not None and first.wait()
    index.search(rows[1], 5)  # finds the first graph built, with 1,000 writes to bring in
    assert index.graph is None and index.building and index._build is not first
    index.add([("late", -rows[2])])  # written during the second build: applied when it is taken
    assert index.wait_for_graph()
    assert index.graph is not None and len(index.graph) == len(index) == 3000 - len(gone) + 401
    for q in [-rows[2], *fresh[:20], *unit_rows(10, seed=10)]:
        found = index.search(q, 10)
        assert not gone & {i for i, _ in found}
        assert rounded(found) == rounded(index.search(q, 10, exact=True))
    assert index.search(-rows[2], 1)[0][0] == "late"
