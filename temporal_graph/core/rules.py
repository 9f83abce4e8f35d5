"""The bi-temporal rules, as small pure functions.

The memory keeps two things per (group, subject, relation): the append-only *assertions* every
write made (starts, endings, retractions) and the *rows* users query. Rows are a pure function of
the live assertions (:func:`derive_timeline`); a write appends an assertion, derives the timeline
again and :func:`reconcile` turns the difference into "expire these rows, insert those". So

- rows are never edited: a changed interval is a new version (same ``fact_id``, new ``id``);
- the final belief depends on the *set* of assertions, not on their arrival order;
- what was believed at K is exactly the rows with ``created_at <= K < expired_at``.

No store contains any of this logic; stores only persist and answer.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime

from .errors import InvalidInterval
from .intervals import overlaps, valid_interval
from .model import Assertion, AssertionKind, Fact
from .ontology import Cardinality


@dataclass(frozen=True)
class Segment:
    """One derived stretch of valid time during which ``object_id`` held."""

    object_id: str
    valid_at: datetime | None
    invalid_at: datetime | None
    assertions: tuple[Assertion, ...]  # the starts it merges and the ending that closed it
    claimed_by: str | None = None  # the speaker whose claim this is; None: the subject's own belief

    @property
    def key(self) -> tuple[str, datetime | None, datetime | None, str | None]:
        return (self.object_id, self.valid_at, self.invalid_at, self.claimed_by)

    @property
    def episode_ids(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys(a.episode_id for a in self.assertions if a.episode_id))

    @property
    def first_start(self) -> Assertion:
        return next(a for a in self.assertions if a.kind == "start")


@dataclass
class Plan:
    """What a write does to the rows of one (group, subject, relation)."""

    expire: list[Fact] = field(default_factory=list)
    insert: list[Fact] = field(default_factory=list)
    kept: list[Fact] = field(default_factory=list)
    # kept row id -> episodes of its segment the row may not cite yet (a row read without its
    # provenance, StoreTx.key_rows, may cite them already: the store skips those)
    provenance: dict[str, tuple[str, ...]] = field(default_factory=dict)
    by_segment: dict[tuple, Fact] = field(default_factory=dict)  # segment key -> resulting row
    at: datetime | None = None  # the transaction time the plan was applied at (rows expire then)

    def row_for(self, segment: Segment) -> Fact:
        return self.by_segment[segment.key]


def check_interval(valid_at: datetime | None, invalid_at: datetime | None) -> None:
    if valid_at is not None and invalid_at is not None and invalid_at <= valid_at:
        raise InvalidInterval(
            f"invalid_at {invalid_at.isoformat()} must be after valid_at {valid_at.isoformat()}"
        )


def arrival(assertion: Assertion) -> tuple[datetime, int]:
    return (assertion.created_at, assertion.seq)


def claimant(item: Assertion | Fact) -> str | None:
    """Who a statement or row is attributed to: a speaker talking about someone else, or None
    when it is the memory's own belief (the subject speaking, ``add_fact``, ``trust="all"``)."""
    value = item.attributes.get("claimed_by")
    return value if isinstance(value, str) else None


def _uncancelled(
    ordered: list[Assertion], kind: AssertionKind, target: Callable[[Assertion], str | None]
) -> list[Assertion]:
    """``ordered`` (in arrival order) without its ``kind`` assertions and without what a later one
    of them cancels: the assertions with the same ``target`` that arrived before it."""
    cancelled_before: dict[str | None, tuple[datetime, int]] = {}
    for a in ordered:
        if a.kind == kind:
            cancelled_before[target(a)] = arrival(a)
    return [
        a
        for a in ordered
        if a.kind != kind and (target(a) not in cancelled_before or arrival(a) > cancelled_before[target(a)])
    ]


def withdrawal_target(a: Assertion) -> tuple[str, str | None]:
    """What a withdrawal (or a restoration) is about: the statements of one episode
    (``retract_episode``), or those naming one entity as subject or object (``retract_entity``)."""
    return ("episode", a.episode_id) if a.episode_id is not None else ("entity", a.object_id)


