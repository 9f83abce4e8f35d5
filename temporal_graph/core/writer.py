"""Writing statements inside one store transaction: the only place rows change.

``add_fact`` / ``end_fact`` / ``retract_fact`` and the ingestion pipeline all go through
:class:`FactWriter`, so the contradiction rules have exactly one implementation (``rules.py``) and
one caller. A writer lives for one transaction; each statement reads the rows it can change and
the assertions they come from (:mod:`affected`: the stretch of one timeline around it, through the
store's indexes, not the whole key), re-derives them with the statement, and applies the
reconciliation right away, so the next statement in the same transaction sees it. With
``full_derivation`` it reads and derives the whole key instead: the reference the tests hold the
stretch-wise writes to.
"""

from __future__ import annotations

import os
import threading
import uuid
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from .affected import KeyReader, Scope, Stream, affected, just_after
from .errors import InvalidInput
from .identity import entity_named, speaker_entity
from .message_links import (
    KEY_RELATION,
    LINK_RELATIONS,
    MESSAGE_RELATION,
    KeyPlace,
    content_mark,
    key_subject,
    key_timeline,
    message_topic,
    place,
)
from .model import DEFAULT_IMPORTANCE, Assertion, AssertionKind, Entity, EntitySummary, Episode, Fact
from .names import clean_name, fact_words, name_key, normalize_relation
from .ontology import Ontology
from .receipts import ErasureReceipt
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
from .stores.protocol import ChangeSet, Erasure, FactQuery, RowQuery, StoreTx
from .time import LATEST

_NAMESPACE = uuid.UUID("6f1c2b7e-5d0a-4c52-9a59-3f7e2f0a9b11")


# The version (4) and variant bits of a random UUID, set on every byte at once.
_VERSION_4 = bytes((b & 0x0F) | 0x40 for b in range(256))
_VARIANT = bytes((b & 0x3F) | 0x80 for b in range(256))


class _ReadyIds(threading.local):
    """Ids made 4,096 at a time, per thread: one ``os.urandom`` call for all (a bulk load makes
    three ids a fact, and each call cost microseconds while a second thread inserted rows)."""

    def __init__(self) -> None:
        self.ids: list[str] = []


_ready = _ReadyIds()


def _fresh_ids() -> None:
    global _ready
    _ready = _ReadyIds()  # a forked child must not hand out the ids its parent hands out


os.register_at_fork(after_in_child=_fresh_ids)


def new_id() -> str:
    """A random (version 4) UUID in hex, as ``uuid.uuid4().hex`` spells it, without building a
    UUID object (a bulk load makes three ids per fact). Random from the first character: ids are
    shown and looked up by their first 8 (a time-ordered UUID, though cheaper for the id indexes
    of a 1M bulk load, gives every id made the same month the same first 8)."""
    ids = _ready.ids
    if not ids:
        raw = bytearray(os.urandom(16 * 4096))
        raw[6::16] = raw[6::16].translate(_VERSION_4)
        raw[8::16] = raw[8::16].translate(_VARIANT)
        text = raw.hex()
        ids.extend(text[i : i + 32] for i in range(0, len(text), 32))
    return ids.pop()


def stable_id(*parts: str) -> str:
    """A deterministic id, so re-importing the same thing finds the same entity or episode."""
    return uuid.uuid5(_NAMESPACE, "\x1f".join(parts)).hex


def episode_id_for(group_id: str, source_id: str | None, content: str, reference_time: datetime,
                   speaker: str | None = None) -> str:
    """A message's id: its ``source_id``, else its text, time and speaker (two people who both say
    "ok" in the same minute said two messages)."""
    if source_id:
        return stable_id("episode", group_id, "source", source_id)
    if speaker is None:
        return stable_id("episode", group_id, "content", content, reference_time.isoformat())
    return stable_id("episode", group_id, "content", content, reference_time.isoformat(), "speaker", speaker)


