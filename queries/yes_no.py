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
from .status import is_status, not_yet, verdict
from .timeline import neighbour
from .topics import content_stems, entry, fact_fits

Result = tuple[str, list[Fact], bool]


_STATES = frozenset("married engaged related employed based born divorced".split())


def gerund(relation: str) -> str:
    """``living in`` for LIVES_IN, ``dating`` for DATING, ``having pet`` for HAS_PET, ``being
    married to`` for MARRIED_TO."""
    words = relation_phrase(relation).split()
    if words and words[0] in ("is", "are", "was") and len(words) > 1:
        words = words[1:]
    if words and words[0] in _STATES:
        return " ".join(["being", *words])
    if words and words[0].endswith("ied") and len(words[0]) > 4:
        words = [words[0][:-3] + "y", *words[1:]]
    elif words and words[0].endswith("ed") and len(words[0]) > 4:
        words = [words[0][:-2] + ("e" if words[0][:-2].endswith("v") else ""), *words[1:]]
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
    """The asked tier entries (a relation, or a relation with its value: ``RELATIONSHIP_STATUS=married``)."""
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
    if plan.polar and plan.status is not None:
        told = answer_status(reader, plan, subject)
        if told is not None:
            return told
    plans_named = plan.topic == "plans" and bool(plan.asked)
    if not name and plan.polar and _asked(plan) and not plan.loose and not plans_named:
        return _holds_any(reader, plan, subject)  # None: the open path says "I don't know"
    if not name and plan.polar and (plan.loose or plans_named) and plan.asked:
        # "Is Kwame quitting nursing?", "Is Kwame planning a wedding?": what no fact names
        held = [f for r in _asked(plan) for f in reader.rows(plan.time if plan.time.placed else None,
                                                             subject_id=subject.id, relation=entry(r)[0])]
        if plans_named:
            held = [f for f in held if _mentions(f, plan.content)]
            if held:
                plan.verdict = "yes"
                return f"Yes: {telling(plan).lines(held)}.", held, True
        plan.verdict = "no"
        tell = telling(plan)
        text = f"No: no record of {subject.name} {'planning ' if plans_named else ''}{plan.asked}"
        return (f"{text}; {'now' if plan.time.kind == 'now' else 'then'}: {tell.lines(held)}." if held
                else f"{text}."), held, True
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
    relation = entry(relations[0])[0] if relations else None
    if matching and (relation is None or not any(f.relation == relation for f in matching)):
        relation = matching[-1].relation  # what held between the two ("Is Kofi still in Montreal?")
    return _no(reader, plan, subject, relation, plans_asked, matching, target_id, name)


def _records(reader: Reader, plan: Plan, subject: Entity, relations: list[str], plans_asked: bool,
             target_id: str | None, name: str) -> list[Fact]:
    """The subject's facts of the asked value (of the asked relations, or plans), at any time."""
    def counts(f: Fact) -> bool:
        # a claim the subject said otherwise about is no record of it (the answer names it as a
        # claim), unless only the claims were asked for
        return is_plan(f.relation) == plans_asked and (plan.claims == "only" or not f.contradicted)

    every = [f for f in reader.rows(None, subject_id=subject.id) if counts(f)]
    matching = [f for f in every if (not relations or fact_fits(f, relations)) and _about(f, target_id, name)]
    if not matching and relations and not plans_asked and target_id is not None:
        # the relation words did not match ("Did Priya ever leave Dell?"): any fact between the two,
        # unless the words named a relation strictly ("Was Yuki married to Haruto?" is no dating)
        matching = [f for f in every if f.object_id == target_id and plan.may_rest_on(f.relation)]
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
        worded = plan.wanted[0] if plan.wanted else relation
        what = "planning" if plans_asked else ("and" if worded is None else gerund(worded))
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
        if not instead:  # "Is Kwame still engaged to Efua?": what holds of the neighbouring relations
            instead = [f for r in plan.related for f in reader.rows(
                plan.time, subject_id=subject.id, relation=entry(r)[0]) if fact_fits(f, [r])]
        if instead:
            notes.append(f"{'now' if plan.time.kind == 'now' else 'then'}: {tell.lines(instead)}")
            cited += instead
    body = f"{text}; {'; '.join(notes)}." if notes else f"{text}."
    return body, list({f.id: f for f in cited}.values()), True


def _neighbour(reader: Reader, plan: Plan, subject: Entity, target_id: str | None, name: str) -> Result:
    assert plan.order is not None
    relations = list(dict.fromkeys(entry(r)[0] for r in _asked(plan) if not is_plan(r))) or ["LIVES_IN"]
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


# ---------------------------------------------------------------------------------- who said it


