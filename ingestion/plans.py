"""Plans as plans: a plan holds from when it is told until it is called off or it happens.

A plan is a ``PLANS`` fact ("move to Lyon", "run a marathon") or a ``PLANS_TO_VISIT`` fact (a place).
It starts when it was told, never at its target time, so ``now`` shows it while it stands and never
as the state it plans (a plan to move to Lyon is not ``LIVES_IN Lyon``). Its target time, resolved
forward from the message ("in January" said in December is next January), is kept in the fact's
attributes (``planned_for``, ``planned_for_granularity``) and in its text.

A state told as starting ahead ("I start at Monzo next week as a product manager") is such a plan
until it starts, and the state from then: the pipeline writes both (:func:`start_plan`), the plan ending
where the state begins.

A plan ends when:
* it is called off ("the Lyon plan fell through", "we called off the move"): the ending names a cue
  (a place, "move", "trip"), and the subject's current plans whose words include the cue end; an
  ending with no cue ends the newest plan;
* it happens: a fact it planned starts ("we moved to Lyon" ends "move to Lyon" where the move starts).

The matching rules are small pure functions of words; :func:`end_plans` and :func:`fulfil_plans` apply
them with the write's :class:`FactWriter`.
"""

from __future__ import annotations

import re
from datetime import datetime
from typing import Any

from temporal_graph.core.model import Entity, Fact
from temporal_graph.core.names import normalize_relation
from temporal_graph.core.ontology import PLAN_RELATIONS
from temporal_graph.core.rules import claimant
from temporal_graph.core.time import TimeSpan, iso
from temporal_graph.core.time.words import period_words
from temporal_graph.core.writer import FactWriter, Outcome

# Words of a plan reduced to what it is about: the kind of change (one verb per kind) and its object.
_VERB_KIND = {
    "move": "move", "moving": "move", "relocate": "move", "relocating": "move", "relocation": "move",
    "visit": "visit", "visiting": "visit", "trip": "visit", "travel": "visit", "traveling": "visit",
    "travelling": "visit", "go": "visit", "going": "visit", "fly": "visit", "flight": "visit",
    "vacation": "visit", "holiday": "visit", "head": "visit", "see": "visit",
    "join": "work", "joining": "work", "work": "work", "job": "work", "start": "start", "starting": "start",
    "marry": "marry", "wedding": "marry", "married": "marry", "study": "study", "enroll": "study",
    "enrol": "study",
}
_SKIP = frozenset("a an the to at in of for my our their his her plan plans this that new".split())
# The kind of plan a state of each relation fulfils ("we moved to Lyon" fulfils "move to Lyon").
_FULFILLED_BY = {"LIVES_IN": "move", "VISITED": "visit", "WORKS_AT": "work", "MARRIED_TO": "marry",
                 "STUDIES_AT": "study", "RELATIONSHIP_STATUS": "marry"}
# A status is no object of a plan: "married" fulfils a plan to marry ("get married in Accra") whoever it
# names, and no other status fulfils anything.
_FULFILLING_STATUS = {"married": "marry"}


def _words(text: str) -> frozenset[str]:
    return frozenset(_VERB_KIND.get(w, w) for w in re.findall(r"[\w'-]+", text.lower()) if w not in _SKIP)


def plan_words(relation: str, obj: str) -> frozenset[str]:
    """What a plan is about: ``PLANS "move to Lyon"`` and ``PLANS "relocate to Lyon"`` -> {move, lyon};
    ``PLANS_TO_VISIT "Rome"`` -> {visit, rome}."""
    words = _words(obj)
    return words | {"visit"} if relation == "PLANS_TO_VISIT" else words


def cue_matches(cue: str, relation: str, plan_object: str) -> bool:
    """Whether a cancellation's cue ("Lyon", "move", "trip to Rome") names this plan: every word of
    the cue is a word of the plan. An empty cue names no plan in particular (see :func:`end_plans`)."""
    words = _words(cue)
    return bool(words) and words <= plan_words(relation, plan_object)


