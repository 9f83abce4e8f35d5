"""Questions in plain language, answered from facts (cited), or "I don't know" — never invented.

A question is turned into a :class:`Plan` — who it is about, which relations, which time — and the
plan is run as an ordinary temporal query (``as_of`` / ``history``). The answer text is made from
the facts found, so it can only say what the memory holds.

Planning:

- **Offline** (no LLM configured), by rules:
  - *entity*: names (or aliases) of known entities appearing in the question; "he", "she",
    "they" with no name stand for the group's main subject (the entity most facts are about),
    and the answer says so;
  - *relation*: a keyword table ("live" → ``LIVES_IN``, "what does … do" → ``WORKS_AS``,
    "like" → ``LIKES``, …), then any relation of the group whose name shares a word with the
    question ("who does he play for" → ``PLAYS_FOR``);
  - *time*: "now"/"currently" or the present tense → now; "in 2019", "in May 2023",
    "last summer", "two years ago" → that period (any fact overlapping it); "before she moved" →
    just before the latest change of where she lives ("after …" → from it); a past tense with no
    time → the whole history. Phrases are resolved against ``reference_time`` (default now) by the
    time-expression parser of ``ingestion`` (one parser for both sides).
- **With an LLM** (``tg.llm`` set): one structured call fills a :class:`QuestionPlan`; names and
  times it returns are resolved by the same code as above. If the call fails, the rules are used.
"""

from __future__ import annotations

import calendar
import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any, Literal

from pydantic import BaseModel, Field

from temporal_graph.client import fact_order
from temporal_graph.errors import InvalidInput, TemporalGraphError
from temporal_graph.model import Answer, Entity, Fact
from temporal_graph.names import check_group, normalize_relation
from temporal_graph.store import FactQuery
from temporal_graph.times import TimeLike, to_utc

from ingestion.timeexpr import resolve_time

from .context import fact_line
from .search import named_entities

TimeKind = Literal["now", "at", "during", "ever", "before_change", "after_change"]
_EPSILON = timedelta(microseconds=1)

# ---------------------------------------------------------------------------------- relations

# (pattern, tiers): the first tier that finds facts answers; later tiers are fallbacks.
_RELATION_RULES: list[tuple[re.Pattern[str], list[list[str]]]] = [
    (
        re.compile(
            r"\bwhat (?:does|did|do|is|was) (?:(?!\b(?:likes?|enjoys?|loves?|fun)\b).)+ (?:do|doing)\b"
            r"|\b(?:job|profession|occupation|for a living|career|work as|works as|worked as|title)\b"
        ),
        [["WORKS_AS", "JOB_TITLE", "ROLE"], ["WORKS_AT"]],
    ),
    (
        re.compile(r"\b(?:work|works|working|worked|employer|employed|company)\b"),
        [["WORKS_AT"], ["WORKS_AS", "JOB_TITLE", "WORKED_AT"]],
    ),
    (
        re.compile(r"\b(?:live|lives|living|lived|reside|resides|resided|home|based|moved?|stay|stays)\b"),
        [["LIVES_IN"], ["LIVED_IN"]],
    ),
    (
        re.compile(r"\b(?:study|studies|studying|studied|school|university|college|student)\b"),
        [["STUDIES_AT"], ["STUDIED_AT"]],
    ),
    (re.compile(r"\b(?:married|wife|husband|spouse|partner)\b"), [["MARRIED_TO"], ["DATING", "ENGAGED_TO"]]),
    (re.compile(r"\b(?:dating|girlfriend|boyfriend)\b"), [["DATING"], ["ENGAGED_TO", "MARRIED_TO"]]),
    (re.compile(r"\b(?:dislike|dislikes|hate|hates)\b"), [["DISLIKES", "HATES"]]),
    (re.compile(r"\b(?:like|likes|love|loves|enjoy|enjoys|favou?rite|fan of|into)\b"), [["LIKES", "LOVES"]]),
    (re.compile(r"\b(?:pets?|dogs?|cats?)\b"), [["HAS_PET"]]),
    (
        re.compile(r"\b(?:visit|visited|been to|travel|travelled|traveled|trip)\b"),
        [["VISITED"], ["PLANS_TO_VISIT"]],
    ),
    (re.compile(r"\b(?:born)\b"), [["BORN_IN", "BORN_ON"]]),
    (re.compile(r"\b(?:manager|managed|manages|boss|reports? to)\b"), [["MANAGED_BY", "REPORTS_TO"]]),
    (re.compile(r"\b(?:friends?)\b"), [["FRIEND_OF"]]),
    (re.compile(r"\b(?:child|children|kids?|son|daughter)\b"), [["HAS_CHILD"]]),
    (re.compile(r"\b(?:speak|speaks|language)\b"), [["SPEAKS"]]),
    (re.compile(r"\b(?:hobby|hobbies)\b"), [["HAS_HOBBY"]]),
    (re.compile(r"\b(?:own|owns|owned)\b"), [["OWNS"]]),
    (re.compile(r"\b(?:allergic|allergy|allergies)\b"), [["ALLERGIC_TO"]]),
    (re.compile(r"\b(?:plan|plans|planning)\b"), [["PLANS", "PLANS_TO_VISIT"]]),
    (re.compile(r"\b(?:old|age)\b"), [["AGE"]]),
]
# "before she moved": which change anchors the time, by verb.
_CHANGE_VERBS: list[tuple[re.Pattern[str], str]] = [
    (re.compile(r"moved|relocated|moving|move"), "LIVES_IN"),
    (
        re.compile(
            r"(?:changed|switched|changing|switching|new) jobs?|quit"
            r"|started (?:a |her |his |their )?(?:new )?job"
        ),
        "WORKS_AT",
    ),
    (re.compile(r"married|wedding"), "MARRIED_TO"),
]
_PRONOUNS = re.compile(r"\b(?:he|she|they|him|her|his|hers|them|their)\b", re.IGNORECASE)
_PAST = re.compile(
    r"\b(?:did|was|were|used to|had|previously|formerly|before|ever)\b"
    r"|\bha(?:s|ve) (?:\w+ ){0,3}(?:lived|worked|been|studied|visited|owned|liked)\b",
    re.IGNORECASE,
)
_NOW = re.compile(r"\b(?:now|currently|nowadays|these days|at the moment|at present|today)\b", re.IGNORECASE)

