"""The ``TemporalGraph`` facade can be read: each method shows its options and says what it does,
leads to its layer by an import, and needs no packaging entry points to find it."""

from __future__ import annotations

import importlib.metadata
import inspect
import subprocess
import sys
from pathlib import Path

import pytest

from temporal_graph import TemporalGraph

ROOT = Path(__file__).resolve().parents[1]
LAYER_METHODS = ("add_episode", "import_file", "paths", "search", "context", "ask")


def public_members() -> dict[str, object]:
    return {name: member for name, member in vars(TemporalGraph).items() if not name.startswith("_")}


def test_every_public_method_and_property_says_what_it_does():
    undocumented = []
    for name, member in public_members().items():
        target = member.fget if isinstance(member, property) else getattr(member, "__func__", member)
        if not (inspect.getdoc(target) or "").strip():
            undocumented.append(name)
    assert undocumented == []


@pytest.mark.parametrize("name", LAYER_METHODS)
def test_layer_methods_spell_out_their_options(name):
    parameters = inspect.signature(getattr(TemporalGraph, name)).parameters.values()
    assert all(p.kind is not inspect.Parameter.VAR_KEYWORD for p in parameters)


def test_search_shows_every_option_the_query_layer_takes():
    from queries.search import search

    layer = set(inspect.signature(search).parameters) - {"core"}
    assert set(inspect.signature(TemporalGraph.search).parameters) - {"self"} == layer


@pytest.mark.parametrize("call", [
    lambda tg: tg.search("x", colour="red"),
    lambda tg: tg.paths("A", colour="red"),
    lambda tg: tg.context("x", colour="red"),
    lambda tg: tg.ask("Where?", colour="red"),
])
def test_an_unknown_option_is_a_type_error(call):
    with TemporalGraph.open(":memory:", embed=False) as tg, pytest.raises(TypeError, match="colour"):
        call(tg)


def test_the_layers_are_found_without_entry_points(monkeypatch):
    package = Path(inspect.getfile(TemporalGraph)).parent
    assert not (package / "services.py").exists()
    assert "entry-points" not in (ROOT / "pyproject.toml").read_text(encoding="utf-8")

    def no_entry_points(*args, **kwargs):
        raise AssertionError("the memory looked up a packaging entry point")

    monkeypatch.setattr(importlib.metadata, "entry_points", no_entry_points)
    with TemporalGraph.open(":memory:", embed=False) as tg:
        tg.add_fact("Alice", "lives in", "Paris", valid_at="2020-01-01")
        tg.add_fact("Paris", "located in", "France", valid_at="2020-01-01")
        assert [len(p) for p in tg.paths("Alice", max_hops=2)] == [1, 2]
        hits = tg.search("Alice Paris", methods=("bm25", "graph"))
        assert any(h.fact is not None and h.fact.object == "Paris" for h in hits)
        answer = tg.ask("Where does Alice live?")
        assert answer.known and "Paris" in answer.text


@pytest.mark.parametrize("module", ["queries.search", "queries.question", "ingestion.pipeline",
                                    "ingestion.ingest", "temporal_graph.core.reads"])
def test_a_layer_imported_first_finds_the_package_whole(module):
    """``temporal_graph`` loads the facade, so importing a layer first must not trip over a cycle."""
    done = subprocess.run([sys.executable, "-c", f"import {module}; import temporal_graph"], cwd=ROOT,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
