"""``AsyncTemporalGraph``: the memory for asyncio code (agent frameworks, the MCP server).

Every call runs the synchronous engine in a worker thread, so the event loop never waits on the
database, the embedding model or an LLM. Calls on one group are admitted in the order they were
made: reads run together, a write runs alone, and a call sees every write made before it and none
made after it, so ``asyncio.gather`` of mixed calls gives what the same calls give one by one.
Groups do not wait for each other, except that extraction (``add_episode``, ``import_file``) runs
one call at a time: the engine's entity resolver keeps per-batch state shared by all groups.

    async with AsyncTemporalGraph.open("memory.db") as memory:
        await memory.add_fact("Alice", "lives in", "Paris", valid_at="2020")
        facts = await memory.now("Alice")
"""

from __future__ import annotations

import asyncio
import contextvars
import functools
from collections import deque
from collections.abc import AsyncIterator, Awaitable, Callable, Generator, Iterable, Sequence
from concurrent.futures import ThreadPoolExecutor
from contextlib import asynccontextmanager
from pathlib import Path as FilePath
from typing import Any, TypeVar

import networkx as nx

from ..client import TemporalGraph
from ..core import DEFAULT_GROUP
from ..core.model import (
    Answer,
    BulkReport,
    Diff,
    Entity,
    EntitySummary,
    Fact,
    FactInput,
    ImportReport,
    IngestResult,
    Path,
    SearchHit,
)
from ..core.time import TimeLike

T = TypeVar("T")


class _Gate:
    """A readers-writer lock that admits in arrival order: readers together, a writer alone, and
    nobody overtakes a waiting writer (so every call sees exactly the writes made before it)."""

    def __init__(self) -> None:
        self._readers = 0
        self._writing = False
        self._waiting: deque[tuple[bool, asyncio.Future[None]]] = deque()

    def _fits(self, write: bool) -> bool:
        return not self._writing and (not write or self._readers == 0)

    def _enter(self, write: bool) -> None:
        if write:
            self._writing = True
        else:
            self._readers += 1

    def _leave(self, write: bool) -> None:
        if write:
            self._writing = False
        else:
            self._readers -= 1
        self._admit()

    def _admit(self) -> None:
        while self._waiting and self._fits(self._waiting[0][0]):
            write, ticket = self._waiting.popleft()
            if ticket.cancelled():
                continue
            self._enter(write)
            ticket.set_result(None)

    @asynccontextmanager
    async def hold(self, write: bool) -> AsyncIterator[None]:
        if self._waiting or not self._fits(write):
            ticket: asyncio.Future[None] = asyncio.get_running_loop().create_future()
            entry = (write, ticket)
            self._waiting.append(entry)
            try:
                await ticket
            except asyncio.CancelledError:
                if ticket.done() and not ticket.cancelled():  # admitted as it was cancelled
                    self._leave(write)
                elif entry in self._waiting:
                    self._waiting.remove(entry)
                    self._admit()
                raise
        else:
            self._enter(write)
        try:
            yield
        finally:
            self._leave(write)


class _Opening:
    """What :meth:`AsyncTemporalGraph.open` returns: await it for the memory, or use it as
    ``async with`` to have the memory closed at the end."""

    def __init__(self, make: Callable[[], TemporalGraph], max_workers: int | None) -> None:
        self._make, self._max_workers = make, max_workers
        self._memory: AsyncTemporalGraph | None = None

    async def _open(self) -> AsyncTemporalGraph:
        graph = await asyncio.to_thread(self._make)  # opening may touch disk or the network
        return AsyncTemporalGraph(graph, max_workers=self._max_workers)

    def __await__(self) -> Generator[Any, None, AsyncTemporalGraph]:
        return self._open().__await__()

    async def __aenter__(self) -> AsyncTemporalGraph:
        self._memory = await self._open()
        return self._memory

    async def __aexit__(self, *exc: object) -> None:
        if self._memory is not None:
            await self._memory.aclose()


