"""Every Cypher statement the Neo4j store sends, one ``.cypher`` file each, and the lint harness.

``fragments/`` holds the parts statements include (``// include: fact_filters``), among them the
bi-temporal predicate, written once; ``console/`` holds the console's documented queries.

This folder is data. The loader the store uses is :mod:`temporal_graph.core.stores.statements`,
re-exported here for the linter and the tests; the console (``tgraph cypher``) is
:mod:`temporal_graph.interfaces.console`. Imports point one way, ``cypher`` -> ``temporal_graph``,
since the core must not depend on an outer folder (DESIGN.md's layering).
"""

from temporal_graph.core.stores.statements import (
    DIRECTORY,
    SAMPLE_IDENTIFIERS,
    Statement,
    fill,
    load,
    names,
    render,
    sendable_statements,
    split_statements,
    statement,
)

__all__ = [
    "DIRECTORY",
    "SAMPLE_IDENTIFIERS",
    "Statement",
    "fill",
    "load",
    "names",
    "render",
    "sendable_statements",
    "split_statements",
    "statement",
]
