"""temporal-graph: a bi-temporal knowledge-graph memory for LLM agents."""

from .client import TemporalGraph
from .core.model import (
    Answer,
    BulkError,
    BulkReport,
    Diff,
    Entity,
    EntitySummary,
    Episode,
    Fact,
    FactInput,
    ImportReport,
    IngestResult,
    Path,
    SearchHit,
)
from .core.ontology import Ontology
from .interfaces.async_client import AsyncTemporalGraph

__all__ = [
    "Answer",
    "AsyncTemporalGraph",
    "BulkError",
    "BulkReport",
    "Diff",
    "Entity",
    "EntitySummary",
    "Episode",
    "Fact",
    "FactInput",
    "ImportReport",
    "IngestResult",
    "Ontology",
    "Path",
    "SearchHit",
    "TemporalGraph",
]
__version__ = "0.1.0"
