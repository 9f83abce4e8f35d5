"""Entity resolution: which existing entity of the group a name from a message refers to.

In order, cheapest first: the normalized name or a known alias; then embedding similarity of the
names within the same group and type; then, only with an LLM configured and only when two or more
candidates are close, one disambiguation call. Never across groups.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

import numpy as np

from temporal_graph.model import Entity
from temporal_graph.names import clean_name, name_key
from temporal_graph.store import ChangeSet
from temporal_graph.writer import FactWriter

# Cosine similarity of MiniLM name embeddings above which two names of one type are one entity
# ("NYC" / "New York City"); between AMBIGUOUS and SAME an LLM may decide.
SAME = 0.90
AMBIGUOUS = 0.80

Disambiguate = Callable[[str, list[Entity]], "str | None"]


@dataclass
class _GroupIndex:
    ids: list[str] = field(default_factory=list)
    types: list[str] = field(default_factory=list)
    vectors: list[np.ndarray] = field(default_factory=list)


@dataclass
class EntityResolver:
    """Resolves names for one memory; keeps the group's name vectors in memory between calls."""

    embed: Callable[[list[str]], list[list[float]]] | None
    disambiguate: Disambiguate | None = None
    _index: dict[str, _GroupIndex] = field(default_factory=dict)
    _vectors: dict[str, np.ndarray] = field(default_factory=dict)  # name -> vector, for prefetch

    def prefetch(self, names: Iterable[str]) -> None:
        """Embed these names in one batch (one model call for many names is ~15x cheaper than
        one call each); :meth:`resolve` then uses the vectors instead of encoding again."""
        todo = list(dict.fromkeys(n for n in (" ".join(n.split()) for n in names) if n))
        self._vectors = {}  # only the batch at hand: the cache never grows with the memory
        if self.embed is not None and todo:
            self._vectors = {n: np.asarray(v, dtype=np.float32) for n, v in zip(todo, self.embed(todo))}

    def resolve(self, w: FactWriter, name: str, type: str | None) -> Entity:
        display = clean_name(name)
        found = w.tx.entity_by_key(w.group_id, name_key(display))
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
        self._remember(w.group_id, entity, vector)
        w.tx.apply(ChangeSet(entity_embeddings={entity.id: vector.tolist()}))
        return entity

    def _group(self, w: FactWriter) -> _GroupIndex:
        if w.group_id not in self._index:
            index = _GroupIndex()
            known = w.tx.entities(w.group_id)
            if known and self.embed is not None:
                index.ids = [e.id for e in known]
                index.types = [e.type for e in known]
                index.vectors = [np.asarray(v, dtype=np.float32) for v in self.embed([e.name for e in known])]
            self._index[w.group_id] = index
        return self._index[w.group_id]

    def _remember(self, group_id: str, entity: Entity, vector: np.ndarray) -> None:
        index = self._index.setdefault(group_id, _GroupIndex())
        index.ids.append(entity.id)
        index.types.append(entity.type)
        index.vectors.append(vector)

    def _similar(self, w: FactWriter, name: str, type: str | None, vector: np.ndarray) -> Entity | None:
        index = self._group(w)
        same_type = [i for i, t in enumerate(index.types) if type is None or t == type]
        if not same_type:
            return None
        matrix = np.stack([index.vectors[i] for i in same_type])
        scores = matrix @ vector
        order = np.argsort(-scores)
        close = [same_type[i] for i in order if scores[i] >= AMBIGUOUS]
        if not close:
            return None
        candidates = w.tx.entities(w.group_id, ids=[index.ids[i] for i in close[:5]])
        by_id = {e.id: e for e in candidates}
        ranked = [by_id[index.ids[i]] for i in close[:5] if index.ids[i] in by_id]
        best_score = float(scores[order[0]])
        clear_winner = best_score >= SAME and (len(close) == 1 or float(scores[order[1]]) < AMBIGUOUS)
        if clear_winner:
            return ranked[0]
        if self.disambiguate is not None:  # a second call, only when still ambiguous
            chosen = self.disambiguate(name, ranked)
            return by_id.get(chosen) if chosen else None
        return None
