"""What a Neo4j write transaction has read ahead, and the reads it answers from it.

A write reads a few things many times: the entities its names answer to, and the end of each
(subject, relation) timeline it writes (the assertion that arrived last, the latest rows, the
statements told for moments there). :class:`Neo4jTx` reads them in one statement
(``cypher/write_read_ahead.cypher``) and answers from here every read whose whole answer is held,
going to the server for the rest. What the write changes meanwhile is applied here too (its
changes reach the server together, later), so an answer is always what the server would give.

A :class:`KeyWindow` holds every current row of its key starting at or after ``bound`` (all of
them when ``bound`` is None), every start and ending told for a moment at or after it (``events``;
None when there were too many to keep) and the key's retractions, withdrawals and restorations
(``voids``; None likewise). Moments are keys in microseconds, an unknown one before every date.

A window may also hold whole pairs (:class:`PairWindow`): every current row and every assertion
of one object of the key, whatever its moments, for a write to a many-valued relation whose key
has more rows than the window holds; and the assertions of no object (endings of whatever held).
An object this write created has empty pairs: nothing was told of it before.
"""

from __future__ import annotations

from collections.abc import Set as AbstractSet
from dataclasses import dataclass, field
from typing import Any

from ..model import Assertion, Entity, Fact
from ..names import entity_keys
from ..time import to_micros
from .protocol import AssertionQuery, RowQuery

UNDATED = -(2**62)  # the key of an unknown start or moment: before every date
LATEST = 2**62  # a bound after every date
_EVENT_KINDS = frozenset({"start", "end"})
_VOID_KINDS = frozenset({"retract", "withdraw", "restore"})


def moment_key(moment: Any) -> int:
    return UNDATED if moment is None else to_micros(moment)


@dataclass
class PairWindow:
    """Everything of one (subject, relation, object): its current rows and every assertion told
    of it (each None when there were too many to keep)."""

    rows: dict[str, Fact] | None = field(default_factory=dict)
    told: list[Assertion] | None = field(default_factory=list)


@dataclass
class KeyWindow:
    """The end of one key's timeline, as this transaction sees it."""

    latest: Assertion | None
    bound: int | None  # rows and events at or after this moment are all held (None: every one)
    rows: dict[str, Fact] = field(default_factory=dict)  # current rows, without provenance
    events: list[Assertion] | None = None  # starts and endings at or after bound
    voids: list[Assertion] | None = None  # retractions and withdrawals, every one
    # object id -> the whole pair; "" -> the assertions of no object (endings of whatever held)
    pairs: dict[str, PairWindow] = field(default_factory=dict)

    def covers(self, moment: int) -> bool:
        return self.bound is None or moment >= self.bound

    # -- answers (None: not all of the answer is held) -----------------------------------------
    def key_rows(self, query: RowQuery) -> list[Fact] | None:
        start_from = UNDATED if query.since is None else to_micros(query.since)
        start_before = LATEST if query.before is None else to_micros(query.before)
        ending_after = None if query.ending_after is None else to_micros(query.ending_after)
        pair = self.pairs.get(query.object_id) if query.object_id is not None else None
        whole = None if pair is None else pair.rows
        found = [
            f for f in (self.rows if whole is None else whole).values()
            if (query.object_id is None or f.object_id == query.object_id)
            and start_from <= moment_key(f.valid_at) < start_before
            and (ending_after is None or f.invalid_at is None or to_micros(f.invalid_at) > ending_after)
        ]
        found.sort(key=lambda f: (moment_key(f.valid_at), f.id), reverse=query.latest_first)
        limit = query.limit
        enough = query.latest_first and limit is not None and len(found) >= limit
        if whole is None and not (self.covers(start_from) or enough):
            return None
        return found if limit is None else found[: max(0, limit)]

    def key_assertions(self, query: AssertionQuery) -> list[Assertion] | None:
        kinds = {"end"} if query.endings_of_all else set(query.kinds)
        at_from = UNDATED if query.since is None else to_micros(query.since)
        at_through = LATEST if query.through is None else to_micros(query.through)
        object_key = "" if query.endings_of_all else query.object_id
        held = self._held_assertions(kinds, at_from, object_key)
        if held is None:
            return None
        return [a for a in held if a.kind in kinds and at_from <= moment_key(a.at) <= at_through
                and (object_key is None or (a.object_id or "") == object_key)]

    def _held_assertions(
        self, kinds: AbstractSet[str], at_from: int, object_key: str | None,
    ) -> list[Assertion] | None:
        """Assertions among which are all those of ``kinds`` told for a moment at or after
        ``at_from`` (of the object ``object_key`` when given), or None when some are not held."""
        pair = self.pairs.get(object_key) if object_key is not None else None
        if pair is not None and pair.told is not None:
            return pair.told
        if kinds - _EVENT_KINDS - _VOID_KINDS:
            return None
        held: list[Assertion] = []
        if kinds & _EVENT_KINDS:
            if self.events is None or not self.covers(at_from):
                return None
            held += self.events
        if kinds & _VOID_KINDS:
            if self.voids is None:
                return None
            held += self.voids
        return held

    # -- what the write changes ----------------------------------------------------------------
    def told(self, a: Assertion) -> None:
        if self.latest is None or (a.created_at, a.seq) >= (self.latest.created_at, self.latest.seq):
            self.latest = a
        if a.kind in _EVENT_KINDS:
            if self.events is not None and self.covers(moment_key(a.at)):
                self.events.append(a)
        elif a.kind in _VOID_KINDS:
            if self.voids is not None:
                self.voids.append(a)
        pair = self.pairs.get(a.object_id or "")
        if pair is not None and pair.told is not None:
            pair.told.append(a)

    def inserted(self, f: Fact) -> None:
        if f.expired_at is not None:
            return
        bare = f.model_copy(update={"episode_ids": ()}) if f.episode_ids else f
        if self.covers(moment_key(f.valid_at)):
            self.rows[f.id] = bare
        pair = self.pairs.get(f.object_id)
        if pair is not None and pair.rows is not None:
            pair.rows[f.id] = bare

    def expired(self, row_id: str) -> None:
        self.rows.pop(row_id, None)
        for pair in self.pairs.values():
            if pair.rows is not None:
                pair.rows.pop(row_id, None)


