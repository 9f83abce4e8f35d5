"""Batched reads made of a store's single reads, for a store whose reads cost no round trip (the
embedded file): the reference a server store's one-statement versions answer like."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from datetime import datetime
from typing import Any

from ..model import Entity, Fact, RecordKind
from .protocol import RECORD_COUNTS, FactQuery

_SIDES = ("subject_id", "object_id")
_NO_LIMIT = 2**31 - 1


def at_once(reads: Sequence[Callable[[], Any]]) -> list[Any]:
    """One read after another: each costs the embedded file no round trip to overlap."""
    return [read() for read in reads]


def entities_by_keys(store: Any, group_id: str, keys: Sequence[str]) -> dict[str, Entity]:
    found = {key: store.entity_by_key(group_id, key) for key in dict.fromkeys(keys)}
    return {key: e for key, e in found.items() if e is not None}


def entity_fact_presence(
    store: Any, group_id: str, entity_ids: Sequence[str], *, valid_time: datetime | None,
    known_at: datetime | None,
) -> dict[str, tuple[bool, bool]]:
    out = {}
    for entity_id in dict.fromkeys(entity_ids):
        holds = any(store.count_facts(FactQuery(group_id, valid_time=valid_time, known_at=known_at,
                                                **{side: entity_id}))  # type: ignore[arg-type]
                    for side in _SIDES)
        limit = 1 if known_at is None else None  # any version will do, unless it must be an old one
        ever = (store.facts(FactQuery(group_id, all_versions=True, limit=limit,
                                      **{side: entity_id}))  # type: ignore[arg-type]
                for side in _SIDES)
        recorded = any(known_at is None or f.created_at <= known_at for rows in ever for f in rows)
        out[entity_id] = (holds, recorded)
    return out


def facts_around(
    store: Any, group_id: str, entity_ids: Sequence[str], *, valid_time: datetime | None,
    known_at: datetime | None, limit: int,
) -> dict[str, tuple[int, list[Fact]]]:
    out = {}
    for entity_id in dict.fromkeys(entity_ids):
        near, rows = 0, []
        for side in _SIDES:
            around = FactQuery(group_id, valid_time=valid_time, known_at=known_at,
                               **{side: entity_id})  # type: ignore[arg-type]
            near += store.count_facts(around)
            rows += store.facts(replace(around, limit=limit))
        out[entity_id] = (near, rows)
    return out


def record_counts(store: Any, group_id: str) -> dict[str, int]:
    """Each kind of :data:`RECORD_COUNTS`, counted by reading its records."""
    found = [
        len(store.entities(group_id)),
        len(store.episodes(group_id)),
        len(store.group_assertions(group_id)),
        store.count_facts(FactQuery(group_id, all_versions=True)),
        len(store.summaries(group_id, all_versions=True)),
        len(store.insights(group_id, all_versions=True)),
        *(len(store.missing_embeddings(group_id, kind, _NO_LIMIT))
          for kind in (RecordKind.FACT, RecordKind.ENTITY, RecordKind.EPISODE)),
    ]
    return dict(zip(RECORD_COUNTS, found, strict=True))
