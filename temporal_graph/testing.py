"""Helpers for tests and benchmarks: a Neo4j store from the environment, unique group ids, and
the brute-force as-of count the embedded store's indexes are measured against.

Not part of the core: this module may import the stores, nothing in ``temporal_graph.core``
imports it.
"""

from __future__ import annotations

import json
import os
import threading
import uuid
from datetime import datetime
from pathlib import Path
from typing import Any

from .client import TemporalGraph
from .core.stores import sql
from .core.stores.neo4j import Neo4jStore
from .core.stores.sqlite import SQLiteStore
from .core.time import ManualClock, to_micros


def neo4j_store_from_env(*, wipe: bool = False, group_prefix: str = "") -> Neo4jStore | None:
    """A store for tests when ``NEO4J_URI`` is set (``NEO4J_USER``, ``NEO4J_PASSWORD``,
    ``NEO4J_DATABASE`` optional), else ``None``.

    Nothing is deleted unless ``wipe=True``: then every group whose id starts with
    ``group_prefix`` (all groups when empty) is forgotten first — only for a scratch database.
    """
    uri = os.environ.get("NEO4J_URI")
    if not uri:
        return None
    user = os.environ.get("NEO4J_USER", "neo4j")
    password = os.environ.get("NEO4J_PASSWORD", "")
    store = Neo4jStore(uri, auth=(user, password), database=os.environ.get("NEO4J_DATABASE") or None)
    if wipe:
        for group_id in store.groups():
            if group_id.startswith(group_prefix):
                store.forget(group_id)
    return store


def unique_test_group(prefix: str = "tg-test") -> str:
    """A group id no other test run uses (for suites sharing one database)."""
    return f"{prefix}-{uuid.uuid4().hex[:12]}"


def count_facts_brute_force(
    store: SQLiteStore, group_id: str, valid_time: datetime, known_at: datetime, subject_id: str | None = None
) -> int:
    """The as-of count of ``store`` by a full scan of every row, ignoring all indexes: the
    baseline ``benchmarks/asof_latency.py`` measures the indexed reads against."""
    statement, params = sql.count_facts_scan(group_id, to_micros(valid_time), to_micros(known_at), subject_id)
    return store._rows(statement, params)[0][0]  # noqa: SLF001 - a benchmark reads the file as is


# -- the Cypher exploration set (tests/data/cypher_exploration.json) ------------------------------
EXPLORATION_GROUP = "explore"
EXPLORATION_NOW = "2024-06-01T00:00:00+00:00"


def exploration_memory(
    tg: TemporalGraph, clock: ManualClock, group_id: str = EXPLORATION_GROUP, other_group: str = "other"
) -> None:
    """The small memory the Cypher exploration set is written against: typed entities, a move that
    ends an earlier fact (an expired version and its successor), an ended job, a retraction, an
    episode with its mentions, and a second group (``other_group``) the set must never see.
    ``clock`` is the memory's clock; it is left at :data:`EXPLORATION_NOW`."""
    g = group_id
    clock.set("2024-01-10")
    tg.add_fact("Zhang Wei", "lives in", "Hangzhou", valid_at="2019-05-01", group_id=g,
                subject_type="person", object_type="city")
    tg.add_fact("Zhang Wei", "works at", "Initech", valid_at="2021-03-01", group_id=g,
                object_type="organization")
    tg.add_fact("Alice", "works at", "Acme", valid_at="2020-02-01", group_id=g, subject_type="person",
                object_type="organization", confidence=0.8)
    tg.add_fact("Alice", "knows", "Zhang Wei", valid_at="2022-01-01", group_id=g)
    tg.add_fact("Initech", "located in", "Hangzhou", group_id=g)
    clock.set("2024-02-20")
    tg.add_fact("Alice", "lives in", "Paris", valid_at="2022-06-01", group_id=g, object_type="city")
    clock.set("2024-03-05")
    tg.add_fact("Zhang Wei", "lives in", "Shanghai", valid_at="2024-03-01", group_id=g, object_type="city")
    clock.set("2024-04-01")
    tg.end_fact("Alice", "works at", "Acme", at="2023-06-30", group_id=g)
    clock.set("2024-04-15")
    tg.retract_fact("Alice", "lives in", "Paris", group_id=g)
    clock.set("2024-05-02")
    tg.add_episode("I live in Berlin.", reference_time="2024-05-01", speaker="Bob", group_id=g)
    tg.add_fact("Zhang Wei", "lives in", "Tokyo", valid_at="2020-01-01", group_id=other_group)
    clock.set(EXPLORATION_NOW)