def answer_who_said(reader: Reader, plan: Plan, subject: Entity) -> Result:
    """"Who said Marta works at the Ritz?": whoever claimed that of the subject (and whether the
    subject said otherwise), or "I don't know" when the memory holds no such claim."""
    target_id, name = _target(plan)
    asked = _asked(plan)
    claims = Reader(reader.core, reader.group_id, reader.known_at, "only").rows(None, subject_id=subject.id)
    claimed = sorted((f for f in claims if f.claimed_by and (fact_fits(f, asked) if asked else (
                          plan.broad or _mentions(f, plan.content)))
                      and (not name or _about(f, target_id, name))), key=fact_order)
    if not claimed:
        return (f"I don't know: the memory holds no claim of that about {subject.name}, from anyone.",
                [], False)
    tell = telling(plan)
    return "; ".join(_claim_note(f, tell) for f in claimed) + ".", claimed, True


# ---------------------------------------------------------------------------------- a relation, no value


def _holds_any(reader: Reader, plan: Plan, subject: Entity) -> Result | None:
    """"Is Priya married?", "Do I have a dog?": yes when a fact of the asked relation holds at the
    asked time; no when another value of it holds (her relationship status is "engaged") or the last
    one ended (with what the memory holds of the neighbouring relations); None when the memory never
    held it for the subject: no record is no "no" here, nothing named was asked about."""
    tell = telling(plan)
    asked = _asked(plan)
    own = [f for f in reader.rows(None, subject_id=subject.id)
           if fact_fits(f, asked) and (not is_plan(f.relation) or plan.object is not None or not plan.content
                                       or _mentions(f, plan.content))]
    holding = sorted((f for f in own if _holds(f, plan) and not f.contradicted), key=fact_order)
    if holding:
        plan.verdict = "yes"
        return f"Yes: {tell.lines(holding)}.", holding, True
    moment = plan.time if plan.time.placed else None
    # "Is Priya married?" while her relationship status is "engaged": another value of the asked one
    other = [f for r in asked if entry(r)[1] is not None
             for f in reader.rows(moment, subject_id=subject.id, relation=entry(r)[0])
             if not fact_fits(f, [r])]
    ended = [f for f in own if f.invalid_at is not None and f.invalid_at <= plan.reference]
    if not other and not ended:
        return None  # the memory never held it: "I don't know" (the open path names what it holds)
    plan.verdict = "no"
    if other:
        return f"No: {tell.lines(other)}.", other, True
    last = max(ended, key=lambda f: f.invalid_at or plan.reference)
    notes = [tell.line(last)]
    cited = [last]
    near = [f for r in plan.related for f in reader.rows(moment, subject_id=subject.id, relation=entry(r)[0])
            if fact_fits(f, [r])]
    if near:
        notes.append(f"{'now' if plan.time.kind == 'now' else 'then'}: {tell.lines(near)}")
        cited += near
    return f"No: it ended {end_text(last, preposition=True)}; {'; '.join(notes)}.", cited, True


def _mentions(f: Fact, stems: frozenset[str]) -> bool:
    return bool(stems & content_stems(f"{f.object} {f.text}")[0])


# ---------------------------------------------------------------------------------- a thing's status


def answer_status(reader: Reader, plan: Plan, subject: Entity) -> Result | None:
    """"Has order 5512 shipped?": yes / no / I don't know from the subject's status (see
    :mod:`queries.status`); None when the subject has no status the question names."""
    assert plan.status is not None
    asked = [entry(r)[0] for r in _asked(plan)]
    by = plan.time.moment or plan.reference  # a status told for later is not yet one
    rows = [f for f in reader.rows(None, subject_id=subject.id) if is_status(f.relation)
            and (f.relation in asked or (f.relation == "STATUS" and not any(is_status(r) for r in asked)))
            and (f.valid_at is None or f.valid_at <= by)]
    if not rows:
        return None
    tell = telling(plan)
    now = [f for f in rows if _holds(f, plan) and f.valid_at_time(by)] or [
        max(rows, key=lambda f: f.valid_at or f.created_at)]
    current = sorted(now, key=fact_order)[-1]
    said = verdict(plan.status, current.object)
    reached = [f for f in rows if verdict(plan.status, f.object) == "yes"]
    if said == "yes" or (said is None and reached):
        plan.verdict = "yes"
        cited = sorted({current.id: current, **{f.id: f for f in reached}}.values(), key=fact_order)
        return f"Yes: {tell.lines(cited)}.", cited, True
    if said == "no":
        plan.verdict = "no"
        lead = "No, not yet" if not_yet(plan.status, current.object) else "No"
        return f"{lead}: {tell.line(current)}.", [current], True
    return (f"I don't know whether it is {plan.status}: {tell.line(current)}, a status that does not say.",
            [], False)
