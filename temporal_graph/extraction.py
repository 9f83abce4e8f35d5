"""Public home of the extraction types (they live in :mod:`temporal_graph.core.extraction`)."""

from .core.extraction import ExtractedEntity, ExtractedFact, Extraction, Extractor, StatementKind

__all__ = ["ExtractedEntity", "ExtractedFact", "Extraction", "Extractor", "StatementKind"]
