"""Exact cosine top-k over an in-memory float32 matrix that is updated in place.

The embedded store keeps one of these per (group, kind). It is loaded once from the stored
vectors, then kept current by the writes themselves (append, remove), so a search after a write
never reloads the group. Exact search is one matrix product and an ``argpartition``: at 100k
vectors that is a few milliseconds on two cores, faster than building or querying an HNSW graph
pays back at that size (``benchmarks/vector_topk.py`` has the figures and the crossover).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import numpy as np


class VectorIndex:
    """Unit vectors by id; removed slots are reused, so the matrix never grows past the live count
    by more than its doubling slack."""

    def __init__(self, dimensions: int | None = None) -> None:
        self.dimensions = dimensions
        self._matrix = np.zeros((0, dimensions or 0), dtype=np.float32)
        self._ids: list[str | None] = []
        self._slot: dict[str, int] = {}
        self._free: list[int] = []

    @classmethod
    def from_arrays(cls, ids: Sequence[str], matrix: np.ndarray) -> VectorIndex:
        """An index of ``ids`` whose unit vectors are the rows of ``matrix`` (as :meth:`arrays` gives)."""
        index = cls(matrix.shape[1] if len(ids) else None)
        index._matrix = np.ascontiguousarray(matrix, dtype=np.float32)
        index._ids = list(ids)
        index._slot = {item_id: slot for slot, item_id in enumerate(ids)}
        return index

    def arrays(self) -> tuple[list[str], np.ndarray]:
        """The live ids and their rows, in slot order (freed slots left out)."""
        live = [slot for slot, item_id in enumerate(self._ids) if item_id is not None]
        return [item_id for item_id in self._ids if item_id is not None], self._matrix[live]

    def __len__(self) -> int:
        return len(self._slot)

    def __contains__(self, item_id: object) -> bool:
        return item_id in self._slot

    def add(self, items: Iterable[tuple[str, np.ndarray | Sequence[float]]]) -> None:
        for item_id, vector in items:
            v = np.asarray(vector, dtype=np.float32).ravel()
            if self.dimensions is None:
                self.dimensions = len(v)
                self._matrix = np.zeros((0, self.dimensions), dtype=np.float32)
            if len(v) != self.dimensions:
                continue  # a vector of another model: not comparable, not searchable
            norm = float(np.linalg.norm(v))
            v = v / norm if norm else v
            slot = self._slot.get(item_id)
            if slot is None:
                slot = self._free.pop() if self._free else self._grow()
                self._slot[item_id] = slot
                self._ids[slot] = item_id
            self._matrix[slot] = v

    def remove(self, item_ids: Iterable[str]) -> None:
        for item_id in item_ids:
            slot = self._slot.pop(item_id, None)
            if slot is not None:
                self._ids[slot] = None
                self._matrix[slot] = 0.0  # scores 0 and is skipped below
                self._free.append(slot)

    def _grow(self) -> int:
        used = len(self._ids)
        if used == len(self._matrix):
            bigger = np.zeros((max(64, 2 * used), self.dimensions or 0), dtype=np.float32)
            bigger[:used] = self._matrix[:used]
            self._matrix = bigger
        self._ids.append(None)
        return used

    def search(self, vector: Sequence[float], limit: int) -> list[tuple[str, float]]:
        """The ``limit`` most similar ids with their cosine similarity, best first."""
        if not self._slot or limit <= 0:
            return []
        q = np.asarray(vector, dtype=np.float32).ravel()
        if len(q) != self.dimensions:
            return []
        q = q / (float(np.linalg.norm(q)) or 1.0)
        scores = self._matrix[: len(self._ids)] @ q
        want = min(len(scores), limit + len(self._free))  # freed slots may be among the best
        best = np.argpartition(-scores, want - 1)[:want] if want < len(scores) else np.arange(len(scores))
        best = best[np.argsort(-scores[best], kind="stable")]
        out: list[tuple[str, float]] = []
        for i in best:
            item_id = self._ids[i]
            if item_id is not None:
                out.append((item_id, float(scores[i])))
                if len(out) == limit:
                    break
        return out
