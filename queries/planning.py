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

from .asker import Asker, asker
from .broad import people
from .plan import EPSILON, Hop, Plan, TimeSpec
from .question import (
    HOP_WORDS,
    about_the_group,
    asks_plan,
    first_person,
    hop_phrases,
    is_broad,
    is_plan,
    is_polar,
    order_asked,
    question_kind,
    says_first_person,
    unknown_names,
    who_said,
)
from .question_time import known_time, planned_time, question_time
from .search import named_entities
from .status import asked_status
from .topics import Asked, asked_relations, content_stems, is_topic_word

_PRONOUNS = re.compile(r"\b(?:he|she|they|him|her|his|hers|them|their)\b", re.IGNORECASE)
RECENT_SPEAKERS = 50  # messages looked at to decide whom "he"/"she" means
HOLDERS = 50  # rows read to find who holds a relation asked about without a name


def make_plan(core: Core, question: str, reference: datetime, group_id: str,
              speaker: str | None = None) -> Plan:
    """The LLM's plan when one is configured and answers, else the rules'. ``speaker``: who asks
    (see :mod:`queries.asker`)."""
    if core.llm is not None:
        try:
            return plan_with_llm(core, question, reference, group_id, speaker)
        except TemporalGraphError:
            pass  # the LLM failed; the rules still answer
    return plan_offline(core, question, reference, group_id, speaker)


def _in_third_person(core: Core, question: str, reference: datetime, group_id: str,
                     speaker: str | None) -> tuple[str, Asker | None]:
    """The question with "I" and "my" naming the asker, and the asker (None: it has no "I"). An "I"
    inside a name the memory holds ("Who created I'll Be The Devil?") is no asker."""
    if not says_first_person(question):
        return question, None
    names = sorted({e.name for e in _found(core, question, group_id)}, key=len, reverse=True)
    held = question
    for i, name in enumerate(names):
        held = re.sub(re.escape(name), f"\x00{i}\x00", held, flags=re.IGNORECASE)
    if not says_first_person(held):
        return question, None
    me = asker(core, group_id, speaker, reference)
    if me.name is None:
        return question, me
    told = first_person(held, me.name)
    return re.sub("\x00(\\d+)\x00", lambda m: names[int(m.group(1))], told), me


# ---------------------------------------------------------------------------------- offline plan


def plan_offline(core: Core, question: str, reference: datetime, group_id: str,
                 speaker: str | None = None) -> Plan:
    question, me = _in_third_person(core, question, reference, group_id, speaker)
    known = known_time(question, reference)
    q = known.rest if known else question
    statement = who_said(q)
    q = statement if statement is not None else q
    spans = _entity_spans(core, q, group_id)
    if me is not None and me.entity is not None:  # the asker's own entity, never a lookalike of its name
        mine = me.entity
        spans = [(mine if e.name.casefold() == mine.name.casefold() else e, a, b) for e, a, b in spans]
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
    if kind == "who" and obj is not None and order_asked(reduced, [obj.name, *obj.aliases]):
        kind = "what"  # "Who was Yuki with before Lukas?": the one before Lukas in Yuki's timeline
    if kind == "who" and found:
        subject, obj = None, found[0]
    notes: list[str] = [me.note] if me is not None and me.note and me.entity is not None else []
    pronoun = _PRONOUNS.search(q)
    if subject is None and obj is None and pronoun:
        subject = _main_subject(core, group_id, reference)
        if subject is not None:
            notes.append(f"taking '{pronoun.group(0)}' to be {subject.name}")
    time = question_time(reduced, reference)
    known_relations = core.store.relations(group_id)
    unnamed = reduced  # names say who, never what is asked ("What does The Walt Disney Company own?")
    proper = {n for e in found for n in (e.name, *e.aliases) if n[:1].isupper() or n[:1].isdigit()}
    for name in sorted(proper, key=len, reverse=True):
        unnamed = re.sub(rf"(?i)(?<!\w){re.escape(name)}(?!\w)", " ", unnamed)
    asked = asked_relations(unnamed, known_relations, plans=asks_plan(unnamed))
    if obj is not None and (is_topic_word(obj.name) or asked_status(obj.name) is not None):
        # "When did Priya get engaged?" names the value "engaged" only as the words that ask
        found = [e for e in found if e.id != obj.id]
        obj = next((e for e in found if subject is None or e.id != subject.id), None)
        kind = question_kind(reduced, has_hops=bool(hop_words), has_object=obj is not None or bool(unknown))
    plan = Plan(group_id=group_id, reference=reference, subject=subject, object=obj,
                relation_tiers=asked.tiers, time=time, kind=kind,
                hops=[Hop(HOP_WORDS[w], w) for w in hop_words], notes=notes)
    _what_is_asked(plan, reduced, unnamed, asked, time.text)
    if me is not None and me.name is None:
        plan.asker_unknown = me.unknown
    if unknown and obj is None:
        plan.unknown_object = unknown[0]
        if subject is None:
            plan.unknown_name = unknown[0]
    if plan.subject is None and plan.object is None and not unknown and not plan.group and not pronoun:
        _the_holder(core, plan, reduced)
    plan.who_said = statement is not None
    _closed_world(plan, reduced)
    if known:
        plan.known_at, plan.known_text = known.moment, known.text
        if kind == "believed" or time.kind != "during":
            plan.time = TimeSpec("at", start=known.moment, text=known.text)
    return plan


