"""Stores the conformance suite runs against: the embedded store, and Neo4j (the `neo4j` cases).

Every test gets its own group names from ``groups`` so a shared Neo4j database can host the
suite; the groups it handed out are forgotten afterwards.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable, Iterator

import pytest

from temporal_graph import TemporalGraph
from temporal_graph.core.stores.sqlite import SQLiteStore
from temporal_graph.testing import neo4j_store_from_env
from temporal_graph.times import ManualClock

StoreFactory = Callable[[], object]


@pytest.fixture(params=["sqlite", pytest.param("neo4j", marks=pytest.mark.neo4j)])
def store_factory(request: pytest.FixtureRequest, tmp_path) -> StoreFactory:
    """Makes a store; calling it again opens the *same* storage afresh (a new connection)."""
    if request.param == "sqlite":
        path = tmp_path / "conformance.db"
        return lambda: SQLiteStore(path)
    return neo4j_store_from_env


@pytest.fixture
def groups() -> Callable[[str], str]:
    """``groups("a")``: a group id unique to this test run (same name, same id within a test)."""
    prefix = f"t{uuid.uuid4().hex[:10]}"
    handed: dict[str, str] = {}

    def make(name: str = "main") -> str:
        return handed.setdefault(name, f"{prefix}-{name}")

    make.handed = handed  # type: ignore[attr-defined]
    return make


@pytest.fixture
def tg(store_factory: StoreFactory, clock: ManualClock, groups) -> Iterator[TemporalGraph]:
    graph = TemporalGraph(store_factory(), clock=clock, embed=False)  # the contract needs no vectors
    yield graph
    try:
        for group in groups.handed.values():  # leave a shared database as it was
            graph.forget(group)
    finally:
        graph.close()
