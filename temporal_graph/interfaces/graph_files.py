"""A snapshot graph (``TemporalGraph.snapshot``) as a file other tools read: GraphML or node-link JSON."""

from __future__ import annotations

import json
from datetime import datetime
from typing import Any

import networkx as nx

FORMATS = ("graphml", "json")


def graph_file(graph: nx.MultiDiGraph, format: str) -> str:
    """The text of ``graph`` in ``format`` (one of :data:`FORMATS`)."""
    plain = _plain(graph)
    if format == "graphml":
        return "\n".join(nx.generate_graphml(plain)) + "\n"
    return json.dumps(nx.node_link_data(plain, edges="edges"), indent=2, ensure_ascii=False) + "\n"


def _plain(graph: nx.MultiDiGraph) -> nx.MultiDiGraph:
    """A copy whose attributes both formats can hold: times as ISO 8601 text, unknown values left out,
    and the ``fact`` objects dropped (the fields a reader needs are already on the edge)."""
    plain: nx.MultiDiGraph = nx.MultiDiGraph()
    for node, attributes in graph.nodes(data=True):
        plain.add_node(node, **_values(attributes))
    for source, target, key, attributes in graph.edges(keys=True, data=True):
        fields = {k: v for k, v in attributes.items() if k != "fact"}
        plain.add_edge(source, target, key=key, **_values(fields))
    return plain


def _values(attributes: dict[str, Any]) -> dict[str, Any]:
    return {k: v.isoformat() if isinstance(v, datetime) else v
            for k, v in attributes.items() if v is not None}
