"""temporal-graph: a bi-temporal knowledge-graph memory for LLM agents."""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from .core.backtest import LearnedAfter
from .core.mask_policy import MaskingPolicy
from .core.model import (
    Answer,
    BulkError,
    BulkReport,
    Diff,
    Entity,
    EntityRetraction,
    EntitySummary,
    Episode,
    EpisodeRetraction,
    ErasureReport,
    Fact,
    FactInput,
    ImportReport,
    IngestResult,
    Insight,
    Path,
    PruneReport,
    Reflection,
    SearchHit,
    SearchResults,
    Supersession,
)
from .core.ontology import Ontology
from .core.receipts import ErasureReceipt, Forgotten, erasure_digest

if TYPE_CHECKING:
    from .client import TemporalGraph
    from .interfaces.async_client import AsyncTemporalGraph

__all__ = [
    "Answer",
    "AsyncTemporalGraph",
    "BulkError",
    "BulkReport",
    "Diff",
    "Entity",
    "EntityRetraction",
    "EntitySummary",
    "Episode",
    "EpisodeRetraction",
    "ErasureReceipt",
    "ErasureReport",
    "Fact",
    "FactInput",
    "Forgotten",
    "ImportReport",
    "IngestResult",
    "Insight",
    "LearnedAfter",
    "MaskingPolicy",
    "Ontology",
    "Path",
    "PruneReport",
    "Reflection",
    "SearchHit",
    "SearchResults",
    "Supersession",
    "TemporalGraph",
    "erasure_digest",
]
__version__ = "0.1.0"

# The facade and the async client sit on top of the layers (``ingestion``, ``queries``), which import
# this package's core: they are loaded on first use, so ``import queries.search`` may come first and
# the facade may import the layers at its top.
_ON_TOP = {"TemporalGraph": ".client", "AsyncTemporalGraph": ".interfaces.async_client"}


def __getattr__(name: str) -> Any:
    if name not in _ON_TOP:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(_ON_TOP[name], __name__), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *_ON_TOP})
