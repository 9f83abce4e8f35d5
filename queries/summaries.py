"""Entity summaries: what the memory currently believes about an entity, in a few sentences.

A summary is derived from the entity's facts (as subject or object) that are currently believed
and have not ended by the time of the write. It is refreshed after every write that changed those
facts and kept as versions in transaction time, so ``summary(..., known_at=t)`` shows the summary
as the memory believed it at ``t``.

- Offline: one deterministic sentence per fact, newest first, cut to ``Core.summary_chars``.
- With an LLM (``Core.llm`` set): one call once the entity gained at least
  ``Core.summary_llm_every`` facts since its last LLM-written summary. Between calls that summary
  is kept as long as every fact it was made from is still believed; when one is not (a
  contradiction, a retraction), or the call fails, the offline summary takes its place, so a
  summary never states what the memory no longer believes.
"""

from __future__ import annotations

import logging
import uuid
from collections.abc import Iterable, Sequence
from datetime import datetime
from typing import Literal

from pydantic import BaseModel, Field

from temporal_graph.core import DEFAULT_GROUP, Core
from temporal_graph.core.errors import LLMError, NotFound
from temporal_graph.core.model import Entity, EntitySummary, Fact
from temporal_graph.core.names import check_group, relation_phrase
from temporal_graph.core.stores.protocol import FactQuery

from .answer_text import date_text

log = logging.getLogger(__name__)

Action = Literal["keep", "offline", "llm", "end"]
# At most this many facts go into one LLM prompt (the newest); the rest are left out.
LLM_MAX_FACTS = 50
_SYSTEM = (
    "You write the memory's summary of one entity from the facts it currently believes. "
    "Use only these facts; prefer the newest; keep dates; no speculation. "
    'Answer as JSON: {"summary": "<at most LIMIT characters>"}.'
)


class _LLMSummary(BaseModel):
    summary: str = Field(description="the entity's summary, plain sentences")


# -- pure rules ------------------------------------------------------------------------------------
def newest_first(facts: Iterable[Fact]) -> list[Fact]:
    """Latest start first (a fact with no known start counts from when it was recorded)."""
    return sorted(facts, key=lambda f: (f.valid_at or f.created_at, f.created_at, f.fact_id), reverse=True)


def _date(moment: datetime, granularity: str | None) -> str:
    return date_text(moment, granularity).removeprefix("by ")


def fact_sentence(fact: Fact) -> str:
    """``Alice lives in Berlin since March 2024.`` (a claim: ``Bob says Alice ...``)."""
    words = f"{fact.subject} {relation_phrase(fact.relation)} {fact.object}"
    start = fact.valid_at and _date(fact.valid_at, fact.attributes.get("valid_at_granularity"))
    end = fact.invalid_at and _date(fact.invalid_at, fact.attributes.get("invalid_at_granularity"))
    if start and end:
        words += f" from {start} until {end}"
    elif start:
        words += f" since {start}"
    elif end:
        words += f" until {end}"
    if fact.claimed_by:
        words = f"{fact.claimed_by} says {words}"
    return words + "."


def offline_text(facts: Sequence[Fact], limit: int) -> tuple[str, tuple[str, ...]]:
    """The sentences of ``facts`` (newest first) that fit in ``limit`` characters, and the ids
    of the facts they state. A first sentence longer than the cap is cut with an ellipsis."""
    parts: list[str] = []
    used: list[str] = []
    size = 0
    for fact in newest_first(facts):
        sentence = fact_sentence(fact)
        extra = len(sentence) + (1 if parts else 0)
        if size + extra > limit:
            if not parts:
                parts.append(sentence[: max(0, limit - 1)] + "…")
                used.append(fact.fact_id)
            break
        parts.append(sentence)
        used.append(fact.fact_id)
        size += extra
    return " ".join(parts), tuple(used)


def choose_action(
    facts: Sequence[Fact], current: EntitySummary | None, last_llm: EntitySummary | None, *,
    llm: bool, every: int,
) -> Action:
    """What a refresh does for one entity: keep the current version, write an offline or an
    LLM version, or end the summary (no facts left)."""
    if not facts:
        return "end" if current is not None else "keep"
    if not llm:
        return "offline"
    gained = sum(1 for f in facts if last_llm is None or f.created_at > last_llm.created_at)
    if gained >= every:
        return "llm"
    believed = {f.fact_id for f in facts}
    if current is not None and current.method == "llm" and believed.issuperset(current.fact_ids):
        return "keep"
    return "offline"


