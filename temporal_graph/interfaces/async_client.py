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
import inspect
from collections import deque
from collections.abc import AsyncIterator, Callable, Coroutine, Generator, Iterable, Sequence
from concurrent.futures import ThreadPoolExecutor
from contextlib import asynccontextmanager
from pathlib import Path as FilePath
from typing import Any, Concatenate, Literal, ParamSpec, TypeVar

from ..client import TemporalGraph
from ..core import DEFAULT_GROUP

T = TypeVar("T")
R = TypeVar("R")
P = ParamSpec("P")


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


Admission = Literal["read", "write", "extract"]


def _mirror(
    sync: Callable[Concatenate[TemporalGraph, P], R],
    admission: Admission = "read",
    *,
    prepare: Callable[[dict[str, Any]], None] | None = None,
) -> Callable[Concatenate[AsyncTemporalGraph, P], Coroutine[Any, Any, R]]:
    """``sync`` as a coroutine method with its very parameters (type checkers see them through
    ``P``), admitted as a read, a write or an extraction of the ``group_id`` it is called with
    (``None``: of every group, alone). ``prepare`` adjusts the arguments given, on the event loop."""
    signature = inspect.signature(sync)
    assert "group_id" in signature.parameters, sync  # the admission is per group

    async def call(self: AsyncTemporalGraph, *args: P.args, **kwargs: P.kwargs) -> R:
        bound = signature.bind(self.sync, *args, **kwargs)  # a wrong argument raises here, as sync would
        if prepare is not None:
            prepare(bound.arguments)
        bound.apply_defaults()
        rest, options = bound.args[1:], bound.kwargs
        return await self.run(lambda g: sync(g, *rest, **options), group_id=bound.arguments["group_id"],
                              write=admission != "read", extracts=admission == "extract")

    functools.update_wrapper(call, sync)  # name, and the signature (``__wrapped__``) for help()
    call.__module__, call.__qualname__ = __name__, f"AsyncTemporalGraph.{sync.__name__}"
    call.__doc__ = f"Coroutine of :meth:`TemporalGraph.{sync.__name__}`.\n\n{inspect.getdoc(sync) or ''}"
    return call


def _read_items(arguments: dict[str, Any]) -> None:
    """Read the facts' iterable here, on the loop, not in the worker thread."""
    arguments["facts"] = list(arguments["facts"])


def _quiet(arguments: dict[str, Any]) -> None:
    """No progress bar unless asked for: an async program's terminal is not the import's."""
    arguments.setdefault("progress", False)


def _listed_relations(arguments: dict[str, Any]) -> None:
    relations = arguments.get("relations")
    if isinstance(relations, Iterable) and not isinstance(relations, str):
        arguments["relations"] = list(relations)


class AsyncTemporalGraph:
    """The public methods of :class:`TemporalGraph`, as coroutines with the same parameters, safe to
    use concurrently from one event loop (the settings and :meth:`TemporalGraph.moment` are read on
    :attr:`sync`). Wrap an open memory, or use :meth:`open` / :meth:`connect`."""

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

    # -- the methods of TemporalGraph, as coroutines (signatures and types are the sync ones) ---------
    add_fact = _mirror(TemporalGraph.add_fact, "write")
    add_facts = _mirror(TemporalGraph.add_facts, "write", prepare=_read_items)
    end_fact = _mirror(TemporalGraph.end_fact, "write")
    retract_fact = _mirror(TemporalGraph.retract_fact, "write")
    add_episode = _mirror(TemporalGraph.add_episode, "extract")
    supersede = _mirror(TemporalGraph.supersede, "extract")
    import_file = _mirror(TemporalGraph.import_file, "extract", prepare=_quiet)
    import_facts = _mirror(TemporalGraph.import_facts, "write")
    alias_speaker = _mirror(TemporalGraph.alias_speaker, "write")
    reindex = _mirror(TemporalGraph.reindex, "write")
    refresh_summaries = _mirror(TemporalGraph.refresh_summaries, "write")
    reflect = _mirror(TemporalGraph.reflect, "write")
    forget = _mirror(TemporalGraph.forget, "write")
    retract_episode = _mirror(TemporalGraph.retract_episode, "write")
    retract_entity = _mirror(TemporalGraph.retract_entity, "write")
    restore_entity = _mirror(TemporalGraph.restore_entity, "write")
    erase_episode = _mirror(TemporalGraph.erase_episode, "write")
    erase_entity = _mirror(TemporalGraph.erase_entity, "write")
    prune = _mirror(TemporalGraph.prune, "write")
    erasures = _mirror(TemporalGraph.erasures)

    now = _mirror(TemporalGraph.now)
    as_of = _mirror(TemporalGraph.as_of)
    history = _mirror(TemporalGraph.history)
    audit = _mirror(TemporalGraph.audit)
    diff = _mirror(TemporalGraph.diff)
    paths = _mirror(TemporalGraph.paths, prepare=_listed_relations)
    search = _mirror(TemporalGraph.search)
    context = _mirror(TemporalGraph.context)
    ask = _mirror(TemporalGraph.ask)
    snapshot = _mirror(TemporalGraph.snapshot)
    export = _mirror(TemporalGraph.export)
    learned_after = _mirror(TemporalGraph.learned_after)
    summary = _mirror(TemporalGraph.summary)
    insights = _mirror(TemporalGraph.insights)
    find_entity = _mirror(TemporalGraph.find_entity)
    similar_names = _mirror(TemporalGraph.similar_names)
    copy_to = _mirror(TemporalGraph.copy_to)  # a read of this memory (of every group with None)

    async def groups(self) -> list[str]:
        """Coroutine of :meth:`TemporalGraph.groups` (a read of every group)."""
        return await self.run(lambda g: g.groups(), group_id=None)

    async def scrub(self) -> None:
        """Coroutine of :meth:`TemporalGraph.scrub` (a write of every group: it rewrites the file)."""
        await self.run(lambda g: g.scrub(), group_id=None, write=True)


__all__: Sequence[str] = ["AsyncTemporalGraph"]
