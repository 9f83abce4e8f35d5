"""Stored rows -> the model's records: one decoder per kind, shared by both stores.

A store hands over one plain mapping per row (an ``sqlite3.Row``, a Neo4j record's ``data()``)
whose keys are the model's field names; ``attributes`` holds JSON text in both stores. Lists of
strings come back in different shapes (SQLite: JSON text; Neo4j: lists), so each store names its
:class:`Codec`. Times are integer microseconds from both: the Neo4j statements return them that
way, since the driver's DateTime objects cost some 100 µs each to decode (one still reads).
Values a row written by an older version lacks (a null importance,
type, method, text ...) get their defaults here, in one place for both stores.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Protocol

from ..model import DEFAULT_IMPORTANCE, Assertion, Entity, EntitySummary, Episode, Fact, Insight
from ..receipts import ErasureReceipt
from ..time import UTC, from_micros


class Row(Protocol):
    """A stored row by column name: ``sqlite3.Row``, ``dict``."""

    def __getitem__(self, key: str, /) -> Any: ...


@dataclass(frozen=True)
class Codec:
    """How one store's driver returns times and lists of strings (``None`` for a missing value)."""

    time: Callable[[Any], datetime | None]
    strings: Callable[[Any], tuple[str, ...]]


def _micros_time(value: int | None) -> datetime | None:
    return None if value is None else from_micros(value)


def _json_strings(value: str | None) -> tuple[str, ...]:
    # Most fact rows cite no message ("[]"): skip the parser, as for attributes.
    return tuple(json.loads(value)) if value and value != "[]" else ()


def _driver_time(value: Any) -> datetime | None:
    """Neo4j temporal values -> aware UTC Python datetimes (a zone-less one is read as UTC);
    integer microseconds since the epoch, as statements return many moments, too."""
    if isinstance(value, int):
        return from_micros(value)
    to_native = getattr(value, "to_native", None)
    if to_native is None:
        return value
    moment = to_native()
    if isinstance(moment, datetime):
        if moment.tzinfo is None:
            moment = moment.replace(tzinfo=UTC)
        return moment.astimezone(UTC)
    return moment


def _list_strings(value: list[str] | None) -> tuple[str, ...]:
    return tuple(value or ())


SQLITE = Codec(time=_micros_time, strings=_json_strings)
NEO4J = Codec(time=_driver_time, strings=_list_strings)


def _attributes(text: str | None) -> dict[str, Any]:
    return {} if not text or text == "{}" else json.loads(text)  # most rows have none: skip the parser


def _importance(value: int | None) -> int:
    """Rows written before importance was stored have none: they get the default."""
    return DEFAULT_IMPORTANCE if value is None else value


def _required(value: datetime | None, what: str) -> datetime:
    if value is None:
        raise ValueError(f"a stored record has no {what}")
    return value


def entity(r: Row, codec: Codec) -> Entity:
    return Entity(
        id=r["id"], group_id=r["group_id"], name=r["name"], type=r["type"] or "Entity",
        aliases=codec.strings(r["aliases"]), summary=r["summary"] or "",
        created_at=_required(codec.time(r["created_at"]), "created_at"),
    )


def _optional(r: Row, key: str) -> Any:
    """A value rows of older files (or statements that do not return it) may lack."""
    try:
        return r[key]
    except (KeyError, IndexError):
        return None


def episode(r: Row, codec: Codec) -> Episode:
    return Episode(
        id=r["id"], group_id=r["group_id"], speaker=r["speaker"], content=r["content"] or "",
        source=r["source"], source_id=r["source_id"],
        reference_time=_required(codec.time(r["reference_time"]), "reference_time"),
        created_at=_required(codec.time(r["created_at"]), "created_at"),
        retracted_at=codec.time(_optional(r, "retracted_at")),
        erased_at=codec.time(_optional(r, "erased_at")),
    )


def assertion(r: Row, codec: Codec) -> Assertion:
    return Assertion(
        id=r["id"], group_id=r["group_id"], subject_id=r["subject_id"], relation=r["relation"],
        object_id=r["object_id"], kind=r["kind"], at=codec.time(r["at"]), until=codec.time(r["until"]),
        created_at=_required(codec.time(r["created_at"]), "created_at"), seq=r["seq"] or 0,
        episode_id=r["episode_id"], text=r["text"] or "", confidence=r["confidence"],
        importance=_importance(r["importance"]), attributes=_attributes(r["attributes"]),
    )


def summary(r: Row, codec: Codec) -> EntitySummary:
    return EntitySummary(
        id=r["id"], group_id=r["group_id"], entity_id=r["entity_id"], entity=r["entity"],
        text=r["text"] or "", method=r["method"] or "offline", fact_ids=codec.strings(r["fact_ids"]),
        created_at=_required(codec.time(r["created_at"]), "created_at"),
        expired_at=codec.time(r["expired_at"]),
    )


def insight(r: Row, codec: Codec) -> Insight:
    return Insight(
        id=r["id"], group_id=r["group_id"], text=r["text"] or "",
        subject_ids=codec.strings(r["subject_ids"]), subjects=codec.strings(r["subjects"]),
        derived_from=codec.strings(r["derived_from"]),
        importance=DEFAULT_IMPORTANCE if r["importance"] is None else r["importance"],
        valid_at=codec.time(r["valid_at"]), invalid_at=codec.time(r["invalid_at"]),
        created_at=_required(codec.time(r["created_at"]), "created_at"),
        expired_at=codec.time(r["expired_at"]), replaces=r["replaces"],
        producer=r["producer"] or "offline", pattern=r["pattern"] or "",
    )


def erasure_receipt(r: Row, group_id: str, codec: Codec) -> ErasureReceipt:
    """A receipt of the erasure log (which names the group by its key: ``group_id`` is the one asked for)."""
    return ErasureReceipt(
        request_id=r["request_id"], at=_required(codec.time(r["at"]), "at"), group_id=group_id,
        operation=r["operation"], counts=json.loads(r["counts"]), digest=r["digest"],
    )


def fact(r: Row, codec: Codec) -> Fact:
    return Fact(
        id=r["id"], fact_id=r["fact_id"], group_id=r["group_id"], subject=r["subject"],
        relation=r["relation"], object=r["object"], subject_id=r["subject_id"],
        object_id=r["object_id"], text=r["text"] or "", valid_at=codec.time(r["valid_at"]),
        invalid_at=codec.time(r["invalid_at"]),
        created_at=_required(codec.time(r["created_at"]), "created_at"),
        expired_at=codec.time(r["expired_at"]), episode_ids=codec.strings(r["episode_ids"]),
        confidence=r["confidence"], importance=_importance(r["importance"]),
        attributes=_attributes(r["attributes"]),
    )
