"""Writing statements inside one store transaction: the only place rows change.

``add_fact`` / ``end_fact`` / ``retract_fact`` and the ingestion pipeline all go through
:class:`FactWriter`, so the contradiction rules have exactly one implementation (``rules.py``) and
one caller. A writer lives for one transaction; each statement reads the key's assertions and
rows, appends its assertion, derives the timeline and applies the reconciliation right away, so
the next statement in the same transaction sees it.
"""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from .errors import InvalidInput
from .identity import entity_named, speaker_entity
from .model import DEFAULT_IMPORTANCE, Assertion, AssertionKind, Entity, Episode, Fact
from .names import clean_name, name_key, normalize_relation, relation_phrase
from .ontology import Ontology
from .rules import (
    Plan,
    Segment,
    check_interval,
    claimant,
    derive_timeline,
    live_assertions,
    reconcile,
    resolve_start,
)
from .stores.protocol import ChangeSet, StoreTx

_NAMESPACE = uuid.UUID("6f1c2b7e-5d0a-4c52-9a59-3f7e2f0a9b11")


def new_id() -> str:
    return uuid.uuid4().hex


def stable_id(*parts: str) -> str:
    """A deterministic id, so re-importing the same thing finds the same entity or episode."""
    return uuid.uuid5(_NAMESPACE, "\x1f".join(parts)).hex


def episode_id_for(group_id: str, source_id: str | None, content: str, reference_time: datetime) -> str:
    if source_id:
        return stable_id("episode", group_id, "source", source_id)
    return stable_id("episode", group_id, "content", content, reference_time.isoformat())


@dataclass(frozen=True)
class BulkStart:
    """One item of :meth:`FactWriter.start_many`: ``index`` is its place in the caller's input."""

    index: int
    object: Entity
    valid_at: datetime | None
    invalid_at: datetime | None
    text: str | None = None
    confidence: float = 1.0
    importance: int = DEFAULT_IMPORTANCE
    episode_id: str | None = None
    attributes: dict[str, Any] | None = None


def _attributed(attributes: dict[str, Any] | None, claimed_by: str | None) -> dict[str, Any]:
    """The statement's attributes, with ``claimed_by`` set when it is a claim."""
    attributes = dict(attributes or {})
    if claimed_by is not None:
        attributes["claimed_by"] = claimed_by
    return attributes


@dataclass
class Outcome:
    """What one statement did; ``fact`` is the row it wrote or merged into (starts only)."""

    fact: Fact | None = None
    added: list[Fact] = field(default_factory=list)
    merged: list[Fact] = field(default_factory=list)
    ended: list[Fact] = field(default_factory=list)
    retracted: list[Fact] = field(default_factory=list)


