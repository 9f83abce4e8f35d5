"""Clocks: where "now" comes from. Every part of the library reads the time through one, so a test
or a replayed import can set it."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import TypeAlias

from ..errors import InvalidTime
from .absolute import UTC, TimeLike, to_utc

Clock: TypeAlias = Callable[[], datetime]


def system_clock() -> datetime:
    """The wall clock, as an aware UTC datetime."""
    return datetime.now(UTC)


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
