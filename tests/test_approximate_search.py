"""Approximate vector search (an HNSW graph with an exact re-rank) past the crossover: forced on
here for small groups, where it must give exactly what the matrix product gives, never a record
that is not current, and never trust a saved graph that is damaged or another index's."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from temporal_graph import TemporalGraph
from temporal_graph.core.stores import vector_file
from temporal_graph.core.stores.vector_index import VectorIndex
from temporal_graph.times import ManualClock

GROUP = "default"


@pytest.fixture
def approximate(monkeypatch) -> None:
    """Every search of current records goes through the graph, whatever the group's size."""
    monkeypatch.setenv("TGRAPH_APPROXIMATE_FROM", "0")


def unit_rows(n: int, seed: int, dims: int = 32) -> np.ndarray:
    rows = np.random.default_rng(seed).standard_normal((n, dims)).astype(np.float32)
    return rows / np.linalg.norm(rows, axis=1, keepdims=True)


def rounded(found: list[tuple[str, float]]) -> list[tuple[str, float]]:
    return [(i, round(s, 5)) for i, s in found]


def test_the_graph_with_its_rerank_gives_the_exact_top_k(approximate) -> None:
    rows = unit_rows(400, seed=1)
    index = VectorIndex()
    index.add((f"r{i}", v) for i, v in enumerate(rows))
    assert index.wait_for_graph()
    for q in unit_rows(20, seed=2):
        for limit in (1, 10, 50):
            assert rounded(index.search(q, limit)) == rounded(index.search(q, limit, exact=True))
    assert index.graph is not None and len(index.graph) == 400  # it was the graph that answered


def test_removed_and_replaced_vectors_leave_the_graph_with_the_matrix(approximate) -> None:
    rows = unit_rows(300, seed=3)
    index = VectorIndex()
    index.add((f"r{i}", v) for i, v in enumerate(rows))
    assert index.wait_for_graph()
    gone = {f"r{i}" for i in range(0, 300, 3)}
    index.remove(gone)
    index.add([("r1", -rows[1]), ("new", rows[0])])  # a replaced vector; a freed slot reused
    for q in [rows[0], rows[1], -rows[1], *unit_rows(10, seed=4)]:
        found = index.search(q, 20)
        assert not gone & {i for i, _ in found}
        assert rounded(found) == rounded(index.search(q, 20, exact=True))
    assert index.search(rows[0], 1)[0][0] == "new"


def memory(path, when: str = "2030-01-01T00:00:00+00:00") -> TemporalGraph:
    return TemporalGraph.open(path, clock=ManualClock(when))


def test_a_search_never_returns_a_fact_that_is_not_current(tmp_path, approximate) -> None:
    with memory(tmp_path / "m.db") as tg:
        old = tg.add_fact("Ana", "lives in", "Rome", valid_at="2020")
        new = tg.add_fact("Ana", "lives in", "Oslo", valid_at="2024")
        wrong = tg.add_fact("Bo", "works at", "Acme")
        tg.retract_fact("Bo", "works at", "Acme")
        for i in range(40):
            tg.add_fact(f"Person {i}", "likes", f"Thing {i}")
        assert tg.core.store.wait_for_graph(GROUP, "fact")
        hits = tg.search("where does Ana live, Rome", limit=50, kinds=["fact"])
        found = {h.fact.id for h in hits if h.fact is not None}
        assert new.id in {f.id for f in tg.now(subject="Ana")}
        assert old.id not in found and wrong.id not in found
        assert all(h.fact.expired_at is None for h in hits if h.fact is not None)
        vector = list(tg.embedder.encode(["Ana lives in Rome"])[0])
        store = tg.core.store
        approx = store.vector_search(GROUP, "fact", vector, 30)
        assert rounded(approx) == rounded(store.vector_search(GROUP, "fact", vector, 30, exact=True))
        assert old.id not in {i for i, _ in approx}


def test_reads_over_history_are_what_the_exact_path_gives(tmp_path, monkeypatch) -> None:
    def searched(approximate_from: str) -> list[list[tuple[str, str, float]]]:
        monkeypatch.setenv("TGRAPH_APPROXIMATE_FROM", approximate_from)
        with memory(tmp_path / "m.db") as tg:
            return [[(h.kind, h.text, round(h.score, 6)) for h in tg.search(q, as_of=when, known_at=known)]
                    for q in ("where did Ana live", "Bo's job")
                    for when, known in (("2021-06-01", None), ("2025-01-01", "2030-01-01"), (None, None))]
    with memory(tmp_path / "m.db", "2029-01-01T00:00:00+00:00") as tg:
        tg.add_fact("Ana", "lives in", "Rome", valid_at="2020")
        tg.add_fact("Ana", "lives in", "Oslo", valid_at="2024")
        tg.add_fact("Bo", "works at", "Acme", valid_at="2019")
        tg.end_fact("Bo", "works at", "Acme", at="2022")
        tg.add_episode("I moved from Rome to Oslo last year.", reference_time="2025-02-01", speaker="Ana")
    assert searched("0") == searched("1000000")


