"""No import circles inside a package: each module can be read (and changed) after the ones it
builds on. Every import counts, function-level and TYPE_CHECKING ones included."""

from __future__ import annotations

import networkx as nx
import pytest

from tests.test_layers import ROOT, imported_modules


def import_graph(folder: str) -> nx.DiGraph:
    """Module → the modules of the same folder it imports."""
    modules = {}
    for path in sorted((ROOT / folder).rglob("*.py")):
        parts = path.relative_to(ROOT).with_suffix("").parts
        modules[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    graph = nx.DiGraph()
    graph.add_nodes_from(modules)
    for name, path in modules.items():
        graph.add_edges_from((name, m) for m in imported_modules(path) if m in modules and m != name)
    return graph


@pytest.mark.parametrize("folder", ["ingestion", "queries", "temporal_graph/llm", "temporal_graph/core"])
def test_no_import_circles(folder):
    assert list(nx.simple_cycles(import_graph(folder))) == []


def test_the_check_sees_a_circle():
    graph = import_graph("ingestion")
    graph.add_edge("ingestion.batch", "ingestion.ingest")  # what batch.py used to import
    assert ["ingestion.batch", "ingestion.ingest"] in [sorted(c) for c in nx.simple_cycles(graph)]
