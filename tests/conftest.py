"""Shared fixtures: a memory on a hand-driven clock, in memory or in a file."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from datetime import datetime, timedelta

import pytest

from temporal_graph import TemporalGraph
from temporal_graph.times import ManualClock

CLOCK_START = "2025-01-01T00:00:00+00:00"


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock(CLOCK_START)


@pytest.fixture
def tick(clock: ManualClock) -> Callable[..., datetime]:
    """Advance the clock (one day by default) and return the new transaction time.
    Tests call it before each write so transaction times strictly increase."""

    def advance(days: float = 1) -> datetime:
        clock.set(clock() + timedelta(days=days))
        return clock()

    return advance


@pytest.fixture
def tg(clock: ManualClock) -> Iterator[TemporalGraph]:
    graph = TemporalGraph.open(":memory:", clock=clock)
    yield graph
    graph.close()


@pytest.fixture
def file_tg(clock: ManualClock, tmp_path) -> Iterator[TemporalGraph]:
    graph = TemporalGraph.open(tmp_path / "memory.db", clock=clock)
    yield graph
    graph.close()
