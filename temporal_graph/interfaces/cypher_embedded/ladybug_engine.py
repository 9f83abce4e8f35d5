"""The embedded Cypher engine: one group loaded into an in-memory LadybugDB database.

LadybugDB (PyPI ``ladybug``, the maintained successor of Kùzu) is a typed graph database: one
node table per node label and one relationship table per type. The group is loaded with one
``COPY ... FROM (UNWIND ...)`` per table, columns passed as parameter lists, and statements run
after :mod:`.dialect` has rewritten what its Cypher spells differently from Neo4j's. Results come
back as this package's values (:mod:`.graph`), times as aware UTC datetimes.

Every statement runs under a time limit (the engine's query timeout) and the database under a
memory limit (its buffer pool, which holds the loaded group and what statements build): a path
pattern over a dense group (``MATCH p=(a)-[*1..6]->(b) RETURN count(p)``) fails in seconds with a
line naming the limit, instead of running for minutes into tens of GB; Ctrl-C stops a statement
(the engine is interrupted). The session stays usable after each.
"""

from __future__ import annotations

import os
import re
import threading
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from decimal import Decimal
from typing import Any

from ...core.errors import InvalidIdentifier
from ...core.extras import missing
from ...core.names import check_identifier
from . import dialect
from .graph import (
    ENTITY,
    ENTITY_PROPERTIES,
    EPISODE,
    EPISODE_PROPERTIES,
    FACT_PROPERTIES,
    MENTIONS,
    GraphNode,
    GraphPath,
    GraphRelationship,
    GroupGraph,
)

_TYPES = {"string": "STRING", "strings": "STRING[]", "time": "TIMESTAMP_TZ", "float": "DOUBLE",
          "int": "INT64"}
_SEP = "\x1f"  # joins list items for loading: names and ids never hold control characters
_MISSING_TABLE = re.compile(r"Table (\w+) does not exist")
_MAX_NEW_TABLES = 16
_NO_FACTS = "NO_FACTS_YET"
_OUT_OF_MEMORY = re.compile(r"buffer pool is full|unable to allocate memory|out of memory", re.IGNORECASE)
_INTERRUPTED = re.compile(r"^\W*interrupted\W*$", re.IGNORECASE)

# The limits a session runs under unless told otherwise (the console's --timeout / --max-memory).
DEFAULT_TIMEOUT = 30.0  # seconds per statement
DEFAULT_MEMORY_MB = 2048  # the engine's buffer pool: a 100k-fact group takes about 130 MB of it
TIMEOUT_FLAGS = "--timeout SECONDS or TGRAPH_CYPHER_TIMEOUT"
MEMORY_FLAGS = "--max-memory MB or TGRAPH_CYPHER_MEMORY"


@dataclass(frozen=True)
class Limits:
    """What one statement may take: ``timeout`` seconds (0: none) and ``memory_mb`` of memory."""

    timeout: float = DEFAULT_TIMEOUT
    memory_mb: int = DEFAULT_MEMORY_MB

    def __post_init__(self) -> None:
        if not (isinstance(self.timeout, int | float) and 0 <= self.timeout <= 86_400):
            raise ValueError(f"timeout: {self.timeout!r} is not a number of seconds from 0 (none) to 86400")
        if not (isinstance(self.memory_mb, int) and 64 <= self.memory_mb <= 1_048_576):
            raise ValueError(f"max memory: {self.memory_mb!r} is not a whole number of MB from 64 "
                             "to 1048576")

    @classmethod
    def chosen(cls, timeout: float | None = None, memory_mb: int | None = None) -> Limits:
        """The limits asked for, else those of ``TGRAPH_CYPHER_TIMEOUT`` (seconds) and
        ``TGRAPH_CYPHER_MEMORY`` (MB), else the defaults; ValueError names a bad one."""
        if timeout is None:
            timeout = _number(os.environ.get("TGRAPH_CYPHER_TIMEOUT", ""), "TGRAPH_CYPHER_TIMEOUT",
                              DEFAULT_TIMEOUT)
        if memory_mb is None:
            memory_mb = int(_number(os.environ.get("TGRAPH_CYPHER_MEMORY", ""), "TGRAPH_CYPHER_MEMORY",
                                    DEFAULT_MEMORY_MB, whole=True))
        return cls(timeout, memory_mb)


def _number(text: str, name: str, default: float, *, whole: bool = False) -> float:
    if not text.strip():
        return default
    try:
        return int(text) if whole else float(text)
    except ValueError:
        raise ValueError(f"{name}: {text!r} is not a {'whole ' if whole else ''}number") from None


class EngineError(ValueError):
    """A statement the engine refused or failed; the message is one line."""


def _ladybug() -> Any:
    try:
        import ladybug
    except ImportError as exc:
        raise missing("cypher", "the Cypher console on the embedded store", exc) from None
    return ladybug


def _naive_utc(value: datetime) -> datetime:
    return value.astimezone(UTC).replace(tzinfo=None) if value.tzinfo else value