# ---------------------------------------------------------------------------------- times

_MONTH_NAMES = {m.lower(): i for i, m in enumerate(calendar.month_name) if m}
_MONTH_NAMES.update({m.lower(): i for i, m in enumerate(calendar.month_abbr) if m})
_MONTH = r"(?:" + "|".join(sorted(_MONTH_NAMES, key=len, reverse=True)) + r")\.?"
_DATE = (
    rf"(?:\d{{1,2}}(?:st|nd|rd|th)?\s+{_MONTH},?\s+\d{{4}}|{_MONTH}\s+\d{{1,2}}(?:st|nd|rd|th)?,?\s+\d{{4}}"
    rf"|{_MONTH},?\s+\d{{4}}|\d{{4}}-\d{{2}}(?:-\d{{2}})?|\d{{4}}|{_MONTH})"
)
_NUMBER_WORDS = {
    "a": 1,
    "an": 1,
    "one": 1,
    "two": 2,
    "three": 3,
    "four": 4,
    "five": 5,
    "six": 6,
    "seven": 7,
    "eight": 8,
    "nine": 9,
    "ten": 10,
}
_RELATIVE = re.compile(
    rf"\b(?:(?:last|this|next|past) (?:year|month|week|summer|winter|spring|autumn|fall|{_MONTH})"
    rf"|(?:\d+|{'|'.join(_NUMBER_WORDS)}) (?:years?|months?|weeks?|days?) ago|yesterday)\b",
    re.IGNORECASE,
)
_ABSOLUTE = re.compile(
    rf"\b(?:in|during|on|as of|at|around|by|back in)\s+(?:early |late |mid[- ])?({_DATE})\b", re.IGNORECASE
)
_BEFORE_DATE = re.compile(rf"\bbefore\s+({_DATE})\b", re.IGNORECASE)
_CHANGE = re.compile(
    r"\b(before|after|since)\s+(?:[\w'-]+\s+){0,3}?("
    + "|".join(p.pattern for p, _ in _CHANGE_VERBS)
    + r")\b",
    re.IGNORECASE,
)


@dataclass
class TimeSpec:
    kind: TimeKind
    start: datetime | None = None  # "at": the moment; "during": [start, end)
    end: datetime | None = None
    text: str = ""  # the phrase, for the answer
    change_relation: str | None = None


