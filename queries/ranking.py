"""Ranked recall: the order of search hits by relevance, recency, importance or a blend of the
three (the retrieval score of Generative Agents, Park et al. 2023).

- ``relevance``: the fused search score (the default; search's own order, unchanged).
- ``recency``: how recently the record was last told, decaying exponentially with a half-life
  (default 30 days): ``0.5 ** (age_days / half_life_days)``. A fact was last told by its newest
  provenance episode (the message's time); a fact without one, when it was written; an episode at
  its own time; an entity when it was created. Age is counted from the search's moment (``as_of``,
  default now); a record told after that moment counts as just told.
- ``importance``: the fact's importance, 1-10 (rated by the LLM extractor, or the ontology's table
  by relation); entities and episodes are neither, and get the middle of the scale.
- ``blend``: ``BLEND_WEIGHTS``-weighted mean of the three, each on 0..1: relevance min-max
  normalized over the candidates (fused scores are sums of reciprocal ranks, with no meaning of
  their own), recency relative to the freshest candidate (``0.5 ** (days_older / half_life)``,
  so it does not fade for every candidate alike when "now" is long after all of them, and the
  half-life keeps its meaning), importance as ``(importance - 1) / 9`` (its scale is fixed).

Search reranks its top candidates (the fused pool, ``max(30, 3 * limit)`` deep) and keeps the
``limit`` best: ranking never brings in a record that is not relevant at all. Ties keep the
relevance order.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime

from temporal_graph.core.errors import InvalidInput
from temporal_graph.core.limits import positive_number

# The ranks and their defaults are the core's, so the facade and the CLI offer them without this layer.
from temporal_graph.core.model import DEFAULT_HALF_LIFE_DAYS, DEFAULT_IMPORTANCE, RANKS, SearchHit
from temporal_graph.core.stores.protocol import Store

# Relevance is what the query asks for; recency and importance are priors that reorder among
# comparably relevant records, so each weighs half of it.
BLEND_WEIGHTS = {"relevance": 1.0, "recency": 0.5, "importance": 0.5}
# The blend without its recency part, compared with the ranks by the retrieval benchmarks.
BLEND_WITHOUT_RECENCY = {"relevance": 1.0, "recency": 0.0, "importance": 0.5}
_DAY_SECONDS = 86_400.0


def check_rank(rank: object) -> str:
    if rank not in RANKS:
        raise InvalidInput(f"rank: {rank!r} is not one of {', '.join(RANKS)}"[:200])
    return rank  # type: ignore[return-value]


def check_half_life(days: object) -> float:
    return positive_number(days, "half_life_days", unit=" of days")


def recency(told: datetime, now: datetime, half_life_days: float) -> float:
    """1.0 for a record told at ``now`` (or later), halving every ``half_life_days``."""
    age_days = max(0.0, (now - told).total_seconds() / _DAY_SECONDS)
    return 0.5 ** (age_days / half_life_days)


def importance_of(hit: SearchHit) -> int:
    if hit.insight is not None:
        return hit.insight.importance
    return hit.fact.importance if hit.fact is not None else DEFAULT_IMPORTANCE


def told_at(hit: SearchHit, newest_episode: Mapping[str, datetime]) -> datetime:
    """When the hit's record was last told; ``newest_episode``: fact row id -> newest provenance time."""
    if hit.fact is not None:
        return newest_episode.get(hit.fact.id, hit.fact.created_at)
    if hit.episode is not None:
        return hit.episode.reference_time
    if hit.insight is not None:
        return hit.insight.created_at
    assert hit.entity is not None
    return hit.entity.created_at


def rerank(
    hits: Sequence[SearchHit],
    *,
    rank: str,
    now: datetime,
    half_life_days: float = DEFAULT_HALF_LIFE_DAYS,
    newest_episode: Mapping[str, datetime] | None = None,
    limit: int | None = None,
    weights: Mapping[str, float] | None = None,
) -> list[SearchHit]:
    """``hits`` (in relevance order) reordered by ``rank``; each hit's score becomes its score under
    that rank, and its reasons say it. Pure: the provenance times come in ``newest_episode``.
    ``weights``: the blend's weights (default ``BLEND_WEIGHTS``), e.g. to compare blends."""
    check_rank(rank)
    half_life_days = check_half_life(half_life_days)
    hits = list(hits)
    if rank == "relevance" or not hits:
        return hits[:limit]
    newest = newest_episode or {}
    told = [told_at(h, newest) for h in hits]
    fresh = [recency(t, now, half_life_days) for t in told]
    weight = [importance_of(h) for h in hits]
    if rank == "recency":
        scores = fresh
        why = [f"recency {s:.2f}" for s in scores]
    elif rank == "importance":
        scores = [float(w) for w in weight]
        why = [f"importance {w}" for w in weight]
    else:
        parts = {
            "relevance": _min_max([h.score for h in hits]),
            "recency": [recency(t, max(told), half_life_days) for t in told],
            "importance": [(w - 1) / 9 for w in weight],
        }
        blend = weights or BLEND_WEIGHTS
        total = sum(blend.values()) or 1.0
        scores = [sum(w * parts[k][i] for k, w in blend.items()) / total for i in range(len(hits))]
        why = [
            f"blend {s:.2f} (relevance {parts['relevance'][i]:.2f}, recency {parts['recency'][i]:.2f}, "
            f"importance {weight[i]})"
            for i, s in enumerate(scores)
        ]
    order = sorted(range(len(hits)), key=lambda i: (-scores[i], i))  # ties keep the relevance order
    return [
        hits[i].model_copy(update={"score": round(scores[i], 6), "reasons": [*hits[i].reasons, why[i]]})
        for i in order[:limit]
    ]


def _min_max(values: Sequence[float]) -> list[float]:
    """Each value's place between the smallest (0) and the largest (1); all 0 when they are equal
    (a component that tells no candidate apart adds nothing)."""
    low, high = min(values), max(values)
    if high - low <= 1e-12:
        return [0.0] * len(values)
    return [(v - low) / (high - low) for v in values]


def newest_provenance(store: Store, group_id: str, hits: Sequence[SearchHit]) -> dict[str, datetime]:
    """Fact row id -> the time of its newest provenance episode, for the fact hits (one read)."""
    facts = [h.fact for h in hits if h.fact is not None and h.fact.episode_ids]
    ids = list(dict.fromkeys(e for f in facts for e in f.episode_ids))
    if not ids:
        return {}
    times = {e.id: e.reference_time for e in store.episodes(group_id, ids=ids)}
    out = {}
    for f in facts:
        known = [times[e] for e in f.episode_ids if e in times]
        if known:
            out[f.id] = max(known)
    return out


def ranked(
    store: Store, group_id: str, hits: Sequence[SearchHit], *, rank: str, now: datetime,
    half_life_days: float, limit: int, weights: Mapping[str, float] | None = None,
) -> list[SearchHit]:
    """:func:`rerank` with the provenance times read from ``store``."""
    newest = newest_provenance(store, group_id, hits) if rank in ("recency", "blend") else {}
    return rerank(hits, rank=rank, now=now, half_life_days=half_life_days, newest_episode=newest, limit=limit,
                  weights=weights)
