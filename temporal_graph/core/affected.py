"""What one statement can change on its key, read through the store's indexes, and what it becomes.

A key's current rows are its derived timeline (:func:`rules.derive_timeline`), so a write need not
derive the whole key again, nor read it. A statement belongs to one *stream*: the timeline of one
claimant (:func:`rules.claimant`), of one object with the endings of everything for a relation of
many objects, or of every object for a relation of one object at a time. Within its stream it can
change only a stretch: from the start of the last row starting before its moment (a sweep can
begin there afresh, :func:`rules.replay`) to the first later row start where the re-derived
sweep is back in step with the stored rows. Only that stretch's assertions and rows are read.

- A start that only restates the object holding where it lands (:func:`rules.merges_into`): that
  row, which gains the statement's provenance; nothing else is read.
- A start, or an ending of one object: its stream, around its moment.
- An ending of whatever held, many objects: the stream of each object holding at its moment (an
  ending where nothing holds changes nothing).
- A retraction: its stream, from the first to the last moment of what it cancels.
- A withdrawal of an episode (``retract_episode``) re-derives the whole key instead
  (:meth:`writer.FactWriter.rederive`); later statements read the withdrawals with the retractions.

An undated statement counts as the earliest, so its stretch begins where the stream begins. The
full derivation stays the reference: tests/test_incremental.py checks both agree.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime, timedelta
from typing import Any

from .model import Assertion, AssertionKind, Fact
from .ontology import Cardinality
from .rules import Segment, claimant, live_assertions, merges_into, replay
from .stores.protocol import AssertionQuery, RowQuery, StoreTx
from .time import LATEST

# Rows read at first (then 4 times more each time) while looking for a stream's row among other
# claimants' rows.
PAGE = 2
_EARLIEST = datetime.min.replace(tzinfo=UTC)  # before every dated row: a bound that keeps only undated ones
_EVENTS: tuple[AssertionKind, ...] = ("start", "end")


def just_after(moment: datetime) -> datetime:
    """The first representable moment after ``moment`` (times are kept to the microsecond)."""
    return moment + timedelta(microseconds=1)


@dataclass(frozen=True)
class Stream:
    """One timeline of a key: a claimant's (None: the memory's own belief), of one object (a
    relation of many objects) or of every object (``object_id`` None: one object at a time)."""

    claimant: str | None
    object_id: str | None

    def has_row(self, row: Fact) -> bool:
        return claimant(row) == self.claimant and self.object_id in (None, row.object_id)

    def has(self, a: Assertion) -> bool:
        if claimant(a) != self.claimant:
            return False
        return self.object_id in (None, a.object_id) or (a.kind == "end" and a.object_id is None)


@dataclass
class Scope:
    """The current rows a statement can change and the segments they become (the rest stand)."""

    rows: list[Fact] = field(default_factory=list)
    segments: list[Segment] = field(default_factory=list)

    def add(self, other: Scope) -> None:
        self.rows += other.rows
        self.segments += other.segments


@dataclass(frozen=True)
class KeyReader:
    """The reads of one (group, subject, relation) inside a write transaction."""

    tx: StoreTx
    group_id: str
    subject_id: str
    relation: str

    def latest(self) -> Assertion | None:
        """The assertion about the key that arrived last."""
        return self.tx.latest_assertion(self.group_id, self.subject_id, self.relation)

    def _rows(self, **query: Any) -> list[Fact]:
        return self.tx.key_rows(RowQuery(self.group_id, self.subject_id, self.relation, **query))

    def _assertions(self, **query: Any) -> list[Assertion]:
        return self.tx.key_assertions(AssertionQuery(self.group_id, self.subject_id, self.relation, **query))

    def latest_row(self, stream: Stream, before: datetime | None = None) -> Fact | None:
        """The stream's row with the latest start before ``before`` (None: any); an unknown start
        is the earliest. Other claimants' rows are skipped, a growing page at a time."""
        limit = PAGE
        while True:
            rows = self._rows(object_id=stream.object_id, before=before, latest_first=True,
                               limit=limit)
            found = next((r for r in rows if stream.has_row(r)), None)
            if found is not None or len(rows) < limit:
                return found
            limit *= 4

    def row_before(self, stream: Stream, moment: datetime | None, *, inclusive: bool = False) -> Fact | None:
        """The stream's row with the latest start before ``moment`` (at or before it, with
        ``inclusive``); ``moment`` None is the earliest, where only undated rows start."""
        if moment is None:
            return self.latest_row(stream, _EARLIEST) if inclusive else None
        if inclusive and moment < LATEST:
            return self.latest_row(stream, just_after(moment))
        return self.latest_row(stream, None if inclusive else moment)

    def rows_after(self, stream: Stream, moment: datetime | None) -> Iterator[Fact]:
        """The stream's rows starting after ``moment`` (None: every dated row), earliest first,
        read a page at a time as the caller goes on."""
        if moment == LATEST:
            return  # no time comes after the last one
        since = _EARLIEST if moment is None else just_after(moment)
        seen: set[str] = set()
        limit = PAGE
        while True:
            rows = self._rows(object_id=stream.object_id, since=since, limit=limit)
            for row in rows:
                if row.id not in seen:
                    seen.add(row.id)
                    if stream.has_row(row):
                        yield row
            if len(rows) < limit:
                return
            last = rows[-1].valid_at
            assert last is not None  # dated rows only
            if last == since:  # a page of rows all starting at one moment: read a larger one
                limit *= 4
            since = last

    def rows_between(self, stream: Stream, since: datetime | None, before: datetime | None) -> list[Fact]:
        """The stream's rows starting in [since, before) (None: from the earliest / no end)."""
        rows = self._rows(object_id=stream.object_id, since=since, before=before)
        return [r for r in rows if stream.has_row(r)]

    def holding(self, who: str | None, moment: datetime) -> list[Fact]:
        """``who``'s rows (every object) that began before ``moment`` and still hold after it."""
        rows = self._rows(before=moment, ending_after=moment)
        return [r for r in rows if claimant(r) == who]

    def events(self, stream: Stream, since: datetime | None, through: datetime | None) -> list[Assertion]:
        """The stream's starts and endings told for a moment in [since, through] (None: from the
        earliest, undated ones included / no end)."""
        if stream.object_id is None:
            found = self._assertions(kinds=_EVENTS, since=since, through=through)
        else:
            found = [
                *self._assertions(kinds=_EVENTS, object_id=stream.object_id, since=since, through=through),
                *self._assertions(endings_of_all=True, since=since, through=through),
            ]
        return [a for a in found if stream.has(a)]

    def retractions(self, stream: Stream) -> list[Assertion]:
        """The stream's retractions, and the withdrawals of episodes on the key (they void
        statements of every object and claimant)."""
        found = self._assertions(kinds=("retract",), object_id=stream.object_id)
        return [a for a in found if claimant(a) == stream.claimant] + self.withdrawals()

    def withdrawals(self) -> list[Assertion]:
        return self._assertions(kinds=("withdraw", "restore"))

    def about(self, who: str | None, object_id: str | None) -> list[Assertion]:
        """Everything ``who`` said about one object of the key."""
        return [a for a in self._assertions(object_id=object_id) if claimant(a) == who]


