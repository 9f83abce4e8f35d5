"""Running a question :class:`~queries.plan.Plan`: reads through :mod:`queries.hops`, words through
:mod:`queries.answer_text`. Returns (text, cited facts, known); answer facts are cited before the
facts of the chain that led to them.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timedelta
from typing import cast

from temporal_graph.core import Core, fact_order, reads
from temporal_graph.core.model import Entity, Fact
from temporal_graph.core.time import from_iso

from .answer_text import (
    Telling,
    coarser,
    date_text,
    duration_text,
    end_text,
    precision,
    relation_words,
    start_text,
    telling,
)
from .broad import LABEL, group_facts, weightiest
from .hops import Reached, Reader, follow
from .plan import EPSILON, Plan, TimeSpec
from .question import SYMMETRIC, is_plan
from .told import Told, told_as
from .topics import content_stems, entry, fact_fits
from .yes_no import answer_closed, answer_who_said

Result = tuple[str, list[Fact], bool]


def answer_plan(core: Core, plan: Plan) -> Result:
    if plan.asker_unknown is not None and plan.subject is None:
        return f"I don't know: {plan.asker_unknown}.", [], False
    if plan.group:
        return _group(core, plan)
    if plan.subject is None and plan.object is None and plan.holders:
        names = ", ".join(plan.holders[:-1]) + f" and {plan.holders[-1]}"
        return f"I don't know whom it is about: the memory holds {_asked_words(plan)}s of {names}.", [], False
    if plan.subject is None and plan.object is None:
        who = f" anyone called {plan.unknown_name!r}" if plan.unknown_name else " who or what this is about"
        return f"I don't know: the memory does not know{who}.", [], False
    reader = Reader(core, plan.group_id, plan.known_at, plan.claims)
    if plan.who_said and plan.subject is not None and not plan.hops:
        return answer_who_said(reader, plan, plan.subject)
    closed = answer_closed(reader, plan)
    if closed is not None:
        return closed
    if plan.object is None and plan.unknown_object and plan.kind in (
            "who", "when_start", "when_end", "how_long", "ever"):
        return f"I don't know: the memory knows nothing about {plan.unknown_object}.", [], False
    if plan.kind == "who" or plan.subject is None:
        return _who(reader, plan)
    time = plan.time
    if time.kind in ("before_change", "after_change"):
        placed = _placed(core, plan)
        if isinstance(placed, str):
            return f"I don't know: {placed}.", [], False
        time = placed
    strict = time.placed and plan.kind in ("what", "believed")
    walk = follow(reader, plan.subject, plan.hops, time if strict else TimeSpec.now(plan.reference),
                  fallback_any_time=not strict)
    if walk.broken_at is not None:
        return _broken(plan, walk.broken_at, walk.broken_from, time if strict else None)
    if plan.kind == "changed":
        return _changed(core, plan, walk.reached)
    if plan.kind in ("when_start", "when_end", "how_long", "ever"):
        return _about_interval(reader, plan, walk.reached)
    return _what(reader, plan, walk.reached, time)


def _dedupe(facts: Sequence[Fact]) -> list[Fact]:
    return list({f.id: f for f in facts}.values())


def _chain_of(reached: Sequence[Reached]) -> list[Fact]:
    return _dedupe([f for r in reached for f in r.chain])


def _with_chain(text: str, answer: list[Fact], reached: Sequence[Reached],
                tell: Telling) -> tuple[str, list[Fact]]:
    chain = _chain_of(reached)
    if not chain:
        return text, answer
    return f"{text} Through: {tell.path().lines(chain)}.", _dedupe([*answer, *chain])


def _who_is(reached: Sequence[Reached], plan: Plan) -> str:
    """``Hiro (Kenji's brother)`` for a chain's end, or the subject's name."""
    if not plan.hops or not reached:
        return plan.subject.name if plan.subject else ""
    names = ", ".join(dict.fromkeys(r.entity.name for r in reached))
    return f"{names} ({_possessive(plan)})"


def _possessive(plan: Plan, upto: int | None = None) -> str:
    words = [h.word or relation_words(h.relations[0]) for h in plan.hops[:upto]]
    return "'s ".join([plan.subject.name, *words]) if plan.subject else " ".join(words)


def _when(time: TimeSpec | None) -> str:
    return f" {time.text}" if time is not None and time.text and time.kind != "now" else ""


def _broken(plan: Plan, at: int, stood: list[Reached], time: TimeSpec | None) -> Result:
    tell = telling(plan)
    hop = plan.hops[at]
    word = hop.word or relation_words(hop.relations[0])
    where = _possessive(plan, at) if at else (plan.subject.name if plan.subject else "")
    facts = _chain_of(stood)
    text = (f"I don't know: the chain breaks at hop {at + 1}: "
            f"the memory knows no {word} of {where}{_when(time)}.")
    if facts:
        text += f" It knows: {tell.path().lines(facts)}."
    return text, facts, False


# ---------------------------------------------------------------------------------- what / who


def _what(reader: Reader, plan: Plan, reached: list[Reached], time: TimeSpec) -> Result:
    tell = telling(plan)
    if plan.hops and not plan.relation_tiers:  # "Who is Hiro's brother?": the chain's end is the answer
        chain = _chain_of(reached)
        return f"{tell.lines(chain)}.", chain, True
    focus = [r.entity for r in reached]
    if not plan.relation_tiers and not plan.broad:
        text, named, known = _nothing_asked(reader, plan, reached, time)
        if not known:
            return text, named, known
        text, cited = _with_chain(f"{tell.lines(named)}.", named, reached, tell)
        return text, cited, True
    facts = _tiered(reader, plan, focus, time)
    if not facts and plan.object is not None:
        # "does he live in Paris?": say what is known
        facts = _tiered(reader, plan, focus, time, use_object=False)
    if not facts and time.before and time.start is not None and plan.relation_tiers:
        # "Where did Marta work before August 2023?": nothing held the instant before, so the last
        # value that ended before it
        facts = _last_known(reader, plan, focus, time.start)
    if not facts and time.kind == "now" and plan.relation_tiers:
        last = _last_known(reader, plan, focus)
        if last:
            text, cited = _with_chain(
                f"Not any more, as far as the memory knows; last known: {tell.lines(last)}.", last, reached,
                tell)
            return text, cited, True
    if not facts:
        about = _who_is(reached, plan)
        text = f"I don't know: the memory has no {_asked_words(plan)} about {about}{_when(time)}."
        return _knowing(reader, plan, reached, time, text)
    text = f"{tell.lines(facts)}."
    if plan.known_at is not None:
        when = (plan.known_text or date_text(plan.known_at)).removeprefix("as known ")  # not "it as known on"
        text = f"As the memory believed it {when}: {text}"
    text, cited = _with_chain(text, facts, reached, tell)
    return text, cited, True


def _asked_words(plan: Plan) -> str:
    """``'works as' or 'job title' fact`` for an "I don't know"."""
    asked = plan.wanted or list(dict.fromkeys(entry(r)[0] for tier in plan.relation_tiers for r in tier))
    return " or ".join(f"'{relation_words(r)}'" for r in asked[:3]) + " fact" if asked else "fact"


def _tiered(reader: Reader, plan: Plan, focus: list[Entity], time: TimeSpec | None,
            use_object: bool = True) -> list[Fact]:
    """The first tier of relations with facts about ``focus`` (everything, when no relation is asked)."""
    object_id = plan.object.id if use_object and plan.object is not None else None
    for tier in plan.relation_tiers or [[]]:
        entries: list[str | None] = list(tier) if tier else [None]  # no relation asked: any relation
        facts = [f for e in focus for r in entries for f in _entry_rows(reader, e, r, object_id, time)]
        facts = [f for f in facts
                 if _planned(f, plan) and (tier or plan.broad or plan.may_rest_on(f.relation))]
        if facts:
            return sorted(_dedupe(facts), key=fact_order)
    return []


def _planned(f: Fact, plan: Plan) -> bool:
    """A plan answers a question about a plan only when it is of what is asked ("Is Kwame planning
    a wedding?" is not answered by a plan to buy a house); any plan, when nothing is named."""
    if not is_plan(f.relation) or not plan.content or plan.object is not None:
        return True
    return bool(plan.content & content_of(f))


def content_of(f: Fact) -> frozenset[str]:
    """Stems of what a fact is about: its value and its own words."""
    return content_stems(f"{f.object} {f.text}")[0]


# ---------------------------------------------------------------------------------- not known


def _knowing(reader: Reader, plan: Plan, reached: Sequence[Reached], time: TimeSpec | None,
             text: str) -> Result:
    """An "I don't know" answer, naming what the memory does know of the subject: the asked
    relation at other times, the neighbouring relations (at the asked time, else now), else its
    weightiest current facts. Only the chain that led there is cited: what it names is no answer."""
    tell = telling(plan)
    focus = [r.entity for r in reached] or ([plan.subject] if plan.subject is not None else [])
    chain = _chain_of(reached)
    said = _dedupe([*_neighbours(reader, plan, focus, time), *chain])
    if said:
        text = f"{text} It knows: {tell.path().lines(said)}."
    return text, chain, False


KNOWN_INSTEAD = 3  # facts an "I don't know" names when no neighbouring relation holds any


def _neighbours(reader: Reader, plan: Plan, focus: Sequence[Entity], time: TimeSpec | None) -> list[Fact]:
    now = TimeSpec.now(plan.reference)
    if time is not None and time.kind != "now" and plan.relation_tiers:
        other_times = _tiered(reader, plan, list(focus), None, use_object=False)
        if other_times:
            return other_times[-KNOWN_INSTEAD:]
    for at in ([time] if time is not None and time.placed else []) + [now]:
        found = [f for e in focus for r in plan.related for f, _ in reader.around(e.id, entry(r)[0], at)
                 if fact_fits(f, [r])]
        if found:
            return sorted(_dedupe(found), key=fact_order)
    own = [f for e in focus for f in reader.rows(now, subject_id=e.id)]
    return weightiest(own)[:KNOWN_INSTEAD]


def _nothing_asked(reader: Reader, plan: Plan, reached: Sequence[Reached], time: TimeSpec | None) -> Result:
    """The question asks about something no relation of the memory holds ("When did Priya get
    engaged?" where no engagement was told): never every fact of the subject in its place. Facts
    whose value says what is asked ("When did Marta finish the Bath Half?") answer."""
    focus = [r.entity for r in reached]
    rows = [f for e in focus for f in _rows(reader, e, None, None, time)]
    named = sorted(_dedupe([f for f in rows if not is_plan(f.relation)
                            and plan.content & content_stems(f.object)[0]]), key=fact_order)
    if named:
        return "", named, True
    what = f" for '{plan.asked}'" if plan.asked else ""
    return _knowing(reader, plan, reached, time,
                    f"I don't know: the memory holds nothing about {_who_is(list(reached), plan)}{what}"
                    f"{_when(time)}.")


# ---------------------------------------------------------------------------------- the group


def _group(core: Core, plan: Plan) -> Result:
    """"Tell me about people", "What do you know?": the weightiest facts of the group."""
    at = plan.time.moment or plan.reference
    facts = group_facts(core, plan.group_id, at=at, known_at=plan.known_at, claims=plan.claims)
    if not facts:
        return "I don't know: the memory holds no current fact in this group.", [], False
    tell = telling(plan)
    return f"The {LABEL}: {tell.lines(facts)}.", facts, True


def _entry_rows(reader: Reader, entity: Entity, asked: str | None, object_id: str | None,
                time: TimeSpec | None) -> list[Fact]:
    """Rows of a tier entry: a relation (with the named value, if any), or one naming its own value
    (``RELATIONSHIP_STATUS=married``: that value is the answer, whoever else the question names)."""
    if asked is None:
        return _rows(reader, entity, None, object_id, time)
    relation, value = entry(asked)
    if value is None and is_plan(relation) and time is not None and time.kind == "during":
        # "Where was Yuki planning to go in June 2024?": a plan for then, whenever it was made
        rows = _rows(reader, entity, relation, object_id, time)
        return rows + [f for f in _rows(reader, entity, relation, object_id, None)
                       if _planned_within(f, time) and f not in rows]
    if value is None:
        return _rows(reader, entity, relation, object_id, time)
    return [f for f in _rows(reader, entity, relation, None, time) if fact_fits(f, [asked])]


def _planned_within(f: Fact, time: TimeSpec) -> bool:
    target = from_iso(f.attributes.get("planned_for"))
    return target is not None and time.start is not None and time.end is not None and (
        time.start <= target < time.end)


def _rows(reader: Reader, entity: Entity, relation: str | None, object_id: str | None,
          time: TimeSpec | None) -> list[Fact]:
    time = time if time is not None and time.placed else None
    if relation is None:
        return reader.rows(time, subject_id=entity.id, object_id=object_id)
    pairs = reader.around(entity.id, relation, time)
    return [f for f, other in pairs if object_id is None or other == object_id]


def _last_known(reader: Reader, plan: Plan, focus: list[Entity], by: datetime | None = None) -> list[Fact]:
    """Nothing holds now (or at ``by``): the value(s) that ended last, among those begun by then."""
    by = by or plan.reference
    every = _tiered(reader, plan, focus, None)
    started = [f for f in every if f.valid_at is None or f.valid_at <= by]
    ends = [f.invalid_at for f in started if f.invalid_at is not None and f.invalid_at <= by]
    return [f for f in started if ends and f.invalid_at == max(ends)]


def _who(reader: Reader, plan: Plan) -> Result:
    tell = telling(plan)
    target = plan.object or plan.subject
    assert target is not None
    time = plan.time if plan.time.placed else None
    facts: list[Fact] = []
    for tier in plan.relation_tiers or [[]]:
        tier = [r for r in tier if entry(r)[1] is None]  # a value entry says nothing of who
        if tier:
            facts = [f for r in tier for f in reader.rows(time, object_id=target.id, relation=r)]
            # "Who is married to Rita?" also when it was told as "Rita is married to Tom".
            facts += [f for r in tier if r in SYMMETRIC
                      for f in reader.rows(time, subject_id=target.id, relation=r)]
        else:
            facts = reader.rows(time, object_id=target.id)
        if facts:
            break
    if not facts:
        what = _asked_words(plan) if plan.wanted or plan.relation_tiers else "fact"
        text = f"I don't know: the memory has no {what} pointing at {target.name}{_when(time)}."
        return _knowing(reader, plan, [Reached(target)], time, text)
    facts = sorted(_dedupe(facts), key=fact_order)
    return f"{tell.lines(facts)}.", facts, True


# ---------------------------------------------------------------------------------- when / how long / ever


def _about_interval(reader: Reader, plan: Plan, reached: list[Reached]) -> Result:
    tell = telling(plan)
    reference = plan.reference
    focus = [r.entity for r in reached]
    time = plan.time if plan.time.kind == "during" else None
    if not plan.relation_tiers and not plan.broad:
        text, facts, known = _nothing_asked(reader, plan, reached, time)
        if not known:
            return text, facts, known
    else:
        facts = _tiered(reader, plan, focus, time)
    if not facts and plan.object is not None and plan.relation_tiers:
        # The relation words did not match ("When did Priya leave Dell?"): any fact between the two,
        # unless the words named a relation strictly ("When did Yuki marry Haruto?" is no date of dating).
        facts = sorted(_dedupe([f for e in focus for f in _rows(reader, e, None, plan.object.id, time)
                                if plan.may_rest_on(f.relation)]), key=fact_order)
    about = _who_is(reached, plan)
    if not facts:
        what = f"{about} and {plan.object.name}" if plan.object is not None else about
        return _knowing(reader, plan, reached, time, f"I don't know: the memory has no {_asked_words(plan)} "
                                                     f"about {what}{_when(time)}.")
    if plan.kind == "ever":
        text, cited = _with_chain(f"Yes: {tell.lines(facts)}.", facts, reached, tell)
        return text, cited, True
    if plan.kind == "when_start":
        if plan.object is None:
            facts = sorted(facts, key=lambda f: f.valid_at or datetime.min.replace(tzinfo=reference.tzinfo),
                           reverse=True)  # "When did he move?": the latest change
        dated = [f for f in facts if f.valid_at is not None]
        if not dated:
            return _with_chain_unknown(f"I don't know when it began: {tell.lines(facts)}", reached, tell)
        parts = [f"{tell.line(f)}: it began {_began(reader, f)}" for f in dated]
        text, cited = _with_chain("; ".join(parts) + ".", dated, reached, tell)
        return text, cited, True
    if plan.kind == "when_end":
        # every one has an end (filtered first), which the checker cannot see through the lambda
        ended = sorted((f for f in facts if f.invalid_at is not None),
                       key=lambda f: cast(datetime, f.invalid_at), reverse=True)
        if not ended:
            return _with_chain_unknown(
                "I don't know when it ended: as far as the memory knows, it still holds: "
                f"{tell.lines(facts)}", reached, tell)
        parts = [f"{tell.line(f)}: it ended {_ended(reader, f)}" for f in ended]
        text, cited = _with_chain("; ".join(parts) + ".", ended, reached, tell)
        return text, cited, True
    return _how_long(facts, reached, tell)


def _began(reader: Reader, f: Fact) -> str:
    """``on 2024-02-13 ("last night", told on 2024-02-14)``: the date the memory resolved and the
    phrase it came from; ``by 2024-02-14 (when it was first told)`` when no phrase dated it."""
    assert f.valid_at is not None
    told = told_as(reader.core, reader.group_id, f, f.valid_at)
    if told is not None:
        return _resolved(f.valid_at, told)
    text = start_text(f, preposition=True) or ""
    return f"{text} (when it was first told)" if text.startswith("by ") else text


def _ended(reader: Reader, f: Fact) -> str:
    assert f.invalid_at is not None
    told = told_as(reader.core, reader.group_id, f, f.invalid_at)
    return _resolved(f.invalid_at, told) if told is not None else end_text(f, preposition=True) or ""


def _resolved(moment: datetime, told: Told) -> str:
    when = date_text(moment, told.granularity, preposition=True)
    return f'{when} ("{told.phrase}", told on {told.told_at.date().isoformat()})'


def _how_long(facts: list[Fact], reached: list[Reached], tell: Telling) -> Result:
    reference = tell.reference
    dated = [f for f in facts if f.valid_at is not None]
    if not dated:
        return _with_chain_unknown(f"I don't know how long: the memory does not know when it began: "
                                   f"{tell.lines(facts)}", reached, tell)
    parts = []
    for f in dated:
        start = f.valid_at
        assert start is not None
        first = precision(start, f.attributes.get("valid_at_granularity"))
        at_least = "at least " if first == "told" else ""
        if f.invalid_at is None or f.invalid_at > reference:
            length = duration_text(start, reference, first)
            parts.append(f"{tell.line(f)}: since {start_text(f, preposition=False)}"
                         .replace("since by ", "since at least ") + f", {at_least}{length} so far")
        else:
            last = precision(f.invalid_at, f.attributes.get("invalid_at_granularity"))
            length = duration_text(start, f.invalid_at, coarser(first, last))
            parts.append(f"{tell.line(f)}: for {at_least}{length} "
                         f"({(start_text(f) or '').removeprefix('by ')} to {end_text(f)})")
    text, cited = _with_chain("; ".join(parts) + ".", dated, reached, tell)
    return text, cited, True


def _with_chain_unknown(text: str, reached: list[Reached], tell: Telling) -> Result:
    chain = _chain_of(reached)
    return (f"{text}." + (f" Through: {tell.path().lines(chain)}." if chain else "")), chain, False


# ---------------------------------------------------------------------------------- what changed


def _changed(core: Core, plan: Plan, reached: list[Reached]) -> Result:
    tell = telling(plan)
    reference = plan.reference
    if plan.time.kind == "during" and plan.time.start is not None:
        start, since = plan.time.start, plan.time.text or f"since {date_text(plan.time.start)}"
    else:
        start, since = reference - timedelta(days=365), "in the last year"
    if start >= reference:
        return f"I don't know: {since} is not before now.", [], False
    cited: list[Fact] = []
    parts = []
    for r in reached:
        diff = reads.diff(core, start, reference + EPSILON, subject=r.entity.name, group_id=plan.group_id)
        told = {f.fact_id for f in (*diff.started, *diff.ended)}
        # not again what already started or ended
        revised = [f for f in diff.revised if f.fact_id not in told]
        for label, facts in (("started", diff.started), ("ended", diff.ended), ("revised", revised)):
            if facts:
                parts.append(f"{label}: {tell.lines(facts)}")
                cited += facts
    name = _who_is(reached, plan)
    if not parts:
        return f"Nothing changed for {name} {since}, as far as the memory knows.", [], True
    text, facts = _with_chain(f"For {name} {since}: " + "; ".join(parts) + ".", _dedupe(cited), reached,
                              tell)
    return text, facts, True


# ---------------------------------------------------------------------------------- before / after a change


def _placed(core: Core, plan: Plan) -> TimeSpec | str:
    """The moment of "before/after he moved", or why it cannot be placed."""
    assert plan.subject is not None
    relation = plan.time.change_relation or "LIVES_IN"
    rows = reads.history(core, plan.subject.name, relation, group_id=plan.group_id)
    dated = [f for f in rows if f.valid_at is not None]
    if not dated:
        verb = {"LIVES_IN": "moved", "WORKS_AT": "changed jobs", "MARRIED_TO": "married"}.get(
            relation, "changed")
        return f"the memory does not know when {plan.subject.name} {verb}"
    changes = [f for f in dated
               if any(p.invalid_at == f.valid_at and p.object_id != f.object_id for p in rows)]
    moment: datetime = max(f.valid_at for f in (changes or dated))  # type: ignore[type-var,assignment]
    if not plan.relation_tiers:
        plan.relation_tiers = [[relation]]
    return TimeSpec("at", start=moment - EPSILON if plan.time.kind == "before_change" else moment,
                    text=plan.time.text)