def _columns(properties: Mapping[str, str]) -> str:
    return ", ".join(f"`{name}` {_TYPES[kind]}" for name, kind in properties.items())


def _load_rows(connection: Any, table: str, kinds: Sequence[str], columns: Sequence[list[Any]]) -> None:
    """``COPY table`` from parameter lists, one per column, in the table's column order."""
    if not columns or not columns[0]:
        return
    params: dict[str, Any] = {"n": len(columns[0])}
    picks: list[str] = []
    for k, (kind, values) in enumerate(zip(kinds, columns, strict=True)):
        name = f"c{k}"
        if kind == "strings":
            params[name] = [_SEP.join(v) for v in values]
            picks.append(f"list_filter(string_split(${name}[i], $sep), x -> x <> '')")
            params["sep"] = _SEP
        elif all(v is None for v in values):
            picks.append(f"CAST(NULL AS {_TYPES.get(kind, kind)})")
        else:
            params[name] = [_naive_utc(v) if isinstance(v, datetime) else v for v in values]
            picks.append(f"CAST(${name}[i] AS {_TYPES.get(kind, kind)})")
    connection.execute(f"COPY `{table}` FROM (UNWIND range(1, $n) AS i RETURN {', '.join(picks)})", params)


class LadybugGraph:
    """One group, loaded. ``run`` answers a statement as (columns, rows)."""

    def __init__(self, graph: GroupGraph, limits: Limits | None = None) -> None:
        ladybug = _ladybug()
        self.group_id = graph.group_id
        self.limits = limits or Limits()
        self.database = ladybug.Database(":memory:", buffer_pool_size=self.limits.memory_mb * 2**20)
        self.connection = ladybug.Connection(self.database)
        self.relations: set[str] = set()
        try:
            self._load(graph)
        except RuntimeError as exc:
            self.close()
            if _OUT_OF_MEMORY.search(str(exc)):
                raise EngineError(
                    f"the group {graph.group_id!r} ({graph.fact_rows} fact rows) does not fit in the "
                    f"console's memory limit of {self.limits.memory_mb} MB; raise it ({MEMORY_FLAGS})"
                ) from None
            raise
        # Set after the load: the limit is the user's statements', not the load's.
        self.connection.set_query_timeout(int(self.limits.timeout * 1000))

    def _load(self, graph: GroupGraph) -> None:
        c = self.connection
        hidden = {dialect.LABELS: "strings", dialect.TYPE_LABEL: "string"}
        for table, properties in ((ENTITY, ENTITY_PROPERTIES), (EPISODE, EPISODE_PROPERTIES)):
            c.execute(f"CREATE NODE TABLE `{table}`({_columns({**properties, **hidden})}, PRIMARY KEY (id))")
        c.execute(f"CREATE REL TABLE `{MENTIONS}`(FROM `{EPISODE}` TO `{ENTITY}`)")
        entity_kinds = [*ENTITY_PROPERTIES.values(), "strings", "string"]
        _load_rows(c, ENTITY, entity_kinds, [
            *([e[name] for e in graph.entities] for name in ENTITY_PROPERTIES),
            [list(labels) for labels in graph.entity_labels],
            [labels[1] if len(labels) > 1 else None for labels in graph.entity_labels],
        ])
        episode_kinds = [*EPISODE_PROPERTIES.values(), "strings", "string"]
        _load_rows(c, EPISODE, episode_kinds, [
            *([e[name] for e in graph.episodes] for name in EPISODE_PROPERTIES),
            [[EPISODE] for _ in graph.episodes], [None for _ in graph.episodes],
        ])
        _load_rows(c, MENTIONS, ["string", "string"], [[m[0] for m in graph.mentions],
                                                       [m[1] for m in graph.mentions]])
        fact_kinds = ["string", "string", *FACT_PROPERTIES.values()]
        if not graph.facts:  # r.fact_id must mean something before the first fact: an empty type
            self._relation_table(_NO_FACTS)
        for relation, edges in sorted(graph.facts.items()):
            self._relation_table(relation)
            _load_rows(c, relation, fact_kinds, [
                [e.start for e in edges], [e.end for e in edges],
                *([e.properties[name] for e in edges] for name in FACT_PROPERTIES),
            ])

    def _relation_table(self, relation: str) -> None:
        """The table of one relationship type (empty until rows are copied into it)."""
        name = check_identifier(relation)
        if name.upper() in {t.upper() for t in (ENTITY, EPISODE, MENTIONS)}:
            raise EngineError(f"relation {name!r} has the name of a node label or MENTIONS")
        self.connection.execute(
            f"CREATE REL TABLE `{name}`(FROM `{ENTITY}` TO `{ENTITY}`, {_columns(FACT_PROPERTIES)})")
        self.relations.add(name)

    def run(
        self, text: str, params: Mapping[str, Any], *, now: datetime
    ) -> tuple[list[str], list[list[Any]]]:
        """Run one read statement (already checked to write nothing); raises :class:`EngineError`."""
        try:
            translated = dialect.translate(text, now=now)
        except dialect.Unsupported as exc:
            raise EngineError(f"not supported on the embedded store: {exc}") from None
        values = {k: _engine_value(v) for k, v in params.items()}
        for attempt in range(_MAX_NEW_TABLES):
            try:
                # The engine caches a statement's failed binding by its text: a retry must differ.
                keys, found = self._execute(translated + " " * attempt, values)
                break
            except RuntimeError as exc:
                if not self._add_missing_type(str(exc)):
                    raise EngineError(self._failure(str(exc))) from None
        else:
            raise EngineError("too many relationship types this group does not have")
        rows = [[result_value(v) for v in row] for row in found]
        named = dialect.return_columns(text)
        return (named if named is not None and len(named) == len(keys) else keys), rows

    def _execute(self, text: str, values: dict[str, Any]) -> tuple[list[str], list[list[Any]]]:
        """Columns and raw rows of one statement, run on a second thread so that Ctrl-C (a
        KeyboardInterrupt here) interrupts the engine rather than waiting for the statement."""
        outcome: dict[str, Any] = {}

        def work() -> None:
            try:
                result = self.connection.execute(text, values)
                outcome["rows"] = (list(result.get_column_names()), result.get_all())
            except BaseException as exc:  # handed to the caller's thread
                outcome["error"] = exc

        worker = threading.Thread(target=work, name="cypher-statement", daemon=True)
        worker.start()
        try:
            while worker.is_alive():
                worker.join(0.2)
        except KeyboardInterrupt:
            self.connection.interrupt()
            worker.join()
            raise EngineError("cancelled (Ctrl-C); the console is ready for the next statement") from None
        if "error" in outcome:
            raise outcome["error"]
        keys, rows = outcome["rows"]
        return keys, rows

    def _failure(self, message: str) -> str:
        """The one line for an engine failure; the time and memory limits are named as such."""
        if _INTERRUPTED.match(message.strip()):
            return (f"the statement ran longer than the console's limit of {self.limits.timeout:g} s and "
                    f"was stopped; narrow it (a LIMIT, a shorter [*1..n], a label) or raise the limit "
                    f"({TIMEOUT_FLAGS})")
        if _OUT_OF_MEMORY.search(message):
            return (f"the statement needed more memory than the console's limit of "
                    f"{self.limits.memory_mb} MB and was stopped; narrow it (a LIMIT, a shorter [*1..n], "
                    f"a label) or raise the limit ({MEMORY_FLAGS})")
        return engine_message(message)

    def _add_missing_type(self, message: str) -> bool:
        """A relationship type the group has no fact of matches nothing, as on Neo4j: give it an
        empty table and try again. False when ``message`` is about something else."""
        found = _MISSING_TABLE.search(message)
        if not found:
            return False
        try:
            self._relation_table(found.group(1))
        except (InvalidIdentifier, EngineError):
            return False
        return True

    def close(self) -> None:
        self.connection.close()
        self.database.close()