# -- reading the store -----------------------------------------------------------------------------
def entity_facts(core: Core, group_id: str, entity_id: str, at: datetime) -> list[Fact]:
    """The entity's currently believed facts (as subject or object) that have not ended at ``at``."""
    rows = {
        f.id: f
        for query in (FactQuery(group_id, subject_id=entity_id), FactQuery(group_id, object_id=entity_id))
        for f in core.store.facts(query)
    }
    return [f for f in rows.values() if f.invalid_at is None or f.invalid_at > at]


def _llm_text(core: Core, entity: Entity, facts: Sequence[Fact]) -> tuple[str, tuple[str, ...]] | None:
    """The LLM's summary of ``facts`` (newest first, at most LLM_MAX_FACTS), or None when it fails."""
    assert core.llm is not None
    chosen = newest_first(facts)[:LLM_MAX_FACTS]
    lines = "\n".join(f"- {fact_sentence(f)}" for f in chosen)
    messages = [
        {"role": "system", "content": _SYSTEM.replace("LIMIT", str(core.summary_chars))},
        {"role": "user", "content": f"Entity: {entity.name}\nFacts, newest first:\n{lines}"},
    ]
    try:
        answer = core.llm.structured(messages, _LLMSummary, purpose="summary")
    except (LLMError, LookupError) as exc:  # LookupError: a scripted client ran out of answers
        log.warning("summary of %s: the LLM failed (%s); writing the offline summary", entity.name, exc)
        return None
    text = " ".join(answer.summary.split())
    if not text:
        return None
    if len(text) > core.summary_chars:
        text = text[: core.summary_chars - 1] + "…"
    return text, tuple(f.fact_id for f in chosen)


# -- refreshing ------------------------------------------------------------------------------------
def refresh_summaries(
    core: Core, group_id: str, entity_ids: Iterable[str], at: datetime
) -> list[EntitySummary]:
    """Bring the summaries of ``entity_ids`` up to date with their facts; the new versions start at
    ``at`` (the write's transaction time; never before the version they supersede). Returns them."""
    ids = list(dict.fromkeys(entity_ids))
    if not ids:
        return []
    entities = {e.id: e for e in core.store.entities(group_id, ids=ids)}
    versions: list[EntitySummary] = []
    ended: list[tuple[str, datetime]] = []
    for entity_id in ids:
        entity = entities.get(entity_id)
        if entity is None:
            continue
        # Older versions matter only for counting the facts gained since the last LLM summary.
        history = core.store.summaries(group_id, entity_id, all_versions=core.llm is not None)
        current = next((s for s in history if s.expired_at is None), None)
        last_llm = max((s for s in history if s.method == "llm"), key=lambda s: s.created_at, default=None)
        when = max(at, current.created_at) if current is not None else at
        facts = entity_facts(core, group_id, entity_id, at)
        action = choose_action(facts, current, last_llm, llm=core.llm is not None,
                               every=core.summary_llm_every)
        if action == "end":
            ended.append((entity_id, when))
            continue
        if action == "keep":
            continue
        made = _llm_text(core, entity, facts) if action == "llm" else None
        method: Literal["offline", "llm"] = "llm" if made is not None else "offline"
        text, fact_ids = made or offline_text(facts, core.summary_chars)
        if current is not None and (current.text, current.method) == (text, method):
            continue  # nothing a reader would see changed
        versions.append(EntitySummary(
            id=uuid.uuid4().hex, group_id=group_id, entity_id=entity_id, entity=entity.name, text=text,
            method=method, fact_ids=fact_ids, created_at=when,
        ))
    if versions or ended:
        core.store.apply_summaries(group_id, versions, ended)
    return versions


def summary(
    core: Core, entity: str, *, known_at: datetime | None = None, group_id: str = DEFAULT_GROUP
) -> EntitySummary | None:
    """The summary of ``entity`` as believed at ``known_at`` (default: now); None when the memory
    held none then. Raises NotFound when the group has no entity of that name."""
    check_group(group_id)
    found = core.find_entity(entity, group_id)
    if found is None:
        raise NotFound(f"entity: no entity named {entity!r} in group {group_id!r}")
    rows = core.store.summaries(group_id, found.id, known_at=known_at)
    return max(rows, key=lambda s: s.created_at, default=None)
