"""Entity resolution: which existing entity of the group a name from a message refers to.

In order, cheapest first: the normalized name or a known alias; then embedding similarity of the
names within the same group and type; then, only with an LLM configured and only when two or more
candidates are close, one disambiguation call. Never across groups.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field

import numpy as np

from temporal_graph.core.model import Entity
from temporal_graph.core.names import clean_name
from temporal_graph.core.writer import FactWriter

# Cosine similarity of MiniLM name embeddings above which two names of one type are one entity
# ("NYC" / "New York City"); between AMBIGUOUS and SAME an LLM may decide.
SAME = 0.90
AMBIGUOUS = 0.80

Disambiguate = Callable[[str, list[Entity]], "str | None"]
Nearest = Callable[[str, Sequence[float], int], "list[tuple[str, float]]"]  # (group, vector, k) -> (id, cos)
CANDIDATES = 16


@dataclass
class EntityResolver:
    """Resolves names for one memory. Similar names are looked up in the store's entity vector
    index (``nearest``), plus the entities created since the last :meth:`prefetch` (whose vectors
    are stored only once their write commits)."""

    embed: Callable[[list[str]], list[list[float]]] | None
    nearest: Nearest | None = None
    disambiguate: Disambiguate | None = None
    _vectors: dict[str, np.ndarray] = field(default_factory=dict)  # name -> vector, for this batch
    _fresh: list[tuple[Entity, np.ndarray]] = field(default_factory=list)  # created in this batch

    def prefetch(self, names: Iterable[str]) -> None:
        """Embed these names in one batch (one model call for many names is ~15x cheaper than
        one call each); :meth:`resolve` then uses the vectors instead of encoding again. Call it
        once per write: the batch's state starts afresh."""
        todo = list(dict.fromkeys(n for n in (" ".join(n.split()) for n in names) if n))
        self._vectors, self._fresh = {}, []
        if self.embed is not None and todo:
            vectors = self.embed(todo)
            self._vectors = {n: np.asarray(v, dtype=np.float32) for n, v in zip(todo, vectors, strict=True)}

    def resolve(self, w: FactWriter, name: str, type: str | None) -> Entity:
        display = clean_name(name)
        found = w.existing(display)
        if found is not None:
            w.matched(found)
            return found
        if self.embed is None:
            return w.entity(display, type=type)
        vector = self._vectors.pop(display, None)
        if vector is None:
            vector = np.asarray(self.embed([display])[0], dtype=np.float32)
        match = self._similar(w, display, type, vector)
        if match is not None:
            w.matched(match)
            return w.add_alias(match, display)
        entity = w.entity(display, type=type)
        self._fresh.append((entity, vector))
        w.entity_vectors[entity.id] = vector.tolist()  # stored with the write's other vectors
        return entity

    def _candidates(self, w: FactWriter, vector: np.ndarray) -> list[tuple[Entity, float]]:
        """The most similar entities of the group, from the store's index and this batch."""
        scored = {e.id: (e, float(v @ vector)) for e, v in self._fresh if e.group_id == w.group_id}
        if self.nearest is not None:
            hits = dict(self.nearest(w.group_id, vector.tolist(), CANDIDATES))
            for e in w.entities_by_id(list(hits)):
                scored.setdefault(e.id, (e, hits[e.id]))
        return sorted(scored.values(), key=lambda item: (-item[1], item[0].id))

    def _similar(self, w: FactWriter, name: str, type: str | None, vector: np.ndarray) -> Entity | None:
        close = [(e, score) for e, score in self._candidates(w, vector)
                 if (type is None or e.type == type) and score >= AMBIGUOUS]
        if not close:
            return None
        ranked = [e for e, _ in close[:5]]
        clear_winner = close[0][1] >= SAME and (len(close) == 1 or close[1][1] < AMBIGUOUS)
        if clear_winner:
            return ranked[0]
        if self.disambiguate is not None:  # a second call, only when still ambiguous
            chosen = self.disambiguate(name, ranked)
            return next((e for e in ranked if e.id == chosen), None) if chosen else None
        return None
