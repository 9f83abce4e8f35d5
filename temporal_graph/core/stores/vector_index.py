"""Cosine top-k over an in-memory float32 matrix that is updated in place.

The embedded store keeps one of these per (group, kind). It is loaded once from the stored
vectors, then kept current by the writes themselves (append, remove), so a search after a write
never reloads the group. Exact search is one matrix product and an ``argpartition``. Past
:func:`approximate_from` live vectors, a search of current records asks an HNSW graph
(:mod:`.ann_index`) for candidates and ranks them exactly against the matrix, so a hit's score is
always the exact cosine and its id one the matrix holds now; ``exact=True`` (reads over history)
always takes the matrix product. ``benchmarks/vector_topk.py`` has the crossover.

A graph the index lacks (none saved, or one not trusted) is built in the background
(:mod:`.graph_build`: minutes at 1M vectors) while searches take the exact path: slower, never
other answers. The slots written meanwhile are recorded and applied to the graph when the search
that finds it built takes it over (by another background build when they are many), so no write
made during the build is missing from it.
"""

from __future__ import annotations

import logging
import os
import threading
from collections.abc import Iterable, Sequence
from pathlib import Path

import numpy as np

from .ann_index import ApproximateIndex
from .graph_build import GraphBuild

log = logging.getLogger(__name__)

# Live vectors from which a search of current records goes through the graph: below, the matrix
# product is as fast (vector_topk.py). TGRAPH_APPROXIMATE_FROM overrides it (0: always).
APPROXIMATE_FROM = 50_000
# Candidates the graph proposes for the exact re-rank: at least this many and the limit asked for,
# and one per RERANK_SHARE live vectors, since a denser graph needs a wider search for the same
# recall. Measured at 1M vectors (2026-12-05), recall@10 after the re-rank: on scale.py's memory,
# 1.0 with 1,024 candidates (8 ms of graph search) as with 3,333 (23 ms); on one clustered
# distribution (vector_topk.clustered), 0.998 for queries near stored points with 1,024, but for
# queries from other clusters, the hard case, 0.77 with 1,024, 0.90 with 2,048 and 0.94 with 3,333.
# A search that must not miss any takes the exact path (TGRAPH_APPROXIMATE_FROM).
RERANK = 1024
RERANK_SHARE = 1000
# Vectors written during a build that the search taking the graph over applies itself (~0.4 ms
# each); more, and the graph is brought up to date in the background first, by another build.
APPLY_AT_ONCE = 2000
# Writes a loaded index takes on its mapped ids before it decodes them all (0.5 s at 1M ids): each
# finds its ids with one scan of the array (about 17 ms at 1M), so the first search of a file a few
# writes old, and a new process's first writes, do not pay for the map by id.
WRITES_ON_MAPPED_IDS = 16


def approximate_from() -> int:
    value = os.environ.get("TGRAPH_APPROXIMATE_FROM", "").strip()
    return int(value) if value.isdigit() else APPROXIMATE_FROM