def test_a_read_over_history_never_asks_the_graph(tmp_path, approximate, monkeypatch) -> None:
    asked: list[int] = []
    real = VectorIndex._reranked
    monkeypatch.setattr(VectorIndex, "_reranked",
                        lambda self, q, limit: asked.append(limit) or real(self, q, limit))
    with memory(tmp_path / "m.db") as tg:
        tg.add_fact("Ana", "lives in", "Rome", valid_at="2020")
        tg.add_episode("I moved to Oslo.", reference_time="2029-02-01", speaker="Ana")
        for kind in ("fact", "episode", "entity"):
            tg.core.store.wait_for_graph(GROUP, kind)
        tg.search("where does Ana live", as_of="2021-01-01")
        tg.search("where does Ana live", known_at="2029-06-01")
        tg.search("where does Ana live", include_history=True)
        assert asked == []
        tg.search("where does Ana live")
        assert asked  # a search of now does


def saved_graph(db: Path) -> Path:
    (graph,) = Path(f"{db}.vectors").glob("*-fact.*.usearch")
    return graph


def build_saved(tmp_path) -> tuple[Path, list[tuple[str, float]]]:
    db = tmp_path / "m.db"
    with memory(db) as tg:
        for i in range(30):
            tg.add_fact(f"Person {i}", "lives in", f"Town {i}")
        vector = list(tg.embedder.encode(["Person 3 lives in Town 3"])[0])
        found = tg.core.store.vector_search(GROUP, "fact", vector, 10, exact=True)
        assert tg.core.store.wait_for_graph(GROUP, "fact")  # built and saved
    assert saved_graph(db).stat().st_size > 0
    return db, rounded(found)


def fresh_search(db: Path) -> tuple[list[tuple[str, float]], bool]:
    """A fresh process's search, and whether it found a saved graph it trusts (a graph it lacks
    is built and saved before it closes)."""
    with memory(db) as tg:
        vector = list(tg.embedder.encode(["Person 3 lives in Town 3"])[0])
        saved = vector_file.read(str(db), GROUP, "fact")
        trusted = saved is not None and saved[1].graph is not None
        found = rounded(tg.core.store.vector_search(GROUP, "fact", vector, 10))
        assert tg.core.store.wait_for_graph(GROUP, "fact")
        return found, trusted


def test_a_fresh_process_maps_the_saved_graph(tmp_path, approximate) -> None:
    db, exact = build_saved(tmp_path)
    assert fresh_search(db) == (exact, True)


