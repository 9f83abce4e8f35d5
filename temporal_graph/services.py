"""Plug-in lookup for the layers built on top of the core.

``ingestion`` and ``queries`` import ``temporal_graph``; the core must not import them back. They
declare their entry points in ``pyproject.toml`` (group ``temporal_graph.services``) and the
client finds them here by name, the way pytest finds its plug-ins.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from importlib.metadata import entry_points
from typing import Any

from .errors import TemporalGraphError

GROUP = "temporal_graph.services"


@cache
def get(name: str) -> Callable[..., Any]:
    found = entry_points(group=GROUP, name=name)
    if not found:
        raise TemporalGraphError(
            f"no '{name}' service is installed; install the package (pip install -e .) so its "
            f"ingestion and queries plug-ins are registered"
        )
    return next(iter(found)).load()
