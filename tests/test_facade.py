"""The ``TemporalGraph`` facade can be read: each method shows its options and says what it does,
forwards in one statement to the core or to its layer (imported at the top), keeps the plumbing
under ``core``, and needs no packaging entry points to find it."""

from __future__ import annotations

import ast
import asyncio
import importlib.metadata
import inspect
import subprocess
import sys
from datetime import UTC, datetime
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest

from temporal_graph import AsyncTemporalGraph, TemporalGraph
from temporal_graph.errors import InvalidInput, InvalidTime
from temporal_graph.times import ManualClock

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
                                    "ingestion.ingest", "temporal_graph.core.reads", "temporal_graph.client"])
def test_a_layer_imported_first_finds_the_package_whole(module):
    """The facade imports the layers, which import the core: importing a layer first, then the
    facade, must not trip over a cycle."""
    code = f"import {module}; from temporal_graph import TemporalGraph; TemporalGraph.open(':memory:')"
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr


def _facade_methods() -> list[ast.FunctionDef]:
    tree = ast.parse((ROOT / "temporal_graph" / "client.py").read_text(encoding="utf-8"))
    facade = next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == "TemporalGraph")
    return [n for n in facade.body if isinstance(n, ast.FunctionDef)]


def test_the_facade_imports_its_layers_at_the_top():
    """Every layer call can be followed from the imports at the head of ``client.py``."""
    inside = [f"{f.name}: {ast.unparse(n)}" for f in _facade_methods() for n in ast.walk(f)
              if isinstance(n, (ast.Import, ast.ImportFrom)) and not ast.unparse(n).startswith("from .core")]
    assert inside == []


def test_every_public_method_forwards_in_one_statement():
    """Validation, reads and writes live in the core and the layers; the facade only forwards."""
    long = []
    for method in _facade_methods():
        if method.name.startswith("_") or method.name in ("open", "connect"):
            continue
        body = method.body[1:] if ast.get_docstring(method) else method.body
        if len(body) != 1:
            long.append(method.name)
    assert long == []


@pytest.mark.parametrize("name", ["time", "optional_time", "write", "embed_records", "store", "clock"])
def test_the_plumbing_is_reached_through_core(name):
    assert not hasattr(TemporalGraph, name)
    with TemporalGraph.open(":memory:", embed=False) as tg:
        assert callable(getattr(tg.core, name)) or name == "store"


def test_moment_reads_a_time_as_every_argument_is_and_defaults_to_the_clock():
    clock = ManualClock("2025-03-01T12:00:00+00:00")
    with TemporalGraph.open(":memory:", clock=clock, zone=ZoneInfo("Europe/Paris"), embed=False) as tg:
        assert tg.moment() == datetime(2025, 3, 1, 12, tzinfo=UTC)
        assert tg.moment("2024-05-01 09:00") == datetime(2024, 5, 1, 7, tzinfo=UTC)  # naive: in the zone
        with pytest.raises(InvalidTime, match="known_at: .*'Monday'"):
            tg.moment("Monday", name="known_at")


def test_add_fact_refuses_what_add_facts_refuses_with_the_same_words():
    """One input model for single and bulk writes: a bad value is refused alike by both."""
    bad = [{"valid_at": 12345}, {"subject": ""}, {"relation": "MATCH"}, {"confidence": 2},
           {"importance": 11}, {"attributes": [1]}, {"episode_id": 5}, {"object_type": 7}]
    with TemporalGraph.open(":memory:", embed=False) as tg:
        for change in bad:
            fields = {"subject": "Ann", "relation": "likes", "object": "tea", **change}
            with pytest.raises(InvalidInput) as single:
                tg.add_fact(fields.pop("subject"), fields.pop("relation"), fields.pop("object"), **fields)
            report = tg.add_facts([{"subject": "Ann", "relation": "likes", "object": "tea", **change}])
            assert [e.reason for e in report.errors] == [str(single.value)], change
        assert tg.now() == []


def test_the_async_client_takes_the_very_parameters_of_the_sync_one():
    """Typed from the sync signatures (a type checker sees them too): nothing hides behind **options."""
    skipped = {"open", "connect", "close", "moment"}
    for name, member in public_members().items():
        if isinstance(member, property) or name in skipped:
            continue
        mirrored = getattr(AsyncTemporalGraph, name)
        assert inspect.iscoroutinefunction(mirrored), name
        assert inspect.signature(mirrored) == inspect.signature(member), name


def test_the_async_client_refuses_an_unknown_option_before_running_it():
    async def call():
        async with AsyncTemporalGraph.open(":memory:", embed=False) as memory:
            with pytest.raises(TypeError, match="colour"):
                await memory.search("x", colour="red")
            return await memory.search("x", limit=1, methods=("bm25",))

    assert asyncio.run(call()) == []
