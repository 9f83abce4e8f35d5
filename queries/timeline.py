"""Neighbours on a timeline: the value before or after a given one ("Where did X live before
Porto?"). Pure functions of rows of one subject and relation.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Literal

from temporal_graph.core.model import Fact

_EARLIEST = datetime.min.replace(tzinfo=UTC)


def _start(f: Fact) -> datetime:
    return f.valid_at or _EARLIEST  # an unknown start: since forever


def neighbour(timeline: Sequence[Fact], object_id: str, side: Literal["before", "after"]) -> list[Fact]:
    """The value(s) of ``timeline`` held just ``before`` the first stretch of ``object_id`` began,
    or just ``after`` its last stretch began; [] when there is none (or ``object_id`` never held).
    Several rows only when they start at the same moment."""
    held = [f for f in timeline if f.object_id == object_id]
    if not held:
        return []
    others = [f for f in timeline if f.object_id != object_id]
    if side == "before":
        first = min(_start(f) for f in held)
        earlier = [f for f in others if _start(f) < first]
        nearest = max((_start(f) for f in earlier), default=None)
    else:
        last = max(_start(f) for f in held)
        later = [f for f in others if _start(f) > last]
        nearest = min((_start(f) for f in later), default=None)
    if nearest is None:
        return []
    return [f for f in others if _start(f) == nearest]
