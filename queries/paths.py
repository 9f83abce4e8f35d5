"""Multi-hop traversal: chains of facts from one entity, shortest first.

Two questions, one function:

- **At one time** (default): every hop is a fact valid at ``as_of`` (default now), as currently
  believed. An expired row (a revised or retracted belief) or a fact whose valid interval does
  not cover ``as_of`` (ended before, or not started yet) is never traversed.
- **Overlapping in time** (``overlapping=True``, or ``during=(t1, t2)``): hops may come from any
  valid time, but all hops of a chain must have held together at some moment — their valid
  intervals share a common instant (and, with ``during``, that shared time meets ``[t1, t2)``).
  "Who managed Alice while she lived in Berlin":
  ``tg.paths("Berlin", end=None, direction="any", overlapping=True, relations=["LIVES_IN", "MANAGED_BY"])``
  or :func:`overlapping_paths`.

Hops follow facts from subject to object by default; ``direction="any"`` also walks a fact
backwards (object to subject), so consecutive hops then share an entity rather than chaining
object to subject. A chain never visits an entity twice. Each hop is a :class:`Fact` carrying its
provenance (``episode_ids``). Results are ordered by length, then by the names along the way, and
capped by ``limit`` (default 100) so a dense graph cannot explode the answer.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace
from datetime import datetime

from temporal_graph.core import DEFAULT_GROUP, Core
from temporal_graph.core.errors import InvalidInput
from temporal_graph.core.intervals import ALWAYS, Interval, common, intersection, valid_interval
from temporal_graph.core.limits import HOPS, RESULTS, whole_number
from temporal_graph.core.model import Fact, Path
from temporal_graph.core.names import check_group, normalize_relation
from temporal_graph.core.stores.protocol import FactQuery
from temporal_graph.core.time import TimeLike

Hop = tuple[Fact, str]  # a fact and the entity it leads to


def paths(
    core: Core,
    start: str,
    *,
    end: str | None = None,
    relations: Iterable[str] | None = None,
    max_hops: int = 3,
    as_of: TimeLike | None = None,
    group_id: str = DEFAULT_GROUP,
    direction: str = "out",
    overlapping: bool = False,
    during: tuple[TimeLike, TimeLike] | None = None,
    limit: int = 100,
    known_at: TimeLike | None = None,
) -> list[Path]:
    """Chains of facts from ``start`` (to ``end`` when given), shortest first, every hop as
    believed at ``known_at`` (default now).

    ``direction``: ``"out"`` (subject to object, the default) or ``"any"``.
    ``overlapping`` / ``during``: see the module docstring; they replace ``as_of``.
    """
    check_group(group_id)
    whole_number(max_hops, "max_hops", HOPS)
    whole_number(limit, "limit", RESULTS)
    if direction not in ("out", "any"):
        raise InvalidInput(f"direction: {direction!r} is not 'out' or 'any'")
    wanted = _relations(relations)
    window = _window(core, during)
    overlapping = overlapping or window is not None
    if overlapping and as_of is not None:
        raise InvalidInput("paths: as_of asks for one moment; overlapping/during ask for a shared one")

    source = core.find_entity(start, group_id)
    target = core.find_entity(end, group_id) if end is not None else None
    if source is None or (end is not None and target is None):
        return []
    moment = None if overlapping else core.time_or_now(as_of, "as_of")
    known = core.optional_time(known_at, "known_at")
    edges = _Edges(core, group_id, moment, direction, wanted, window, known)
    return _walk(source.id, target.id if target is not None else None, edges, max_hops=max_hops, limit=limit,
                 overlapping=overlapping, window=window or ALWAYS)


def _relations(relations: Iterable[str] | None) -> set[str] | None:
    if relations is None:
        return None
    if isinstance(relations, str) or not isinstance(relations, Iterable):
        raise InvalidInput(f"relations: expected a list of relation names, got {relations!r}"[:200])
    return {normalize_relation(r) for r in relations}


def _window(core: Core, during: tuple[TimeLike, TimeLike] | None) -> Interval | None:
    """``during`` read as a non-empty interval, or None."""
    if during is None:
        return None
    try:
        t1, t2 = during
    except (TypeError, ValueError):
        raise InvalidInput(f"during: {during!r} must be a pair (start, end)") from None
    lo, hi = core.time(t1, "during start"), core.time(t2, "during end")
    if hi <= lo:
        raise InvalidInput(f"during: end {hi} must be after start {lo}")
    return (lo, hi)


@dataclass
class _Edges:
    """The hops out of an entity, read from the store on first visit (the graph is never loaded
    whole: a walk touches only the neighbourhoods it reaches)."""

    core: Core
    group_id: str
    moment: datetime | None  # hops valid at this time; None: any valid time
    direction: str
    wanted: set[str] | None
    window: Interval | None
    known_at: datetime | None = None  # as believed then; None: now
    _seen: dict[str, list[Hop]] = field(default_factory=dict)

    def __call__(self, node: str) -> list[Hop]:
        if node not in self._seen:
            self._seen[node] = [(f, f.object_id if f.subject_id == node else f.subject_id)
                                for f in sorted(self._read(node), key=_edge_order)]
        return self._seen[node]

    def _read(self, node: str) -> list[Fact]:
        store = self.core.store
        around = FactQuery(self.group_id, subject_id=node, valid_time=self.moment, known_at=self.known_at)
        rows = store.facts(around)
        if self.direction == "any":
            rows += [f for f in store.facts(replace(around, subject_id=None, object_id=node))
                     if f.subject_id != node]
        if self.wanted is not None:
            rows = [f for f in rows if f.relation in self.wanted]
        if self.window is not None:
            rows = [f for f in rows if intersection(valid_interval(f), self.window) is not None]
        return rows


def _walk(
    source: str, target: str | None, edges: Callable[[str], list[Hop]], *, max_hops: int, limit: int,
    overlapping: bool, window: Interval,
) -> list[Path]:
    """Breadth first, so chains come out shortest first; each state carries the entities visited
    and, when ``overlapping``, the time all its hops share (within ``window``)."""
    found: list[Path] = []
    queue: deque[tuple[str, tuple[Fact, ...], frozenset[str], Interval]] = deque(
        [(source, (), frozenset([source]), window)]
    )
    while queue and len(found) < limit:
        node, hops, seen, shared = queue.popleft()
        for fact, nxt in edges(node):
            if nxt in seen:
                continue
            together = shared
            if overlapping:
                met = intersection(shared, valid_interval(fact))
                if met is None:
                    continue
                together = met
            chain = (*hops, fact)
            if target is None or nxt == target:
                found.append(Path(hops=list(chain)))
                if len(found) >= limit:
                    break
            if len(chain) < max_hops and (target is None or nxt != target):
                queue.append((nxt, chain, seen | {nxt}, together))
    return found


def overlapping_paths(
    core: Core,
    start: str,
    *,
    end: str | None = None,
    relations: Iterable[str] | None = None,
    max_hops: int = 3,
    during: tuple[TimeLike, TimeLike] | None = None,
    direction: str = "any",
    group_id: str = DEFAULT_GROUP,
    limit: int = 100,
) -> list[Path]:
    """Chains whose hops all held at a common moment (within ``during`` when given).

    The same as ``tg.paths(..., overlapping=True)`` but walking facts in both directions by
    default, since "who managed Alice while she lived in Berlin" joins two facts about Alice.
    """
    return paths(
        core,
        start,
        end=end,
        relations=relations,
        max_hops=max_hops,
        group_id=group_id,
        direction=direction,
        overlapping=True,
        during=during,
        limit=limit,
    )


def shared_interval(path: Path) -> Interval | None:
    """The valid time all hops of ``path`` share, or None when they never held together."""
    return common([valid_interval(f) for f in path.hops])


def _edge_order(f: Fact) -> tuple:
    return (
        f.relation,
        f.object.casefold(),
        f.subject.casefold(),
        f.valid_at is not None,
        f.valid_at or datetime.min,
        f.id,
    )
