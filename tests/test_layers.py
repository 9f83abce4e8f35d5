"""The floors hold: the core imports no layer, interface or facade; the layers import no interface
and no facade. Checked on every import statement, function-level ones included."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
ABOVE_THE_CORE = ("ingestion", "queries", "temporal_graph.client", "temporal_graph.tools",
                  "temporal_graph.interfaces")
ABOVE_THE_LAYERS = ("temporal_graph.client", "temporal_graph.tools", "temporal_graph.interfaces")


def imported_modules(path: Path, root: Path = ROOT) -> set[str]:
    """Every module ``path`` imports, relative imports made absolute."""
    package = ".".join(path.relative_to(root).with_suffix("").parts[:-1])
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")
                base = ".".join(parts[: len(parts) - node.level + 1] + ([base] if base else []))
            found.add(base)
            found.update(f"{base}.{alias.name}" for alias in node.names)
    return found


def offences(folder: str, forbidden: tuple[str, ...], root: Path = ROOT) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for path in sorted((root / folder).rglob("*.py")):
        bad = sorted(m for m in imported_modules(path, root)
                     if any(m == f or m.startswith(f + ".") for f in forbidden))
        if bad:
            out[path.relative_to(root).as_posix()] = bad
    return out


def test_the_core_imports_nothing_above_it():
    assert offences("temporal_graph/core", ABOVE_THE_CORE) == {}


@pytest.mark.parametrize("layer", ["ingestion", "queries"])
def test_the_layers_never_import_the_facade_or_an_interface(layer):
    assert offences(layer, ABOVE_THE_LAYERS) == {}


def test_the_checker_sees_relative_and_function_level_imports(tmp_path):
    core = tmp_path / "temporal_graph" / "core"
    core.mkdir(parents=True)
    probe = "def f():\n    from ..client import TemporalGraph\n    import queries.search\n"
    (core / "probe.py").write_text(probe)
    assert offences("temporal_graph/core", ABOVE_THE_CORE, root=tmp_path) == {
        "temporal_graph/core/probe.py": ["queries.search", "temporal_graph.client",
                                         "temporal_graph.client.TemporalGraph"]
    }


def test_the_interfaces_reach_the_layers_through_the_facade():
    """The CLI, console, MCP server, async client and tools call ``TemporalGraph``'s methods: they
    import no layer, and the tools and ``tgraph show`` never reach into ``tg.core``."""
    layers = ("ingestion", "queries")
    assert offences("temporal_graph/interfaces", layers) == {}
    tools = ROOT / "temporal_graph" / "tools.py"
    assert sorted(m for m in imported_modules(tools) if m.split(".")[0] in layers) == []
    for path in (tools, ROOT / "temporal_graph" / "interfaces" / "show.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        assert not [n for n in ast.walk(tree) if isinstance(n, ast.Attribute) and n.attr == "core"], path
