"""An approximate nearest-neighbour graph (HNSW, by usearch) over the slots of a :class:`VectorIndex`.

It only proposes candidates: the vector index re-scores them exactly against its own float32
matrix, so a score is never the graph's, and an id it returns is one the matrix holds now. The
graph keeps int8 copies of the vectors (four times smaller than the matrix, so a fresh process maps
little); what that costs in recall the exact re-rank of a few hundred candidates wins back.

usearch was chosen by measurement (``benchmarks/vector_topk.py --libraries``): at the same graph
degree it builds fastest with int8 vectors, removes keys in place, and ``restore(view=True)`` maps a
saved graph instead of reading it, which is what keeps a fresh process's first search at 1M
records under a second; hnswlib, voyager and faiss read the whole file on load, and faiss's HNSW
cannot remove a vector.

A graph built for a live process is built in a child process on one core (:mod:`.graph_build`),
so the process that searches keeps the other core; the child runs this file as a script:
``python -I ann_index.py FOLDER PARENT_PID``. usearch runs its searches without the GIL (from
2.25), so a graph search overlaps the reads of other threads.
"""

from __future__ import annotations

import mmap
import os
import shutil
import sys
import zlib
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    from usearch.index import Index

CONNECTIVITY = 16  # graph degree; build time and size grow with it
EXPANSION_ADD = 128  # candidate list while inserting (graph quality)
# Candidate list for one vector a write adds to a built graph: at 1M vectors an insert takes 1.16 ms
# at 128 and 0.44 ms at 32 (median of 200), and each of the 200 was found among the 512 candidates
# of a query near it either way; the exact re-rank of hundreds of candidates does the rest.
EXPANSION_ONLINE = 32
EXPANSION_SEARCH = 512  # candidate list while searching (at least the candidates asked for)
BUILD_CHUNK = 4096  # vectors added between two checks that the parent is still there


def checksum(path: Path) -> int:
    """CRC-32 of the file, read through a map (no copy: 0.23 s for a 1M-vector graph of 530 MB
    against 0.33 s read in blocks): a damaged graph is never handed to the native library."""
    with open(path, "rb") as stream:
        if os.fstat(stream.fileno()).st_size == 0:
            return zlib.crc32(b"")
        with mmap.mmap(stream.fileno(), 0, access=mmap.ACCESS_READ) as view:
            return zlib.crc32(view)


