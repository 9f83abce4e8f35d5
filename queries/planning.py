"""Making the plan of a question (:class:`~queries.plan.Plan`), by rules or by one LLM call.

- **Offline** (no LLM configured), by rules (:mod:`queries.question`, :mod:`queries.question_time`):
  named entities (or aliases) of the group found in the question; possessives and "the X of Y"
  as hops; "he", "she", "they" with no name stand for the main speaker of the recent messages,
  and the answer says so; relations from a keyword table, then from the group's relation names.
- **With an LLM** (``core.llm`` set): one structured call fills a :class:`QuestionPlan`; names and
  times it returns are resolved by the same code as above. If the call fails, the rules are used.
"""

from __future__ import annotations

import re
from collections import Counter
from datetime import datetime, timedelta

from temporal_graph.core import Core
from temporal_graph.core.errors import InvalidInput, TemporalGraphError
from temporal_graph.core.model import Entity, QuestionPlan
from temporal_graph.core.names import normalize_relation
from temporal_graph.core.stores.protocol import FactQuery

from .plan import EPSILON, Hop, Plan, TimeSpec
from .question import (
    HOP_WORDS,
    asks_plan,
    hop_phrases,
    is_plan,
    is_polar,
    order_asked,
    question_kind,
    relation_tiers,
    unknown_names,
)
from .question_time import known_time, planned_time, question_time
from .search import named_entities

_PRONOUNS = re.compile(r"\b(?:he|she|they|him|her|his|hers|them|their)\b", re.IGNORECASE)
RECENT_SPEAKERS = 50  # messages looked at to decide whom "he"/"she" means


def make_plan(core: Core, question: str, reference: datetime, group_id: str) -> Plan:
    """The LLM's plan when one is configured and answers, else the rules'."""
    if core.llm is not None:
        try:
            return plan_with_llm(core, question, reference, group_id)
        except TemporalGraphError:
            pass  # the LLM failed; the rules still answer
    return plan_offline(core, question, reference, group_id)


# ---------------------------------------------------------------------------------- offline plan


def plan_offline(core: Core, question: str, reference: datetime, group_id: str) -> Plan:
    known = known_time(question, reference)
    q = known.rest if known else question
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
        # a yes/no question is about the first name it asks about, even one known only as an object
        subject = with_facts[0] if with_facts else (found[0] if found and is_polar(q) else None)
        others = [e for e in found if subject is None or e.id != subject.id]
    obj = others[0] if others else None
    unknown = unknown_names(reduced, [n for e in found for n in (e.name, *e.aliases)])
    kind = question_kind(reduced, has_hops=bool(hop_words), has_object=obj is not None or bool(unknown))
    if kind == "who" and found:
        subject, obj = None, found[0]
    notes: list[str] = []
    pronoun = _PRONOUNS.search(q)
    if subject is None and obj is None and pronoun:
        subject = _main_subject(core, group_id, reference)
        if subject is not None:
            notes.append(f"taking '{pronoun.group(0)}' to be {subject.name}")
    time = question_time(reduced, reference)
    plan = Plan(group_id=group_id, reference=reference, subject=subject, object=obj,
                relation_tiers=relation_tiers(reduced, core.store.relations(group_id)), time=time, kind=kind,
                hops=[Hop(HOP_WORDS[w], w) for w in hop_words], notes=notes)
    if unknown and obj is None:
        plan.unknown_object = unknown[0]
        if subject is None:
            plan.unknown_name = unknown[0]
    _closed_world(plan, reduced)
    if known:
        plan.known_at, plan.known_text = known.moment, known.text
        if kind == "believed" or time.kind != "during":
            plan.time = TimeSpec("at", start=known.moment, text=known.text)
    return plan


def _closed_world(plan: Plan, question: str) -> None:
    """What makes a question closed-world: yes/no, before/after a value, about a plan."""
    plan.polar = is_polar(question)
    plan.asks_plan = asks_plan(question)
    if plan.object is not None:
        order = order_asked(question, [plan.object.name, *plan.object.aliases])
        plan.order = "before" if order == "before" else "after" if order == "after" else None


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
    time = planned_time(raw, reference) or offline.time
    plan = Plan(group_id=group_id, reference=reference, subject=subject, object=obj, relation_tiers=tiers,
                time=time, kind=raw.kind, hops=hops,
                notes=list(offline.notes if subject == offline.subject else []))
    if raw.kind == "believed" and time.placed and time.start is not None:
        moment = (time.end or time.start + timedelta(days=1)) - EPSILON
        plan.known_at, plan.known_text = moment, time.text
        plan.time = TimeSpec("at", start=moment, text=time.text)
    elif offline.known_at is not None:
        plan.known_at, plan.known_text = offline.known_at, offline.known_text
    if raw.subject and subject is None:
        plan.unknown_name = raw.subject
    if obj is None and offline.unknown_object:
        plan.unknown_object = offline.unknown_object
    _closed_world(plan, question)
    if plan.asks_plan and not any(is_plan(r) for tier in plan.relation_tiers for r in tier):
        plan.relation_tiers = offline.relation_tiers
    return plan


def _relation_names(names: list[str]) -> list[str]:
    out = []
    for name in names:
        try:
            out.append(normalize_relation(name))
        except InvalidInput:
            continue
    return out