def fulfils(relation: str, obj: str, plan_relation: str, plan_object: str) -> bool:
    """Whether ``relation obj`` starting is the plan happening: a move to the planned place, a visit
    to it, the planned job or wedding."""
    if relation == "RELATIONSHIP_STATUS":
        status = _FULFILLING_STATUS.get(obj.lower())
        return status is not None and status in plan_words(plan_relation, plan_object)
    kind = _FULFILLED_BY.get(relation)
    return kind is not None and {kind} | _words(obj) <= plan_words(plan_relation, plan_object)


# What a state told as starting ahead is a plan to do until it starts ("I start at Monzo next week": a
# plan to start work at Monzo, then WORKS_AT Monzo from that week).
_STARTS_AS_PLAN = {"WORKS_AT": "start work at {o}", "LIVES_IN": "move to {o}", "STUDIES_AT": "start at {o}",
                   "MARRIED_TO": "marry {o}"}


def start_plan(relation: str, obj: str) -> str | None:
    """The plan a state starting ahead is until it starts (WORKS_AT Monzo -> "start work at Monzo"), or
    None for a relation nobody plans that way."""
    wording = _STARTS_AS_PLAN.get(relation)
    return wording.format(o=obj) if wording else None


def planned_for(span: TimeSpan | None) -> dict[str, Any]:
    """The attributes that keep a plan's target time."""
    if span is None:
        return {}
    return {"planned_for": iso(span.start), "planned_for_granularity": span.granularity}


def plan_text(text: str, span: TimeSpan | None) -> str:
    """``Sam plans to move to Lyon.`` -> ``Sam plans to move to Lyon in January 2024.``"""
    if span is None:
        return text
    return f"{text.rstrip(' .')} {period_words(span.start, span.granularity)}."


def plans_read_by(relation: str) -> tuple[str, ...]:
    """The plan relations a state of ``relation`` reads when it starts (the plans it may fulfil),
    so a write can read them with the rest of its keys: none for most relations."""
    return tuple(sorted(PLAN_RELATIONS)) if normalize_relation(relation) in _FULFILLED_BY else ()


def _standing(w: FactWriter, subject: Entity, at: datetime, claimed_by: str | None) -> list[Fact]:
    """The subject's plans (in one claimant's voice) that hold at ``at``, newest first."""
    rows = [r for relation in sorted(PLAN_RELATIONS)
            for r in w.rows_holding(subject, relation, at, limit=None) if claimant(r) == claimed_by]
    return sorted(rows, key=lambda r: (r.valid_at or r.created_at, r.created_at), reverse=True)


def end_rows(w: FactWriter, subject: Entity, rows: list[Fact], at: datetime, episode_id: str | None,
             claimed_by: str | None, text: str | None) -> Outcome:
    """Each row ends at ``at``; one told at that very moment (the same message, or a chat whose
    messages share their session's time) never stood, so it is retracted instead."""
    out = Outcome()
    for row in rows:
        obj = w.entities_by_id([row.object_id])[0]
        if row.valid_at is not None and row.valid_at >= at:
            out.retracted += w.retract(subject, row.relation, obj, episode_id=episode_id,
                                       claimed_by=claimed_by).retracted
        else:
            out.ended += w.end(subject, row.relation, obj, at=at, text=text, episode_id=episode_id,
                               claimed_by=claimed_by).ended
    return out


def end_plans(w: FactWriter, subject: Entity, cue: str, *, at: datetime, episode_id: str | None,
              claimed_by: str | None, text: str | None = None) -> Outcome:
    """A plan called off: the standing plans the cue names end at ``at``; with no cue, the newest."""
    standing = _standing(w, subject, at, claimed_by)
    chosen = [p for p in standing if cue_matches(cue, p.relation, p.object)] if cue.strip() else standing[:1]
    return end_rows(w, subject, chosen, at, episode_id, claimed_by, text)


def fulfil_plans(w: FactWriter, subject: Entity, relation: str, obj: Entity, *, at: datetime,
                 episode_id: str | None, claimed_by: str | None) -> Outcome:
    """``subject relation obj`` starts at ``at``: the standing plans it fulfils end there."""
    if relation not in _FULFILLED_BY:
        return Outcome()  # no plan to read: most facts fulfil none
    chosen = [p for p in _standing(w, subject, at, claimed_by)
              if fulfils(relation, obj.name, p.relation, p.object)]
    return end_rows(w, subject, chosen, at, episode_id, claimed_by, f"{subject.name}'s plan happened.")
