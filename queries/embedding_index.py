"""Embeddings for search, computed lazily: writes stay fast, search indexes what it needs.

Writes (``add_fact``, ``add_episode``) do not embed anything; each search asks the store which
facts, entities and episodes have no vector yet (``Store.missing_embeddings``), computes those in
batches and stores them through ``tg.store.write`` (a ``ChangeSet`` carrying only embeddings), so
the store's vector search covers everything. ``backfill`` does the same ahead of time, e.g. right after a big
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


def embed_missing(tg: Any, kind: str, todo: Sequence[Any]) -> dict[str, np.ndarray]:
    """Embed and store these records, in batches; returns their vectors."""
    out: dict[str, np.ndarray] = {}
    for i in range(0, len(todo), BATCH):
        batch = todo[i : i + BATCH]
        vectors = tg.embedder.encode([item_text(it) for it in batch])
        _store_vectors(tg, kind, {it.id: list(map(float, v)) for it, v in zip(batch, vectors)})
        out.update({it.id: np.asarray(v, dtype=np.float32) for it, v in zip(batch, vectors)})
    return out


def embed_pending(tg: Any, group_id: str, kind: str) -> int:
    """Embed every entity or episode of the group that has no vector yet; returns how many.

    The store lists what is missing (an index, not a scan), so a search pays only for records
    written since the last one."""
    load = {"entity": tg.store.entities, "episode": tg.store.episodes}[kind]
    done = 0
    while ids := tg.store.missing_embeddings(group_id, kind, BATCH):
        items = load(group_id, ids=ids)
        if not items:  # listed but unreadable: never loop forever
            break
        done += len(embed_missing(tg, kind, items))
    return done


def nearest(tg: Any, group_id: str, kind: str, query_vector: Sequence[float], depth: int) -> dict[str, float]:
    """The ``depth`` entities or episodes most similar to the query: id -> cosine, best first."""
    embed_pending(tg, group_id, kind)
    return dict(tg.store.vector_search(group_id, kind, list(query_vector), depth))


def similarities(
    tg: Any, group_id: str, query_vector: Sequence[float], facts: Sequence[Fact], current: int
) -> dict[str, float]:
    """Cosine similarity of the query to each of ``facts`` (some of the group's ``current`` rows;
    those with no vector yet are embedded first). Facts are scored all at once because search
    filters them by valid time and ranks the graph neighbourhood by similarity too."""
    if not facts:
        return {}
    if tg.store.missing_embeddings(group_id, "fact", 1):
        missing = set(tg.store.missing_embeddings(group_id, "fact", max(current, len(facts))))
        embed_missing(tg, "fact", [f for f in facts if f.id in missing])
    wanted = {f.id for f in facts}
    return {
        item_id: score
        for item_id, score in tg.store.vector_search(group_id, "fact", list(query_vector), max(current, len(facts)))
        if item_id in wanted
    }


def backfill(tg: Any, group_id: str = "default", kinds: Iterable[str] = ("fact", "entity", "episode")) -> int:
    """Embed every current fact, entity and episode of a group that has no embedding yet.

    Returns how many were embedded. Optional: search does this on demand.
    """
    done = 0
    for kind in kinds:
        if kind != "fact":
            done += embed_pending(tg, group_id, kind)
            continue
        missing = set(tg.store.missing_embeddings(group_id, "fact", 2**31))
        if missing:
            facts = [f for f in tg.store.facts(FactQuery(group_id)) if f.id in missing]
            done += len(embed_missing(tg, "fact", facts))
    return done
