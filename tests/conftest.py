"""Shared fixtures: a memory on a hand-driven clock, in memory or in a file."""

from __future__ import annotations

import os
from collections import Counter
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


# -- Neo4j: every case that needs the server carries the `neo4j` mark ------------------------------
# The test command starts a server and sets NEO4J_URI; a set URI that cannot be reached fails the
# run, and without one the marked cases are skipped with the reason, counted in one closing line.
_NEO4J_CASES: set[str] = set()
_NEO4J_OUTCOMES: Counter[str] = Counter()


def neo4j_absent_reason() -> str | None:
    """Why the Neo4j cases cannot run here, or None when a server is configured."""
    if os.environ.get("NEO4J_URI"):
        return None
    return os.environ.get("TGRAPH_NEO4J_ABSENT") or (
        "NEO4J_URI is not set (scripts/test.sh starts a Neo4j server; scripts/neo4j.sh starts one by hand)")


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "neo4j: runs against a real Neo4j server (NEO4J_URI)")


def pytest_sessionstart(session: pytest.Session) -> None:
    uri = os.environ.get("NEO4J_URI")
    if not uri:
        return
    from temporal_graph.errors import StoreError
    from temporal_graph.testing import neo4j_store_from_env

    try:
        store = neo4j_store_from_env()
    except StoreError as exc:
        pytest.exit(f"NEO4J_URI is set but the Neo4j cases cannot run: {exc}", returncode=1)
    assert store is not None
    store.close()


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    reason = neo4j_absent_reason()
    for item in items:
        if item.get_closest_marker("neo4j"):
            _NEO4J_CASES.add(item.nodeid)
            if reason:
                item.add_marker(pytest.mark.skip(reason=f"Neo4j case not run: {reason}"))


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    if report.nodeid not in _NEO4J_CASES:
        return
    if report.when == "call" or (report.when == "setup" and not report.passed):
        _NEO4J_OUTCOMES[report.outcome] += 1
    elif report.when == "teardown" and report.failed:
        _NEO4J_OUTCOMES["failed in teardown"] += 1


def pytest_terminal_summary(terminalreporter, exitstatus: int, config: pytest.Config) -> None:
    if not _NEO4J_CASES:
        return
    reason = neo4j_absent_reason()
    if reason:
        terminalreporter.write_line(f"Neo4j: the {len(_NEO4J_CASES)} Neo4j cases were not run: {reason}")
        return
    ran = sum(n for outcome, n in _NEO4J_OUTCOMES.items() if outcome != "skipped")
    counts = ", ".join(f"{n} {outcome}" for outcome, n in sorted(_NEO4J_OUTCOMES.items()))
    terminalreporter.write_line(
        f"Neo4j: {ran} Neo4j cases ran against {os.environ['NEO4J_URI']} ({counts or 'none selected'})")
