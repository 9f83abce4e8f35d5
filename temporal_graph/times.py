"""Time handling: everything inside is an aware UTC ``datetime``.

Inputs may be aware or naive datetimes, dates, or strings (ISO 8601 or plain dates such as
"8 May 2023" or "May 2023", read as their first instant). Naive values are read in a configured
zone, UTC unless the caller says otherwise.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import date, datetime, timedelta, timezone, tzinfo
from typing import TypeAlias

from dateutil import parser as _dateparser

from .errors import InvalidTime

UTC = timezone.utc
TimeLike: TypeAlias = "datetime | date | str"
Clock: TypeAlias = Callable[[], datetime]

# Missing fields of a plain date ("May 2023") fall back to the first instant of the period.
_PARSE_DEFAULT = datetime(2000, 1, 1, 0, 0, 0)


def system_clock() -> datetime:
    """The wall clock, as an aware UTC datetime."""
    return datetime.now(UTC)


def to_utc(value: TimeLike, *, zone: tzinfo = UTC, name: str = "time") -> datetime:
    """Read ``value`` as an aware UTC datetime, or raise :class:`InvalidTime` naming it."""
    if isinstance(value, datetime):
        moment = value
    elif isinstance(value, date):
        moment = datetime(value.year, value.month, value.day)
    elif isinstance(value, str):
        moment = _parse_string(value, name)
    else:
        raise InvalidTime(f"{name}: expected a datetime, date or string, got {value!r}")
    if moment.tzinfo is None or moment.utcoffset() is None:
        moment = moment.replace(tzinfo=zone)
    return moment.astimezone(UTC)


def optional_utc(value: TimeLike | None, *, zone: tzinfo = UTC, name: str = "time") -> datetime | None:
    return None if value is None else to_utc(value, zone=zone, name=name)


def _parse_string(text: str, name: str) -> datetime:
    cleaned = text.strip()
    if not cleaned:
        raise InvalidTime(f"{name}: empty time string")
    try:
        return datetime.fromisoformat(cleaned.replace("Z", "+00:00"))
    except ValueError:
        pass
    if cleaned.isdigit() and len(cleaned) == 4:  # a bare year
        return datetime(int(cleaned), 1, 1)
    try:
        return _dateparser.parse(cleaned, default=_PARSE_DEFAULT)
    except (ValueError, OverflowError) as exc:
        raise InvalidTime(f"{name}: cannot read {text!r} as a time ({exc})") from None


def fixed_clock(*moments: TimeLike) -> Clock:
    """A clock for tests and replays: returns the given moments in turn, then repeats the last."""
    times = [to_utc(m) for m in moments]
    if not times:
        raise InvalidTime("fixed_clock needs at least one moment")
    state = {"i": 0}

    def clock() -> datetime:
        i = min(state["i"], len(times) - 1)
        state["i"] += 1
        return times[i]

    return clock


class ManualClock:
    """A clock a test or an import advances by hand: ``clock.set(t)``, ``clock()``."""

    def __init__(self, start: TimeLike) -> None:
        self.moment = to_utc(start)

    def __call__(self) -> datetime:
        return self.moment

    def set(self, moment: TimeLike) -> None:
        self.moment = to_utc(moment)


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
