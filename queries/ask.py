"""Questions in plain language, answered from facts (cited), or "I don't know" — never invented.

A question becomes a :class:`Plan`: whom it starts from, a chain of hops ("Kenji's brother"), the
relations asked, the kind of question and the time (valid time, and transaction time for "as
known then"). The plan is run by reading the store by subject, object and relation only
(:mod:`queries.hops`), and the answer is worded from the facts found (:mod:`queries.answer_text`),
so it can only say what the memory holds.

Kinds: *what* (the value: "Where does Kenji's brother live?"), *who* (the inverse: "Who lives in
Kyoto?"), *when_start* / *when_end* ("When did Priya leave Dell?"), *how_long*, *ever* ("Has Kenji
ever lived in Osaka?"), *changed* ("What changed for Kenji since 2023?", through ``diff``) and
*believed* ("What did the memory believe about Kenji on 1 May 2024?", through transaction time).

Planning:

- **Offline** (no LLM configured), by rules (:mod:`queries.question`, :mod:`queries.question_time`):
  named entities (or aliases) of the group found in the question; possessives and "the X of Y"
  as hops; "he", "she", "they" with no name stand for the main speaker of the recent messages,
  and the answer says so; relations from a keyword table, then from the group's relation names.
- **With an LLM** (``tg.llm`` set): one structured call fills a :class:`QuestionPlan`; names and
  times it returns are resolved by the same code as above. If the call fails, the rules are used.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from temporal_graph.core import DEFAULT_GROUP, Core
from temporal_graph.core.errors import InvalidInput, TemporalGraphError
from temporal_graph.core.model import Answer, Entity, QuestionKind, QuestionPlan
from temporal_graph.core.names import check_group, normalize_relation
from temporal_graph.core.stores.protocol import FactQuery
from temporal_graph.core.times import TimeLike

from .answering import answer_plan
from .hops import Hop
from .question import HOP_WORDS, hop_phrases, question_kind, relation_tiers, unknown_names
from .question_time import TimeSpec, known_time, question_time, resolve_phrase
from .search import named_entities

__all__ = ["Plan", "QuestionPlan", "ask", "plan_offline", "plan_with_llm", "question_time", "resolve_phrase"]

_PRONOUNS = re.compile(r"\b(?:he|she|they|him|her|his|hers|them|their)\b", re.IGNORECASE)
RECENT_SPEAKERS = 50  # messages looked at to decide whom "he"/"she" means


@dataclass
class Plan:
    """A question resolved against the memory: entities found, relations known, times placed."""

    subject: Entity | None
    object: Entity | None
    relation_tiers: list[list[str]]
    time: TimeSpec
    kind: QuestionKind = "what"
    hops: list[Hop] = field(default_factory=list)
    known_at: datetime | None = None
    known_text: str = ""
    notes: list[str] = field(default_factory=list)
    unknown_name: str | None = None  # a name asked about that the memory does not know
    unknown_object: str | None = None

    def described(self) -> QuestionPlan:
        """The plan as the public :class:`QuestionPlan` (what ``tgraph ask --json`` prints)."""
        return QuestionPlan(
            subject=self.subject.name if self.subject else (
                self.unknown_name if self.unknown_name != self.unknown_object else None),
            object=self.object.name if self.object else self.unknown_object,
            hops=[h.relations[0] for h in self.hops],
            hop_words=[h.word or "" for h in self.hops],
            relations=[r for tier in self.relation_tiers for r in tier],
            kind=self.kind,
            time=_public_time(self.time),
            time_text=self.known_text or self.time.text or None,
            change_relation=self.time.change_relation,
        )


def _public_time(time: TimeSpec) -> Any:
    return "now" if time.kind == "at" and time.text == "now" else time.kind


# ---------------------------------------------------------------------------------- offline plan


def plan_offline(core: Core, question: str, reference: datetime, group_id: str) -> Plan:
    known = known_time(question, reference)
    q = known[2] if known else question
    spans = _entity_spans(core, q, group_id)
    hop_words: list[str] = []
    reduced = q
    chain_start: Entity | None = None
    for entity, start, end in spans:
        hop_words, reduced = hop_phrases(q, start, end)
        if hop_words:
            chain_start = entity
            break
    found = [e for e, _, _ in spans]
    if chain_start is not None:
        subject: Entity | None = chain_start
        others = [e for e in found if e.id != chain_start.id]
    else:
        with_facts = [e for e in found if _has_facts(core, group_id, subject_id=e.id)]
        subject = with_facts[0] if with_facts else None
        others = [e for e in found if subject is None or e.id != subject.id]
    obj = others[0] if others else None
    unknown = unknown_names(reduced, [n for e in found for n in (e.name, *e.aliases)])
    kind = question_kind(reduced, has_hops=bool(hop_words), has_object=obj is not None or bool(unknown))
    if kind == "who" and found:
        subject, obj = None, found[0]
    notes: list[str] = []
    if subject is None and obj is None and _PRONOUNS.search(q):
        subject = _main_subject(core, group_id, reference)
        if subject is not None:
            notes.append(f"taking '{_PRONOUNS.search(q).group(0)}' to be {subject.name}")  # type: ignore[union-attr]
    time = question_time(reduced, reference)
    plan = Plan(subject, obj, relation_tiers(reduced, core.store.relations(group_id)), time, kind,
                hops=[Hop(HOP_WORDS[w], w) for w in hop_words], notes=notes)
    if unknown and obj is None:
        plan.unknown_object = unknown[0]
        if subject is None:
            plan.unknown_name = unknown[0]
    if known:
        plan.known_at, plan.known_text = known[0], known[1]
        if kind == "believed" or time.kind != "during":
            plan.time = TimeSpec("at", start=known[0], text=known[1])
    return plan


def _entity_spans(core: Core, question: str, group_id: str) -> list[tuple[Entity, int, int]]:
    """Named entities with where they first occur in the question, in question order."""
    lowered = question.casefold()
    spans = []
    for e in named_entities(core, question, group_id):
        hits = [(i, i + len(n)) for n in (e.name, *e.aliases) if (i := lowered.find(n.casefold())) >= 0]
        start, end = min(hits) if hits else (len(lowered), len(lowered))
        spans.append((e, start, end))
    return sorted(spans, key=lambda s: s[1])


def _has_facts(core: Core, group_id: str, subject_id: str) -> bool:
    return bool(core.store.facts(FactQuery(group_id, subject_id=subject_id)))


def _main_subject(core: Core, group_id: str, reference: datetime) -> Entity | None:
    """Whom "he"/"she" means in a personal memory: the most frequent speaker of the recent
    messages who has facts (read from the latest messages, never the whole group)."""
    recent = core.store.recent_episodes(group_id, reference + timedelta(days=1), RECENT_SPEAKERS)
    for name, _ in Counter(e.speaker for e in recent if e.speaker).most_common():
        entity = core.find_entity(name, group_id)
        if entity is not None and _has_facts(core, group_id, subject_id=entity.id):
            return entity
    return None


# ---------------------------------------------------------------------------------- LLM plan


def plan_with_llm(core: Core, question: str, reference: datetime, group_id: str) -> Plan:
    """One structured call; names and times from it go through the same resolution as offline."""
    relations = sorted(set(core.store.relations(group_id)) | set(core.ontology.cardinalities))
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
    if core.llm is None:
        raise TemporalGraphError("ask: planning with an LLM needs one configured (llm=...)")
    raw = core.llm.structured(messages, QuestionPlan, purpose="ask-plan")
    offline = plan_offline(core, question, reference, group_id)
    subject = core.find_entity(raw.subject, group_id) if raw.subject else offline.subject
    obj = core.find_entity(raw.object, group_id) if raw.object else offline.object
    named = _relation_names(raw.relations)
    tiers = [named] if named else offline.relation_tiers
    if raw.hops and not raw.relations:
        tiers = []  # the answer is whom the hops reach ("Who is Hiro's brother?")
    hops = []
    for i, name in enumerate(raw.hops[:3]):
        word = raw.hop_words[i].lower() if i < len(raw.hop_words) and raw.hop_words[i] else None
        candidates = _relation_names([name]) + list(HOP_WORDS.get(word or "", ()))
        if candidates:
            hops.append(Hop(tuple(dict.fromkeys(candidates)), word))
    time = _time_from_llm(raw, reference) or offline.time
    plan = Plan(subject, obj, tiers, time, raw.kind, hops=hops,
                notes=list(offline.notes if subject == offline.subject else []))
    if raw.kind == "believed" and time.kind in ("at", "during") and time.start is not None:
        moment = (time.end or time.start + timedelta(days=1)) - timedelta(microseconds=1)
        plan.known_at, plan.known_text = moment, time.text
        plan.time = TimeSpec("at", start=moment, text=time.text)
    elif offline.known_at is not None:
        plan.known_at, plan.known_text = offline.known_at, offline.known_text
    if raw.subject and subject is None:
        plan.unknown_name = raw.subject
    return plan


def _relation_names(names: list[str]) -> list[str]:
    out = []
    for name in names:
        try:
            out.append(normalize_relation(name))
        except InvalidInput:
            continue
    return out


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
        since = re.match(r"^\s*since\s+", raw.time_text, flags=re.IGNORECASE)
        phrase = re.sub(
            r"^(?:in|during|on|as of|at|around|by|since)\s+", "", raw.time_text.strip(), flags=re.IGNORECASE
        )
        span = resolve_phrase(phrase, reference)
        if span is not None:
            if since:
                return TimeSpec("during", start=span[0], end=reference, text=raw.time_text)
            if raw.time == "at":
                return TimeSpec("at", start=span[0], text=raw.time_text)
            return TimeSpec("during", start=span[0], end=span[1], text=raw.time_text)
    return None


# ---------------------------------------------------------------------------------- asking


def ask(
    core: Core, question: str, *, reference_time: TimeLike | None = None, group_id: str = DEFAULT_GROUP
) -> Answer:
    """Answer ``question`` from the memory; ``known=False`` (and a plain "I don't know") otherwise."""
    check_group(group_id)
    if not isinstance(question, str) or not question.strip():
        raise InvalidInput("question: empty")
    reference = core.time_or_now(reference_time, "reference_time")
    plan: Plan | None = None
    if core.llm is not None:
        try:
            plan = plan_with_llm(core, question, reference, group_id)
        except TemporalGraphError:
            plan = None  # the LLM failed; the rules still answer
    if plan is None:
        plan = plan_offline(core, question, reference, group_id)
    text, facts, known = answer_plan(core, plan, reference, group_id)
    if plan.notes and known:
        text = f"{text} ({'; '.join(plan.notes)})"
    return Answer(question=question, text=text, facts=facts, known=known, plan=plan.described())
