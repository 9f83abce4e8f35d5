"""A console session's view of a store: the group of ``$group_id`` loaded into the engine, and
loaded again when the group changes (``:group``) or the memory changed in any way since the load.

Staying in step costs one look-up before each statement: the store's change mark of the group
(:meth:`SQLiteStore.change_mark`), a token every committed write that changes the group replaces
(a write, an erase, a retraction, a prune; from this process or another) and every ``forget``
moves. A change reloads the whole group, which ``benchmarks/cypher_engines.py`` times (the
"queryable after" column of the README's table). A store without change marks is read again
before every statement.
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from typing import Any

from ...core.names import check_group
from ...core.stores.protocol import Store
from ...core.time import Clock, system_clock, to_utc
from .graph import change_stamp, read_group
from .ladybug_engine import EngineError, LadybugGraph, Limits

# Kùzu's own statements that read or write files or change the database: never run.
ENGINE_WRITE_WORDS = ("COPY", "LOAD", "ATTACH", "INSTALL", "EXPORT", "IMPORT", "USE", "CHECKPOINT",
                      "BEGIN", "COMMIT", "ROLLBACK")


class EmbeddedCypher:
    """Read-only Cypher over one group of ``store`` at a time, each statement within ``limits``."""

    engine = "LadybugDB"

    def __init__(self, store: Store, *, clock: Clock = system_clock, limits: Limits | None = None) -> None:
        self.store = store
        self.clock = clock
        self.limits = limits or Limits()
        self.graph: LadybugGraph | None = None
        self.stamp: object = None
        self.load_seconds = 0.0
        self.loads = 0  # how many times a group was loaded (the first time included)

    def load(self, group_id: str) -> LadybugGraph:
        """The engine holding ``group_id`` as the store has it now (rebuilt only when needed)."""
        group_id = check_group(group_id)
        # Read before the group: a write committing while it is read moves the mark again, so the
        # next statement reads the group once more (never the other way round).
        stamp = change_stamp(self.store, group_id)
        if (self.graph is not None and self.graph.group_id == group_id and stamp is not None
                and stamp == self.stamp):
            return self.graph
        self.close()
        started = time.perf_counter()
        self.graph = LadybugGraph(read_group(self.store, group_id), self.limits)
        self.load_seconds = time.perf_counter() - started
        self.loads += 1
        self.stamp = stamp
        return self.graph

    def run(self, text: str, params: Mapping[str, Any]) -> tuple[list[str], list[list[Any]]]:
        """Columns and rows of one read statement over the group named by ``$group_id``."""
        group_id = params.get("group_id")
        if not isinstance(group_id, str):
            raise EngineError("$group_id must name the group to explore (:group ID)")
        return self.load(group_id).run(text, params, now=to_utc(self.clock()))

    def close(self) -> None:
        if self.graph is not None:
            self.graph.close()
            self.graph = None
            self.stamp = None