@dataclass
class ReadAhead:
    """Everything one write transaction read ahead, kept as the write changes it."""

    entities: dict[tuple[str, str], Entity | None] = field(default_factory=dict)  # (group, key)
    windows: dict[tuple[str, str, str], KeyWindow] = field(default_factory=dict)  # (group, subject, rel)
    _keys_of: dict[tuple[str, str], set[str]] = field(default_factory=dict)  # (group, entity id) -> keys held

    def entity_by_key(self, group_id: str, key: str) -> tuple[bool, Entity | None]:
        """(whether the answer is held, the entity)."""
        found = self.entities.get((group_id, key), _MISSING)
        return (False, None) if found is _MISSING else (True, found)  # type: ignore[return-value]

    def hold(self, group_id: str, key: str, entity: Entity | None) -> None:
        """The answer of a lookup of ``key``."""
        self.entities[(group_id, key)] = entity
        if entity is not None:
            self._keys_of.setdefault((group_id, entity.id), set()).add(key)

    def window(self, group_id: str, subject_id: str, relation: str) -> KeyWindow | None:
        return self.windows.get((group_id, subject_id, relation))

    def entity_written(self, e: Entity, keys: list[str]) -> None:
        """``e`` was created or updated (its type, aliases, summary); ``keys`` are the keys it
        claims, each kept only where no entity held it (as ``entity_keys_add`` does). An entity
        none of whose own name's keys answered to anyone is new: its pairs are empty."""
        if (e.group_id, e.id) not in self._keys_of and all(
            self.entities.get((e.group_id, k), _MISSING) is None for k in entity_keys((e.name,))
        ):
            for (group_id, _, _), window in self.windows.items():
                if group_id == e.group_id:
                    window.pairs.setdefault(e.id, PairWindow())
        stored = e
        for k in self._keys_of.get((e.group_id, e.id), ()):
            held = self.entities[(e.group_id, k)]
            if held is not None:
                # An update keeps the stored name and creation time (entity_upsert sets them once).
                stored = held.model_copy(update={"type": e.type, "aliases": e.aliases, "summary": e.summary})
                self.entities[(e.group_id, k)] = stored
        for key in keys:
            if (e.group_id, key) in self.entities and self.entities[(e.group_id, key)] is None:
                self.hold(e.group_id, key, stored)

    def told(self, a: Assertion) -> None:
        window = self.windows.get((a.group_id, a.subject_id, a.relation))
        if window is not None:
            window.told(a)

    def inserted(self, f: Fact) -> None:
        window = self.windows.get((f.group_id, f.subject_id, f.relation))
        if window is not None:
            window.inserted(f)

    def expired(self, row_id: str) -> None:
        for window in self.windows.values():
            window.expired(row_id)


_MISSING = object()
