"""A tiny, deliberately naive reference model of the bi-temporal contract.

Written from the contract text only (it does not import ``temporal_graph.core.rules``): every write
appends an assertion to a log; belief at valid time T as known at K is evaluated directly from
the definition, point by point, instead of by building a timeline. Property tests compare the
client against it.

Times: ``None`` as a start time means "since forever" (minus infinity). Valid-time belief is
piecewise constant between event times, so checking a row against the model at the event
times it spans is enough to check the whole row.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime

Key = tuple[str, str]  # (subject, relation); the model is per group, tests use one group


class Rejected(Exception):
    """The contract says this write is bad input: nothing may be written."""


@dataclass(frozen=True)
class Stmt:
    kind: str  # "start" | "end" | "retract"
    subject: str
    relation: str
    obj: str | None  # None only for "end": whatever holds
    at: datetime | None  # start: None = since forever; end: required; retract: unused
    until: datetime | None  # start only
    tx: datetime  # transaction time of the write
    seq: int  # arrival order over the whole model


def _le(a: datetime | None, b: datetime | None) -> bool:
    """a <= b with None = minus infinity."""
    if a is None:
        return True
    if b is None:
        return False
    return a <= b


def _lt(a: datetime | None, b: datetime | None) -> bool:
    """a < b with None = minus infinity."""
    if b is None:
        return False
    if a is None:
        return True
    return a < b


@dataclass
class ReferenceModel:
    cardinality: Callable[[str], str]  # relation -> "one" | "many"
    log: list[Stmt] = field(default_factory=list)

    # -- writes ---------------------------------------------------------------------------------
    def start(
        self, subject: str, relation: str, obj: str, *, at: datetime | None, until: datetime | None,
        tx: datetime,
    ) -> Stmt:
        if (at is None and self.cardinality(relation) == "one"
                and self.live(subject, relation, tx, starts_only=True)):
            at = tx  # an undated start entering a timeline begins at the write time
        if at is not None and until is not None and until <= at:
            raise Rejected(f"until {until} is not after start {at}")
        return self._append("start", subject, relation, obj, at, until, tx)

    def end(self, subject: str, relation: str, obj: str | None, *, at: datetime, tx: datetime) -> Stmt:
        return self._append("end", subject, relation, obj, at, None, tx)

    def retract(self, subject: str, relation: str, obj: str, *, tx: datetime) -> Stmt:
        return self._append("retract", subject, relation, obj, None, None, tx)

    def _append(self, kind, subject, relation, obj, at, until, tx) -> Stmt:
        stmt = Stmt(kind, subject, relation, obj, at, until, tx, len(self.log))
        self.log.append(stmt)
        return stmt

    # -- reads ----------------------------------------------------------------------------------
    def keys(self) -> set[Key]:
        return {(s.subject, s.relation) for s in self.log}

    def live(
        self, subject: str, relation: str, known_at: datetime, *, starts_only: bool = False
    ) -> list[Stmt]:
        """Start/end statements of the key written at or before ``known_at`` and not cancelled
        by a later retraction (of the same object) also written by then."""
        known = [s for s in self.log if s.subject == subject and s.relation == relation and s.tx <= known_at]
        out = []
        for s in known:
            if s.kind == "retract":
                continue
            cancelled = any(r.kind == "retract" and r.obj == s.obj and r.seq > s.seq for r in known)
            if not cancelled and (not starts_only or s.kind == "start"):
                out.append(s)
        return out

    @staticmethod
    def end_times(live: list[Stmt], obj: str) -> list[datetime]:
        """Where ``obj`` may stop holding: endings of it or of everything, and its starts' ``until``."""
        times = [s.at for s in live if s.kind == "end" and s.obj in (obj, None)]
        times += [s.until for s in live if s.kind == "start" and s.obj == obj and s.until is not None]
        return times  # type: ignore[return-value]

    def holds(self, live: list[Stmt], relation: str, obj: str, t: datetime | None) -> bool:
        """Does ``obj`` hold at valid time ``t`` (None = minus infinity) given these live statements?

        The contract in words: the statements of ``obj`` that started by ``t`` form a run (for a
        one-object relation, the run since another object last started). Walking it in start
        order, a statement extends the current stretch unless an ending was told since the
        previous one or the stretch had already run out (every statement in it has an ``until``
        that has passed); then it begins a new stretch. ``obj`` holds at ``t`` iff no ending was
        told after the run's last start, up to ``t``, and the last stretch has not run out by ``t``.
        """
        starts = sorted(
            (s for s in live if s.kind == "start" and _le(s.at, t)),
            key=lambda s: (s.at is not None, s.at.timestamp() if s.at else 0.0, s.seq),
        )
        if self.cardinality(relation) == "one":
            if not starts or starts[-1].obj != obj:
                return False  # the latest start decides who holds (ties: the last to arrive)
            run: list[Stmt] = []
            for s in reversed(starts):  # back to the last start of another object
                if s.obj != obj:
                    break
                run.insert(0, s)
        else:
            run = [s for s in starts if s.obj == obj]
            if not run:
                return False
        endings = [s.at for s in live if s.kind == "end" and s.obj in (obj, None)]

        def ended_between(a: datetime | None, b: datetime | None) -> bool:
            return any(_lt(a, e) and _le(e, b) for e in endings)

        lasts_until: datetime | None = None  # None: open
        for i, s in enumerate(run):
            ran_out = i > 0 and lasts_until is not None and _le(lasts_until, s.at)
            if i == 0 or ran_out or ended_between(run[i - 1].at, s.at):
                lasts_until = s.until  # a new stretch
            elif lasts_until is not None:
                lasts_until = None if s.until is None else max(lasts_until, s.until)
        if ended_between(run[-1].at, t):
            return False
        return lasts_until is None or _lt(t, lasts_until)

    def believed(self, t: datetime, known_at: datetime) -> set[tuple[str, str, str]]:
        """(subject, relation, object) triples that hold at ``t`` as known at ``known_at``."""
        out = set()
        for subject, relation in self.keys():
            live = self.live(subject, relation, known_at)
            for obj in {s.obj for s in live if s.kind == "start"}:
                if self.holds(live, relation, obj, t):
                    out.add((subject, relation, obj))  # type: ignore[arg-type]
        return out

    def row_problems(
        self, subject: str, relation: str, obj: str, valid_at: datetime | None, invalid_at: datetime | None,
        known_at: datetime,
    ) -> list[str]:
        """Why a row [valid_at, invalid_at) of ``obj`` is not a maximal segment of the belief at
        ``known_at`` (empty list: it is one)."""
        live = self.live(subject, relation, known_at)
        events = sorted({t for s in live for t in (s.at, s.until) if t is not None})
        problems = []
        if valid_at is not None and invalid_at is not None and not valid_at < invalid_at:
            problems.append(f"empty interval [{valid_at}, {invalid_at})")
        inside = [valid_at] + [e for e in events
                               if _le(valid_at, e) and (invalid_at is None or e < invalid_at)]
        for point in inside:
            if not self.holds(live, relation, obj, point):
                problems.append(f"{obj} does not hold at {point} inside the row")

        def boundary_explained(t: datetime) -> bool:
            # A row may end while the object goes on holding only where an ending and a
            # restart meet, or (one object at a time) where another object started at the same instant.
            if t in self.end_times(live, obj):
                return True
            return self.cardinality(relation) == "one" and any(
                s.kind == "start" and s.obj != obj and s.at == t for s in live
            )

        if (invalid_at is not None and self.holds(live, relation, obj, invalid_at)
                and not boundary_explained(invalid_at)):
            problems.append(f"{obj} still holds at the row's end {invalid_at}: the row is not maximal")
        if valid_at is not None:
            before = [e for e in events if e < valid_at]
            previous = before[-1] if before else None
            if self.holds(live, relation, obj, previous) and not boundary_explained(valid_at):
                problems.append(
                    f"{obj} already holds before the row's start {valid_at}: the row is not maximal")
        return problems
