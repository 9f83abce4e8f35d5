"""Store reads at the asked time, and chains of hops over them ("Kenji's brother's wife").

Every read goes through the store by subject, object and relation (never the whole group), with
the asked valid time and, for "as known then" questions, the asked transaction time.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

from temporal_graph.core import Core
from temporal_graph.core.claims import apply_claims
from temporal_graph.core.intervals import overlaps, valid_interval
from temporal_graph.core.model import DEFAULT_CLAIMS, Entity, Fact
from temporal_graph.core.stores.protocol import FactQuery

from .plan import Hop, TimeSpec
from .question import INVERSE, SYMMETRIC


@dataclass
class Reader:
    """Reads rows valid at ``time`` (``None``: at any time), as believed at ``known_at`` (None: now),
    showing claims as ``claims`` says (:mod:`temporal_graph.core.claims`)."""

    core: Core
    group_id: str
    known_at: datetime | None = None
    claims: str = DEFAULT_CLAIMS
    # One answer asks for the same rows several times (is the subject known, what it held, its
    # plans): each read is made once per reader.
    _read: dict[tuple[object, ...], list[Fact]] = field(default_factory=dict, repr=False, compare=False)

    def rows(self, time: TimeSpec | None, *, subject_id: str | None = None, object_id: str | None = None,
             relation: str | None = None) -> list[Fact]:
        span = None if time is None else (time.kind, time.start, time.end, time.moment)
        key = (span, subject_id, object_id, relation)
        if key not in self._read:
            self._read[key] = self._rows(time, subject_id=subject_id, object_id=object_id, relation=relation)
        return list(self._read[key])

    def _rows(self, time: TimeSpec | None, *, subject_id: str | None, object_id: str | None,
              relation: str | None) -> list[Fact]:
        at = time.moment if time is not None else None
        query = FactQuery(self.group_id, subject_id=subject_id, object_id=object_id, relation=relation,
                          valid_time=at, known_at=self.known_at)
        rows = self.core.store.facts(query)
        if time is not None and time.kind == "during":
            rows = [f for f in rows if overlaps(valid_interval(f), (time.start, time.end))]
        return apply_claims(self.core, self.group_id, rows, self.claims, at=at, known_at=self.known_at)

    def around(self, entity_id: str, relation: str, time: TimeSpec | None) -> list[tuple[Fact, str]]:
        """(fact, the entity at its other end) for ``relation`` out of ``entity_id``, read both ways
        when the relation is symmetric, and through its inverse (a parent is whoever has them as child)."""
        found = [(f, f.object_id) for f in self.rows(time, subject_id=entity_id, relation=relation)]
        back = relation if relation in SYMMETRIC else INVERSE.get(relation)
        if back is not None:
            ahead = {other for _, other in found}  # told both ways: the way from this entity is enough
            found += [(f, f.subject_id) for f in self.rows(time, object_id=entity_id, relation=back)
                      if f.subject_id != entity_id and f.subject_id not in ahead]
        return found


@dataclass
class Reached:
    """An entity a chain reached, with the facts of the chain that led there."""

    entity: Entity
    chain: list[Fact] = field(default_factory=list)


@dataclass
class Walk:
    reached: list[Reached]
    broken_at: int | None = None  # the hop (0-based) nothing held for
    broken_from: list[Reached] = field(default_factory=list)  # where the chain stood when it broke


def follow(reader: Reader, start: Entity, hops: list[Hop], time: TimeSpec | None,
           fallback_any_time: bool = False) -> Walk:
    """Walk ``hops`` from ``start``, each hop valid at ``time``; with ``fallback_any_time``, a hop
    that holds at no such time may be taken at any time ("Where was Alice's spouse born?")."""
    frontier = [Reached(start)]
    for i, hop in enumerate(hops):
        step = _step(reader, frontier, hop, time)
        if not step and fallback_any_time and time is not None:
            step = _step(reader, frontier, hop, None)
        if not step:
            return Walk([], broken_at=i, broken_from=frontier)
        frontier = step
    return Walk(frontier)


def _step(reader: Reader, frontier: list[Reached], hop: Hop, time: TimeSpec | None) -> list[Reached]:
    pairs: list[tuple[Reached, Fact, str]] = []
    for here in frontier:
        seen = {f.subject_id for f in here.chain} | {here.entity.id}
        for relation in hop.relations:
            pairs += [(here, f, other) for f, other in reader.around(here.entity.id, relation, time)
                      if other not in seen]
    if hop.word:  # "brother" rather than "sister", when the facts were told with such words
        worded = [p for p in pairs if hop.word.rstrip("s") in p[1].text.lower()]
        pairs = worded or pairs
    entities = {e.id: e for e in reader.core.store.entities(reader.group_id, ids=[o for _, _, o in pairs])}
    out: dict[tuple[str, ...], Reached] = {}
    for here, fact, other in pairs:
        if other in entities:
            chain = [*here.chain, fact]
            out.setdefault(tuple(f.fact_id for f in chain), Reached(entities[other], chain))
    return list(out.values())
