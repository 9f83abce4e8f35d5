"""Entity summaries: what the memory currently believes about an entity, in a few sentences.

A summary is derived from the entity's facts (as subject or object) that are currently believed
and have not ended by the time of the write. It is refreshed inside every write that changed
those facts, in the write's own transaction (``Core.summarizer``), so a crash never leaves a row
without its summary; versions are kept in transaction time, so ``summary(..., known_at=t)`` shows
the summary as the memory believed it at ``t``.

- Offline: one deterministic sentence per fact, newest first, cut to ``Core.summary_chars``. The
  facts are read newest first from the store, a page at a time, only as many as the cap lets the
  summary state: the work of a refresh does not grow with the entity's history.
- With an LLM (``Core.llm`` set): once the entity gained at least ``Core.summary_llm_every`` facts
  since its last LLM-written summary, the write commits the offline summary and, after the commit,
  one call rewrites it from the newest ``LLM_MAX_FACTS`` facts; the rewrite replaces the offline
  version only if no later write replaced it first. Between calls that summary is kept as long as
  every fact it was made from is still believed; when one is not (a contradiction, a retraction),
  the offline summary takes its place. If the call fails (or the process dies first), the offline
  summary stands: a summary never states what the memory no longer believes, and is never missing.
"""

from __future__ import annotations

import logging
import uuid
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from datetime import datetime
from functools import partial
from itertools import chain, islice
from typing import Literal

from pydantic import BaseModel, Field

from temporal_graph.core import DEFAULT_GROUP, Core
from temporal_graph.core.errors import LLMError, StoreError, no_entity
from temporal_graph.core.model import Entity, EntitySummary, Fact, Insight
from temporal_graph.core.names import check_group
from temporal_graph.core.ontology import PLAN_RELATIONS, Ontology
from temporal_graph.core.sentences import fact_clause
from temporal_graph.core.stores.protocol import FactQuery
from temporal_graph.core.writer import FactWriter, newest_first

from .answer_text import date_text
from .reflection import weightiest

log = logging.getLogger(__name__)

Action = Literal["keep", "offline", "llm", "end"]
# At most this many facts go into one LLM prompt (the newest); the rest are left out.
LLM_MAX_FACTS = 50
# Insights a summary states after its facts, the weightiest.
SUMMARY_INSIGHTS = 3
# Facts an offline refresh reads at a time, newest first (a 600-character summary states ~15).
PAGE = 16
_SYSTEM = (
    "You write the memory's summary of one entity from the facts it currently believes. "
    "Use only these facts; prefer the newest; keep dates; no speculation. "
    'Answer as JSON: {"summary": "<at most LIMIT characters>"}.'
)


class _LLMSummary(BaseModel):
    summary: str = Field(description="the entity's summary, plain sentences")


# Relations told as dated occurrences ("visited Rome in July 2019").
_EVENTS = Ontology.default_personal().events
# Told without a start: kin by birth. Dated like an event: being born ("born in Kyoto in 1990").
_LIFELONG = frozenset({"HAS_SIBLING", "HAS_PARENT", "HAS_GRANDPARENT", "HAS_COUSIN", "HAS_RELATIVE"})
_BIRTH = frozenset({"BORN_IN", "BORN_ON"})


# -- pure rules ------------------------------------------------------------------------------------
def _date(moment: datetime, granularity: str | None) -> str:
    return date_text(moment, granularity).removeprefix("by ")


def fact_sentence(fact: Fact, at: datetime | None = None) -> str:
    """``Alice lives in Berlin since March 2024.``, ``Zhang Wei's sibling is Lin.``, ``Sam is planning to
    move to Lyon in January 2024.``; a fact that ended by ``at``, in the past: ``Sam liked chess from
    2019 until 2021.``; a claim: ``Bob says Alice ...``. Events are dated by when they happened
    (``Alice visited Rome in July 2019.``)."""
    ended = at is not None and fact.invalid_at is not None and fact.invalid_at <= at
    words = fact_clause(fact.subject, fact.relation, fact.object, tense="past" if ended else "present",
                        text=fact.text, attributes=fact.attributes)
    start = fact.valid_at and _date(fact.valid_at, fact.attributes.get("valid_at_granularity"))
    end = fact.invalid_at and _date(fact.invalid_at, fact.attributes.get("invalid_at_granularity"))
    if fact.relation in PLAN_RELATIONS:  # told when, not since: a plan is no state of its target
        if end:
            words += f" (the plan ended {end})" if ended else f" (until {end})"
    elif fact.relation in _LIFELONG and not ended:
        pass  # a sibling is no sibling "since" the day it was told
    elif fact.relation in _EVENTS | _BIRTH and fact.valid_at is not None:
        words += " " + date_text(fact.valid_at, fact.attributes.get("valid_at_granularity"), preposition=True)
    elif start and end:
        words += f" from {start} until {end}"
    elif start:
        words += f" since {start}"
    elif end:
        words += f" until {end}"
    if fact.claimed_by:
        words = f"{fact.claimed_by} says {words}"
    return words + "."