def _what_is_asked(plan: Plan, question: str, unnamed: str, asked: Asked, time_text: str) -> None:
    """The topic, neighbours, status and content words of the question (``unnamed``: without the
    names it holds), set on ``plan``."""
    plan.topic, plan.related, plan.wanted = asked.topic, list(asked.related), list(asked.wanted)
    plan.loose = asked.loose
    plan.status = asked_status(question)
    plan.content, plan.asked = content_stems(unnamed.replace(time_text, " ") if time_text else unnamed)
    plan.broad = is_broad(question) or not plan.content
    plan.group = plan.subject is None and plan.object is None and about_the_group(question)


def _the_holder(core: Core, plan: Plan, question: str) -> None:
    """"How much was the rent in March?" names no one: the one subject holding the asked relation,
    when there is exactly one (said in the answer). Looked for among the people who speak (a read
    by subject each); in a memory told no messages, among the first rows of the relation."""
    relations = [r.partition("=")[0] for tier in plan.relation_tiers for r in tier][:4]
    holders: dict[str, str] = {}
    speakers = people(core, plan.group_id, plan.reference)
    for relation in relations:
        for f in ([f for e in speakers[:HOLDERS] for f in core.store.facts(
                FactQuery(plan.group_id, subject_id=e.id, relation=relation, limit=1))] if speakers
                  else core.store.facts(FactQuery(plan.group_id, relation=relation, limit=HOLDERS))):
            holders[f.subject_id] = f.subject
    if len(holders) > 1:
        plan.holders = sorted(holders.values())
    if len(holders) != 1:
        return
    (entity_id, name), = holders.items()
    entity = next(iter(core.store.entities(plan.group_id, ids=[entity_id])), None)
    if entity is not None:
        plan.subject = entity
        plan.notes.append(f"taking it to be about {name}, the one the memory holds it for")


def _closed_world(plan: Plan, question: str) -> None:
    """What makes a question closed-world: yes/no, before/after a value, about a plan."""
    plan.polar = is_polar(question)
    plan.asks_plan = asks_plan(question)
    if plan.object is not None:
        order = order_asked(question, [plan.object.name, *plan.object.aliases])
        plan.order = "before" if order == "before" else "after" if order == "after" else None


# "Crumb & Co", "Marks and Spencer": capitalized words joined by "&" (which no word search reads).
_JOINED_NAME = re.compile(r"\b[A-Z][\w'’.-]*(?:\s+(?:&|and|of)\s+[A-Z][\w'’.-]*)+")


def _is_phrase(name: str) -> bool:
    """A value told as a phrase ("move to Bristol", "plan a trip to Iceland"), not a name."""
    return name[:1].islower() and " " in name


def _found(core: Core, question: str, group_id: str) -> list[Entity]:
    """Entities the question names. A phrase value that holds a name ("move to Bristol" in "When did
    Marta move to Bristol?") gives way to the name it holds; "Crumb & Co" is found whole."""
    found = named_entities(core, question, group_id)
    phrases = [e for e in found if _is_phrase(e.name)]
    if phrases:
        masked = question
        for e in phrases:  # keep only the capitalized words of the phrase, in place
            masked = re.sub(re.escape(e.name), lambda m: re.sub(r"\b[a-z][\w'’-]*", lambda w: " " * len(w[0]),
                                                                m.group(0)), masked, flags=re.IGNORECASE)
        inner = [e for e in named_entities(core, masked, group_id) if not _is_phrase(e.name)]
        if inner:
            found = [e for e in found if e not in phrases] + inner
    for m in _JOINED_NAME.finditer(question):
        whole = core.find_entity(m.group(0), group_id)
        if whole is not None and whole.id not in {e.id for e in found}:
            parts = m.group(0).casefold()
            found = [e for e in found if e.name.casefold() not in parts] + [whole]
    return list({e.id: e for e in found}.values())


def _entity_spans(core: Core, question: str, group_id: str) -> list[tuple[Entity, int, int]]:
    """Named entities with where they first occur in the question, in question order."""
    lowered = question.casefold()
    spans = []
    for e in _found(core, question, group_id):
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


def plan_with_llm(core: Core, question: str, reference: datetime, group_id: str,
                  speaker: str | None = None) -> Plan:
    """One structured call; names and times from it go through the same resolution as offline."""
    offline = plan_offline(core, question, reference, group_id, speaker)
    question, _ = _in_third_person(core, question, reference, group_id, speaker)
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
    for name in ("topic", "related", "loose", "status", "content", "asked", "asker_unknown", "wanted",
                 "holders"):
        setattr(plan, name, getattr(offline, name))
    plan.broad = offline.broad and not named
    plan.group = offline.group and subject is None and obj is None
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