class AsyncTemporalGraph:
    """The public methods of :class:`TemporalGraph`, as coroutines, safe to use concurrently from
    one event loop. Wrap an open memory, or use :meth:`open` / :meth:`connect`."""

    def __init__(self, graph: TemporalGraph, *, max_workers: int | None = None) -> None:
        self.sync = graph  # the synchronous memory underneath (do not use it while calls are running)
        self._executor = ThreadPoolExecutor(max_workers=max_workers, thread_name_prefix="tgraph")
        self._everything = _Gate()  # shared by calls on one group; held alone by calls on all groups
        self._groups: dict[str, _Gate] = {}
        self._extraction = asyncio.Lock()
        self._closed = False

    # -- construction ------------------------------------------------------------------------------
    @classmethod
    def open(cls, path: str | FilePath = "memory.db", *, max_workers: int | None = None,
             **options: Any) -> _Opening:
        """The embedded store (see :meth:`TemporalGraph.open`): ``await`` it or ``async with`` it."""
        return _Opening(functools.partial(TemporalGraph.open, path, **options), max_workers)

    @classmethod
    def connect(cls, uri: str, *, auth: tuple[str, str] | None = None, database: str | None = None,
                max_workers: int | None = None, **options: Any) -> _Opening:
        """A Neo4j database (see :meth:`TemporalGraph.connect`): ``await`` it or ``async with`` it."""
        make = functools.partial(TemporalGraph.connect, uri, auth=auth, database=database, **options)
        return _Opening(make, max_workers)

    async def aclose(self) -> None:
        """Wait for running calls, then close the store (a second call does nothing)."""
        async with self._everything.hold(True):
            if self._closed:
                return
            await self._in_thread(self.sync.close)
            self._closed = True
        self._executor.shutdown(wait=False)

    async def __aenter__(self) -> AsyncTemporalGraph:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()

    # -- running -------------------------------------------------------------------------------------
    async def run(self, fn: Callable[[TemporalGraph], T], *, group_id: str | None = DEFAULT_GROUP,
                  write: bool = False, extracts: bool = False) -> T:
        """Run ``fn(memory)`` in a worker thread, admitted like a read or a write of ``group_id``
        (``None``: of every group, alone); ``extracts``: it runs extraction, one call at a time.
        For calls the methods below do not cover (the MCP server runs its tools through it)."""
        async with self._admitted(group_id, write or extracts):
            if not extracts:
                return await self._in_thread(fn, self.sync)
            # The group's place in line first, then the extraction turn: a later call on the same
            # group must still wait for this one, whatever other groups are extracting.
            async with self._extraction:
                return await self._in_thread(fn, self.sync)

    async def _extract(self, fn: Callable[[TemporalGraph], T], group_id: str | None) -> T:
        return await self.run(fn, group_id=group_id, write=True, extracts=True)

    @asynccontextmanager
    async def _admitted(self, group_id: str | None, write: bool) -> AsyncIterator[None]:
        if group_id is None:
            async with self._everything.hold(True):
                yield
            return
        gate = self._groups.setdefault(group_id, _Gate())
        async with self._everything.hold(False), gate.hold(write):
            yield

    async def _in_thread(self, fn: Callable[..., T], *args: Any) -> T:
        context = contextvars.copy_context()
        running = asyncio.get_running_loop().run_in_executor(self._executor, context.run, fn, *args)
        try:
            return await asyncio.shield(running)
        except asyncio.CancelledError:
            # The thread cannot be stopped: keep the caller's place until it has finished, so
            # a cancelled write never overlaps the next call on its group.
            await asyncio.wait([running])
            raise

    def _read(self, group_id: str, fn: Callable[..., T], *args: Any, **kwargs: Any) -> Awaitable[T]:
        return self.run(lambda g: fn(g, *args, group_id=group_id, **kwargs), group_id=group_id)

    def _write(self, group_id: str, fn: Callable[..., T], *args: Any, **kwargs: Any) -> Awaitable[T]:
        return self.run(lambda g: fn(g, *args, group_id=group_id, **kwargs), group_id=group_id, write=True)

    # -- writing -------------------------------------------------------------------------------------
    async def add_fact(self, subject: str, relation: str, object: str, *, group_id: str = DEFAULT_GROUP,
                       **options: Any) -> Fact:
        """See :meth:`TemporalGraph.add_fact` (``valid_at``, ``invalid_at``, ``text``, ...)."""
        return await self._write(group_id, TemporalGraph.add_fact, subject, relation, object, **options)

    async def add_facts(self, facts: Iterable[FactInput | Any], *, group_id: str = DEFAULT_GROUP,
                        **options: Any) -> BulkReport:
        items = list(facts)  # read the iterable here, not in the worker thread
        return await self._write(group_id, TemporalGraph.add_facts, items, **options)

    async def end_fact(self, subject: str, relation: str, object: str | None = None, *, at: TimeLike,
                       group_id: str = DEFAULT_GROUP) -> list[Fact]:
        return await self._write(group_id, TemporalGraph.end_fact, subject, relation, object, at=at)

    async def retract_fact(self, subject: str, relation: str, object: str, *,
                           group_id: str = DEFAULT_GROUP) -> list[Fact]:
        return await self._write(group_id, TemporalGraph.retract_fact, subject, relation, object)

    async def add_episode(self, content: str, *, reference_time: TimeLike, group_id: str = DEFAULT_GROUP,
                          **options: Any) -> IngestResult:
        """See :meth:`TemporalGraph.add_episode` (``speaker``, ``source``, ``source_id``)."""
        def add(g: TemporalGraph) -> IngestResult:
            return g.add_episode(content, reference_time=reference_time, group_id=group_id, **options)

        return await self._extract(add, group_id)

    async def import_file(self, path: str | FilePath, *, group_id: str | None = None,
                          progress: bool = False, **options: Any) -> ImportReport:
        """See :meth:`TemporalGraph.import_file`; without ``group_id`` the file names its groups,
        so the import runs alone."""
        return await self._extract(
            lambda g: g.import_file(path, group_id=group_id, progress=progress, **options), group_id
        )

    async def reindex(self, group_id: str | None = None, **options: Any) -> int:
        return await self.run(lambda g: g.reindex(group_id, **options), group_id=group_id, write=True)

    async def forget(self, group_id: str) -> int:
        return await self.run(lambda g: g.forget(group_id), group_id=group_id, write=True)

    # -- reading -------------------------------------------------------------------------------------
    async def now(self, subject: str | None = None, relation: str | None = None, object: str | None = None, *,
                  group_id: str = DEFAULT_GROUP) -> list[Fact]:
        return await self._read(group_id, TemporalGraph.now, subject, relation, object)

    async def as_of(self, valid_time: TimeLike, *, known_at: TimeLike | None = None,
                    subject: str | None = None, relation: str | None = None, object: str | None = None,
                    group_id: str = DEFAULT_GROUP) -> list[Fact]:
        return await self._read(group_id, TemporalGraph.as_of, valid_time, known_at=known_at, subject=subject,
                                relation=relation, object=object)

    async def history(self, subject: str, relation: str | None = None, *,
                      group_id: str = DEFAULT_GROUP) -> list[Fact]:
        return await self._read(group_id, TemporalGraph.history, subject, relation)

    async def audit(self, fact_id: str, *, group_id: str = DEFAULT_GROUP) -> list[Fact]:
        return await self._read(group_id, TemporalGraph.audit, fact_id)

    async def diff(self, start: TimeLike, end: TimeLike, *, subject: str | None = None,
                   group_id: str = DEFAULT_GROUP) -> Diff:
        return await self._read(group_id, TemporalGraph.diff, start, end, subject=subject)

    async def paths(self, start: str, *, group_id: str = DEFAULT_GROUP, **options: Any) -> list[Path]:
        """See :meth:`TemporalGraph.paths` (``end``, ``relations``, ``max_hops``, ``as_of``, ...)."""
        if isinstance(options.get("relations"), Iterable) and not isinstance(options["relations"], str):
            options["relations"] = list(options["relations"])
        return await self._read(group_id, TemporalGraph.paths, start, **options)

    async def search(self, query: str, *, group_id: str = DEFAULT_GROUP, **options: Any) -> list[SearchHit]:
        """See :meth:`TemporalGraph.search` (``as_of``, ``limit``, ...)."""
        return await self._read(group_id, TemporalGraph.search, query, **options)

    async def context(self, query: str, *, group_id: str = DEFAULT_GROUP, **options: Any) -> str:
        """See :meth:`TemporalGraph.context` (``budget_tokens``, ``as_of``)."""
        return await self._read(group_id, TemporalGraph.context, query, **options)

    async def ask(self, question: str, *, reference_time: TimeLike | None = None,
                  group_id: str = DEFAULT_GROUP) -> Answer:
        return await self._read(group_id, TemporalGraph.ask, question, reference_time=reference_time)

    async def snapshot(self, as_of: TimeLike | None = None, known_at: TimeLike | None = None, *,
                       group_id: str = DEFAULT_GROUP) -> nx.MultiDiGraph:
        return await self._read(group_id, TemporalGraph.snapshot, as_of, known_at)

    async def export(self, group_id: str = DEFAULT_GROUP) -> dict[str, Any]:
        return await self.run(lambda g: g.export(group_id), group_id=group_id)

    async def summary(self, entity: str, *, known_at: TimeLike | None = None,
                      group_id: str = DEFAULT_GROUP) -> EntitySummary | None:
        return await self._read(group_id, TemporalGraph.summary, entity, known_at=known_at)

    async def find_entity(self, name: str, group_id: str = DEFAULT_GROUP) -> Entity | None:
        return await self.run(lambda g: g.find_entity(name, group_id), group_id=group_id)


__all__: Sequence[str] = ["AsyncTemporalGraph"]
