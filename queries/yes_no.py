"""Closed-world answers: yes/no questions ("Has X ever lived in C?", "Is X still dating P?", "Is X
planning to move to C?", "Did X ever work at E?") and "before/after C" questions, answered from the
memory's own record of the subject.

The memory speaks for what it was told: when it holds facts about the subject but none of the
asked value, the answer is "No", with what it does hold that bears on the question — the value
that holds instead, a plan of it that never happened, someone's claim (who made it, and whether
the subject said otherwise). "I don't know" is kept for a subject the memory holds nothing about.
"""

from __future__ import annotations

import re

from temporal_graph.core import fact_order
from temporal_graph.core.model import Entity, Fact
from temporal_graph.core.names import relation_phrase

from .answer_text import Telling, claim_label, end_text, telling
from .hops import Reader
from .plan import Plan
from .question import is_plan
from .timeline import neighbour

Result = tuple[str, list[Fact], bool]


def gerund(relation: str) -> str:
    """``living in`` for LIVES_IN, ``dating`` for DATING, ``having pet`` for HAS_PET."""
    words = relation_phrase(relation).split()
    if words and words[0] in ("is", "are", "was") and len(words) > 1:
        words = words[1:]
    verb = words[0] if words else "holding"
    if verb == "has":
        verb = "have"
    elif verb.endswith("ies"):
        verb = verb[:-3] + "y"
    elif verb.endswith("s") and not verb.endswith("ss"):
        verb = verb[:-1]
    if verb.endswith("e") and not verb.endswith("ee") and len(verb) > 2:
        verb = verb[:-1]
    if not verb.endswith("ing"):
        verb += "ing"
    return " ".join([verb, *words[1:]])


def _asked(plan: Plan) -> list[str]:
    return [r for tier in plan.relation_tiers for r in tier]


def _target(plan: Plan) -> tuple[str | None, str]:
    """The asked value: its entity id (None: a name the memory holds no entity for) and its name."""
    if plan.object is not None:
        return plan.object.id, plan.object.name
    return None, plan.unknown_object or ""


def _about(f: Fact, target_id: str | None, name: str) -> bool:
    """Is ``f`` about the asked value: its object, or (for a plan) named in what it plans."""
    if target_id is not None and f.object_id == target_id:
        return True
    return bool(name) and is_plan(f.relation) and re.search(
        rf"(?i)\b{re.escape(name)}\b", f"{f.object} {f.text}") is not None


def _holds(f: Fact, plan: Plan) -> bool:
    """Does ``f`` hold at the time the question asks about (any time for ever/before/after)?"""
    time = plan.time
    if plan.kind == "ever" or time.kind == "ever" or not time.placed:
        return True
    if time.kind == "during":
        return (f.valid_at is None or time.end is None or f.valid_at < time.end) and (
            f.invalid_at is None or time.start is None or time.start < f.invalid_at)
    moment = time.moment or plan.reference
    return f.valid_at_time(moment)


def _plans(reader: Reader, subject: Entity, target_id: str | None, name: str) -> list[Fact]:
    own = reader.rows(None, subject_id=subject.id)
    return sorted((f for f in own if is_plan(f.relation) and _about(f, target_id, name)), key=fact_order)


def _plan_note(f: Fact, tell: Telling) -> str:
    """``Maya planned to move to Madrid (since January 2024) and the plan ended on 2024-01-20``."""
    if f.invalid_at is not None and f.invalid_at <= tell.reference:
        return f"{tell.line(f)}, and the plan ended {end_text(f, preposition=True)}"
    return f"{tell.line(f)}, a plan not carried out so far"


def _claim_note(f: Fact, tell: Telling) -> str:
    """``Tom claimed it on 2024-03-05 (Maya works at Globex); Maya said otherwise``."""
    on = (f.valid_at or f.created_at).date().isoformat()
    said = f"{f.claimed_by} claimed it on {on} ({tell.line(f).removesuffix(claim_label(f))})"
    return f"{said}; {f.subject} said otherwise" if f.contradicted else said


def answer_closed(reader: Reader, plan: Plan) -> Result | None:
    """The answer to a yes/no or before/after question about ``plan.subject``; None when the
    question is not one (the open-question path answers it)."""
    subject = plan.subject
    if subject is None or plan.hops or plan.kind not in ("what", "ever"):
        return None
    target_id, name = _target(plan)
    if not name or not (plan.polar or plan.order or plan.kind == "ever"):
        return None
    if not reader.rows(None, subject_id=subject.id) and not reader.rows(None, object_id=subject.id):
        return f"I don't know: the memory holds nothing about {subject.name}.", [], False
    if plan.order is not None:
        return _neighbour(reader, plan, subject, target_id, name)
    return _yes_no(reader, plan, subject, target_id, name)


