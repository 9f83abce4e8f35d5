"""temporal-graph: a bi-temporal knowledge-graph memory for LLM agents."""

from .client import TemporalGraph
from .model import Answer, Diff, Entity, Episode, Fact, ImportReport, IngestResult, Path, SearchHit
from .ontology import Ontology

__all__ = [
    "Answer",
    "Diff",
    "Entity",
    "Episode",
    "Fact",
    "ImportReport",
    "IngestResult",
    "Ontology",
    "Path",
    "SearchHit",
    "TemporalGraph",
]
__version__ = "0.1.0"