@dataclass
class FactWriter:
    """Writes of one group inside one store transaction. The transaction is private: callers ask
    the writer (:meth:`existing`, :meth:`entities_by_id`, :meth:`has_episode`, :meth:`current_rows`)
    so every read inside a write sees what the write has done so far."""

    _tx: StoreTx
    group_id: str
    now: datetime  # transaction time of this write
    ontology: Ontology
    entities_created: list[Entity] = field(default_factory=list)
    entities_matched: list[Entity] = field(default_factory=list)
    # Vectors already computed for entities this write created (by the entity resolver), by id.
    entity_vectors: dict[str, list[float]] = field(default_factory=dict)
    _seen: dict[str, Entity] = field(default_factory=dict)  # every entity this write touched, by id
    _episodes: list[Episode] = field(default_factory=list)
    _rows: dict[str, Fact] = field(default_factory=dict)  # rows inserted by this write, still current
    # Ids of the entities whose facts this write changed (as subject or object), in first-touch order.
    touched: dict[str, None] = field(default_factory=dict)

    # -- reading inside the transaction ----------------------------------------------------------
    def existing(self, name: str) -> Entity | None:
        """The entity of this group known by ``name`` (spelled exactly so, else case- and
        space-insensitively), or None; creates nothing."""
        return entity_named(self._tx, self.group_id, name)

    def speaker_entity(self, speaker: str) -> Entity | None:
        """The entity of exactly this speaker id, or None; creates nothing."""
        return speaker_entity(self._tx, self.group_id, speaker)

    def entities_by_id(self, ids: Sequence[str]) -> list[Entity]:
        """The entities of this group with these ids (unknown ids are left out)."""
        return self._tx.entities(self.group_id, ids=list(ids)) if ids else []

    def has_episode(self, episode_id: str) -> bool:
        """Whether this group already holds the episode (written earlier, or by this write)."""
        return bool(self._tx.episodes(self.group_id, ids=[episode_id]))

    def current_rows(self, subject: Entity, relation: str) -> list[Fact]:
        """The rows of ``subject relation *`` believed now (unexpired), every object and claimant."""
        return self._tx.current_rows(self.group_id, subject.id, normalize_relation(relation))

    # -- entities ------------------------------------------------------------------------------
    def entity(self, name: str, *, type: str | None = None, what: str = "name") -> Entity:
        """The entity named ``name`` in this group (case/space-insensitive), created if new."""
        display = clean_name(name, what)
        found = self.existing(display)
        if found is not None:
            self.matched(found)
            return found
        return self._create(display, type)

    def speaker(self, speaker: str, *, type: str | None = None) -> Entity:
        """The entity of exactly this speaker id, created if new. A lookalike of a known name
        ("bob" beside "Bob") gets an entity of its own, found by its exact spelling."""
        display = clean_name(speaker, "speaker")
        found = self.speaker_entity(display)
        if found is not None:
            self.matched(found)
            return found
        taken = self._tx.entity_by_key(self.group_id, name_key(display)) is not None
        return self._create(display, type, exact=taken)

    def _create(self, display: str, type: str | None, *, exact: bool = False) -> Entity:
        key = ("exact", display) if exact else (name_key(display),)
        entity = Entity(
            id=stable_id("entity", self.group_id, *key),
            group_id=self.group_id,
            name=display,
            type=type or "Entity",
            created_at=self.now,
        )
        self._tx.apply(ChangeSet(entities=[entity]))
        self.entities_created.append(entity)
        self._seen[entity.id] = entity
        return entity

    def matched(self, entity: Entity) -> None:
        """Report ``entity`` as an existing entity this write refers to (once)."""
        if entity.id not in self._seen:
            self._seen[entity.id] = entity
            self.entities_matched.append(entity)

    def add_alias(self, entity: Entity, alias: str) -> Entity:
        """``entity`` is also known as ``alias`` (kept exactly as spelled: as a speaker id it then
        names this entity too)."""
        alias = clean_name(alias, "alias")
        if alias in (entity.name, *entity.aliases):
            return entity
        updated = entity.model_copy(update={"aliases": (*entity.aliases, alias)})
        self._tx.apply(ChangeSet(entities=[updated]))
        self._seen[updated.id] = updated
        return updated

    def episode(self, episode: Episode) -> None:
        self._tx.apply(ChangeSet(episodes=[episode]))
        self._episodes.append(episode)

    def written(self) -> list[Fact | Entity | Episode]:
        """What this write added that search should find: new entities, episodes and the rows
        that are still current at its end (a row inserted and expired in one write is not)."""
        return [*self.entities_created, *self._episodes, *self._rows.values()]

    # -- statements ----------------------------------------------------------------------------
    def start(
        self,
        subject: Entity,
        relation: str,
        obj: Entity,
        *,
        valid_at: datetime | None,
        invalid_at: datetime | None,
        default_start: datetime,
        text: str | None = None,
        episode_id: str | None = None,
        confidence: float = 1.0,
        importance: int = DEFAULT_IMPORTANCE,
        attributes: dict[str, Any] | None = None,
        claimed_by: str | None = None,
    ) -> Outcome:
        """``subject relation obj`` holds from ``valid_at`` (None: unknown) until ``invalid_at``.
        ``claimed_by``: a speaker's claim about someone else, kept beside the subject's own facts."""
        relation = normalize_relation(relation)
        check_interval(valid_at, invalid_at)
        attributes = _attributed(attributes, claimed_by)
        assertions = self._tx.assertions(self.group_id, subject.id, relation)
        cardinality = self.ontology.cardinality(relation)
        same_voice = [a for a in assertions if claimant(a) == claimed_by]
        live_starts = [a for a in live_assertions(same_voice) if a.kind == "start"]
        at = resolve_start(
            valid_at, cardinality=cardinality, timeline_empty=not live_starts, default_start=default_start
        )
        if at is not None and invalid_at is not None and invalid_at <= at:
            raise InvalidInput(
                f"invalid_at {invalid_at.isoformat()} is not after the fact's start {at.isoformat()}"
            )
        statement = self._assertion(
            assertions, subject, relation, obj.id, "start", at=at, until=invalid_at,
            episode_id=episode_id, text=text or f"{subject.name} {relation_phrase(relation)} {obj.name}",
            confidence=confidence, importance=importance, attributes=attributes,
        )
        plan, segments = self._apply(subject, relation, [*assertions, statement], statement)
        outcome = Outcome()
        own = next((s for s in segments if statement in s.assertions), None)
        if own is not None:
            row = plan.row_for(own)
            merged = any(k.id == row.id for k in plan.kept)
            if plan.provenance.get(row.id):  # report the row as it now stands, new episodes included
                row = row.model_copy(update={"episode_ids": (*row.episode_ids, *plan.provenance[row.id])})
            outcome.fact = row
            (outcome.merged if merged else outcome.added).append(row)
        outcome.ended = [r for r in plan.insert if r is not outcome.fact and r.invalid_at is not None
                         and any(old.fact_id == r.fact_id for old in plan.expire)]
        return outcome

    def end(
        self,
        subject: Entity,
        relation: str,
        obj: Entity | None,
        *,
        at: datetime,
        text: str | None = None,
        episode_id: str | None = None,
        claimed_by: str | None = None,
    ) -> Outcome:
        """``obj`` (None: whatever held) stopped holding at ``at`` (in ``claimed_by``'s claims only,
        when given)."""
        relation = normalize_relation(relation)
        assertions = self._tx.assertions(self.group_id, subject.id, relation)
        statement = self._assertion(
            assertions, subject, relation, obj.id if obj else None, "end", at=at,
            episode_id=episode_id, text=text or "", confidence=1.0, attributes=_attributed(None, claimed_by),
        )
        plan, segments = self._apply(subject, relation, [*assertions, statement], statement)
        return Outcome(ended=[plan.row_for(s) for s in segments if statement in s.assertions])

    def retract(
        self, subject: Entity, relation: str, obj: Entity, *, episode_id: str | None = None,
        claimed_by: str | None = None,
    ) -> Outcome:
        """Everything said so far about ``subject relation obj`` was wrong (everything
        ``claimed_by`` claimed, when given)."""
        relation = normalize_relation(relation)
        assertions = self._tx.assertions(self.group_id, subject.id, relation)
        statement = self._assertion(
            assertions, subject, relation, obj.id, "retract", episode_id=episode_id,
            text="", confidence=1.0, attributes=_attributed(None, claimed_by),
        )
        plan, _ = self._apply(subject, relation, [*assertions, statement], statement)
        expired = {"expired_at": statement.created_at}  # returned as they now stand: expired
        return Outcome(retracted=[r.model_copy(update=expired) for r in plan.expire if r.object_id == obj.id])

    def start_many(
        self, subject: Entity, relation: str, items: Sequence[BulkStart], *, fresh: bool = False
    ) -> tuple[list[Fact], list[tuple[int, str]]]:
        """Many starts of one (subject, relation) in one reconciliation, with the result of
        :meth:`start` called once per item in order (what each item's unknown start becomes, and
        which items ``start`` would refuse, follow the same rules). Returns the key's rows written
        and ``(item index, reason)`` for the items refused. ``fresh``: nothing was ever said about
        this key (skips reading it)."""
        relation = normalize_relation(relation)
        cardinality = self.ontology.cardinality(relation)
        assertions = [] if fresh else self._tx.assertions(self.group_id, subject.id, relation)
        own = [a for a in assertions if claimant(a) is None]  # claims of speakers are another timeline
        live_start = any(a.kind == "start" for a in live_assertions(own))
        seq = max((a.seq for a in assertions), default=-1)
        created_at = max([self.now, *(a.created_at for a in assertions)])
        added: list[Assertion] = []
        refused: list[tuple[int, str]] = []
        for item in items:
            at = resolve_start(item.valid_at, cardinality=cardinality, timeline_empty=not live_start,
                               default_start=self.now)
            if at is not None and item.invalid_at is not None and item.invalid_at <= at:
                refused.append((item.index, f"invalid_at {item.invalid_at.isoformat()} is not after the "
                                            f"fact's start {at.isoformat()}"))
                continue
            seq += 1
            statement = Assertion(
                id=new_id(), group_id=self.group_id, subject_id=subject.id, relation=relation,
                object_id=item.object.id, kind="start", created_at=created_at, seq=seq, at=at,
                until=item.invalid_at, episode_id=item.episode_id, confidence=item.confidence,
                importance=item.importance, attributes=_attributed(item.attributes, None),
                text=item.text or f"{subject.name} {relation_phrase(relation)} {item.object.name}",
            )
            every = [*assertions, *added, statement]
            # Alone on its key a start always holds; next to others it may lose a same-instant tie,
            # which start() refuses (so the item is refused here too).
            if (assertions or added) and not any(
                statement in s.assertions for s in derive_timeline(every, cardinality)
            ):
                seq -= 1
                refused.append((item.index, "another fact starts at the same instant"))
                continue
            added.append(statement)
            # As in start(): an item's unknown start reads the key's own timeline, which a claim
            # given in its attributes (``claimed_by``) does not make live.
            live_start = live_start or claimant(statement) is None
        if not added:
            return [], refused
        plan, _ = self._apply(subject, relation, [*assertions, *added], added[-1], new=added, fresh=fresh)
        return plan.insert, refused

    # -- internals -----------------------------------------------------------------------------
    def _assertion(
        self, existing: list[Assertion], subject: Entity, relation: str, object_id: str | None,
        kind: AssertionKind, **fields: Any,
    ) -> Assertion:
        # Transaction time never runs backwards for a key, so no row expires before it was made.
        latest = max((a.created_at for a in existing), default=self.now)
        return Assertion(
            id=new_id(), group_id=self.group_id, subject_id=subject.id, relation=relation,
            object_id=object_id, kind=kind, created_at=max(self.now, latest),
            seq=max((a.seq for a in existing), default=-1) + 1, **fields,
        )

    def _apply(
        self, subject: Entity, relation: str, assertions: list[Assertion], statement: Assertion,
        *, new: Sequence[Assertion] | None = None, fresh: bool = False,
    ) -> tuple[Plan, list[Segment]]:
        """Derive the key's timeline from ``assertions`` and reconcile its rows; ``new`` are the
        assertions to append (default: ``statement``); ``fresh``: the key has no rows yet."""
        segments = derive_timeline(assertions, self.ontology.cardinality(relation))
        current = [] if fresh else self._tx.current_rows(self.group_id, subject.id, relation)
        tx_time = statement.created_at
        names = {subject.id: subject.name}
        object_ids = {s.object_id for s in segments} - {r.object_id for r in current}
        for entity_id in object_ids:
            names[entity_id] = self._name_of(entity_id)
        for row in current:
            names[row.object_id] = row.object

        def make_row(seg: Segment, row_id: str, fact_id: str) -> Fact:
            first = seg.first_start
            return Fact(
                id=row_id, fact_id=fact_id, group_id=self.group_id, subject=subject.name,
                relation=relation, object=names[seg.object_id], subject_id=subject.id,
                object_id=seg.object_id, text=first.text, valid_at=seg.valid_at,
                invalid_at=seg.invalid_at, created_at=tx_time, episode_ids=seg.episode_ids,
                confidence=max(a.confidence for a in seg.assertions if a.kind == "start"),
                # As much as the weightiest of the statements the row was made from.
                importance=max(a.importance for a in seg.assertions if a.kind == "start"),
                attributes=first.attributes,
            )

        plan = reconcile(current, segments, new_id=new_id, make_row=make_row)
        for row in plan.expire:
            self._rows.pop(row.id, None)
        self._rows.update((row.id, row) for row in plan.insert)
        for row in (*plan.expire, *plan.insert):
            self.touched.update({row.subject_id: None, row.object_id: None})
        self._tx.apply(
            ChangeSet(
                assertions=list(new) if new is not None else [statement],
                expire=[(r.id, tx_time) for r in plan.expire],
                insert=plan.insert,
                provenance=plan.provenance,
            )
        )
        return plan, segments

    def _name_of(self, entity_id: str) -> str:
        if entity_id in self._seen:
            return self._seen[entity_id].name
        found = self.entities_by_id([entity_id])
        if not found:
            raise InvalidInput(f"entity {entity_id} does not exist in group {self.group_id!r}")
        return found[0].name
