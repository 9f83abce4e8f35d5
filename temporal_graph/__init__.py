"""temporal-graph: a bi-temporal knowledge-graph memory for LLM agents."""

from .client import TemporalGraph
from .interfaces.async_client import AsyncTemporalGraph
from .model import (
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
from .ontology import Ontology

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
