"""Where the console's statements run: a Neo4j session, or the embedded store's Cypher engine
(``cypher_embedded``). Both answer a statement as an :class:`Outcome` or fail with one line
(:class:`StatementFailed`); :func:`open_runner` picks one for what the console was given."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

from ..core.time import Clock

if TYPE_CHECKING:
    from .cypher_embedded.ladybug_engine import Limits

EMBEDDED_READ_ONLY = ("the Cypher console on the embedded store is read-only (it explores a copy of "
                      "the group); write with tgraph add-fact / import, or use --neo4j ... cypher --write")


def _driver_of(target: Any) -> tuple[Any, str | None]:
    """The neo4j driver and database of a Neo4jStore, a TemporalGraph on one, or a driver."""
    core = getattr(target, "core", None)
    store = getattr(core, "store", None) or getattr(target, "store", target)
    driver = getattr(store, "driver", None)
    if driver is not None and hasattr(driver, "session"):
        return driver, getattr(store, "database", None)
    if hasattr(target, "session") and hasattr(target, "verify_connectivity"):
        return target, None
    return None, None


def run_statement(
    session: Any, text: str, params: dict[str, Any], *, write: bool
) -> tuple[list[str], list[list[Any]], Any]:
    """Run one statement in a managed transaction (READ unless ``write``); keys, rows, summary."""

    def work(tx: Any) -> tuple[list[str], list[list[Any]], Any]:
        result = tx.run(text, params)
        keys = list(result.keys())
        rows = [list(record.values()) for record in result]
        return keys, rows, result.consume()

    return (session.execute_write if write else session.execute_read)(work)


@dataclass
class Outcome:
    """What one statement gave: its columns, its rows, and what it changed (Neo4j --write)."""

    keys: list[str]
    rows: list[list[Any]]
    changes: str = ""


class StatementFailed(Exception):
    """The store or engine refused or failed one statement; the message is one line."""


class Runner(Protocol):
    @property
    def refused_words(self) -> Sequence[str]:
        """Words refused beyond the Cypher write clauses (an engine's own file statements)."""
        ...

    def run(self, text: str, params: dict[str, Any]) -> Outcome: ...


class Neo4jRunner:
    """Statements through one driver session (READ transactions unless ``write``)."""

    refused_words: Sequence[str] = ()

    def __init__(self, session: Any, *, write: bool) -> None:
        self.session = session
        self.write = write

    def run(self, text: str, params: dict[str, Any]) -> Outcome:
        from neo4j.exceptions import Neo4jError

        try:
            keys, rows, summary = run_statement(self.session, text, params, write=self.write)
        except Neo4jError as exc:
            raise StatementFailed(one_line(exc.message or str(exc))) from None
        counters = getattr(summary, "counters", None)
        changed = counters is not None and counters.contains_updates
        return Outcome(keys, rows, str(counters) if changed else "")


class EmbeddedRunner:
    """Statements over the embedded store, through the embedded Cypher engine."""

    def __init__(self, store: Any, clock: Clock, limits: Limits | None = None) -> None:
        from .cypher_embedded import ENGINE_WRITE_WORDS, EmbeddedCypher

        self.cypher = EmbeddedCypher(store, clock=clock, limits=limits)
        self.refused_words: Sequence[str] = ENGINE_WRITE_WORDS

    def run(self, text: str, params: dict[str, Any]) -> Outcome:
        from .cypher_embedded import EngineError

        try:
            keys, rows = self.cypher.run(text, params)
        except EngineError as exc:
            raise StatementFailed(str(exc)) from None
        except ValueError as exc:  # a bad $group_id
            raise StatementFailed(one_line(str(exc))) from None
        return Outcome(keys, rows)


def one_line(message: str) -> str:
    return (message.strip().splitlines() or ["failed"])[0]


@contextmanager
def open_runner(
    target: Any, *, write: bool, database: str | None, clock: Clock, limits: Limits | None = None
) -> Iterator[Runner]:
    """The runner for ``target``: a Neo4jStore, a TemporalGraph, a neo4j driver, or any other store
    (explored through the embedded engine, each statement within ``limits``). Raises
    :class:`StatementFailed` for ``write`` there."""
    driver, store_database = _driver_of(target)
    if driver is None:
        if write:
            raise StatementFailed(EMBEDDED_READ_ONLY)
        core = getattr(target, "core", None)
        runner = EmbeddedRunner(getattr(core, "store", None) or target, clock, limits)
        try:
            yield runner
        finally:
            runner.cypher.close()
        return
    import neo4j

    access = neo4j.WRITE_ACCESS if write else neo4j.READ_ACCESS
    with driver.session(database=database or store_database, default_access_mode=access) as session:
        yield Neo4jRunner(session, write=write)
