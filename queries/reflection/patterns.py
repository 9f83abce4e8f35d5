"""Offline reflection: deterministic rules that find patterns in a group's facts, no language model.

Each rule is a small pure function of the current fact versions (every valid time, the memory's
own facts only: claims about others are not reflected on) and the moment of reflection, and
returns drafts that cite the fact versions they rest on:

- ``changes``: a relation changed value often in a window ("changed LIVES_IN 3 times in 2 years");
- ``long_held``: a value held for years and still holding ("has LIVES_IN Denver since 2019");
- ``streak``: values that followed each other without a break; ``gap``: a long stretch with none;
- ``shared``: two subjects holding the same value at the same time;
- ``plan_never_happened``: a plan that ended without what it planned starting, or whose date passed.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterable, Sequence
from datetime import datetime, timedelta
from itertools import combinations

from temporal_graph.core.errors import InvalidTime
from temporal_graph.core.intervals import intersection
from temporal_graph.core.model import Fact
from temporal_graph.core.names import relation_phrase
from temporal_graph.core.ontology import PLAN_RELATIONS
from temporal_graph.core.rules import claimant
from temporal_graph.core.sentences import fact_clause
from temporal_graph.core.time import to_utc

from .draft import InsightDraft

CHANGES_MIN = 3  # value changes within CHANGES_WINDOW that make a pattern
CHANGES_WINDOW = timedelta(days=2 * 365 + 1)  # two years, a leap day included
LONG_HELD = timedelta(days=3 * 365)  # held at least this long, and still holding
STREAK_MIN = 3  # values that followed each other without a break
GAP_MIN = timedelta(days=365)  # a stretch with no value at least this long
PLAN_GRACE = timedelta(days=30)  # a plan this long past its date, still standing, never happened

Rule = Callable[[Sequence[Fact], datetime], list[InsightDraft]]


# How a change of value of a relation reads ("moved 3 times"); other relations: "changed 'x' 3 times".
_CHANGE_WORDS = {"LIVES_IN": "moved", "WORKS_AT": "changed jobs", "DATING": "changed partners",
                 "STUDIES_AT": "changed schools"}


def _phrase(relation: str) -> str:
    return f"'{relation_phrase(relation)}'"


def _year(moment: datetime) -> str:
    return str(moment.year)


def _span_words(span: timedelta) -> str:
    days = span.days
    if days >= 365:
        years = round(days / 365)
        return f"{years} year{'s' if years != 1 else ''}"
    months = max(1, round(days / 30))
    return f"{months} month{'s' if months != 1 else ''}"


def _dated_by_key(facts: Iterable[Fact]) -> dict[tuple[str, str], list[Fact]]:
    """The memory's own dated, non-plan rows by (subject id, relation), in start order."""
    keys: dict[tuple[str, str], list[Fact]] = defaultdict(list)
    for f in facts:
        if claimant(f) is None and f.valid_at is not None and f.relation not in PLAN_RELATIONS:
            keys[(f.subject_id, f.relation)].append(f)
    for rows in keys.values():
        rows.sort(key=lambda f: (f.valid_at, f.created_at, f.id))
    return keys


def changes(facts: Sequence[Fact], now: datetime) -> list[InsightDraft]:
    """For each (subject, relation): the longest run of starts within CHANGES_WINDOW, when it has
    at least CHANGES_MIN changes of value (a start to a different value than the one before)."""
    out: list[InsightDraft] = []
    for (subject_id, relation), rows in _dated_by_key(facts).items():
        starts = [r for i, r in enumerate(rows) if i == 0 or r.object_id != rows[i - 1].object_id]
        best: list[Fact] = []
        first = 0
        for last in range(len(starts)):
            while starts[last].valid_at - starts[first].valid_at > CHANGES_WINDOW:  # type: ignore[operator]
                first += 1
            if last - first + 1 > len(best):
                best = starts[first : last + 1]
        if len(best) - 1 < CHANGES_MIN:
            continue
        begin, end = best[0].valid_at, best[-1].valid_at
        assert begin is not None and end is not None
        values = ", ".join(r.object for r in best)
        out.append(InsightDraft(
            text=(f"{best[0].subject} {_CHANGE_WORDS.get(relation, 'changed ' + _phrase(relation))} "
                  f"{len(best) - 1} times in "
                  f"{_span_words(end - begin)} ({_year(begin)}-{_year(end)}: {values})"),
            subject_ids=(subject_id,), subjects=(best[0].subject,),
            derived_from=tuple(r.id for r in best), importance=6, valid_at=begin, invalid_at=end,
            pattern=f"changes {relation}",
        ))
    return out


def long_held(facts: Sequence[Fact], now: datetime) -> list[InsightDraft]:
    """Own rows still holding at ``now`` that started at least LONG_HELD before it."""
    out: list[InsightDraft] = []
    for rows in _dated_by_key(facts).values():
        for r in rows:
            assert r.valid_at is not None
            holding = r.valid_at <= now and (r.invalid_at is None or r.invalid_at > now)
            if holding and now - r.valid_at >= LONG_HELD:
                out.append(InsightDraft(
                    text=(f"{fact_clause(r.subject, r.relation, r.object, text=r.text)} since "
                          f"{_year(r.valid_at)} ({_span_words(now - r.valid_at)})"),
                    subject_ids=(r.subject_id,), subjects=(r.subject,), derived_from=(r.id,),
                    importance=5, valid_at=r.valid_at, invalid_at=r.invalid_at,
                    pattern=f"long_held {r.relation} {r.object_id}",
                ))
    return out


