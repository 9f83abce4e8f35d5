"""Cypher on the embedded store: ``tgraph cypher`` without Neo4j.

The group is read through the store protocol into the Neo4j store's graph model (:mod:`.graph`),
loaded into an in-memory LadybugDB database (:mod:`.ladybug_engine`), and each statement is
rewritten where LadybugDB's Cypher differs from Neo4j's (:mod:`.dialect`). :mod:`.session` keeps
the loaded group in step with the store; statements run within a time and a memory limit
(:class:`Limits`). The engine was chosen by measurement against
grand-cypher and OCG (``benchmarks/cypher_engines.py``, figures in the README).
"""

from .ladybug_engine import EngineError, Limits
from .session import ENGINE_WRITE_WORDS, EmbeddedCypher

__all__ = ["ENGINE_WRITE_WORDS", "EmbeddedCypher", "EngineError", "Limits"]