class ApproximateIndex:
    """HNSW graph whose keys are slots of the vector matrix."""

    def __init__(self, dimensions: int, graph: Index | None = None, *, path: Path | None = None) -> None:
        self.dimensions = dimensions
        self._graph = graph if graph is not None else self._empty(dimensions)
        self._mapped = path  # a graph mapped from this file is read-only until first changed

    @staticmethod
    def _empty(dimensions: int) -> Index:
        # Imported here: it takes a while, and a process below the crossover never needs it.
        from usearch.index import Index

        return Index(ndim=dimensions, metric="cos", dtype="i8", connectivity=CONNECTIVITY,
                     expansion_add=EXPANSION_ADD, expansion_search=EXPANSION_SEARCH)

    @classmethod
    def build(cls, matrix: np.ndarray, slots: np.ndarray) -> ApproximateIndex:
        """A graph of the rows ``slots`` of ``matrix`` (on every core)."""
        index = cls(matrix.shape[1])
        if len(slots):
            index._graph.add(slots.astype(np.uint64), matrix[slots], threads=os.cpu_count() or 1)
        return index

    @classmethod
    def read_built(cls, path: Path, dimensions: int, count: int) -> ApproximateIndex | None:
        """The graph a child process built at ``path``, read into memory (the file is then
        deleted); None unless it holds ``count`` vectors of ``dimensions``."""
        from usearch.index import Index

        try:
            graph = Index.restore(str(path), view=False)
        except (OSError, ValueError, RuntimeError, KeyError, TypeError):
            return None
        if graph is None or graph.ndim != dimensions or len(graph) != count:
            return None
        return cls(dimensions, graph)

    def __len__(self) -> int:
        return len(self._graph)

    @property
    def mapped(self) -> bool:
        """Mapped from its file, unchanged since: the first change copies it into memory."""
        return self._mapped is not None

    def _writable(self) -> Index:
        if self._mapped is not None:  # a mapped graph cannot change: copied into memory, once
            self._graph = self._graph.copy()
            self._mapped = None
        return self._graph

    def put(self, slot: int, vector: np.ndarray) -> None:
        graph = self._writable()
        if slot in graph:
            graph.remove(slot)
        graph.expansion_add = EXPANSION_ONLINE  # type: ignore[misc]  # has a setter
        graph.add(slot, vector)

    def remove(self, slot: int) -> None:
        graph = self._writable()
        if slot in graph:
            graph.remove(slot)

    def candidates(self, vector: np.ndarray, count: int) -> np.ndarray:
        """Up to ``count`` slots near ``vector`` (approximately the nearest; unordered for the caller)."""
        if not len(self._graph):
            return np.zeros(0, dtype=np.int64)
        self._graph.expansion_search = max(EXPANSION_SEARCH, count)  # type: ignore[misc]  # has a setter
        return np.asarray(self._graph.search(vector, count).keys, dtype=np.int64)

    def save(self, path: Path) -> int:
        """Write the graph to ``path``; its checksum, for the label that names it."""
        self._graph.save(str(path))
        return checksum(path)

    @classmethod
    def load(cls, path: Path, *, crc: int, dimensions: int, count: int) -> ApproximateIndex | None:
        """The graph saved at ``path``, mapped; None unless its checksum, width and size are the
        label's (damaged, cut short, replaced, or another index's: rebuilt, never trusted)."""
        from usearch.index import Index

        try:
            if checksum(path) != crc:
                return None
            meta = Index.metadata(str(path))
            if meta is None or meta["dimensions"] != dimensions or meta["count_present"] != count:
                return None
            graph = Index.restore(str(path), view=True)
        except (OSError, ValueError, RuntimeError, KeyError, TypeError):
            return None
        if graph is None or graph.ndim != dimensions or len(graph) != count:
            return None
        return cls(dimensions, graph, path=path)


def _build_file(folder: Path, parent: int) -> int:
    """In the child: the graph of ``folder``'s ``matrix.npy`` rows ``slots.npy`` (or, given
    ``base.usearch``, that graph brought up to date with the rows ``rows.npy`` of the slots
    ``slots.npy``), saved as ``graph.usearch`` (written under another name, then renamed: the parent
    never reads half of it). One thread (the machine is shared with the process that searches);
    stops, leaving no graph, as soon as the parent is gone."""
    from usearch.index import Index

    slots = np.load(folder / "slots.npy", allow_pickle=False).astype(np.uint64)
    base = folder / "base.usearch"
    if base.exists():
        rows_of = np.load(folder / "rows.npy", mmap_mode="r", allow_pickle=False)
        index = ApproximateIndex(rows_of.shape[1], Index.restore(str(base), view=False))
    else:
        matrix = np.load(folder / "matrix.npy", mmap_mode="r", allow_pickle=False)
        index = ApproximateIndex(matrix.shape[1])
    graph = index._graph
    for start in range(0, len(slots), BUILD_CHUNK):
        if os.getppid() != parent:  # nobody will read it: the snapshot goes too
            shutil.rmtree(folder, ignore_errors=True)
            return 3
        chunk = slots[start : start + BUILD_CHUNK]
        if base.exists():
            rows = np.ascontiguousarray(rows_of[start : start + BUILD_CHUNK])
            for key in chunk.tolist():  # a changed or removed vector leaves first
                if key in graph:
                    graph.remove(key)
        else:
            rows = np.ascontiguousarray(matrix[chunk.astype(np.int64)])
        # A zero row is a vector removed (or, in a full snapshot, removed as it was written: the
        # parent redoes every slot written after the snapshot): left out, it has no cosine.
        kept = np.flatnonzero(np.any(rows != 0, axis=1))
        if len(kept):
            graph.add(chunk[kept], rows[kept], threads=1)
    partial = folder / "graph.usearch.partial"
    graph.save(str(partial))
    os.replace(partial, folder / "graph.usearch")
    (folder / "graph.count").write_text(str(len(graph)), encoding="ascii")
    return 0


if __name__ == "__main__":
    sys.exit(_build_file(Path(sys.argv[1]), int(sys.argv[2])))
