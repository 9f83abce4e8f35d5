"""Entity resolution: which existing entity of the group a name from a message refers to.

What merges, and on what evidence (never across groups):

1. The speaker's own name (exactly the episode's speaker id) is the speaker's entity: the entity of
   that id or of a declared alias (``alias_speaker``), never a lookalike ("bob", "Bob.").
2. A name spelled as an entity's name or alias is that entity; else a name matching one case- and
   space-insensitively ("new york" is "New York").
3. Otherwise, only with an LLM: known entities of the same type whose names are close by embedding
   are candidates for one disambiguation call, and the entity it picks is the one. Similarity alone
   never merges, and names that differ in a number or in a whole word (:func:`distinct_names`) are
   never candidates.
4. Otherwise a new entity. Without an LLM, resolution reads only the names already stored, so the
   same input gives the same entities whatever point an import was interrupted and resumed at.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np

from temporal_graph.core.model import Entity
from temporal_graph.core.names import clean_name, name_key
from temporal_graph.core.writer import FactWriter

# Cosine similarity of MiniLM name embeddings from which a known entity of the same type is a
# candidate for the LLM's disambiguation ("NYC" / "New York City").
SIMILAR = 0.80
_NUMBER = re.compile(r"\d+")
_WORD = re.compile(r"\w+")


def distinct_names(a: str, b: str) -> bool:
    """Names of different things, whatever a model says: their numbers differ ("Terminal 1" /
    "Terminal 2", "Kvzcity1" / "Kvzcity0") or they share a word but not every word ("Lakeside
    North" / "Lakeside South", "New York" / "New York City")."""
    ka, kb = name_key(a), name_key(b)
    if _NUMBER.findall(ka) != _NUMBER.findall(kb):
        return True
    wa, wb = set(_WORD.findall(ka)), set(_WORD.findall(kb))
    return wa != wb and bool(wa & wb)


def name_text(name: str) -> str:
    """The text a name is embedded as (its words, single-spaced)."""
    return " ".join(name.split())


Disambiguate = Callable[[str, list[Entity]], "str | None"]
Nearest = Callable[[str, Sequence[float], int], "list[tuple[str, float]]"]  # (group, vector, k) -> (id, cos)
CANDIDATES = 16


@dataclass
class EntityResolver:
    """Resolves names for one memory. With ``disambiguate`` (an LLM), similar names are looked up
    in the store's entity vector index (``nearest``), plus the entities created since the last
    :meth:`prefetch` (whose vectors are stored only once their write commits), as candidates."""

    embed: Callable[[list[str]], list[list[float]]] | None
    nearest: Nearest | None = None
    disambiguate: Disambiguate | None = None
    _vectors: dict[str, np.ndarray] = field(default_factory=dict)  # name -> vector, for this batch
    _fresh: list[tuple[Entity, np.ndarray]] = field(default_factory=list)  # created in this batch

    def prefetch(self, names: Iterable[str], encoded: Mapping[str, Sequence[float]] | None = None) -> None:
        """Embed these names in one batch (one model call for many names is ~15x cheaper than
        one call each); :meth:`resolve` then uses the vectors instead of encoding again. Vectors
        already in ``encoded`` (by :func:`name_text`) are taken as they are. Call it once per
        write: the batch's state starts afresh."""
        wanted = list(dict.fromkeys(n for n in map(name_text, names) if n))
        self._vectors, self._fresh = {}, []
        if self.embed is None or not wanted:
            return
        found = {n: encoded[n] for n in wanted if encoded and n in encoded}
        todo = [n for n in wanted if n not in found]
        found.update(zip(todo, self.embed(todo) if todo else [], strict=True))
        self._vectors = {n: np.asarray(v, dtype=np.float32) for n, v in found.items()}

    def resolve(self, w: FactWriter, name: str, type: str | None, *, speaker: str | None = None) -> Entity:
        """The entity ``name`` refers to in a message of ``speaker`` (created if new)."""
        display = clean_name(name)
        own = speaker is not None and display == speaker  # the speaker's own name: exactly their entity
        found = w.speaker_entity(display) if own else w.existing(display)
        if found is not None:
            w.matched(found)
            return found
        if self.embed is None:
            return w.speaker(display, type=type) if own else w.entity(display, type=type)
        vector = self._vectors.pop(display, None)
        if vector is None:
            vector = np.asarray(self.embed([display])[0], dtype=np.float32)
        chosen = None
        if self.disambiguate is not None and not own:  # a speaker id never becomes a lookalike (LLM or not)
            chosen = self._chosen(w, display, type, vector, self.disambiguate)
        if chosen is not None:
            w.matched(chosen)
            return w.add_alias(chosen, display)
        entity = w.speaker(display, type=type) if own else w.entity(display, type=type)
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

    def _chosen(
        self, w: FactWriter, name: str, type: str | None, vector: np.ndarray, disambiguate: Disambiguate
    ) -> Entity | None:
        """The candidate the disambiguation call picks, or None (no candidate, or none picked)."""
        close = [e for e, score in self._candidates(w, vector)
                 if score >= SIMILAR and (type is None or e.type == type)
                 and not any(distinct_names(name, n) for n in (e.name, *e.aliases))][:5]
        if not close:
            return None
        chosen = disambiguate(name, close)
        return next((e for e in close if e.id == chosen), None) if chosen else None
