"""Where facts are kept: the narrow store protocol and its two implementations.

``protocol`` is the contract (what the writer and the query layer may ask of a store); ``sqlite``
is the embedded single-file store with its in-memory ``vector_index``; ``neo4j`` is the production
store over the official driver. Both pass ``tests/conformance``.
"""