def _yes_no(reader: Reader, plan: Plan, subject: Entity, target_id: str | None, name: str) -> Result:
    asked = _asked(plan)
    plans_asked = plan.asks_plan or any(is_plan(r) for r in asked)
    relations = [r for r in asked if is_plan(r) == plans_asked]
    matching = _records(reader, plan, subject, relations, plans_asked, target_id, name)
    holding = [f for f in matching if _holds(f, plan)]
    if plans_asked:
        holding = [f for f in holding if f.valid_at_time(plan.reference)]
    if holding:
        plan.verdict = "yes"
        who = {f.claimed_by for f in holding if f.claimed_by}
        lead = f"Yes, according to {', '.join(sorted(who))}" if len(who) == len(holding) else "Yes"
        return f"{lead}: {telling(plan).lines(holding)}.", holding, True
    plan.verdict = "no"
    return _no(reader, plan, subject, relations[0] if relations else None, plans_asked, matching,
               target_id, name)


def _records(reader: Reader, plan: Plan, subject: Entity, relations: list[str], plans_asked: bool,
             target_id: str | None, name: str) -> list[Fact]:
    """The subject's facts of the asked value (of the asked relations, or plans), at any time."""
    def counts(f: Fact) -> bool:
        # a claim the subject said otherwise about is no record of it (the answer names it as a
        # claim), unless only the claims were asked for
        return is_plan(f.relation) == plans_asked and (plan.claims == "only" or not f.contradicted)

    every = [f for f in reader.rows(None, subject_id=subject.id) if counts(f)]
    matching = [f for f in every if (not relations or f.relation in relations) and _about(f, target_id, name)]
    if not matching and relations and not plans_asked and target_id is not None:
        # the relation words did not match ("Did Priya ever leave Dell?"): any fact between the two
        matching = [f for f in every if f.object_id == target_id]
    return sorted(matching, key=fact_order)


def _no(reader: Reader, plan: Plan, subject: Entity, relation: str | None, plans_asked: bool,
        matching: list[Fact], target_id: str | None, name: str) -> Result:
    """"No", then what bears on it: the asked value once held, a plan of it, claims of it, and
    what holds instead."""
    notes: list[str] = []
    cited: list[Fact] = []
    tell = telling(plan)
    if matching:
        last = max(matching, key=lambda f: (f.invalid_at is not None, f.invalid_at or plan.reference))
        over = last.invalid_at is not None and last.invalid_at <= plan.reference
        ended = f"ended {end_text(last, preposition=True)}"
        text = (f"No: the plan {ended}" if over else "No: not now") if plans_asked else (
            f"No: it {ended}" if last.invalid_at is not None else "No")  # held once, not then ("still")
        notes.append(tell.line(last))
        cited.append(last)
    else:
        # No relation the question's words name: say what is missing without guessing a verb.
        what = "planning" if plans_asked else ("and" if relation is None else gerund(relation))
        text = f"No: no record of {subject.name} {what} {name}"
    if not plans_asked:
        plans = _plans(reader, subject, target_id, name)
        if plans:
            notes.append(_plan_note(plans[-1], tell))
            cited.append(plans[-1])
    if relation is not None and not matching:
        claims = Reader(reader.core, reader.group_id, reader.known_at, "only").rows(
            None, subject_id=subject.id, relation=relation)
        claimed = [f for f in claims if _about(f, target_id, name)]
        notes += [_claim_note(f, tell) for f in claimed]
        cited += claimed
    if relation is not None and plan.time.kind in ("now", "at") and not plans_asked:
        instead = [f for f in reader.rows(plan.time, subject_id=subject.id, relation=relation)
                   if f.object_id != target_id]
        if instead:
            notes.append(f"{'now' if plan.time.kind == 'now' else 'then'}: {tell.lines(instead)}")
            cited += instead
    body = f"{text}; {'; '.join(notes)}." if notes else f"{text}."
    return body, list({f.id: f for f in cited}.values()), True


def _neighbour(reader: Reader, plan: Plan, subject: Entity, target_id: str | None, name: str) -> Result:
    assert plan.order is not None
    relations = [r for r in _asked(plan) if not is_plan(r)] or ["LIVES_IN"]
    for relation in relations:
        timeline = reader.rows(None, subject_id=subject.id, relation=relation)
        if target_id is None or not any(f.object_id == target_id for f in timeline):
            continue
        found = sorted(neighbour(timeline, target_id, plan.order), key=fact_order)
        if found:
            return f"{telling(plan).lines(found)}.", found, True
        word = "earlier" if plan.order == "before" else "later"
        return (f"I don't know: the memory has no {word} '{relation_phrase(relation)}' fact about "
                f"{subject.name} than {name}.", [], False)
    return (f"I don't know: the memory has no '{relation_phrase(relations[0])}' fact about "
            f"{subject.name} and {name}.", [], False)