def question_time(question: str, reference: datetime) -> TimeSpec:
    """The time a question asks about, resolved against ``reference``."""
    q = question.strip()
    change = _CHANGE.search(q)
    if change:
        for pattern, relation in _CHANGE_VERBS:
            if pattern.fullmatch(change.group(2).lower()):
                kind: TimeKind = "before_change" if change.group(1).lower() == "before" else "after_change"
                return TimeSpec(kind, text=change.group(0), change_relation=relation)
    before = _BEFORE_DATE.search(q)
    if before:
        span = resolve_phrase(before.group(1), reference)
        if span is not None:
            return TimeSpec("at", start=span[0] - _EPSILON, text=before.group(0))
    relative = _RELATIVE.search(q)
    if relative:
        span = resolve_phrase(relative.group(0), reference)
        if span is not None:
            return TimeSpec("during", start=span[0], end=span[1], text=relative.group(0))
    absolute = _ABSOLUTE.search(q)
    if absolute:
        span = resolve_phrase(absolute.group(1), reference)
        if span is not None:
            return TimeSpec("during", start=span[0], end=span[1], text=absolute.group(0))
    if _NOW.search(q):
        return TimeSpec("at", start=reference, text="now")
    if _PAST.search(q):
        return TimeSpec("ever", text="")
    return TimeSpec("at", start=reference, text="now")


def resolve_phrase(phrase: str, reference: datetime) -> tuple[datetime, datetime] | None:
    """[start, end) of a time phrase, by the same deterministic parser ingestion uses."""
    span = resolve_time(phrase, reference)
    return (span.start, span.end) if span is not None and span.end > span.start else None


class QuestionPlan(BaseModel):
    """What an LLM fills in for one question (structured output)."""

    subject: str | None = Field(
        default=None,
        description="The person or thing the question is about, as named in the question; "
        "null if the question names nobody (e.g. only 'he' or 'she').",
    )
    object: str | None = Field(
        default=None,
        description="A second named entity the answer should be about, e.g. 'Shanghai' in "
        "'when did she move to Shanghai' or 'who lives in Shanghai'; else null.",
    )
    relations: list[str] = Field(
        default_factory=list,
        description="Relations that would answer it, UPPER_SNAKE, best first, chosen "
        "from the known relations when one fits (e.g. LIVES_IN for 'where does she live').",
    )
    time: TimeKind = Field(
        default="now",
        description="now: the present; at: one moment; during: a period such as 'in 2019' or "
        "'last summer'; ever: the whole history; before_change/after_change: just before/after a change "
        "such as 'before she moved'.",
    )
    time_text: str | None = Field(
        default=None,
        description="The time phrase exactly as written in the question (e.g. 'in May 2023', "
        "'last summer'); null for now/ever/before_change/after_change.",
    )
    change_relation: str | None = Field(
        default=None,
        description="For before_change/after_change: the relation that changed "
        "(LIVES_IN for moving, WORKS_AT for a new job).",
    )


@dataclass
class Plan:
    subject: Entity | None
    object: Entity | None
    relation_tiers: list[list[str]]
    time: TimeSpec
    notes: list[str] = field(default_factory=list)
    unknown_name: str | None = None


def plan_offline(tg: Any, question: str, reference: datetime, group_id: str) -> Plan:
    subject, obj, notes = _entities(tg, question, group_id)
    return Plan(subject, obj, _relations(tg, question, group_id), question_time(question, reference), notes)


def _entities(tg: Any, question: str, group_id: str) -> tuple[Entity | None, Entity | None, list[str]]:
    """(subject, object, notes): named entities in question order; a pronoun stands for the main subject."""
    found = named_entities(tg, question, group_id)
    lowered = question.casefold()
    found.sort(
        key=lambda e: min(
            (i for n in (e.name, *e.aliases) if (i := lowered.find(n.casefold())) >= 0), default=len(lowered)
        )
    )
    subjects = [e for e in found if _has_facts(tg, group_id, subject_id=e.id)]
    subject = subjects[0] if subjects else None
    others = [e for e in found if subject is None or e.id != subject.id]
    notes: list[str] = []
    if subject is None and _PRONOUNS.search(question):
        subject = _main_subject(tg, group_id)
        if subject is not None:
            pronoun = _PRONOUNS.search(question).group(0)  # type: ignore[union-attr]
            notes.append(f"taking '{pronoun}' to be {subject.name}")
    return subject, (others[0] if others else None), notes