def offline_text(facts: Iterable[Fact], limit: int) -> tuple[str, tuple[str, ...]]:
    """The sentences of ``facts`` (given newest first) that fit in ``limit`` characters, and the
    ids of the facts they state; reads ``facts`` only as far as it needs. A first sentence longer
    than the cap is cut with an ellipsis."""
    parts: list[str] = []
    used: list[str] = []
    size = 0
    for fact in facts:
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
    """What a refresh does for one entity, from its newest facts (any at all, offline; the newest
    ``LLM_MAX_FACTS`` with an LLM): keep the current version, write an offline version (then, for
    "llm", have the LLM rewrite it after the commit), or end the summary (no facts left)."""
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
def newest_facts(w: FactWriter, entity_id: str, page: int = PAGE) -> Iterator[Fact]:
    """The entity's facts newest first, read from the store ``page`` at a time, as they are used."""
    offset = 0
    while True:
        rows = w.newest_facts(entity_id, limit=page, offset=offset)
        yield from rows
        if len(rows) < page:
            return
        offset += page


def _llm_text(core: Core, entity: Entity, facts: Sequence[Fact]) -> tuple[str, tuple[str, ...]] | None:
    """The LLM's summary of ``facts`` (newest first, at most LLM_MAX_FACTS), or None when it fails."""
    assert core.llm is not None
    chosen = list(facts)[:LLM_MAX_FACTS]
    lines = "\n".join(f"- {fact_sentence(f)}" for f in chosen)
    messages = [
        {"role": "system", "content": _SYSTEM.replace("LIMIT", str(core.summary_chars))},
        {"role": "user", "content": f"Entity: {entity.name}\nFacts, newest first:\n{lines}"},
    ]
    try:
        answer = core.llm.structured(messages, _LLMSummary, purpose="summary")
    except (LLMError, LookupError) as exc:  # LookupError: a scripted client ran out of answers
        log.warning("summary of %s: the LLM failed (%s); the offline summary stands", entity.name, exc)
        return None
    text = " ".join(answer.summary.split())
    if not text:
        return None
    if len(text) > core.summary_chars:
        text = text[: core.summary_chars - 1] + "…"
    return text, tuple(f.fact_id for f in chosen)


# -- refreshing ------------------------------------------------------------------------------------
@dataclass(frozen=True)
class _Rewrite:
    """An LLM rewrite to try once the write has committed: of ``expected``, the version current then."""

    entity: Entity
    facts: list[Fact]
    expected: str


def refresh_in_write(core: Core, w: FactWriter) -> None:
    """``Core.summarizer``: bring the summaries of the entities ``w`` changed up to date with their
    facts, in ``w``'s transaction; new versions start at the write's time (never before the version
    they supersede). LLM rewrites are left for after the commit."""
    llm = core.llm is not None
    versions: list[EntitySummary] = []
    ended: list[tuple[str, datetime]] = []
    rewrites: list[_Rewrite] = []
    created = {e.id: e for e in w.entities_created}  # no summary yet: nothing to read
    page = LLM_MAX_FACTS if llm else PAGE
    for entity in _touched_entities(w, created):
        # Older versions matter only for counting the facts gained since the last LLM summary.
        history = [] if entity.id in created else w.summaries(entity.id, all_versions=llm)
        current = next((s for s in history if s.expired_at is None), None)
        last_llm = max((s for s in history if s.method == "llm"), key=lambda s: s.created_at, default=None)
        when = max(w.now, current.created_at) if current is not None else w.now
        facts = newest_facts(w, entity.id, page)
        window = list(islice(facts, LLM_MAX_FACTS if llm else 1))
        action = choose_action(window, current, last_llm, llm=llm, every=core.summary_llm_every)
        if action == "end":
            ended.append((entity.id, when))
            continue
        if action == "keep":
            continue
        text, fact_ids = offline_text(chain(window, facts), core.summary_chars)
        expected = current.id if current is not None else ""
        if current is None or (current.text, current.method) != (text, "offline"):
            version = EntitySummary(id=uuid.uuid4().hex, group_id=w.group_id, entity_id=entity.id,
                                    entity=entity.name, text=text, fact_ids=fact_ids, created_at=when)
            versions.append(version)
            expected = version.id
        if action == "llm":
            rewrites.append(_Rewrite(entity, window, expected))
    w.write_summaries(versions, ended, refreshed=list(w.touched))
    if rewrites:
        w.after_commit.append(partial(_rewrite_with_llm, core, w.group_id, rewrites))


