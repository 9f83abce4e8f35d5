"""Backend failures after connecting reach a caller as the store errors of ``temporal_graph.errors``
(closed, locked, constraint broken, connection lost), never as a driver exception, on every store."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable

import pytest

from temporal_graph import TemporalGraph
from temporal_graph.core.model import Episode
from temporal_graph.core.stores import sqlite as sqlite_store
from temporal_graph.core.stores.neo4j import Neo4jStore
from temporal_graph.core.stores.protocol import ChangeSet, FactQuery
from temporal_graph.errors import ConnectionLost, ConstraintViolation, StoreClosed, StoreError, StoreLocked
from temporal_graph.times import ManualClock


def _forget(store_factory, groups) -> None:
    """Clean a shared database with a fresh connection (the test's own one is closed)."""
    store = store_factory()
    try:
        for group in groups.handed.values():
            store.forget(group)
    finally:
        store.close()


def test_a_closed_store_raises_store_closed_for_reads_and_writes(store_factory, clock, groups) -> None:
    g = groups()
    tg = TemporalGraph(store_factory(), clock=clock, embed=False)
    fact = tg.add_fact("Ana", "lives in", "Rome", group_id=g)
    tg.close()
    calls: list[Callable[[], object]] = [
        lambda: tg.now(group_id=g),
        lambda: tg.audit(fact.fact_id, group_id=g),
        lambda: tg.add_fact("Ana", "likes", "tea", group_id=g),
        lambda: tg.core.store.facts(FactQuery(g)),
        lambda: tg.core.store.groups(),
    ]
    for call in calls:
        with pytest.raises(StoreClosed, match="closed"):
            call()
    _forget(store_factory, groups)


def test_a_write_breaking_a_constraint_raises_constraint_violation_and_writes_nothing(
    store_factory, clock: ManualClock, groups
) -> None:
    g = groups()
    store = store_factory()
    try:
        first = Episode(id="ep-1", group_id=g, content="hello", reference_time=clock(), created_at=clock())
        store.write(lambda tx: tx.apply(ChangeSet(episodes=[first])))
        again = first.model_copy(update={"content": "hello again"})
        other = Episode(id="ep-2", group_id=g, content="bye", reference_time=clock(), created_at=clock())
        with pytest.raises(ConstraintViolation):
            store.write(lambda tx: tx.apply(ChangeSet(episodes=[other, again])))
        assert [e.content for e in store.episodes(g)] == ["hello"]  # the whole write was rolled back
    finally:
        for group in groups.handed.values():
            store.forget(group)
        store.close()


def test_a_file_locked_by_another_writer_raises_store_locked(
    store_factory, clock: ManualClock, groups, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Short waits: SQLite's own busy timeout, then one quick retry.
    monkeypatch.setattr(sqlite_store, "BUSY_TIMEOUT", 0.05)
    monkeypatch.setattr(sqlite_store, "LOCK_RETRIES", 1)
    monkeypatch.setattr(sqlite_store, "LOCK_BACKOFF", 0.01)
    store = store_factory()
    if not isinstance(store, sqlite_store.SQLiteStore):
        store.close()
        pytest.skip("a Neo4j server queues writers on its own locks; no second client holds one here")
    g = groups()
    holder = sqlite3.connect(store.path, isolation_level=None, timeout=0.05)
    tg = TemporalGraph(store, clock=clock, embed=False)
    try:
        holder.execute("BEGIN IMMEDIATE")  # another process writing
        with pytest.raises(StoreLocked, match="locked by another writer"):
            tg.add_fact("Ana", "lives in", "Rome", group_id=g)
        holder.execute("ROLLBACK")
        assert tg.now(group_id=g) == []  # nothing of the refused write was kept
        assert tg.add_fact("Ana", "lives in", "Rome", group_id=g).object == "Rome"  # and it works once free
    finally:
        holder.close()
        tg.close()


# -- the Neo4j edge, without a server: a driver whose sessions fail as a real one does ----------------
class _FailingDriver:
    execute_query_bookmark_manager = None  # the store chains its transactions with it

    def __init__(self, failure: Exception) -> None:
        self.failure = failure
        self.closed = False

    def verify_connectivity(self) -> None:
        return None

    def session(self, **_: object) -> object:
        from neo4j.exceptions import DriverError

        if self.closed:
            raise DriverError("Driver closed")
        raise self.failure

    def execute_query(self, *_: object, **__: object) -> object:  # a read is one query of its own
        return self.session()

    def close(self) -> None:
        self.closed = True


def test_neo4j_driver_failures_become_store_errors() -> None:
    from neo4j.exceptions import ServiceUnavailable, SessionExpired

    for failure, expected in ((ServiceUnavailable("no route"), ConnectionLost),
                              (SessionExpired("leader gone"), ConnectionLost)):
        store = Neo4jStore("neo4j://example:7687", driver=_FailingDriver(failure), apply_schema=False)
        with pytest.raises(expected, match="neo4j://example:7687"):
            store.facts(FactQuery("g"))
        with pytest.raises(expected):
            store.write(lambda tx: None)
        store.close()
        with pytest.raises(StoreClosed, match="closed"):
            store.groups()


def test_errors_that_are_not_the_drivers_pass_the_edge_unchanged() -> None:
    store = Neo4jStore("neo4j://example:7687", driver=_FailingDriver(KeyError("ours")), apply_schema=False)
    with pytest.raises(KeyError):
        store.relations("g")
    assert issubclass(StoreLocked, StoreError) and issubclass(ConnectionLost, StoreError)