class VectorIndex:
    """Unit vectors by id; removed slots are reused, so the matrix never grows past the live count
    by more than its doubling slack."""

    def __init__(self, dimensions: int | None = None) -> None:
        self.dimensions = dimensions
        self._matrix = np.zeros((0, dimensions or 0), dtype=np.float32)
        # Slot -> id. A saved index keeps its ids in a mapped array of UTF-8 bytes (b"": a free
        # slot), read only for the ids a search returns; writes turn them into a list, from the
        # WRITES_ON_MAPPED_IDS-th on (or the first that needs the map by id or more rows).
        self._ids: list[str | None] | None = []
        self._base: np.ndarray | None = None
        # Over the mapped ids, until they are decoded: the slots writes changed (None: freed) and
        # how many slots are in use (past the array's end, the matrix's spare rows).
        self._moved: dict[int, str | None] = {}
        self._mapped_used = 0
        self._writes_on_mapped = 0
        self._slot: dict[str, int] | None = {}  # by id; None until first needed (a loaded file)
        self._count = 0
        self._free: list[int] = []
        self._graph: ApproximateIndex | None = None
        self.graph_unsaved = False  # built here since the index was read: worth saving
        self.unsaved = 0  # records added or removed since the index was read or saved
        self._build: GraphBuild | None = None  # a graph being built in the background
        self._written: set[int] = set()  # slots changed since the build's snapshot
        # Slots changed since a graph mapped from its file was read: a mapped graph cannot change, and
        # copying it into memory takes a second at 1M vectors, so a few writes are not applied to it:
        # their slots are candidates of every search (re-ranked with the rest) until there are
        # APPLY_AT_ONCE of them or the graph is saved.
        self._unapplied: set[int] = set()
        self._build_failed = False  # then searches stay exact in this process (logged once)
        self.build_folder: Path | None = None  # where the build's snapshot goes (None: temporary)
        # Held by whoever reads or changes the index while another thread may search it (the
        # store's vector search holds only this one, not the store's lock). Order: the store's
        # lock first, then this one.
        self.lock = threading.RLock()

    @classmethod
    def from_arrays(
        cls, ids: Sequence[str] | np.ndarray, matrix: np.ndarray, graph: ApproximateIndex | None = None
    ) -> VectorIndex:
        """An index of ``ids`` whose unit vectors are the rows of ``matrix`` (as :meth:`slots`
        gives: an empty id is a free slot; a bytes array is kept as it is, mapped), with the graph
        saved beside them (keyed by slot)."""
        index = cls(matrix.shape[1] if len(ids) else None)
        index._matrix = np.ascontiguousarray(matrix, dtype=np.float32)
        if isinstance(ids, np.ndarray):
            index._ids, index._base, index._mapped_used = None, ids, len(ids)
            index._count = int(np.count_nonzero(ids != b""))
        else:
            index._ids = [item_id or None for item_id in ids]
            index._free = [slot for slot, item_id in enumerate(index._ids) if item_id is None]
            index._count = len(index._ids) - len(index._free)
        index._slot = None  # a fresh process's first search needs no map by id: built on a write
        # A graph saved while the index had no width (no vector yet) cannot take the first vector.
        index._graph = graph if graph is not None and graph.dimensions == index.dimensions else None
        return index

    def _list(self) -> list[str | None]:
        """The ids as a list a write can change (read from the mapped array once)."""
        if self._ids is None:
            assert self._base is not None
            ids: list[str | None] = [b.decode("utf-8") or None for b in self._base.tolist()]
            ids += [None] * (self._mapped_used - len(ids))
            for slot, item_id in self._moved.items():
                ids[slot] = item_id
            self._ids, self._base, self._moved = ids, None, {}
            self._free = [slot for slot, item_id in enumerate(ids) if item_id is None]
        return self._ids

    def _used(self) -> int:
        return len(self._ids) if self._ids is not None else self._mapped_used

    def _id_at(self, slot: int) -> str | None:
        if self._ids is not None:
            return self._ids[slot]
        assert self._base is not None
        if slot in self._moved:
            return self._moved[slot]
        return self._base[slot].decode("utf-8") or None if slot < len(self._base) else None

    def slots(self) -> tuple[np.ndarray | None, np.ndarray]:
        """Every slot's id as UTF-8 bytes (b"" for a free one) and the matrix rows in slot order:
        what a saved graph's keys refer to. No ids when one ends in NUL (numpy's bytes drop it)."""
        if self._ids is None and not self._moved:  # no write since it was read: the array as it is
            assert self._base is not None
            return self._base, self._matrix[: len(self._base)]
        encoded = [(item_id or "").encode("utf-8") for item_id in self._list()]
        rows = self._matrix[: len(encoded)]
        if any(e.endswith(b"\x00") for e in encoded):
            return None, rows
        return np.array(encoded, dtype=bytes), rows

    @property
    def graph(self) -> ApproximateIndex | None:
        return self._graph

    def arrays(self) -> tuple[list[str], np.ndarray]:
        """The live ids and their rows, in slot order (freed slots left out)."""
        ids = self._list()
        live = [slot for slot, item_id in enumerate(ids) if item_id is not None]
        return [item_id for item_id in ids if item_id is not None], self._matrix[live]

    def __len__(self) -> int:
        return self._count

    def _slots(self) -> dict[str, int]:
        if self._slot is None:
            self._slot = {item_id: slot for slot, item_id in enumerate(self._list()) if item_id is not None}
        return self._slot

    def __contains__(self, item_id: object) -> bool:
        return item_id in self._slots()

    def add(self, items: Iterable[tuple[str, np.ndarray | Sequence[float]]]) -> None:
        rows: list[tuple[str, np.ndarray]] = []
        for item_id, vector in items:
            v = np.asarray(vector, dtype=np.float32).ravel()
            if self.dimensions is None:
                self.dimensions = len(v)
                self._matrix = np.zeros((0, self.dimensions), dtype=np.float32)
            if len(v) != self.dimensions:
                continue  # a vector of another model: not comparable, not searchable
            norm = float(np.linalg.norm(v))
            rows.append((item_id, v / norm if norm else v))
        by_id = self._slots_of([item_id for item_id, _ in rows], new=len(rows))
        for item_id, v in rows:
            slot = by_id.get(item_id)
            if slot is None:
                slot = by_id[item_id] = self._new_slot()
                self._count += 1
                self._set_id(slot, item_id)
            self._matrix[slot] = v
            self.unsaved += 1
            self._changed(slot)

    def remove(self, item_ids: Iterable[str]) -> None:
        item_ids = list(item_ids)
        by_id = self._slots_of(item_ids)
        for item_id in item_ids:
            slot = by_id.pop(item_id, None)
            if slot is not None:
                self._count -= 1
                self._set_id(slot, None)
                self._matrix[slot] = 0.0  # scores 0 and is skipped below
                if self._ids is not None:  # mapped ids: their freed slots are found when decoded
                    self._free.append(slot)
                self.unsaved += 1
                self._changed(slot)

    def _slots_of(self, item_ids: list[str], new: int = 0) -> dict[str, int]:
        """The slots of those of ``item_ids`` the index holds, for a write that may add ``new``
        ids: the map by id, or, on mapped ids while they are spared decoding, one made for it."""
        if self._ids is not None or self._writes_on_mapped >= WRITES_ON_MAPPED_IDS \
                or self._mapped_used + new > len(self._matrix):
            return self._slots()
        assert self._base is not None
        self._writes_on_mapped += 1
        wanted = set(item_ids)
        keys = {item_id.encode("utf-8") for item_id in wanted if item_id}  # "" is how a free slot reads
        by_id = {self._base[slot].decode("utf-8"): slot for slot in self._mapped_slots(keys)
                 if slot not in self._moved}
        by_id.update((item_id, slot) for slot, item_id in self._moved.items() if item_id in wanted)
        return by_id

    def _mapped_slots(self, keys: set[bytes]) -> list[int]:
        """The slots of the mapped array that hold one of ``keys``. Ids are compared by their first
        8 bytes as one integer first (17 ms for 30 ids among 1M, against 150 ms comparing whole
        strings), then whole: a key numpy would cut to the array's width is never taken for another."""
        base = self._base
        assert base is not None
        if not keys:
            return []
        cut = np.array(sorted(keys), dtype=base.dtype)
        if base.itemsize % 8 == 0:
            step = base.itemsize // 8
            near = np.flatnonzero(np.isin(base.view(np.uint64)[::step], cut.view(np.uint64)[::step]))
        else:
            near = np.flatnonzero(np.isin(base, cut))
        return [slot for slot in near.tolist() if base[slot] in keys]

    def _new_slot(self) -> int:
        if self._ids is None:  # a spare row of the mapped matrix (the caller checked there is one)
            self._mapped_used += 1
            return self._mapped_used - 1
        return self._free.pop() if self._free else self._grow()

    def _set_id(self, slot: int, item_id: str | None) -> None:
        if self._ids is None:
            self._moved[slot] = item_id
        else:
            self._ids[slot] = item_id

    def _changed(self, slot: int) -> None:
        """Bring the graph (or the build under way) up to date with the matrix row ``slot``."""
        if self._graph is None:
            if self._build is not None:
                self._written.add(slot)
        elif self._graph.mapped:
            self._unapplied.add(slot)
            if len(self._unapplied) > APPLY_AT_ONCE:
                self.settle_graph()
        else:
            self._update_graph(self._graph, slot)

    def _update_graph(self, graph: ApproximateIndex, slot: int) -> None:
        if self._id_at(slot) is None:
            graph.remove(slot)
        else:
            graph.put(slot, self._matrix[slot])

    def settle_graph(self) -> None:
        """Apply to the graph the writes a mapped graph was spared (copying it into memory)."""
        unapplied, self._unapplied = self._unapplied, set()
        if self._graph is not None:
            for slot in sorted(unapplied):
                self._update_graph(self._graph, slot)

    def _grow(self) -> int:
        ids = self._list()
        used = len(ids)
        if used == len(self._matrix):
            bigger = np.zeros((max(64, 2 * used), self.dimensions or 0), dtype=np.float32)
            bigger[:used] = self._matrix[:used]
            self._matrix = bigger
        ids.append(None)
        return used

    def approximate(self) -> bool:
        """Searches of current records go through the graph: past the crossover, once it is there
        (a missing one is built in the background meanwhile; see :meth:`wait_for_graph`)."""
        if self._count < approximate_from() or not self._count:
            return False
        if self._graph is None:
            if self._build is None:
                self._start_build()
            elif self._build.done():
                self._take_graph()
        return self._graph is not None

    def _start_build(self) -> None:
        if self._build_failed or self._build is not None:
            return
        used = self._used()
        if self._ids is None and not self._moved:
            live = np.flatnonzero(self._base != b"").astype(np.int64)
        else:
            live = np.asarray([s for s, i in enumerate(self._list()) if i is not None], dtype=np.int64)
        self._written = set()
        self._build = GraphBuild(self._matrix[:used], live, self.build_folder)

    def _take_graph(self) -> None:
        """The graph built, brought up to date with the slots written during the build."""
        assert self._build is not None
        build, self._build = self._build, None
        written, self._written = self._written, set()
        if len(written) > APPLY_AT_ONCE and build.built():  # too many for one search to apply
            slots = np.asarray(sorted(written), dtype=np.int64)
            rows = self._matrix[slots]  # a removed vector's row is zero: it leaves the graph
            self._build = GraphBuild(rows, slots, self.build_folder, base=build)
            return
        graph = build.take()
        if graph is None:
            self._build_failed = True
            log.warning("vector graph build failed (%s): searches stay exact in this process", build.error)
            return
        for slot in sorted(written):
            self._update_graph(graph, slot)
        self._graph = graph
        self.graph_unsaved = True

    def wait_for_graph(self, timeout: float | None = None) -> bool:
        """Build the graph if it is due and missing, wait for it (up to ``timeout`` seconds) and
        take it over; whether searches now go through it. For tests and benchmarks: a search never
        waits for a build."""
        if self._count < approximate_from() or not self._count:
            return False
        if self._graph is None and self._build is None:
            self._start_build()
        while self._build is not None and self._build.wait(timeout):
            self._take_graph()  # may hand the writes made meanwhile to a build of their own
        return self._graph is not None

    @property
    def building(self) -> bool:
        """A graph is being built in the background (searches are exact meanwhile)."""
        return self._build is not None

    def stop_build(self) -> None:
        """End a build under way, keeping nothing of it (a closing store; a scrub)."""
        if self._build is not None:
            build, self._build = self._build, None
            build.stop()
            self._written = set()

    def search(self, vector: Sequence[float], limit: int, *, exact: bool = False) -> list[tuple[str, float]]:
        """The ``limit`` most similar ids with their cosine similarity, best first. ``exact``: by
        the matrix product whatever the size (the oracle the graph's answers are held to)."""
        if not self._count or limit <= 0:
            return []
        q = np.asarray(vector, dtype=np.float32).ravel()
        if len(q) != self.dimensions:
            return []
        q = q / (float(np.linalg.norm(q)) or 1.0)
        if not exact and self.approximate():
            return self._reranked(q, limit)
        scores = self._matrix[: self._used()] @ q
        want = min(len(scores), limit + self._used() - self._count)  # freed slots may be among the best
        best = np.argpartition(-scores, want - 1)[:want] if want < len(scores) else np.arange(len(scores))
        best = best[np.argsort(-scores[best], kind="stable")]
        out: list[tuple[str, float]] = []
        for i in best:
            item_id = self._id_at(int(i))
            if item_id is not None:
                out.append((item_id, float(scores[i])))
                if len(out) == limit:
                    break
        return _ties_by_id(out)

    def _reranked(self, q: np.ndarray, limit: int) -> list[tuple[str, float]]:
        """The graph's candidates, scored exactly against the matrix; only slots live now."""
        assert self._graph is not None
        want = max(RERANK, limit, self._count // RERANK_SHARE)
        # No more live vectors than that: every slot is a candidate (a graph's search may miss one).
        found = np.arange(self._used()) if want >= self._count else self._graph.candidates(q, want)
        if self._unapplied:
            found = np.concatenate([found, np.fromiter(self._unapplied, dtype=np.int64)])
        found = np.unique(found[(found >= 0) & (found < self._used())])
        scores = self._matrix[found] @ q
        out: list[tuple[str, float]] = []
        for i in np.argsort(-scores, kind="stable"):  # ids read best first, only as far as needed
            item_id = self._id_at(int(found[i]))
            if item_id is not None:  # a freed slot is no record
                out.append((item_id, float(scores[i])))
                if len(out) == limit:
                    break
        return _ties_by_id(out)


def _ties_by_id(ranked: list[tuple[str, float]]) -> list[tuple[str, float]]:
    """Equal scores (the same text told twice) in id order, so the answer never depends on which
    slot each vector happens to occupy (a matrix loaded afresh or one brought up to date)."""
    return sorted(ranked, key=lambda pair: (-pair[1], pair[0]))
