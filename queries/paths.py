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
from collections.abc import Iterable
from datetime import datetime
from typing import Any

from temporal_graph.errors import InvalidInput
from temporal_graph.intervals import Interval, common, intersection, valid_interval
from temporal_graph.model import Fact, Path
from temporal_graph.names import check_group, normalize_relation
from temporal_graph.stores.protocol import FactQuery
from temporal_graph.times import TimeLike, to_utc


def paths(
    tg: Any,
    start: str,
    *,
    end: str | None = None,
    relations: Iterable[str] | None = None,
    max_hops: int = 3,
    as_of: TimeLike | None = None,
    group_id: str = "default",
    direction: str = "out",
    overlapping: bool = False,
    during: tuple[TimeLike, TimeLike] | None = None,
    limit: int = 100,
    **options: Any,
) -> list[Path]:
    """Chains of facts from ``start`` (to ``end`` when given), shortest first.

    ``direction``: ``"out"`` (subject to object, the default) or ``"any"``.
    ``overlapping`` / ``during``: see the module docstring; they replace ``as_of``.
    """
    if options:
        raise InvalidInput(f"paths: unknown option(s) {', '.join(sorted(options))}")
    check_group(group_id)
    if not isinstance(max_hops, int) or max_hops < 1:
        raise InvalidInput(f"max_hops: {max_hops!r} must be a positive whole number")
    if not isinstance(limit, int) or limit < 1:
        raise InvalidInput(f"limit: {limit!r} must be a positive whole number")
    if direction not in ("out", "any"):
        raise InvalidInput(f"direction: {direction!r} is not 'out' or 'any'")
    window: Interval | None = None
    if during is not None:
        try:
            t1, t2 = during
        except (TypeError, ValueError):
            raise InvalidInput(f"during: {during!r} must be a pair (start, end)") from None
        window = (tg.time(t1, "during start"), tg.time(t2, "during end"))
        if window[1] <= window[0]:  # type: ignore[operator]
            raise InvalidInput(f"during: end {window[1]} must be after start {window[0]}")
        overlapping = True
    if overlapping and as_of is not None:
        raise InvalidInput("paths: as_of asks for one moment; overlapping/during ask for a shared one")

    source = tg.find_entity(start, group_id)
    target = tg.find_entity(end, group_id) if end is not None else None
    if source is None or (end is not None and target is None):
        return []
    wanted = {normalize_relation(r) for r in relations} if relations is not None else None

    moment = None if overlapping else (tg.time(as_of, "as_of") if as_of is not None else to_utc(tg.clock()))
    adjacency: dict[str, list[tuple[Fact, str]]] = {}

    def edges(node: str) -> list[tuple[Fact, str]]:
        """The hops out of ``node``, read from the store on first visit (the graph is never
        loaded whole: a walk touches only the neighbourhoods it reaches)."""
        if node not in adjacency:
            rows = tg.store.facts(FactQuery(group_id, subject_id=node, valid_time=moment))
            if direction == "any":
                rows += [f for f in tg.store.facts(FactQuery(group_id, object_id=node, valid_time=moment))
                         if f.subject_id != node]
            if wanted is not None:
                rows = [f for f in rows if f.relation in wanted]
            if window is not None:
                rows = [f for f in rows if intersection(valid_interval(f), window) is not None]
            adjacency[node] = [(f, f.object_id if f.subject_id == node else f.subject_id)
                               for f in sorted(rows, key=_edge_order)]
        return adjacency[node]

    found: list[Path] = []
    # Breadth first, so chains come out shortest first; each state carries the entities visited
    # and, when overlapping, the time all its hops share.
    queue: deque[tuple[str, tuple[Fact, ...], frozenset[str], Interval]] = deque(
        [(source.id, (), frozenset([source.id]), window or (None, None))]
    )
    while queue and len(found) < limit:
        node, hops, seen, shared = queue.popleft()
        for fact, nxt in edges(node):
            if nxt in seen:
                continue
            together = shared
            if overlapping:
                together = intersection(shared, valid_interval(fact))
                if together is None:
                    continue
            chain = (*hops, fact)
            if target is None or nxt == target.id:
                found.append(Path(hops=list(chain)))
                if len(found) >= limit:
                    break
            if len(chain) < max_hops and (target is None or nxt != target.id):
                queue.append((nxt, chain, seen | {nxt}, together))
    return found


def overlapping_paths(
    tg: Any,
    start: str,
    *,
    end: str | None = None,
    relations: Iterable[str] | None = None,
    max_hops: int = 3,
    during: tuple[TimeLike, TimeLike] | None = None,
    direction: str = "any",
    group_id: str = "default",
    limit: int = 100,
) -> list[Path]:
    """Chains whose hops all held at a common moment (within ``during`` when given).

    The same as ``tg.paths(..., overlapping=True)`` but walking facts in both directions by
    default, since "who managed Alice while she lived in Berlin" joins two facts about Alice.
    """
    return paths(
        tg,
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
