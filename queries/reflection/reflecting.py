"""Reflect: derive insights from a group's facts and store them; read the insights believed at a time.

Insights are derived data kept honest by transaction time. A producer (:mod:`producers`) turns
the evidence into drafts outside any transaction (an LLM call never holds the write lock); then
one write checks that everything each draft cites is still current (a draft citing a version
expired meanwhile is dropped), keeps the insights that come out the same, writes the others as
new versions (``replaces``: the version of the same pattern and subjects before it, which
expires now), and expires the producer's insights in scope that no longer come out at all. From
then on the writer expires an insight in the same transaction as any fact version it cites.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime

from temporal_graph.core.bundle import Core
from temporal_graph.core.errors import InvalidInput
from temporal_graph.core.model import Entity, Fact, IngestResult, Insight, InsightProducer, Reflection
from temporal_graph.core.names import check_group
from temporal_graph.core.stores.protocol import ChangeSet, FactQuery, Store, StoreTx
from temporal_graph.core.time import TimeLike
from temporal_graph.core.writer import new_id

from .draft import InsightDraft
from .producers import Evidence, LLMReflector, OfflineReflector, Reflector

log = logging.getLogger(__name__)
PRODUCERS: tuple[str, ...] = ("offline", "llm")
RECENT_EPISODES = 50  # episodes the LLM producer may cite, the latest ones
SHARED_OBJECTS = 50  # a subject's values whose other holders are read (the "shared" rule)

Key = tuple[str, tuple[str, ...]]


def key_of(insight: Insight | InsightDraft) -> Key:
    return insight.pattern, tuple(sorted(insight.subject_ids))


def speaks_after(record: Insight | InsightDraft, since: datetime | None) -> bool:
    """Whether the valid-time span it speaks about reaches past ``since`` (None: always)."""
    return since is None or record.invalid_at is None or record.invalid_at > since


def reflector_for(core: Core, producer: str) -> Reflector:
    if producer == "offline":
        return OfflineReflector()
    if producer == "llm":
        if core.llm is None:
            raise InvalidInput("producer='llm' needs an LLM: TemporalGraph(llm=...) or TGRAPH_LLM_ settings")
        return LLMReflector(core.llm)
    raise InvalidInput(f"producer: {producer!r} is not one of {', '.join(PRODUCERS)}")


def evidence_facts(store: Store, group_id: str, entity: Entity | None) -> list[Fact]:
    """The current fact versions a reflection reads: the group's, or the subject's and those of
    the others holding its values."""
    if entity is None:
        return store.facts(FactQuery(group_id))
    own = store.facts(FactQuery(group_id, subject_id=entity.id))
    found = {f.id: f for f in own}
    for object_id in list(dict.fromkeys(f.object_id for f in own))[:SHARED_OBJECTS]:
        found.update((f.id, f) for f in store.facts(FactQuery(group_id, object_id=object_id)))
    return list(found.values())


def reflect(
    core: Core, *, group_id: str, subject: str | None = None, since: TimeLike | None = None,
    producer: str = "offline", reflector: Reflector | None = None,
) -> Reflection:
    """Derive the insights of a group (about ``subject`` only, when given; speaking about valid
    times after ``since``, when given) and store them, revising those that changed."""
    group_id = check_group(group_id)
    after = core.optional_time(since, "since")
    chosen = reflector or reflector_for(core, producer)
    entity = None
    if subject is not None:
        entity = core.find_entity(subject, group_id)
        if entity is None:
            return Reflection(group_id=group_id, producer=chosen.producer)
    now = core.now()
    facts = evidence_facts(core.store, group_id, entity)
    episodes = core.store.recent_episodes(group_id, now, RECENT_EPISODES)
    if after is not None:
        episodes = [e for e in episodes if e.reference_time >= after]
    refused_before = getattr(chosen, "refused", 0)
    drafts = [d for d in chosen.drafts(Evidence(facts, episodes, now))
              if speaks_after(d, after) and (entity is None or entity.id in d.subject_ids)]
    refused = getattr(chosen, "refused", 0) - refused_before
    result = core.store.write(
        lambda tx: _store(tx, core, group_id, drafts, chosen.producer, entity, after)
    )
    return result.model_copy(update={"refused": refused})


def _store(
    tx: StoreTx, core: Core, group_id: str, drafts: Sequence[InsightDraft], producer: InsightProducer,
    entity: Entity | None, after: datetime | None,
) -> Reflection:
    now = core.now()
    usable = _still_current(tx, group_id, drafts)
    about = None if entity is None else entity.id
    in_scope = [i for i in tx.insights(group_id, subject_id=about)
                if i.producer == producer and speaks_after(i, after)]
    current = {key_of(i): i for i in in_scope}
    latest: dict[Key, Insight] = {}
    for version in sorted(tx.insights(group_id, subject_id=about, all_versions=True),
                          key=lambda i: i.created_at):
        latest[key_of(version)] = version
    changes = ChangeSet()
    written: list[Insight] = []
    kept = 0
    for draft in {key_of(d): d for d in reversed(usable)}.values():
        old = current.pop(key_of(draft), None)
        if old is not None and _same(old, draft):
            kept += 1
            continue
        if old is not None:
            changes.insights_expired.append((group_id, old.id, now))
        before = old or latest.get(key_of(draft))
        insight = Insight(
            id=new_id(), group_id=group_id, created_at=now, producer=producer,
            replaces=None if before is None else before.id, **draft.model_dump(),
        )
        written.append(insight)
    changes.insights = written
    changes.insights_expired += [(group_id, i.id, now) for i in current.values()]
    if changes:
        tx.apply(changes)
    return Reflection(group_id=group_id, producer=producer, written=written, kept=kept,
                      expired=len(changes.insights_expired), dropped=len(drafts) - len(usable))


def _still_current(tx: StoreTx, group_id: str, drafts: Sequence[InsightDraft]) -> list[InsightDraft]:
    """The drafts whose every cited fact version is current and every cited episode exists."""
    cited = {c for d in drafts for c in d.derived_from}
    if not cited:
        return []
    alive = {f.id for f in tx.facts(FactQuery(group_id, ids=tuple(sorted(cited))))}
    alive |= {e.id for e in tx.episodes(group_id, ids=sorted(cited - alive))} if cited - alive else set()
    return [d for d in drafts if set(d.derived_from) <= alive]


def _same(old: Insight, draft: InsightDraft) -> bool:
    return (old.text, set(old.derived_from), old.importance, old.valid_at, old.invalid_at) == (
        draft.text, set(draft.derived_from), draft.importance, draft.valid_at, draft.invalid_at)


def insights(
    core: Core, *, group_id: str, subject: str | None = None, known_at: TimeLike | None = None,
) -> list[Insight]:
    """The insights believed now (at ``known_at``, when given), about ``subject`` when given;
    weightiest first, then newest."""
    group_id = check_group(group_id)
    k = core.optional_time(known_at, "known_at")
    about = None
    if subject is not None:
        entity = core.find_entity(subject, group_id)
        if entity is None:
            return []
        about = entity.id
    return weightiest(core.store.insights(group_id, subject_id=about, known_at=k))


def weightiest(found: Iterable[Insight]) -> list[Insight]:
    """Weightiest first, then newest, then by what they say (not by their random ids: the same
    memory words its summaries and answers alike in every store and every run)."""
    return sorted(found, key=lambda i: (-i.importance, -i.created_at.timestamp(), *_wording(i)))


def _wording(i: Insight) -> tuple:
    """The last keys of an order of insights: when they speak of, what they say, then their id."""
    return (i.valid_at or i.created_at, i.text, i.id)


def insight_sentence(i: Insight) -> str:
    """An insight labelled with its provenance: its words, since when it is believed, what it rests on."""
    facts = len(i.derived_from)
    return (f"{i.text} (insight believed since {i.created_at.date().isoformat()}, "
            f"from {facts} fact{'s' if facts != 1 else ''})")


def insights_for(
    core: Core, group_id: str, facts: Sequence[Fact], *, known_at: datetime | None,
    as_of: datetime | None = None, cited_only: bool = False, limit: int,
) -> list[Insight]:
    """The insights believed at ``known_at`` (default now) that cite one of ``facts`` or (unless
    ``cited_only``) are about one of their subjects, speaking of times up to ``as_of``; weightiest
    first, those citing one of ``facts`` before the others. Read by the facts' entities, never the
    whole group."""
    if not facts:
        return []
    cited = {f.id for f in facts}
    subjects = {f.subject_id for f in facts}
    found: dict[str, Insight] = {}
    for entity_id in dict.fromkeys(e for f in facts for e in (f.subject_id, f.object_id)):
        about = core.store.insights(group_id, subject_id=entity_id, known_at=known_at)
        found.update((i.id, i) for i in about)
    chosen = [i for i in found.values()
              if (cited & set(i.derived_from) or (not cited_only and subjects & set(i.subject_ids)))
              and (as_of is None or i.valid_at is None or i.valid_at <= as_of)]
    chosen.sort(key=lambda i: (-i.importance, -bool(cited & set(i.derived_from)), i.created_at, *_wording(i)))
    return chosen[:limit]


@dataclass
class ReflectSchedule:
    """``reflect_every``: reflect on a group once every that many episodes told to it (None: only on
    demand). Counted per group, in this process."""

    every: int | None = None
    counts: dict[str, int] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if self.every is not None and (isinstance(self.every, bool) or not isinstance(self.every, int)
                                       or self.every < 1):
            raise InvalidInput(f"reflect_every: {self.every!r} is not a positive integer or None")

    def told(self, group_id: str, episodes: int = 1) -> bool:
        """Count ``episodes`` told to the group; True when its reflection is due (the count restarts)."""
        if self.every is None or episodes <= 0:
            return False
        self.counts[group_id] = self.counts.get(group_id, 0) + episodes
        if self.counts[group_id] < self.every:
            return False
        self.counts[group_id] = 0
        return True


    def after(self, core: Core, group_id: str, told: IngestResult) -> IngestResult:
        """Count an episode ``add_episode`` committed (not one it skipped as already known) and
        reflect on its group when due; returns what the episode's write did."""
        if self.told(group_id, 0 if told.skipped else 1):
            reflect_after_commit(core, group_id)
        return told


def reflect_after_commit(core: Core, group_id: str) -> Reflection | None:
    """A scheduled reflection, run after the episode's write committed: a failure is logged and
    never undoes or fails the write."""
    try:
        return reflect(core, group_id=group_id)
    except Exception:
        log.exception("reflect_every: reflecting on group %r failed; the episodes are stored", group_id)
        return None