def stream_of(statement: Assertion, cardinality: Cardinality) -> Stream:
    return Stream(claimant(statement), statement.object_id if cardinality == "many" else None)


def affected(key: KeyReader, statement: Assertion, cardinality: Cardinality) -> Scope:
    """The rows ``statement`` (not yet stored) can change on its key, and what they become."""
    who = claimant(statement)
    if statement.kind == "start":
        stream = stream_of(statement, cardinality)
        holder = key.row_before(stream, statement.at, inclusive=True)
        if holder is not None and merges_into(holder, statement):
            # Only the statement is needed: the kept row gains its provenance (rules.reconcile).
            joined = Segment(holder.object_id, holder.valid_at, holder.invalid_at, (statement,), who)
            return Scope([holder], [joined])
        return _stretch(key, stream, [statement], statement)
    if statement.kind == "end" and statement.object_id is None and cardinality == "many":
        assert statement.at is not None
        scope = Scope()
        for row in key.holding(who, statement.at):
            scope.add(_stretch(key, Stream(who, row.object_id), [statement], statement))
        return scope
    if statement.kind == "end":
        return _stretch(key, stream_of(statement, cardinality), [statement], statement)
    cancelled = live_assertions([*key.about(who, statement.object_id), *key.withdrawals()])
    return _stretch(key, stream_of(statement, cardinality), cancelled, statement)


def _stretch(key: KeyReader, stream: Stream, changed: Sequence[Assertion], statement: Assertion) -> Scope:
    """Re-derive the stretch of ``stream`` that the events ``changed`` (told at their moments) can
    affect once ``statement`` is added: from the start of the last row before the earliest of
    them, row start by row start after the latest, until the sweep is back in step."""
    moments = [a.at for a in changed if a.kind != "retract"]
    if not moments:
        return Scope()  # nothing on the timeline changes (a retraction of what was never said)
    first = None if None in moments else min(m for m in moments if m is not None)
    last = max((m for m in moments if m is not None), default=None)
    previous = key.row_before(stream, first)
    since = None if previous is None else previous.valid_at  # None: from where the stream begins
    told = [*key.retractions(stream), statement]
    events: list[Assertion] = []
    read_from = since
    later = key.rows_after(stream, last)
    while True:
        following = next(later, None)
        through = None if following is None else following.valid_at
        events += key.events(stream, read_from, through)
        segments, settled = replay([*events, *told], through)
        if settled or through == LATEST:  # nothing can be told after the last time
            break
        assert through is not None
        read_from = just_after(through)
    rows = key.rows_between(stream, since, through)
    return Scope(rows, [replace(s, claimed_by=stream.claimant) for s in segments])