def withdrawn(assertions: Iterable[Assertion]) -> list[Assertion]:
    """``assertions`` without those a later withdrawal voided, nor the withdrawals and restorations:
    what the memory would hold had the withdrawn messages (or everything said of a withdrawn
    entity) never been told. A restoration undoes the withdrawals of its target before it."""
    ordered = sorted(assertions, key=arrival)
    withdrawn_at: dict[tuple[str, str | None], tuple[datetime, int]] = {}
    restored_at: dict[tuple[str, str | None], tuple[datetime, int]] = {}
    for a in ordered:
        if a.kind == "withdraw":
            withdrawn_at[withdrawal_target(a)] = arrival(a)
        elif a.kind == "restore":
            restored_at[withdrawal_target(a)] = arrival(a)
    # A target's statements told before its last withdrawal are void, unless it was restored since.
    void_before = {t: at for t, at in withdrawn_at.items() if t not in restored_at or restored_at[t] < at}
    if not void_before:
        return [a for a in ordered if a.kind not in ("withdraw", "restore")]

    def void(a: Assertion) -> bool:
        targets = (("episode", a.episode_id), ("entity", a.subject_id), ("entity", a.object_id))
        return any(t in void_before and arrival(a) < void_before[t] for t in targets)

    return [a for a in ordered if a.kind not in ("withdraw", "restore") and not void(a)]


def live_assertions(assertions: Iterable[Assertion]) -> list[Assertion]:
    """Starts and endings not cancelled by a later retraction of the same object (retractions and
    statements of a withdrawn episode count as never told)."""
    return _uncancelled(withdrawn(assertions), "retract", lambda a: a.object_id)


def resolve_start(
    at: datetime | None, *, cardinality: Cardinality, timeline_empty: bool, default_start: datetime
) -> datetime | None:
    """An unknown start stays "since forever" unless the fact enters an existing one-object
    timeline, where it starts at ``default_start`` so it never overlaps what it supersedes."""
    if at is not None or cardinality == "many" or timeline_empty:
        return at
    return default_start


# Events of the sweep: (time, order, assertion, object). ``None`` time sorts first.
_END, _START = 0, 1  # endings at t apply before starts at t


def _events(assertions: Sequence[Assertion]) -> list[tuple]:
    """Starts and explicit endings in valid-time order (a start's own ``until`` is not an event:
    it travels with the stretch the start belongs to)."""
    events = [
        (a.at, _START if a.kind == "start" else _END, a, a.object_id)
        for a in assertions
        if a.kind in ("start", "end")
    ]
    events.sort(key=lambda e: (e[0] is not None, e[0] or datetime.min, e[1], arrival(e[2])))
    return events


def _later_until(a: datetime | None, b: datetime | None) -> datetime | None:
    """How long a stretch lasts when two statements of it say ``a`` and ``b`` (None: open)."""
    return None if a is None or b is None else max(a, b)


@dataclass
class _Stretch:
    object_id: str
    start: datetime | None
    parts: list[Assertion]
    until: datetime | None  # when every statement of the stretch has run out (None: open)


class _Sweep:
    """One object holds from its start until another object starts, an ending is told, or every
    statement of the stretch has run out; a restatement of the holder extends its stretch.

    Fed events in order (:func:`_events`); ``segments`` are the stretches closed so far and
    ``current`` the one holding after the last event fed."""

    def __init__(self) -> None:
        self.segments: list[Segment] = []
        self.current: _Stretch | None = None

    def _close(self, at: datetime | None, ending: Assertion | None) -> None:
        current = self.current
        assert current is not None
        if current.start is None or at is None or current.start < at:
            parts = tuple(current.parts + ([ending] if ending else []))
            self.segments.append(Segment(current.object_id, current.start, at, parts))
        self.current = None

    def feed(self, event: tuple) -> None:
        at, kind, a, obj = event
        current = self.current
        if current is not None and current.until is not None and at is not None and current.until <= at:
            self._close(current.until, None)  # ran out before this event
            current = None
        if kind == _END:
            if current is not None and (obj is None or obj == current.object_id):
                self._close(at, a)
        elif current is not None and current.object_id == obj:
            current.parts.append(a)  # the same object again: merge, and last as long as the longest
            current.until = _later_until(current.until, a.until)
        else:
            if current is not None:
                self._close(at, None)  # superseded: held until the new object began
            self.current = _Stretch(obj, at, [a], a.until)

    def finish(self) -> list[Segment]:
        if self.current is not None:
            self._close(self.current.until, None)
        return self.segments


def _sweep(events: list[tuple]) -> list[Segment]:
    sweep = _Sweep()
    for event in events:
        sweep.feed(event)
    return sweep.finish()


def derive_timeline(assertions: Iterable[Assertion], cardinality: Cardinality) -> list[Segment]:
    """The valid-time timeline the live assertions of one (group, subject, relation) imply.

    Claims (statements attributed to a speaker about someone else) form one timeline per claimant,
    beside the subject's own: a claim never ends, supersedes or retracts what others said."""
    by_claimant: dict[str | None, list[Assertion]] = {}
    for a in withdrawn(assertions):  # a withdrawal voids its message's statements in every voice
        by_claimant.setdefault(claimant(a), []).append(a)
    segments: list[Segment] = []
    for who in sorted(by_claimant, key=lambda c: (c is not None, c or "")):
        own = _derive(by_claimant[who], cardinality)
        segments.extend(own if who is None else [replace(s, claimed_by=who) for s in own])
    return segments