def _engine_value(value: Any) -> Any:
    """A parameter as the engine takes it: times in naive UTC (it would drop an offset)."""
    if isinstance(value, datetime):
        return _naive_utc(value)
    if isinstance(value, list):
        return [_engine_value(v) for v in value]
    if isinstance(value, dict):
        return {k: _engine_value(v) for k, v in value.items()}
    return value


def _properties(record: Mapping[str, Any]) -> dict[str, Any]:
    return {k: result_value(v) for k, v in record.items() if not k.startswith("_") and v is not None}


def result_value(value: Any) -> Any:
    """An engine value as this package's values: nodes, relationships, paths, aware UTC times."""
    if isinstance(value, dict):
        if "_NODES" in value and "_RELS" in value:
            nodes = tuple(result_value(n) for n in value["_NODES"])
            rels = tuple(result_value(r) for r in value["_RELS"])
            if len(nodes) == len(rels) + 1:
                return GraphPath(nodes, rels)
            return list(rels)  # the relationships of a variable-length pattern, as Neo4j lists them
        if "_SRC" in value and "_LABEL" in value:
            return GraphRelationship(value["_LABEL"], _properties(value))
        if "_ID" in value and "_LABEL" in value:
            return GraphNode(tuple(value.get(dialect.LABELS) or (value["_LABEL"],)), _properties(value))
        return {k: result_value(v) for k, v in value.items()}
    if isinstance(value, list):
        return [result_value(v) for v in value]
    if isinstance(value, datetime) and value.tzinfo is None:
        return value.replace(tzinfo=UTC)
    if isinstance(value, Decimal):
        return int(value) if value == value.to_integral_value() else float(value)
    return value


def engine_message(message: str) -> str:
    """The engine's message as one line, its exception class dropped (``Binder exception: ...``)."""
    first = message.strip().splitlines()[0] if message.strip() else "the engine failed"
    first = re.sub(r"^\w+ exception:\s*", "", first)
    missing_function = re.match(r"function (\w+) does not exist", first, re.IGNORECASE)
    if missing_function:
        return f"not supported on the embedded store: the function {missing_function.group(1).lower()}()"
    return first
