"""The optional parts and the pip extras that install them (``pyproject.toml``): a part used
without its package fails with one line saying what to install, not a bare ``ModuleNotFoundError``.

- ``neo4j``: :meth:`TemporalGraph.connect`, ``tgraph --neo4j`` and ``tgraph --neo4j ... cypher``;
- ``mcp``: the MCP server (``tgraph mcp``);
- ``llm``: the OpenAI-compatible LLM client (``llm=``, ``tgraph --llm``);
- ``cypher``: the Cypher console on the embedded store (``tgraph cypher`` without ``--neo4j``);
- ``view``: the web page (``tgraph view``: starlette and uvicorn).

Each part imports its package where it starts (``try: import neo4j``) and raises :func:`missing`.
"""

from __future__ import annotations

from .errors import MissingExtra

PACKAGE = "temporal-graph"


def missing(extra: str, feature: str, exc: ImportError) -> MissingExtra:
    """The error for ``feature`` when importing its package failed with ``exc``."""
    name = exc.name or str(exc)
    return MissingExtra(f"{feature} needs the Python package {name!r}, which is not installed: "
                        f"pip install '{PACKAGE}[{extra}]'")