def speakerless_episode_id(episode: Episode) -> str | None:
    """The id a memory made before a speaker counted in a message's id (text and time only), when
    it differs from ``episode``'s: such a stored message with the same speaker is this one."""
    if episode.source_id or episode.speaker is None:
        return None
    return episode_id_for(episode.group_id, None, episode.content, episode.reference_time)


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


def newest_first(facts: Iterable[Fact]) -> list[Fact]:
    """Latest start first (a fact with no known start counts from when it was recorded), then the
    latest recorded, then by relation, subject id, object id and row id: the order of
    :meth:`StoreTx.newest_facts`."""
    ties = sorted(facts, key=lambda f: (f.relation, f.subject_id, f.object_id, f.id))
    return sorted(ties, key=lambda f: (f.valid_at or f.created_at, f.created_at), reverse=True)


def _newest_rows_naming(rows: Iterable[Fact], entity_ids: set[str], at: datetime) -> dict[str, list[Fact]]:
    """Of ``rows``, those not ended at ``at`` naming each of ``entity_ids`` (as subject or object,
    a row naming it twice once), newest first."""
    naming: dict[str, list[Fact]] = {}
    for row in rows:
        if row.invalid_at is not None and row.invalid_at <= at:
            continue
        for entity_id in {row.subject_id, row.object_id} & entity_ids:
            naming.setdefault(entity_id, []).append(row)
    return {entity_id: newest_first(found) for entity_id, found in naming.items()}


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
    _created_ids: set[str] = field(default_factory=set)
    # Vectors already computed for entities this write created (by the entity resolver), by id.
    entity_vectors: dict[str, list[float]] = field(default_factory=dict)
    _seen: dict[str, Entity] = field(default_factory=dict)  # every entity this write touched, by id
    _episodes: list[Episode] = field(default_factory=list)
    _rows: dict[str, Fact] = field(default_factory=dict)  # rows inserted by this write, still current
    # Older rows this write read whole (with provenance) to hand back, kept as they now stand: a
    # fact told 250 times in one import batch is read once, not 250 times with ever more citations.
    _read_whole: dict[str, Fact] = field(default_factory=dict)
    _citations: dict[str, set[str]] = field(default_factory=dict)  # of the rows above, for repeat checks
    # ``start`` hands back a row it merged into as the store now holds it, every citation included:
    # read whole, at a cost that grows with the row's citations. An import only counts what each
    # message did and sets this False: it gets the row as the key read it (no provenance), so the
    # 8,000th confirmation of a fact costs what the 2nd did.
    whole_merged_rows: bool = True
    # Ids of the entities whose facts this write changed (as subject or object), in first-touch order.
    touched: dict[str, None] = field(default_factory=dict)
    # Work to do once the transaction has committed (an LLM rewrite of a summary written in it):
    # it may fail or never run without leaving anything missing.
    after_commit: list[Callable[[], None]] = field(default_factory=list)
    summaries_written: int = 0  # summary versions written or ended by this write
    # The write refreshes the summaries of what it changes: what it reads ahead includes what the
    # refresh reads of the entities its names answer to.
    summarizing: bool = False
    # Derive each key's whole timeline from all its assertions (the reference; slower with history).
    full_derivation: bool = False
    # Row changes held back by :meth:`rows_together`, applied as one change set when it ends, and
    # the entities created meanwhile by name key (they are in the change set, not yet in the store).
    _held: ChangeSet | None = None
    _held_entities: dict[str, Entity] = field(default_factory=dict)
    # The current rows of this write naming each entity it created, newest first (built when a
    # summary first asks; dropped whenever rows change).
    _created_rows: dict[str, list[Fact]] | None = None

    # -- reading inside the transaction ----------------------------------------------------------
    def read_ahead(
        self, *, names: Sequence[str] = (), keys: Sequence[tuple[str, str]] = (),
        pairs: Sequence[tuple[str, str, str]] = (), episodes: Sequence[str] = (),
    ) -> None:
        """Tell the store what this write is about to read (the entities of ``names``, the
        timelines of ``keys``: (subject name, relation), and of ``pairs``: (subject name,
        relation, object name), whether it holds ``episodes``), so a store behind a network
        reads them in one round trip. Answers are the same without it."""
        self._tx.read_ahead(self.group_id, names=names, keys=keys, pairs=pairs, episodes=episodes,
                            at=self.now if self.summarizing and names else None)

    def read_ahead_keys(self, keys: Sequence[tuple[Entity, str]]) -> None:
        """Tell the store this write will read every assertion and current row of these
        (subject, relation) keys (:meth:`start_many` of keys with a history), so a store behind a
        network reads them in one round trip."""
        whole = [(subject.id, normalize_relation(relation)) for subject, relation in keys]
        if whole:
            self._tx.read_ahead(self.group_id, whole_keys=whole)

    def read_ahead_summaries(self) -> None:
        """Before a summary refresh: tell the store which entities' summaries and newest facts it
        will read (those this write changed and did not create, whose facts it knows itself)."""
        ids = [i for i in self.touched if i not in self._created_ids]
        if ids:
            self._tx.read_ahead(self.group_id, summaries_of=ids, at=self.now)

    def existing(self, name: str) -> Entity | None:
        """The entity of this group known by ``name`` (spelled exactly so, else case- and
        space-insensitively), or None; creates nothing."""
        if self._held_entities:
            # Created in this write under the name's key: the store holds no entity of that key.
            held = self._held_entities.get(name_key(clean_name(name)))
            if held is not None:
                return held
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

    def rows_holding(
        self, subject: Entity, relation: str, at: datetime, *, limit: int | None = 8
    ) -> list[Fact]:
        """Current rows of ``subject relation *`` valid at ``at``, among the ``limit`` that start
        latest at or before it (None: all of them): through the key's index, so a long history
        costs nothing (each claimant's timeline holds at most one row at a moment). Rows without
        their provenance (:meth:`StoreTx.key_rows`): for deciding, never to hand out."""
        before = just_after(at) if at < LATEST else None
        rows = self._tx.key_rows(RowQuery(self.group_id, subject.id, normalize_relation(relation),
                                          before=before, latest_first=True, limit=limit))
        return [r for r in rows if r.invalid_at is None or r.invalid_at > at]

    # -- what a message told, for retracting and erasing ------------------------------------------
    def episode_record(self, episode_id: str) -> Episode | None:
        found = self._tx.episodes(self.group_id, ids=[episode_id])
        return found[0] if found else None

    def episode_statements(self, episode_id: str) -> list[Assertion]:
        """Every assertion citing the episode: its statements and withdrawals of it."""
        return self._tx.episode_assertions(self.group_id, episode_id)

    def entity_statements(self, entity_id: str) -> list[Assertion]:
        """Every assertion with the entity as subject or object."""
        return self._tx.entity_assertions(self.group_id, entity_id)

    def rows_citing(self, episode_id: str) -> list[Fact]:
        """Every version, current or expired, citing the episode."""
        return self._tx.rows_citing(self.group_id, episode_id)

    def versions_of_entity(self, entity_id: str) -> list[Fact]:
        """Every version, current or expired, with the entity as subject or object."""
        return [
            *self._tx.facts(FactQuery(self.group_id, subject_id=entity_id, all_versions=True)),
            *(f for f in self._tx.facts(FactQuery(self.group_id, object_id=entity_id, all_versions=True))
              if f.subject_id != entity_id),
        ]

    def mark_retracted(self, episode_id: str) -> None:
        """The message is withdrawn; insights citing it stop being believed with it."""
        self._tx.apply(ChangeSet(episodes_retracted=[(self.group_id, episode_id, self.now)],
                                 insights_expire_citing=[(self.group_id, episode_id, self.now)]))

    def erase(self, erasure: Erasure, receipt: ErasureReceipt | None = None) -> None:
        """Remove the records of ``erasure`` for good, with every insight version citing one of
        them (then :meth:`rederive` what they touched); ``receipt`` goes into the erasure log."""
        if erasure or receipt is not None:
            cited = [*erasure.rows, *erasure.episodes]
            self._tx.apply(ChangeSet(erasures=[erasure] if erasure else [],
                                     insights_deleted_citing=[(self.group_id, i) for i in cited],
                                     erasure_receipts=[receipt] if receipt is not None else []))

    def insights_citing(self, cited: Iterable[str]) -> list[str]:
        """The ids of the group's insight versions (any) citing one of ``cited`` (what :meth:`erase`
        deletes with them)."""
        wanted = set(cited)
        return [i.id for i in self._tx.insights(self.group_id, all_versions=True)
                if wanted.intersection(i.derived_from)]

    # -- data derived from the rows, kept in the same transaction -----------------------------------
    def newest_facts(self, entity_id: str, *, limit: int, offset: int = 0) -> list[Fact]:
        """The entity's current rows not ended at this write's time, newest first (see
        :meth:`StoreTx.newest_facts`), as this write leaves them."""
        if entity_id in self._created_ids:
            # Created by this write, so every current row naming it is one this write inserted:
            # no need to ask the store (a bulk load summarises thousands of new entities a batch).
            if self._created_rows is None:
                self._created_rows = _newest_rows_naming(self._rows.values(), self._created_ids, self.now)
            return self._created_rows.get(entity_id, [])[offset : offset + max(0, limit)]
        return self._tx.newest_facts(self.group_id, entity_id, at=self.now, limit=limit, offset=offset)

    def summaries(self, entity_id: str, *, all_versions: bool = False) -> list[EntitySummary]:
        """The entity's current summary (a list of at most one), or every version of it."""
        return self._tx.summaries(self.group_id, entity_id, all_versions=all_versions)

    def write_summaries(
        self, versions: Sequence[EntitySummary], ended: Sequence[tuple[str, datetime]] = (),
        refreshed: Sequence[str] = (),
    ) -> None:
        """Each of ``versions`` supersedes its entity's current summary; each ``(entity_id, at)`` of
        ``ended`` ends that entity's summary with no successor; the entities ``refreshed`` (those
        too, and those whose summary stays as it is) no longer wait for a refresh."""
        changes = ChangeSet(summaries=list(versions),
                            summaries_ended=[(self.group_id, e, at) for e, at in ended],
                            summary_due=[(self.group_id, e, False) for e in refreshed])
        if changes:
            self._tx.apply(changes)
            self.summaries_written += len(versions) + len(ended)

    def summaries_due(self, entity_ids: Sequence[str]) -> None:
        """These entities' facts changed and their summaries were not refreshed: mark them for
        ``refresh_summaries``."""
        if entity_ids:
            self._tx.apply(ChangeSet(summary_due=[(self.group_id, e, True) for e in entity_ids]))

    def stored_fact_vectors(self, fact_ids: Sequence[str]) -> dict[str, list[float]]:
        """Vectors already stored on versions of these facts, by text (see :meth:`StoreTx.fact_vectors`)."""
        return self._tx.fact_vectors(self.group_id, list(fact_ids)) if fact_ids else {}

    def write_vectors(self, changes: ChangeSet) -> None:
        """Store the vectors of ``changes`` (what this write added, embedded) in this transaction."""
        self._tx.apply(changes)

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
        if self._held is not None and not exact:
            self._held.entities.append(entity)
            self._held_entities[key[0]] = entity
        else:
            self._tx.apply(ChangeSet(entities=[entity]))
        self.entities_created.append(entity)
        self._created_ids.add(entity.id)
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
        key = self._key(subject, relation)
        cardinality = self.ontology.cardinality(relation)
        empty = cardinality == "one" and valid_at is None and self._timeline_empty(key, claimed_by)
        at = resolve_start(valid_at, cardinality=cardinality, timeline_empty=empty,
                           default_start=default_start)
        if at is not None and invalid_at is not None and invalid_at <= at:
            raise InvalidInput(
                f"invalid_at {invalid_at.isoformat()} is not after the fact's start {at.isoformat()}"
            )
        statement = self._assertion(
            key, obj.id, "start", at=at, until=invalid_at, episode_id=episode_id,
            text=text or fact_words(subject.name, relation, obj.name),
            confidence=confidence, importance=importance, attributes=attributes,
        )
        plan, segments = self._write(subject, key, statement)
        outcome = Outcome()
        own = next((s for s in segments if statement in s.assertions), None)
        if own is not None:
            row = plan.row_for(own)
            merged = any(k.id == row.id for k in plan.kept)
            if merged and self.whole_merged_rows:  # as it now stands: read without provenance, it gained some
                (row,) = self._as_stored([row])
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
        key = self._key(subject, normalize_relation(relation))
        statement = self._assertion(
            key, obj.id if obj else None, "end", at=at, episode_id=episode_id, text=text or "",
            confidence=1.0, attributes=_attributed(None, claimed_by),
        )
        plan, segments = self._write(subject, key, statement)
        ended = [plan.row_for(s) for s in segments if statement in s.assertions]
        return Outcome(ended=self._as_stored(ended))

    def retract(
        self, subject: Entity, relation: str, obj: Entity, *, episode_id: str | None = None,
        claimed_by: str | None = None,
    ) -> Outcome:
        """Everything said so far about ``subject relation obj`` was wrong (everything
        ``claimed_by`` claimed, when given)."""
        key = self._key(subject, normalize_relation(relation))
        statement = self._assertion(
            key, obj.id, "retract", episode_id=episode_id, text="", confidence=1.0,
            attributes=_attributed(None, claimed_by),
        )
        plan, _ = self._write(subject, key, statement)
        return Outcome(retracted=self._as_stored([r for r in plan.expire if r.object_id == obj.id]))

    def withdraw(self, subject: Entity, relation: str, episode_id: str) -> Plan:
        """Everything episode ``episode_id`` told about ``subject relation *`` is void, as of now in
        transaction time: the key is derived again without it, so what only it supported expires,
        what it had ended or superseded holds again, and rows citing it get a version that does not
        (``retract_episode``)."""
        key = self._key(subject, relation)
        statement = self._assertion(key, None, "withdraw", episode_id=episode_id, text="", confidence=1.0)
        return self.rederive(subject, relation, new=[statement], dropped_episodes=frozenset({episode_id}))

    def withdraw_entity(self, subject: Entity, relation: str, entity_id: str, kind: AssertionKind) -> Plan:
        """Void (``kind`` "withdraw") everything said so far about ``subject relation *`` naming the
        entity ``entity_id``, as subject or object, or undo that ("restore"), as of now in
        transaction time; the key is derived again (``retract_entity``, ``restore_entity``)."""
        statement = self._assertion(self._key(subject, relation), entity_id, kind, text="", confidence=1.0)
        return self.rederive(subject, relation, new=[statement])

    # -- supersession the caller states (core.message_links) ---------------------------------------
    def key_holder(self, key: str, at: datetime) -> Segment | None:
        """The stretch of ``key``'s timeline holding at ``at`` (None: none yet)."""
        told = self._tx.assertions(self.group_id, key_subject(self.group_id, key), KEY_RELATION)
        return next((s for s in reversed(key_timeline(told)) if s.valid_at is None or s.valid_at <= at), None)

    def key_message(self, episode: Episode, key: str, mark: str | None = None) -> KeyPlace:
        """Put the message on the timeline of ``key`` at its reference time, its content as the
        object (``mark``: the mark of content it says again, so it confirms that); returns where
        it now stands there."""
        subject = key_subject(self.group_id, key)
        told = self._tx.assertions(self.group_id, subject, KEY_RELATION)
        statement = self._link(subject, KEY_RELATION, mark or content_mark(episode.content), "start",
                               at=episode.reference_time, episode_id=episode.id, text=key,
                               attributes={"key": key})
        placed = place(episode.id, [*told, statement])
        assert placed is not None  # its own start arrived last: it is live and wins any tie
        return placed

    def supersede_message(self, old: Episode, by: Episode) -> None:
        """``by`` replaces ``old`` from ``by``'s reference time (or ``old``'s, if that is later)."""
        self._link(message_topic(self.group_id, old.id), MESSAGE_RELATION, None, "end",
                   at=max(by.reference_time, old.reference_time), episode_id=by.id)

    def mark_message(self, episode_id: str, kind: AssertionKind, entity_id: str) -> None:
        """Withdraw the message from reads because of the entity ``entity_id`` (``retract_entity``),
        or undo that (``restore``)."""
        self._link(message_topic(self.group_id, episode_id), MESSAGE_RELATION, entity_id, kind)

    def withdraw_links(self, episode_id: str, statements: Iterable[Assertion]) -> None:
        """Void what the message ``episode_id`` said on key timelines and message topics
        (``retract_episode``): the messages it superseded hold again."""
        for subject, relation in dict.fromkeys((a.subject_id, a.relation) for a in statements
                                               if a.relation in LINK_RELATIONS):
            self._link(subject, relation, None, "withdraw", episode_id=episode_id)

    def link_statements(self, subject_id: str, relation: str) -> list[Assertion]:
        """Everything said on one key timeline or message topic."""
        return self._tx.assertions(self.group_id, subject_id, relation)

    def _link(self, subject_id: str, relation: str, object_id: str | None, kind: AssertionKind,
              **fields: Any) -> Assertion:
        statement = self._assertion(KeyReader(self._tx, self.group_id, subject_id, relation), object_id, kind,
                                    **{"text": "", "confidence": 1.0, **fields})
        if self._held is None:
            self._tx.apply(ChangeSet(assertions=[statement]))
        else:
            self._held.assertions.append(statement)
        return statement

    def end_told_only_by(self, episode_ids: Iterable[str], *, at: datetime, by: str) -> list[Fact]:
        """End at ``at``, as statements of message ``by``, the facts holding then that no message
        but ``episode_ids`` tells: what a superseded message alone said stops holding when it is
        superseded (a fact the new message tells again cites it too, and goes on)."""
        told = set(episode_ids)
        rows = {r.id: r for e in sorted(told) for r in self._tx.rows_citing(self.group_id, e)
                if r.expired_at is None and set(r.episode_ids) <= told
                and (r.valid_at is None or r.valid_at < at) and (r.invalid_at is None or at < r.invalid_at)}
        ended: list[Fact] = []
        for row in sorted(rows.values(), key=lambda r: (r.subject_id, r.relation, r.object_id, r.id)):
            found = {e.id: e for e in self.entities_by_id([row.subject_id, row.object_id])}
            if row.subject_id in found and row.object_id in found:
                ended += self.end(found[row.subject_id], row.relation, found[row.object_id], at=at,
                                  episode_id=by, claimed_by=claimant(row)).ended
        return ended

    def retract_later_told_only_by(self, episode_ids: Iterable[str], *, at: datetime, by: str) -> list[Fact]:
        """Retract, as statements of message ``by``, the facts beginning at or after ``at`` that only
        ``episode_ids`` ever told: a value the replaced messages alone gave for later ("the venue
        is X, on 14 September") never holds; ending it before it begins would say nothing."""
        told = set(episode_ids)
        rows = {r.id: r for e in sorted(told) for r in self._tx.rows_citing(self.group_id, e)
                if r.expired_at is None and set(r.episode_ids) <= told and r.valid_at is not None
                and r.valid_at >= at}
        retracted: list[Fact] = []
        for row in sorted(rows.values(), key=lambda r: (r.subject_id, r.relation, r.object_id, r.id)):
            starts = [a for a in self._tx.assertions(self.group_id, row.subject_id, row.relation)
                      if a.kind == "start" and a.object_id == row.object_id]
            if any(a.episode_id not in told for a in starts):
                continue
            found = {e.id: e for e in self.entities_by_id([row.subject_id, row.object_id])}
            if row.subject_id in found and row.object_id in found:
                retracted += self.retract(found[row.subject_id], row.relation, found[row.object_id],
                                          episode_id=by, claimed_by=claimant(row)).retracted
        return retracted

    def rederive(
        self, subject: Entity, relation: str, *, new: Sequence[Assertion] = (),
        dropped_episodes: frozenset[str] = frozenset(),
    ) -> Plan:
        """Derive the whole timeline of ``subject relation *`` again from its assertions (and ``new``
        ones, appended) and bring its current rows in line: after a withdrawal, or after an erasure
        removed assertions and rows. Rows citing ``dropped_episodes`` are replaced."""
        every = [*self._tx.assertions(self.group_id, subject.id, relation), *new]
        current = self._tx.current_rows(self.group_id, subject.id, relation)
        scope = Scope(current, derive_timeline(every, self.ontology.cardinality(relation)))
        tx_time = max([self.now, *(a.created_at for a in new), *(r.created_at for r in current)])
        return self._apply(subject, relation, scope, new, tx_time, dropped_episodes)

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
        latest = None if fresh else self._key(subject, relation).latest()
        seq = latest.seq if latest else -1
        created_at = max(self.now, latest.created_at) if latest else self.now
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
                text=item.text or fact_words(subject.name, relation, item.object.name),
            )
            added.append(statement)
            # As in start(): an item's unknown start reads the key's own timeline, which a claim
            # given in its attributes (``claimed_by``) does not make live.
            live_start = live_start or claimant(statement) is None
        if not added:
            return [], refused
        # A whole batch of one key is derived in full: its cost is shared by the batch.
        current = [] if fresh else self._tx.current_rows(self.group_id, subject.id, relation)
        scope = Scope(current, derive_timeline([*assertions, *added], cardinality))
        plan = self._apply(subject, relation, scope, added, added[-1].created_at)
        return plan.insert, refused

    # -- internals -----------------------------------------------------------------------------
    def _as_stored(self, rows: Sequence[Fact]) -> list[Fact]:
        """``rows`` as the store now holds them (expired ones too), provenance included, in order:
        a write reads a key's rows without their provenance (``StoreTx.key_rows``), so a row it
        hands back is read again, by id; one this write inserted is known whole already."""
        known = self._read_whole
        wanted = tuple(r.id for r in rows if r.id not in self._rows and r.id not in known)
        if wanted:
            found = self._tx.facts(FactQuery(self.group_id, ids=wanted, all_versions=True))
            known.update((f.id, f) for f in found)
        return [self._rows.get(r.id) or known[r.id] for r in rows]

    def _cite(self, row_id: str, episode_ids: Sequence[str]) -> None:
        """A row held here gains the episodes it does not cite yet, as the store skips repeats;
        checked against a set, so a row cited thousands of times is not walked per citation."""
        for held in (self._rows, self._read_whole):
            row = held.get(row_id)
            if row is None:
                continue
            cited = self._citations.get(row_id)
            if cited is None:  # made once per row and write (made per citation, it cost what the row cites)
                cited = self._citations[row_id] = set(row.episode_ids)
            new = tuple(e for e in dict.fromkeys(episode_ids) if e not in cited)
            if new:
                cited.update(new)
                held[row_id] = row.model_copy(update={"episode_ids": row.episode_ids + new})

    def _key(self, subject: Entity, relation: str) -> KeyReader:
        return KeyReader(self._tx, self.group_id, subject.id, relation)

    def _timeline_empty(self, key: KeyReader, claimed_by: str | None) -> bool:
        """Whether ``claimed_by``'s timeline of the key has no live start, which is when it has no
        current row (a live start always lands in a segment that is not empty)."""
        if self.full_derivation:
            same_voice = [a for a in self._tx.assertions(self.group_id, key.subject_id, key.relation)
                          if claimant(a) == claimed_by]
            return not any(a.kind == "start" for a in live_assertions(same_voice))
        return key.latest_row(Stream(claimed_by, None)) is None

    def _assertion(
        self, key: KeyReader, object_id: str | None, kind: AssertionKind, **fields: Any
    ) -> Assertion:
        """A new assertion about the key, arriving after every earlier one. Transaction time never
        runs backwards for a key, so no row expires before it was made."""
        latest = key.latest()
        created_at = max(self.now, latest.created_at) if latest else self.now
        return Assertion(
            id=new_id(), group_id=self.group_id, subject_id=key.subject_id, relation=key.relation,
            object_id=object_id, kind=kind, created_at=created_at, seq=latest.seq + 1 if latest else 0,
            **fields,
        )

    def _write(self, subject: Entity, key: KeyReader, statement: Assertion) -> tuple[Plan, list[Segment]]:
        """Append ``statement`` and bring the rows it changes in line; returns the plan and the
        segments of the stretch it re-derived."""
        cardinality = self.ontology.cardinality(key.relation)
        if self.full_derivation:
            every = [*self._tx.assertions(self.group_id, subject.id, key.relation), statement]
            current = self._tx.current_rows(self.group_id, subject.id, key.relation)
            scope = Scope(current, derive_timeline(every, cardinality))
        else:
            scope = affected(key, statement, cardinality)
        return self._apply(subject, key.relation, scope, [statement], statement.created_at), scope.segments

    def _apply(
        self, subject: Entity, relation: str, scope: Scope, new: Sequence[Assertion], tx_time: datetime,
        dropped_episodes: frozenset[str] = frozenset(),
    ) -> Plan:
        """Append the assertions ``new`` and turn ``scope`` (rows, and the segments they must
        become) into row changes at ``tx_time``."""
        segments, current = scope.segments, scope.rows
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

        plan = reconcile(current, segments, new_id=new_id, make_row=make_row,
                         dropped_episodes=dropped_episodes)
        plan.at = tx_time
        for row in plan.expire:
            self._rows.pop(row.id, None)
            self._read_whole.pop(row.id, None)  # read again if handed back: it now has an end
            self._citations.pop(row.id, None)
        self._rows.update((row.id, row) for row in plan.insert)
        for row_id, episode_ids in plan.provenance.items():  # rows held here, as they now stand
            self._cite(row_id, episode_ids)
        self._created_rows = None
        for row in (*plan.expire, *plan.insert):
            self.touched.update({row.subject_id: None, row.object_id: None})
        changes = ChangeSet(
            assertions=list(new), expire=[(r.id, tx_time) for r in plan.expire], insert=plan.insert,
            provenance=plan.provenance,
            # An insight follows its evidence: it stops being believed with any row it cites.
            insights_expire_citing=[(self.group_id, r.id, tx_time) for r in plan.expire],
        )
        held = self._held
        if held is None:
            self._tx.apply(changes)
        else:
            held.assertions += changes.assertions
            held.expire += changes.expire
            held.insert += changes.insert
            held.provenance.update(changes.provenance)
            held.insights_expire_citing += changes.insights_expire_citing
        return plan

    @contextmanager
    def rows_together(self) -> Iterator[None]:
        """Hold back the row changes of the keys written inside, and the entities created inside,
        and apply them as one change set at the end (one statement per kind of change instead of
        several per key). Only for writes that never read back a key they wrote inside (a bulk load
        writes each key once); entities created inside are found by :meth:`existing` meanwhile."""
        if self._held is not None:
            yield
            return
        self._held = ChangeSet()
        try:
            yield
            held = self._held
        finally:
            self._held = None
            self._held_entities = {}
        if held:
            self._tx.apply(held)

    def release_rows(self) -> None:
        """Inside :meth:`rows_together`: apply the changes held so far now, and go on holding (a
        store may insert them while the caller derives the next)."""
        if self._held:
            held, self._held = self._held, ChangeSet()
            self._tx.apply(held)

    def _name_of(self, entity_id: str) -> str:
        if entity_id in self._seen:
            return self._seen[entity_id].name
        found = self.entities_by_id([entity_id])
        if not found:
            raise InvalidInput(f"entity {entity_id} does not exist in group {self.group_id!r}")
        return found[0].name
