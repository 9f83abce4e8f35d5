"""The ways in from outside Python code: the ``tgraph`` command line (``cli``, with ``show`` and
``render`` for its terminal output and ``graph_files`` for snapshots), the Cypher console
(``console``; ``cypher_runners`` runs its statements on Neo4j or, through ``cypher_embedded``, on
the embedded store), the MCP server (``mcp_server``) and the asyncio client (``async_client``).

Each interface parses its input and makes calls on the public ``TemporalGraph`` facade (the MCP
server through the shared tool specs in ``temporal_graph.tools``); none holds memory logic of its own.
"""
