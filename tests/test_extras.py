"""The optional parts (Neo4j, the MCP server, the LLM client, the embedded Cypher engine) installed
as pip extras: used without their package, each fails with one line naming the extra to install.
The missing package is simulated by a ``None`` in ``sys.modules``, which makes its import fail."""

from __future__ import annotations

import importlib
import sys

import pytest

from temporal_graph import TemporalGraph
from temporal_graph.errors import MissingExtra
from temporal_graph.interfaces.cli import main


def _without(monkeypatch: pytest.MonkeyPatch, package: str) -> None:
    """As if ``package`` were not installed, even when an earlier test imported it (and its
    submodules, which ``from package.sub import x`` would otherwise find loaded)."""
    for name in [n for n in sys.modules if n == package or n.startswith(package + ".")]:
        monkeypatch.delitem(sys.modules, name)
    monkeypatch.setitem(sys.modules, package, None)


def _one_line(capsys: pytest.CaptureFixture[str]) -> str:
    err = capsys.readouterr().err
    assert len(err.splitlines()) == 1, err
    return err


def test_neo4j_without_its_package_names_the_extra(monkeypatch, capsys) -> None:
    _without(monkeypatch, "neo4j")
    with pytest.raises(MissingExtra, match=r"'neo4j'.*pip install 'temporal-graph\[neo4j\]'"):
        TemporalGraph.connect("neo4j://localhost:7687", auth=("neo4j", "secret"))
    assert main(["--neo4j", "neo4j://localhost:7687", "now"]) == 1
    assert "pip install 'temporal-graph[neo4j]'" in _one_line(capsys)


def test_the_mcp_server_without_its_package_names_the_extra(monkeypatch, capsys, tmp_path) -> None:
    _without(monkeypatch, "mcp")
    monkeypatch.delitem(sys.modules, "temporal_graph.interfaces.mcp_server", raising=False)
    with pytest.raises(MissingExtra, match=r"MCP server.*pip install 'temporal-graph\[mcp\]'"):
        importlib.import_module("temporal_graph.interfaces.mcp_server")
    assert main(["--db", str(tmp_path / "m.db"), "--create", "mcp"]) == 1
    assert "pip install 'temporal-graph[mcp]'" in _one_line(capsys)


def test_the_llm_client_without_its_package_names_the_extra(monkeypatch, capsys, tmp_path) -> None:
    from temporal_graph.llm import LLMClient

    _without(monkeypatch, "openai")
    with pytest.raises(MissingExtra, match=r"'openai'.*pip install 'temporal-graph\[llm\]'"):
        LLMClient(base_url="http://127.0.0.1:9", cache=False)
    monkeypatch.setenv("OPENAI_BASE_URL", "http://127.0.0.1:9")
    assert main(["--db", str(tmp_path / "m.db"), "--create", "--llm", "now"]) == 1
    assert "pip install 'temporal-graph[llm]'" in _one_line(capsys)


def test_the_embedded_cypher_engine_without_its_package_names_the_extra(monkeypatch, capsys, tmp_path):
    _without(monkeypatch, "ladybug")
    assert main(["--db", str(tmp_path / "m.db"), "--create", "cypher", "-e", "RETURN 1"]) == 1
    assert "pip install 'temporal-graph[cypher]'" in _one_line(capsys)


def test_a_missing_extra_is_still_an_import_error() -> None:
    """Code that guards an optional import with ``except ImportError`` keeps working."""
    assert issubclass(MissingExtra, ImportError)