def streaks_and_gaps(facts: Sequence[Fact], now: datetime) -> list[InsightDraft]:
    """Runs of at least STREAK_MIN rows each starting where the one before ended; and stretches of
    at least GAP_MIN between one row's end and the next row's start (nothing held then)."""
    out: list[InsightDraft] = []
    for (subject_id, relation), rows in _dated_by_key(facts).items():
        run: list[Fact] = rows[:1]
        runs: list[list[Fact]] = []
        for before, after in zip(rows, rows[1:], strict=False):
            if before.invalid_at is not None and before.invalid_at == after.valid_at:
                run.append(after)
                continue
            runs.append(run)
            run = [after]
            if before.invalid_at is not None and after.valid_at is not None \
                    and after.valid_at - before.invalid_at >= GAP_MIN:
                gap = after.valid_at - before.invalid_at
                out.append(InsightDraft(
                    text=(f"{before.subject} had no {_phrase(relation)} for {_span_words(gap)} "
                          f"({_year(before.invalid_at)}-{_year(after.valid_at)}), "
                          f"between {before.object} and {after.object}"),
                    subject_ids=(subject_id,), subjects=(before.subject,),
                    derived_from=(before.id, after.id),
                    importance=4, valid_at=before.invalid_at, invalid_at=after.valid_at,
                    pattern=f"gap {relation} {before.invalid_at.date().isoformat()}",
                ))
        runs.append(run)
        for run in runs:
            if len(run) >= STREAK_MIN:
                begin, end = run[0].valid_at, run[-1].invalid_at
                assert begin is not None
                until = f"until {_year(end)}" if end is not None else "to this day"
                out.append(InsightDraft(
                    text=(f"{run[0].subject} went from one {_phrase(relation)} to the next without a break "
                          f"from {_year(begin)} {until}: {', '.join(r.object for r in run)}"),
                    subject_ids=(subject_id,), subjects=(run[0].subject,),
                    derived_from=tuple(r.id for r in run),
                    importance=5, valid_at=begin, invalid_at=end,
                    pattern=f"streak {relation} {begin.date().isoformat()}",
                ))
    return out


def shared(facts: Sequence[Fact], now: datetime) -> list[InsightDraft]:
    """Two subjects holding the same (relation, object) over overlapping valid times."""
    by_value: dict[tuple[str, str], list[Fact]] = defaultdict(list)
    for f in facts:
        if claimant(f) is None and f.relation not in PLAN_RELATIONS:
            by_value[(f.relation, f.object_id)].append(f)
    out: list[InsightDraft] = []
    for (relation, object_id), rows in by_value.items():
        rows.sort(key=lambda f: (f.subject_id, f.id))
        for a, b in combinations(rows, 2):
            if a.subject_id == b.subject_id:
                continue
            both = intersection((a.valid_at, a.invalid_at), (b.valid_at, b.invalid_at))
            if both is None:
                continue
            begin, end = both
            when = f" since {_year(begin)}" if begin is not None else ""
            when += f" until {_year(end)}" if end is not None else ""
            out.append(InsightDraft(
                text=(f"{a.subject} and {b.subject} shared {a.object} at the same time{when}: "
                      f"{fact_clause(a.subject, relation, a.object, text=a.text)}, and "
                      f"{fact_clause(b.subject, relation, b.object, text=b.text)}"),
                subject_ids=(a.subject_id, b.subject_id), subjects=(a.subject, b.subject),
                derived_from=(a.id, b.id), importance=5, valid_at=begin, invalid_at=end,
                pattern=f"shared {relation} {object_id}",
            ))
    return out


def _planned_for(plan: Fact) -> datetime | None:
    value = plan.attributes.get("planned_for")
    try:
        return to_utc(value) if isinstance(value, str) else None
    except InvalidTime:
        return None


def plans_never_happened(facts: Sequence[Fact], now: datetime) -> list[InsightDraft]:
    """Own plans that ended with nothing of the subject's starting when they did (called off), and
    plans still standing more than PLAN_GRACE after the date they were for."""
    starts = {(f.subject_id, f.valid_at) for f in facts if f.relation not in PLAN_RELATIONS and f.valid_at}
    out: list[InsightDraft] = []
    for p in facts:
        if p.relation not in PLAN_RELATIONS or claimant(p) is not None:
            continue
        target = _planned_for(p)
        if p.invalid_at is not None and (p.subject_id, p.invalid_at) not in starts:
            how = f"was called off in {p.invalid_at.date().isoformat()}"
        elif p.invalid_at is None and target is not None and target + PLAN_GRACE < now:
            how = f"was for {target.date().isoformat()} and has not happened"
        else:
            continue
        out.append(InsightDraft(
            text=f"{p.subject}'s plan ({p.text}) never happened: it {how}",
            subject_ids=(p.subject_id,), subjects=(p.subject,), derived_from=(p.id,), importance=6,
            valid_at=p.valid_at, invalid_at=p.invalid_at, pattern=f"plan_never_happened {p.fact_id}",
        ))
    return out


RULES: tuple[Rule, ...] = (changes, long_held, streaks_and_gaps, shared, plans_never_happened)


def offline_drafts(facts: Sequence[Fact], now: datetime) -> list[InsightDraft]:
    """Every rule's drafts over ``facts`` (current fact versions), at ``now``."""
    return [draft for rule in RULES for draft in rule(facts, now)]
