"""The backtest guard: what the memory learned after a transaction time K.

A read with ``known_at=K`` answers from what the memory believed at K, so a backtest run on it
cannot see the future — by construction. :func:`learned_after` lists what that construction has
to hide: every record written after K (fact versions, messages, entities, insight and summary
versions) and every belief revised after K (versions believed at K that expired since, messages
withdrawn since). Its ``clean`` says the store's own reads as known at K kept to it: none of the
records written after K among what they return, and every version revised after K returned as it
was then. :meth:`LearnedAfter.leaks` checks the results of any one read (search hits, facts,
ids) against the list, so an agent can assert it saw nothing from the future.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime

from pydantic import BaseModel, ConfigDict

from .bundle import DEFAULT_GROUP, Core
from .names import check_group
from .stores.protocol import FactQuery
from .time import TimeLike


class LearnedAfter(BaseModel):
    """Every record of ``group_id`` the memory learned after ``known_at`` (ids, in the order the
    store gives them), by kind. Written after it: ``fact_versions``, ``episodes``, ``entities``,
    ``insight_versions``, ``summary_versions``. Revised after it (believed at ``known_at``, no
    longer now): ``expired_fact_versions``, ``expired_insight_versions``,
    ``expired_summary_versions``, ``retracted_episodes``. ``facts``: the stable ids of the facts
    with a version in either list. ``clean``: the reads as known at ``known_at`` return none of
    the records written after it (nor cite a message recorded after it) and every revised version
    as it stood; ``leaked`` names those that broke it (empty when clean)."""

    model_config = ConfigDict(frozen=True)

    group_id: str
    known_at: datetime
    facts: list[str]
    fact_versions: list[str]
    expired_fact_versions: list[str]
    episodes: list[str]
    retracted_episodes: list[str]
    entities: list[str]
    insight_versions: list[str]
    expired_insight_versions: list[str]
    summary_versions: list[str]
    expired_summary_versions: list[str]
    clean: bool
    leaked: list[str]

    @property
    def counts(self) -> dict[str, int]:
        """How many records of each kind (every list above but ``leaked``)."""
        return {kind: len(getattr(self, kind)) for kind in _KINDS}

    @property
    def written(self) -> set[str]:
        """The ids of every record written after ``known_at``: what a read at it must not return."""
        return {*self.fact_versions, *self.episodes, *self.entities, *self.insight_versions,
                *self.summary_versions}

    def leaks(self, results: Iterable[object]) -> list[str]:
        """The ids among ``results`` (search hits, facts, episodes, entities, insights, summaries,
        or ids) of records written after ``known_at``: [] when a read at ``known_at`` saw nothing
        from its future."""
        written = self.written
        return [i for i in dict.fromkeys(_record_ids(results)) if i in written]


_KINDS = ("facts", "fact_versions", "expired_fact_versions", "episodes", "retracted_episodes", "entities",
          "insight_versions", "expired_insight_versions", "summary_versions", "expired_summary_versions")


def _record_ids(results: Iterable[object]) -> Iterable[str]:
    for item in results:
        if isinstance(item, str):
            yield item
            continue
        for part in ("fact", "entity", "episode", "insight"):  # a search hit names one record
            inner = getattr(item, part, None)
            if inner is not None and isinstance(getattr(inner, "id", None), str):
                yield inner.id
                yield from _cited(inner)
        own = getattr(item, "id", None)
        if isinstance(own, str):
            yield own
            yield from _cited(item)


def _cited(record: object) -> Iterable[str]:
    """The messages a fact cites: a row believed at K that cites a message recorded later would
    tell a backtest of it."""
    cited = getattr(record, "episode_ids", ())
    return (e for e in cited if isinstance(e, str)) if isinstance(cited, tuple) else ()


def _after(moment: datetime | None, k: datetime) -> bool:
    return moment is not None and moment > k


def learned_after(core: Core, known_at: TimeLike, *, group_id: str = DEFAULT_GROUP) -> LearnedAfter:
    """What ``group_id`` learned after ``known_at`` (see the module doc). Reads every version of
    the group once, and the store's reads as known at ``known_at`` for ``clean``."""
    group_id = check_group(group_id)
    k = core.time(known_at, "known_at")
    store = core.store
    rows = store.facts(FactQuery(group_id, all_versions=True))
    insights = store.insights(group_id, all_versions=True)
    summaries = store.summaries(group_id, all_versions=True)
    episodes = store.episodes(group_id)
    new_rows = [r for r in rows if r.created_at > k]
    revised_rows = [r for r in rows if r.created_at <= k and _after(r.expired_at, k)]
    found = {
        "fact_versions": [r.id for r in new_rows],
        "expired_fact_versions": [r.id for r in revised_rows],
        "episodes": [e.id for e in episodes if e.created_at > k],
        "retracted_episodes": [e.id for e in episodes if e.created_at <= k and _after(e.retracted_at, k)],
        "entities": [e.id for e in store.entities(group_id) if e.created_at > k],
        "insight_versions": [i.id for i in insights if i.created_at > k],
        "expired_insight_versions": [i.id for i in insights if i.created_at <= k and _after(i.expired_at, k)],
        "summary_versions": [s.id for s in summaries if s.created_at > k],
        "expired_summary_versions": [s.id for s in summaries
                                     if s.created_at <= k and _after(s.expired_at, k)],
    }
    # What the reads as known at K return: none written after K (no message recorded after K
    # cited either), every revised version as it was.
    believed = store.facts(FactQuery(group_id, known_at=k))
    seen = {f.id for f in believed} | {e for f in believed for e in f.episode_ids}
    seen |= {i.id for i in store.insights(group_id, known_at=k)}
    seen |= {s.id for s in store.summaries(group_id, known_at=k)}
    written = {*found["fact_versions"], *found["episodes"], *found["insight_versions"],
               *found["summary_versions"]}
    revised = [*found["expired_fact_versions"], *found["expired_insight_versions"],
               *found["expired_summary_versions"]]
    leaked = sorted(seen & written) + [i for i in revised if i not in seen]
    facts = list(dict.fromkeys(r.fact_id for r in (*new_rows, *revised_rows)))
    return LearnedAfter(group_id=group_id, known_at=k, facts=facts, clean=not leaked, leaked=leaked, **found)
