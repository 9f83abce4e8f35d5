"""The forms a time takes in storage and JSON: ISO 8601 text and integer microseconds."""

from __future__ import annotations

from datetime import datetime, timedelta

from .absolute import UTC


def iso(moment: datetime | None) -> str | None:
    """ISO 8601 text for storage and JSON, ``None`` kept."""
    return None if moment is None else moment.astimezone(UTC).isoformat()


def from_iso(text: str | None) -> datetime | None:
    return None if text is None else datetime.fromisoformat(text).astimezone(UTC)


_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)


def to_micros(moment: datetime) -> int:
    """Microseconds since the epoch: an exact, orderable integer form for storage."""
    delta = moment.astimezone(UTC) - _EPOCH
    return (delta.days * 86_400 + delta.seconds) * 1_000_000 + delta.microseconds


def from_micros(micros: int) -> datetime:
    return _EPOCH + timedelta(microseconds=micros)