def _derive(assertions: Iterable[Assertion], cardinality: Cardinality) -> list[Segment]:
    live = live_assertions(assertions)
    if cardinality == "one":
        return _sweep(_events(live))
    # Each object has a timeline of its own; "end all" applies to every one.
    own: dict[str | None, list[Assertion]] = {a.object_id: [] for a in live if a.kind == "start"}
    ending_all = [a for a in live if a.kind == "end" and a.object_id is None]
    for a in live:
        if a.object_id is not None and a.object_id in own:
            own[a.object_id].append(a)
    segments: list[Segment] = []
    for statements in own.values():
        segments.extend(_sweep(_events([*statements, *ending_all])))
    return segments


def replay(assertions: Iterable[Assertion], through: datetime | None) -> tuple[list[Segment], bool]:
    """The timeline of one stream (a claimant's, of one object or of every object) re-derived from
    a moment where one of its stretches begins, by a sweep that starts there with nothing holding.

    ``assertions``: the stream's starts and endings from that moment up to ``through`` (all of them,
    when ``through`` is None), with the retractions that may cancel them. Starting afresh where a
    stretch begins gives what the whole sweep gives from there on: a start that opens a stretch
    does so whatever held before it. Returns the segments closed up to ``through`` and whether, after
    every event at ``through``, a stretch that began at ``through`` holds: then the sweep is back in
    step with the stored timeline, whose row starting at ``through`` and every later one stand.
    """
    sweep = _Sweep()
    for event in _events(live_assertions(assertions)):
        sweep.feed(event)
    if through is None:
        return sweep.finish(), True
    current = sweep.current
    return sweep.segments, current is not None and current.start == through


def merges_into(row: Fact, statement: Assertion) -> bool:
    """Whether the start ``statement`` only joins the stretch of ``row`` (same object, same
    claimant; ``row`` the latest row of that timeline starting at or before the statement), leaving
    every row's interval as it is: the stretch still holds where the statement lands, and ends
    where it ended (it was open, or the statement runs out no later than the row ends)."""
    if row.object_id != statement.object_id or claimant(row) != claimant(statement):
        return False
    if row.invalid_at is None:
        return True  # an open stretch: no statement of it runs out, a restatement changes nothing
    if statement.at is not None and row.invalid_at <= statement.at:
        return False  # the stretch is over where the statement lands
    return statement.until is not None and statement.until <= row.invalid_at


def reconcile(
    current_rows: Sequence[Fact],
    segments: Sequence[Segment],
    *,
    new_id: Callable[[], str],
    make_row: Callable[[Segment, str, str], Fact],
    dropped_episodes: frozenset[str] = frozenset(),
) -> Plan:
    """Turn a derived timeline into row changes: keep exact matches, expire the rest, insert new.

    ``make_row(segment, row_id, fact_id)`` builds the new row; a new version inherits the
    ``fact_id`` of the current row of the same object it revises (same start first, then overlap).
    A row citing one of ``dropped_episodes`` (withdrawn ones) is never kept as it is: a new version
    with the same interval and the provenance that remains replaces it.
    """
    plan = Plan()
    by_key = {(r.object_id, r.valid_at, r.invalid_at, claimant(r)): r for r in current_rows
              if not dropped_episodes.intersection(r.episode_ids)}
    matched: set[str] = set()
    pending: list[Segment] = []
    for seg in segments:
        row = by_key.get(seg.key)
        if row is None:
            pending.append(seg)
            continue
        matched.add(row.id)
        plan.kept.append(row)
        plan.by_segment[seg.key] = row
        extra = tuple(e for e in seg.episode_ids if e not in row.episode_ids)
        if extra:
            plan.provenance[row.id] = extra
    plan.expire = [r for r in current_rows if r.id not in matched]

    claimed: set[str] = set()

    def inherit(seg: Segment) -> str | None:
        same_object = [r for r in plan.expire if r.object_id == seg.object_id and r.fact_id not in claimed
                       and claimant(r) == seg.claimed_by]
        for r in same_object:
            if r.valid_at == seg.valid_at:
                return r.fact_id
        for r in same_object:
            if overlaps(valid_interval(r), valid_interval(seg)):
                return r.fact_id
        return None

    for seg in pending:
        fact_id = inherit(seg) or new_id()
        claimed.add(fact_id)
        row = make_row(seg, new_id(), fact_id)
        plan.insert.append(row)
        plan.by_segment[seg.key] = row
    return plan

