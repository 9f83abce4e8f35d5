"""A snapshot graph (``TemporalGraph.snapshot``) as a file other tools read: GraphML or node-link JSON.

GraphML is always well-formed XML 1.0 in UTF-8. Characters a terminal could act on (carriage return,
DEL, C1 controls, bidi overrides, invisible ones: see :mod:`.safe_text`) are character references
(``&#x202e;``), so a reader gets them back exactly and a terminal never sees them raw. Characters XML 1.0
cannot hold at all (C0 controls other than tab, newline and carriage return; lone surrogates;
U+FFFE and U+FFFF) are written as visible escapes in the value (``\\x1b``, ``\\ufffe``); ``tgraph
export`` keeps every value exactly. Node-link JSON escapes as :func:`.safe_text.json_text` does.
"""

from __future__ import annotations

import io
import re
from datetime import datetime
from typing import Any

import networkx as nx

from .safe_text import UNSAFE, escape, json_text

FORMATS = ("graphml", "json")
# What XML 1.0's Char production leaves out (below U+10000: the rest is allowed).
NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")


def graph_file(graph: nx.MultiDiGraph, format: str) -> str:
    """The text of ``graph`` in ``format`` (one of :data:`FORMATS`)."""
    plain = _plain(graph)
    if format == "graphml":
        buffer = io.BytesIO()
        nx.write_graphml(plain, buffer)  # UTF-8 with an XML declaration; values can hold only XML chars
        # Only values can hold these, so a reference anywhere never touches markup.
        return UNSAFE.sub(lambda m: f"&#x{ord(m.group()):x};", buffer.getvalue().decode("utf-8"))
    return json_text(nx.node_link_data(plain, edges="edges")) + "\n"


def _plain(graph: nx.MultiDiGraph) -> nx.MultiDiGraph:
    """A copy whose attributes both formats can hold: times as ISO 8601 text, unknown values left out,
    and the ``fact`` objects dropped (the fields a reader needs are already on the edge)."""
    plain: nx.MultiDiGraph = nx.MultiDiGraph()
    # What a snapshot held besides the graph, by kind (its messages and insights stay in Python).
    plain.graph.update({f"{kind}_count": n for kind, n in graph.graph.get("counts", {}).items()})
    for node, attributes in graph.nodes(data=True):
        plain.add_node(node, **_values(attributes))
    for source, target, key, attributes in graph.edges(keys=True, data=True):
        fields = {k: v for k, v in attributes.items() if k != "fact"}
        plain.add_edge(source, target, key=key, **_values(fields))
    return plain


def _values(attributes: dict[str, Any]) -> dict[str, Any]:
    return {k: _xml_value(v) for k, v in attributes.items() if v is not None}


def _xml_value(value: Any) -> Any:
    if isinstance(value, datetime):
        return value.isoformat()
    return NOT_XML.sub(lambda m: escape(m.group()), value) if isinstance(value, str) else value
