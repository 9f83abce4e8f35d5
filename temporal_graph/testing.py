"""Helpers for tests and benchmarks: a Neo4j store from the environment, unique group ids, and
the brute-force as-of count the embedded store's indexes are measured against.

Not part of the core: this module may import the stores, nothing in ``temporal_graph.core``
imports it.
"""

from __future__ import annotations

import os
import uuid
from datetime import datetime

from .core.stores import sql
from .core.stores.neo4j import Neo4jStore
from .core.stores.sqlite import SQLiteStore
from .core.time import to_micros


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