def _touched_entities(w: FactWriter, created: dict[str, Entity]) -> Iterator[Entity]:
    """The entities whose facts ``w`` changed: those it ``created`` first, as it made them (nothing
    of theirs is read from the store, so a store still inserting this write's rows, as a bulk
    load's are, is waited for only after their summaries), then the others, read when reached."""
    yield from (created[i] for i in w.touched if i in created)
    yield from w.entities_by_id([i for i in w.touched if i not in created])


def _rewrite_with_llm(core: Core, group_id: str, rewrites: Sequence[_Rewrite]) -> None:
    """After a write committed: the LLM's summaries replace the offline ones it wrote, unless a
    later write has replaced those already. A failure leaves the offline summaries as they are."""
    made = [(r, found) for r in rewrites if (found := _llm_text(core, r.entity, r.facts)) is not None]
    if not made:
        return

    def swap(w: FactWriter) -> None:
        versions = []
        for r, (text, fact_ids) in made:
            current = next(iter(w.summaries(r.entity.id)), None)
            if current is None or current.id != r.expected:
                continue  # a later write changed the facts: its summary stands
            versions.append(EntitySummary(
                id=uuid.uuid4().hex, group_id=group_id, entity_id=r.entity.id, entity=r.entity.name,
                text=text, method="llm", fact_ids=fact_ids, created_at=max(w.now, current.created_at),
            ))
        w.write_summaries(versions)

    try:
        core.write(group_id, swap, embed=False, summaries=False)
    except StoreError as exc:  # the store is busy or gone: the offline summaries stand
        log.warning("LLM summaries of group %s not stored (%s); the offline summaries stand", group_id, exc)


def summary(
    core: Core, entity: str, *, known_at: datetime | None = None, group_id: str = DEFAULT_GROUP,
    derive: bool = False,
) -> EntitySummary | None:
    """The summary of ``entity`` as believed at ``known_at`` (default: now); None when the memory
    held none then, or with ``derive`` the one :func:`derived_summary` makes of the facts believed
    then. Raises NotFound when the group has no entity of that name."""
    check_group(group_id)
    found = core.find_entity(entity, group_id)
    if found is None:
        raise no_entity(entity, group_id)
    rows = core.store.summaries(group_id, found.id, known_at=known_at)
    version = max(rows, key=lambda s: s.created_at, default=None)
    if version is None and derive:
        version = derived_summary(core, found, known_at or core.now())
    if version is None:
        return None
    return with_insights(version, core.store.insights(group_id, subject_id=found.id, known_at=known_at))


def derived_summary(core: Core, entity: Entity, at: datetime) -> EntitySummary | None:
    """The offline summary of ``entity``'s facts (as subject or object) believed at ``at`` and not
    ended by then, as a write at ``at`` would have made it; never stored (``id`` empty,
    ``created_at`` is ``at``). A replayed import writes its summaries once a batch, so a moment
    inside a batch has facts but no stored summary yet. None without such facts."""
    rows: dict[str, Fact] = {}
    for query in (FactQuery(entity.group_id, subject_id=entity.id, known_at=at),
                  FactQuery(entity.group_id, object_id=entity.id, known_at=at)):
        for fact in core.store.facts(query):
            if fact.invalid_at is None or fact.invalid_at > at:
                rows[fact.id] = fact
    if not rows:
        return None
    text, fact_ids = offline_text(newest_first(rows.values()), core.summary_chars)
    return EntitySummary(id="", group_id=entity.group_id, entity_id=entity.id, entity=entity.name, text=text,
                         fact_ids=fact_ids, created_at=at)


def with_insights(version: EntitySummary, insights: Iterable[Insight]) -> EntitySummary:
    """``version`` with the weightiest ``SUMMARY_INSIGHTS`` of ``insights`` (believed at the same
    time) stated after its facts, each labelled: "... Insight: Kenji moved 3 times in 2 years."
    Read-time only: insights have their own transaction time, so the stored summary never goes
    stale when one is written or expires."""
    chosen = weightiest(insights)[:SUMMARY_INSIGHTS]
    if not chosen:
        return version
    said = " ".join(f"Insight: {i.text.rstrip('.')}." for i in chosen)
    return version.model_copy(update={"text": f"{version.text} {said}",
                                      "insight_ids": tuple(i.id for i in chosen)})