EXPLORATION_SET = Path(__file__).resolve().parents[1] / "tests" / "data" / "cypher_exploration.json"


def exploration_set() -> list[dict[str, Any]]:
    """The statements of the exploration set, each with the columns and rows Neo4j gives."""
    return json.loads(EXPLORATION_SET.read_text(encoding="utf-8"))["statements"]


def exploration_text(entry: dict[str, Any]) -> str:
    """The statement as typed: its own text, or the console snippet it names."""
    if "snippet" in entry:
        from .interfaces.console import SNIPPETS

        return SNIPPETS[entry["snippet"]]
    return entry["cypher"]


def exploration_params(entry: dict[str, Any], group_id: str, now: datetime) -> dict[str, Any]:
    """The parameters the console would hold: ``$group_id``, ``$now`` and the entry's own."""
    from .core.time import to_utc

    times = {k: to_utc(v) for k, v in entry.get("times", {}).items()}
    return {"group_id": group_id, "now": now, **entry.get("params", {}), **times}


def fact_symbols(tg: TemporalGraph, group_id: str) -> dict[str, str]:
    """``fact_id -> "subject|RELATION|object"``: how the set writes the random fact ids."""
    from .core.stores.protocol import FactQuery

    return {f.fact_id: f"{f.subject}|{f.relation}|{f.object}"
            for f in tg.core.store.facts(FactQuery(group_id, all_versions=True))}


def comparable_rows(entry: dict[str, Any], rows: list[list[Any]], symbols: dict[str, str]) -> list[Any]:
    """Rows as JSON data, fact ids as their symbols, floats rounded, label lists sorted, and in a
    fixed order when the statement leaves the order open: equal for the same answer."""
    from .interfaces.console import json_value

    fact_columns = [entry["columns"].index(c) for c in entry.get("fact_columns", [])]

    def cell(i: int, value: Any) -> Any:
        if i in fact_columns:
            return symbols.get(value, value)
        if isinstance(value, float):
            return round(value, 6)
        if isinstance(value, list) and entry.get("sorted_lists"):
            return sorted(value)
        return value

    data = [[cell(i, v) for i, v in enumerate(row)] for row in json_value(rows)]
    return data if entry["ordered"] else sorted(data, key=lambda r: json.dumps(r, sort_keys=True))