def _has_facts(tg: Any, group_id: str, **ids: str) -> bool:
    return bool(tg.store.facts(FactQuery(group_id, **ids)))


def _main_subject(tg: Any, group_id: str) -> Entity | None:
    """The entity most currently-believed facts are about: who "he"/"she" means in a personal memory."""
    counts = Counter(f.subject_id for f in tg.store.facts(FactQuery(group_id)))
    if not counts:
        return None
    best = max(counts.values())
    candidates = tg.store.entities(group_id, ids=[i for i, n in counts.items() if n == best])
    return min(candidates, key=lambda e: e.name.casefold()) if candidates else None


def _relations(tg: Any, question: str, group_id: str) -> list[list[str]]:
    q = question.casefold()
    for pattern, tiers in _RELATION_RULES:
        if pattern.search(q):
            return [list(t) for t in tiers]
    # Any relation of the group sharing a word stem with the question ("play" ~ PLAYS_FOR).
    stems = {w[:4] for w in re.findall(r"[a-z]{3,}", q)} - {"what", "wher", "when", "does", "that", "with"}
    matching = [
        r
        for r in tg.store.relations(group_id)
        if any(part.lower()[:4] in stems for part in r.split("_") if len(part) >= 3)
    ]
    return [matching] if matching else []


def plan_with_llm(tg: Any, question: str, reference: datetime, group_id: str) -> Plan:
    """One structured call; names and times from it go through the same resolution as offline."""
    relations = sorted(set(tg.store.relations(group_id)) | set(tg.ontology.cardinalities))
    messages = [
        {
            "role": "system",
            "content": (
                "You turn a question about a person's memory into a query plan. Do not answer the "
                "question; only say what it asks for. Known relations: " + ", ".join(relations) + ". "
                f"The question is asked on {reference.date().isoformat()}."
            ),
        },
        {"role": "user", "content": question},
    ]
    raw = tg.llm.structured(messages, QuestionPlan, purpose="ask-plan")
    offline = plan_offline(tg, question, reference, group_id)
    subject = tg.find_entity(raw.subject, group_id) if raw.subject else offline.subject
    obj = tg.find_entity(raw.object, group_id) if raw.object else offline.object
    tiers: list[list[str]] = []
    for name in raw.relations:
        try:
            tiers.append([normalize_relation(name)])
        except InvalidInput:
            continue
    if tiers:
        tiers = [[r for t in tiers for r in t]]
    time = _time_from_llm(raw, reference) or offline.time
    plan = Plan(
        subject,
        obj,
        tiers or offline.relation_tiers,
        time,
        list(offline.notes if subject == offline.subject else []),
    )
    if raw.subject and subject is None:
        plan.unknown_name = raw.subject
    return plan


def _time_from_llm(raw: QuestionPlan, reference: datetime) -> TimeSpec | None:
    if raw.time == "now":
        return TimeSpec("at", start=reference, text="now")
    if raw.time == "ever":
        return TimeSpec("ever")
    if raw.time in ("before_change", "after_change"):
        try:
            relation = normalize_relation(raw.change_relation or "LIVES_IN")
        except InvalidInput:
            return None
        return TimeSpec(raw.time, change_relation=relation, text=raw.time_text or "")
    if raw.time_text:
        phrase = re.sub(
            r"^(?:in|during|on|as of|at|around|by)\s+", "", raw.time_text.strip(), flags=re.IGNORECASE
        )
        span = resolve_phrase(phrase, reference)
        if span is not None:
            if raw.time == "at":
                return TimeSpec("at", start=span[0], text=raw.time_text)
            return TimeSpec("during", start=span[0], end=span[1], text=raw.time_text)
    return None


# ---------------------------------------------------------------------------------- running


def run_plan(tg: Any, plan: Plan, group_id: str) -> tuple[list[Fact], str | None]:
    """The facts answering ``plan`` and, when the time could not be placed, why."""
    time = plan.time
    if time.kind in ("before_change", "after_change"):
        if plan.subject is None:
            return [], None
        moment = _change_moment(tg, plan.subject, time.change_relation or "LIVES_IN", group_id)
        if moment is None:
            return [], f"the memory does not know when {plan.subject.name} {_verb(time.change_relation)}"
        time = TimeSpec(
            "at", start=moment - _EPSILON if time.kind == "before_change" else moment, text=time.text
        )
        if not plan.relation_tiers:
            plan.relation_tiers = [[plan.time.change_relation or "LIVES_IN"]]
    tiers = plan.relation_tiers or [[]]  # no relation recognized: everything about the subject
    for tier in tiers:
        facts: list[Fact] = []
        for relation in tier or [None]:
            facts += _facts(tg, plan, relation, time, group_id)
        if facts:
            return _dedupe(facts), None
    return [], None


