"""The ways in from outside Python code: the ``tgraph`` command line (and, next, the MCP server).

Each interface parses its input and makes one call on the public ``TemporalGraph`` facade; none
holds logic of its own.
"""