@pytest.mark.parametrize("damage", ["flipped", "cut short", "empty", "not usearch"])
def test_a_damaged_graph_is_never_trusted_and_is_built_again(tmp_path, approximate, damage) -> None:
    db, exact = build_saved(tmp_path)
    graph = saved_graph(db)
    data = bytearray(graph.read_bytes())
    if damage == "flipped":
        data[len(data) // 2] ^= 0xFF
    graph.write_bytes({"flipped": bytes(data), "cut short": bytes(data[: len(data) // 2]), "empty": b"",
                       "not usearch": b"\x00" * len(data)}[damage])
    with memory(db):
        assert vector_file.read(str(db), GROUP, "fact")[1].graph is None  # type: ignore[index]
    found, _ = fresh_search(db)  # the graph is built again from the matrix, and saved again
    assert found == exact
    assert fresh_search(db) == (exact, True)


def test_another_index_graph_under_a_label_is_never_trusted(tmp_path, approximate) -> None:
    db, exact = build_saved(tmp_path)
    # Another index's graph put in its place with a label forged to its checksum: it holds other
    # vectors (another count), so it is not mapped.
    stray = VectorIndex()
    stray.add((f"x{i}", v) for i, v in enumerate(unit_rows(7, seed=9, dims=384)))
    stray.wait_for_graph()
    assert stray.graph is not None
    graph = saved_graph(db)
    crc = stray.graph.save(graph)
    (label,) = Path(f"{db}.vectors").glob("*-fact.npz")
    with np.load(label) as data:
        fields = dict(data)
    np.savez(label, **{**fields, "graph_crc": np.array([crc], dtype=np.int64)})
    assert vector_file.read(str(db), GROUP, "fact")[1].graph is None  # type: ignore[index]
    assert fresh_search(db)[0] == exact


def test_writes_of_another_process_reach_a_saved_graph(tmp_path, approximate) -> None:
    db, _ = build_saved(tmp_path)
    with memory(db) as reader, memory(db) as writer:
        vector = list(reader.embedder.encode(["Zed lives in Quito"])[0])
        reader.core.store.vector_search(GROUP, "fact", vector, 5)  # the saved graph, mapped
        added = writer.add_fact("Zed", "lives in", "Quito")
        gone = {f.id for f in writer.retract_fact("Person 3", "lives in", "Town 3")}
        found = reader.core.store.vector_search(GROUP, "fact", vector, 40)
        assert found[0][0] == added.id and gone
        exact = reader.core.store.vector_search(GROUP, "fact", vector, 40, exact=True)
        assert rounded(found) == rounded(exact)
        assert not gone & {i for i, _ in found}


def test_a_label_written_before_mapped_ids_still_reads(tmp_path) -> None:
    db = str(tmp_path / "m.db")
    index = VectorIndex()
    index.add([("a", np.eye(4, dtype=np.float32)[0]), ("b", np.eye(4, dtype=np.float32)[1])])
    vector_file.write(db, GROUP, "fact", "mark-1", index)
    (label,) = Path(f"{db}.vectors").glob("*-fact.npz")
    with np.load(label) as data:
        fields = {k: v for k, v in data.items() if k != "ids_file"}
    np.savez(label, **fields, ids=np.array(["a", "b"]))  # as labels were written before
    saved = vector_file.read(db, GROUP, "fact")
    assert saved is not None
    assert [i for i, _ in saved[1].search(np.eye(4)[1], 1)] == ["b"]


def loaded_index(tmp_path) -> VectorIndex:
    """The facts' index as a fresh process reads it: matrix and graph mapped from their files."""
    db, _ = build_saved(tmp_path)
    saved = vector_file.read(str(db), GROUP, "fact")
    assert saved is not None and saved[1].graph is not None and saved[1].graph.mapped
    return saved[1]


def test_writes_to_a_mapped_graph_are_searched_before_it_is_copied(tmp_path, approximate,
                                                                     monkeypatch) -> None:
    index = loaded_index(tmp_path)
    ids, rows = index.arrays()
    index.remove(ids[:5])
    index.add([("new", rows[0]), (ids[6], -rows[6])])  # a freed slot reused; a vector replaced
    assert index.graph is not None and index.graph.mapped  # not copied for three writes
    for q in [rows[0], rows[6], -rows[6], *unit_rows(5, seed=8, dims=rows.shape[1])]:
        found = index.search(q, 10)
        assert rounded(found) == rounded(index.search(q, 10, exact=True))
        assert not set(ids[:5]) & {i for i, _ in found}
    assert index.search(-rows[6], 1)[0][0] == ids[6]
    monkeypatch.setattr("temporal_graph.core.stores.vector_index.APPLY_AT_ONCE", 3)
    index.add([("newer", -rows[0])])  # the fourth: now they go into the graph
    assert not index.graph.mapped and len(index.graph) == len(index)
    assert index.search(-rows[0], 1)[0][0] == "newer"


def test_a_graph_saved_after_unapplied_writes_holds_them(tmp_path, approximate) -> None:
    db, _ = build_saved(tmp_path)
    saved = vector_file.read(str(db), GROUP, "fact")
    assert saved is not None
    index = saved[1]
    ids, rows = index.arrays()
    index.remove(ids[:2])
    index.add([("new", rows[0])])
    vector_file.write(str(db), GROUP, "fact", "a-mark", index)
    again = vector_file.read(str(db), GROUP, "fact")
    assert again is not None and again[1].graph is not None  # its count is the matrix's: trusted
    assert len(again[1].graph) == len(again[1]) == len(ids) - 1
    assert rounded(again[1].search(rows[0], 5)) == rounded(index.search(rows[0], 5, exact=True))


def test_searches_from_many_threads_beside_writes_are_exact(tmp_path, approximate) -> None:
    import threading

    db, _ = build_saved(tmp_path)
    with memory(db) as tg:
        store = tg.core.store
        queries = [list(v) for v in tg.embedder.encode([f"Person {i} lives in Town {i}" for i in range(8)])]
        store.vector_search(GROUP, "fact", queries[0], 5)
        failures: list[str] = []

        def search() -> None:
            for q in queries * 3:
                found = store.vector_search(GROUP, "fact", q, 10)
                current = {f.id for f in tg.now()}
                if not {i for i, _ in found} <= current:
                    failures.append("a record that is not current")

        readers = [threading.Thread(target=search) for _ in range(3)]
        for reader in readers:
            reader.start()
        for i in range(20):
            tg.add_fact(f"Newcomer {i}", "lives in", f"Village {i}")
        for reader in readers:
            reader.join(timeout=60)
        assert not any(r.is_alive() for r in readers) and failures == []
        for q in queries:
            assert rounded(store.vector_search(GROUP, "fact", q, 10)) == \
                rounded(store.vector_search(GROUP, "fact", q, 10, exact=True))