def _facts(tg: Any, plan: Plan, relation: str | None, time: TimeSpec, group_id: str) -> list[Fact]:
    """Rows of the plan's subject (or, lacking one, pointing at its object), as currently
    believed, whose valid time matches the plan's time."""
    if plan.subject is None and plan.object is None:
        return []

    def fetch(obj: Entity | None) -> list[Fact]:
        query = FactQuery(
            group_id,
            subject_id=plan.subject.id if plan.subject else None,
            object_id=obj.id if obj else None,
            relation=relation,
        )
        rows = tg.store.facts(query)
        if time.kind == "at":
            rows = [f for f in rows if f.valid_at_time(time.start)]  # type: ignore[arg-type]
        elif time.kind == "during":
            rows = [f for f in rows if _overlaps(f, time.start, time.end)]
        return rows

    rows = fetch(plan.object)
    if not rows and plan.object is not None and plan.subject is not None:
        rows = fetch(None)  # "does he live in Paris?": say what is known instead
    return rows


def _overlaps(f: Fact, start: datetime | None, end: datetime | None) -> bool:
    return (f.valid_at is None or end is None or f.valid_at < end) and (
        f.invalid_at is None or start is None or f.invalid_at > start
    )


def _change_moment(tg: Any, subject: Entity, relation: str, group_id: str) -> datetime | None:
    """When the latest change of ``relation`` happened: the start of its latest dated row that
    followed another row (or the latest dated row at all)."""
    rows = tg.history(subject.name, relation, group_id=group_id)
    dated = [f for f in rows if f.valid_at is not None]
    if not dated:
        return None
    changes = [
        f for f in dated if any(p.invalid_at == f.valid_at and p.object_id != f.object_id for p in rows)
    ]
    return max(f.valid_at for f in (changes or dated))  # type: ignore[type-var]


def _verb(relation: str | None) -> str:
    return {"LIVES_IN": "moved", "WORKS_AT": "changed jobs", "MARRIED_TO": "married"}.get(
        relation or "", "changed"
    )


def _dedupe(facts: Sequence[Fact]) -> list[Fact]:
    return sorted({f.id: f for f in facts}.values(), key=fact_order)


def ask(
    tg: Any, question: str, *, reference_time: TimeLike | None = None, group_id: str = "default"
) -> Answer:
    """Answer ``question`` from the memory; ``known=False`` (and a plain "I don't know") otherwise."""
    check_group(group_id)
    if not isinstance(question, str) or not question.strip():
        raise InvalidInput("question: empty")
    reference = (
        tg.time(reference_time, "reference_time") if reference_time is not None else to_utc(tg.clock())
    )
    plan: Plan | None = None
    if tg.llm is not None:
        try:
            plan = plan_with_llm(tg, question, reference, group_id)
        except TemporalGraphError:
            plan = None  # the LLM failed; the rules still answer
    if plan is None:
        plan = plan_offline(tg, question, reference, group_id)

    if plan.subject is None and plan.object is None:
        who = f" anyone called {plan.unknown_name!r}" if plan.unknown_name else " who or what this is about"
        return Answer(question=question, text=f"I don't know: the memory does not know{who}.", known=False)
    facts, problem = run_plan(tg, plan, group_id)
    about = plan.subject.name if plan.subject else plan.object.name  # type: ignore[union-attr]
    if not facts:
        when = f" {plan.time.text}" if plan.time.text and plan.time.text != "now" else ""
        asked = [r for tier in plan.relation_tiers for r in tier]
        what = (
            " or ".join(f"'{r.lower().replace('_', ' ')}'" for r in asked[:3]) + " fact" if asked else "fact"
        )
        why = problem or f"the memory has no {what} about {about}{when}"
        return Answer(question=question, text=f"I don't know: {why}.", known=False)
    text = "; ".join(fact_line(f).removeprefix("- ") for f in facts) + "."
    if plan.notes:
        text = f"{text} ({'; '.join(plan.notes)})"
    return Answer(question=question, text=text, facts=facts, known=True)