# -- Bolt round trips ---------------------------------------------------------------------------
class BoltCounter:
    """A stand-in for a ``neo4j`` driver that counts what goes through it, for tests and the
    benchmark's ``--profile``: statements run, transactions (each try of a transaction function,
    each ``execute_query`` and each auto-commit statement), and Bolt round trips. A transaction
    function costs one round trip to begin (the driver waits for BEGIN's answer) unless its session
    sends BEGIN with the first statement (as ``execute_query`` does), one per statement and one to
    commit; an auto-commit statement (``session.run``) costs one. Everything else is the driver's
    own: ``store.driver = BoltCounter(store.driver)``."""

    def __init__(self, driver: Any) -> None:
        self._driver = driver
        self.statements = 0
        self.transactions = 0
        self.round_trips = 0
        self.texts: list[str] = []  # the first line of each statement, in order
        # The names of each statement's list parameters, in order: the server plans a statement
        # again for each mix of its lists' lengths (see cypher/changes_write.cypher).
        self.lists: list[list[str]] = []
        self.modes: list[str] = []  # "read" or "write", of each transaction in order
        self.threads: list[str] = []  # the name of the thread that ran each transaction, in order
        self._lock = threading.Lock()  # reads run at once (Neo4jStore.at_once) count from threads

    def reset(self) -> None:
        self.statements = self.transactions = self.round_trips = 0
        self.texts.clear()
        self.modes.clear()
        self.threads.clear()
        self.lists.clear()

    def counts(self) -> dict[str, int]:
        return {"statements": self.statements, "transactions": self.transactions,
                "round_trips": self.round_trips}

    def _ran(self, text: Any, parameters: Any = None) -> None:
        self.statements += 1
        self.round_trips += 1
        body = [line for line in str(getattr(text, "text", text)).splitlines()
                if line.strip() and not line.lstrip().startswith("//")]
        self.texts.append(body[0].strip() if body else "")
        self.lists.append(sorted(k for k, v in dict(parameters or {}).items() if isinstance(v, list)))

    def session(self, **config: Any) -> _CountingSession:
        import neo4j

        mode = "read" if config.get("default_access_mode") == neo4j.READ_ACCESS else "write"
        return _CountingSession(self._driver.session(**config), self, mode)

    def execute_query(self, query: Any, *args: Any, **kwargs: Any) -> Any:
        import neo4j

        with self._lock:
            self.modes.append("read" if kwargs.get("routing_") == neo4j.RoutingControl.READ else "write")
            self.threads.append(threading.current_thread().name)
            self.transactions += 1
            self.round_trips += 1  # BEGIN goes with the statement; COMMIT is the second
            self._ran(query, args[0] if args else kwargs.get("parameters_"))
        return self._driver.execute_query(query, *args, **kwargs)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._driver, name)


class _CountingSession:
    def __init__(self, session: Any, counter: BoltCounter, mode: str) -> None:
        self._session, self._counter, self._mode = session, counter, mode

    def __enter__(self) -> _CountingSession:
        self._session.__enter__()
        return self

    def __exit__(self, *exc: Any) -> Any:
        return self._session.__exit__(*exc)

    def _wrapped(self, fn: Any, mode: str) -> Any:
        counter = self._counter

        def work(tx: Any, *args: Any, **kwargs: Any) -> Any:
            counter.modes.append(mode)
            counter.threads.append(threading.current_thread().name)
            counter.transactions += 1
            # COMMIT, and BEGIN unless it goes with the first statement
            counter.round_trips += 1 if getattr(self._session, "_pipelined_begin", False) else 2
            return fn(_CountingTx(tx, counter), *args, **kwargs)

        return work

    def execute_read(self, fn: Any, *args: Any, **kwargs: Any) -> Any:
        return self._session.execute_read(self._wrapped(fn, "read"), *args, **kwargs)

    def execute_write(self, fn: Any, *args: Any, **kwargs: Any) -> Any:
        return self._session.execute_write(self._wrapped(fn, "write"), *args, **kwargs)

    def run(self, query: Any, *args: Any, **kwargs: Any) -> Any:
        counter = self._counter
        with counter._lock:
            counter.modes.append(self._mode)
            counter.threads.append(threading.current_thread().name)
            counter.transactions += 1
            counter._ran(query, args[0] if args else kwargs.get("parameters"))  # auto-commit: one round trip
        return self._session.run(query, *args, **kwargs)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._session, name)


class _CountingTx:
    def __init__(self, tx: Any, counter: BoltCounter) -> None:
        self._tx, self._counter = tx, counter

    def run(self, query: Any, *args: Any, **kwargs: Any) -> Any:
        self._counter._ran(query, args[0] if args else kwargs.get("parameters"))
        return self._tx.run(query, *args, **kwargs)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._tx, name)
