"""Embeddings for search, computed lazily: writes stay fast, search indexes what it needs.

Writes (``add_fact``, ``add_episode``) do not embed anything; the first search that needs the
vector of a fact, an entity or an episode computes the missing ones in batches and stores them
through ``tg.store.write`` (a ``ChangeSet`` carrying only embeddings), so later searches find them
in the store's vector index. ``backfill`` does the same ahead of time, e.g. right after a big
import, so the first query does not pay for it.

What is embedded: a fact's sentence, an entity's name and aliases, an episode's speaker and text.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np

from temporal_graph.model import Entity, Episode, Fact
from temporal_graph.store import ChangeSet, FactQuery

BATCH = 256


def item_text(item: Fact | Entity | Episode) -> str:
    """The text whose embedding stands for ``item``."""
    if isinstance(item, Fact):
        return item.text or f"{item.subject} {item.relation.lower().replace('_', ' ')} {item.object}"
    if isinstance(item, Entity):
        return ", ".join(dict.fromkeys((item.name, *item.aliases)))
    return f"{item.speaker}: {item.content}" if item.speaker else item.content


def kind_of(item: Fact | Entity | Episode) -> str:
    return "fact" if isinstance(item, Fact) else "entity" if isinstance(item, Entity) else "episode"


def _store_vectors(tg: Any, kind: str, vectors: dict[str, list[float]]) -> None:
    field = {"fact": "fact_embeddings", "entity": "entity_embeddings", "episode": "episode_embeddings"}[kind]
    changes = ChangeSet(**{field: vectors})
    tg.store.write(lambda tx: tx.apply(changes))


def embed_missing(tg: Any, kind: str, items: Sequence[Any], embedded_ids: set[str]) -> dict[str, np.ndarray]:
    """Embed and store the ``items`` whose id is not in ``embedded_ids``; returns their vectors."""
    todo = [it for it in items if it.id not in embedded_ids]
    out: dict[str, np.ndarray] = {}
    for i in range(0, len(todo), BATCH):
        batch = todo[i : i + BATCH]
        vectors = tg.embedder.encode([item_text(it) for it in batch])
        _store_vectors(tg, kind, {it.id: list(map(float, v)) for it, v in zip(batch, vectors)})
        out.update({it.id: np.asarray(v, dtype=np.float32) for it, v in zip(batch, vectors)})
    return out


def similarities(
    tg: Any,
    group_id: str,
    kind: str,
    query_vector: Sequence[float],
    items: Sequence[Any],
    indexed: int | None = None,
) -> dict[str, float]:
    """Cosine similarity of the query to each of ``items`` (embedding the ones that have none yet).

    One call to the store's vector search, deep enough to reach every indexed record of the kind
    (``indexed``: how many the index may hold, default ``len(items)``), scores every stored
    vector; items it did not return have no embedding yet and are embedded now.
    """
    if not items:
        return {}
    wanted = {it.id for it in items}
    depth = max(indexed or 0, len(items))
    scores = {
        item_id: score
        for item_id, score in tg.store.vector_search(group_id, kind, list(query_vector), depth)
        if item_id in wanted
    }
    fresh = embed_missing(tg, kind, items, set(scores))
    if fresh:
        q = np.asarray(query_vector, dtype=np.float32)
        qn = float(np.linalg.norm(q)) or 1.0
        for item_id, v in fresh.items():
            scores[item_id] = float(v @ q) / ((float(np.linalg.norm(v)) or 1.0) * qn)
    return scores


def backfill(tg: Any, group_id: str = "default", kinds: Iterable[str] = ("fact", "entity", "episode")) -> int:
    """Embed every current fact, entity and episode of a group that has no embedding yet.

    Returns how many were embedded. Optional: search does this on demand.
    """
    done = 0
    # Any unit vector will do: the search only has to list what already has an embedding.
    probe = [1.0] + [0.0] * (int(getattr(tg.embedder, "dimensions", 384) or 384) - 1)
    for kind in kinds:
        items: list[Any]
        if kind == "fact":
            items = tg.store.facts(FactQuery(group_id))
        elif kind == "entity":
            items = tg.store.entities(group_id)
        else:
            items = tg.store.episodes(group_id)
        have = {item_id for item_id, _ in tg.store.vector_search(group_id, kind, probe, len(items))}
        done += len(embed_missing(tg, kind, items, have))
    return done
