"""Interval algebra over valid time: the one place "holds at" and "overlaps" are defined.

An interval is half-open, ``[start, end)``; a ``None`` start means "since forever" and a ``None``
end "still holds". Intervals the memory keeps are never empty (``rules.check_interval`` refuses
``end <= start``), and these functions assume it. Pure functions, no I/O.
"""

from __future__ import annotations

from datetime import datetime
from typing import Protocol

Interval = tuple[datetime | None, datetime | None]
ALWAYS: Interval = (None, None)


class HasValidTime(Protocol):
    """Anything with a valid interval (a :class:`~temporal_graph.core.model.Fact`, a timeline segment)."""

    @property
    def valid_at(self) -> datetime | None: ...

    @property
    def invalid_at(self) -> datetime | None: ...


def valid_interval(record: HasValidTime) -> Interval:
    return (record.valid_at, record.invalid_at)


def covers(interval: Interval, moment: datetime) -> bool:
    """``moment`` lies in ``interval``: the start counts, the end does not."""
    start, end = interval
    return (start is None or start <= moment) and (end is None or moment < end)


def overlaps(a: Interval, b: Interval) -> bool:
    """The two intervals share at least one instant (touching ends do not: ``[1, 2)`` and
    ``[2, 3)`` are disjoint)."""
    return (a[0] is None or b[1] is None or a[0] < b[1]) and (a[1] is None or b[0] is None or b[0] < a[1])


def intersection(a: Interval, b: Interval) -> Interval | None:
    """The instants both intervals hold, or None when they share none."""
    starts = [t for t in (a[0], b[0]) if t is not None]
    ends = [t for t in (a[1], b[1]) if t is not None]
    lo = max(starts) if starts else None
    hi = min(ends) if ends else None
    if lo is not None and hi is not None and hi <= lo:
        return None
    return (lo, hi)


def common(intervals: list[Interval]) -> Interval | None:
    """The instants all ``intervals`` share (``ALWAYS`` for none), or None when they never held together."""
    shared: Interval | None = ALWAYS
    for interval in intervals:
        shared = intersection(shared, interval) if shared is not None else None
    return shared

