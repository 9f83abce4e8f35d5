"""A one-shot command starts fast: commands that do not embed never import an embedding runtime,
and the ones that do load onnxruntime, not torch. Each command runs in a fresh process, as a user
runs ``tgraph``, and reports what it imported."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from temporal_graph import TemporalGraph
from temporal_graph.core.embedders import onnx_file, packaged_model_path

ROOT = Path(__file__).resolve().parents[1]
ENV = {**os.environ, "HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1", "PYTHONPATH": str(ROOT)}
RUNTIMES = ("onnxruntime", "tokenizers", "torch", "transformers", "sentence_transformers")
PROBE = """
import json, sys
from temporal_graph.interfaces.cli import main
code = main(sys.argv[1:])
print(json.dumps({"code": code, "loaded": [m for m in %r if m in sys.modules]}), file=sys.stderr)
""" % (RUNTIMES,)


def tgraph(db: Path, *args: str) -> tuple[int, list[str], str]:
    """Run one command in a fresh process: its exit code, the runtimes it imported, its output."""
    done = subprocess.run([sys.executable, "-c", PROBE, "--db", str(db), *args], cwd=ROOT, env=ENV,
                          capture_output=True, text=True, timeout=300)
    report = json.loads(done.stderr.strip().splitlines()[-1])
    return report["code"], report["loaded"], done.stdout


@pytest.fixture(scope="module")
def memory(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    db = tmp_path_factory.mktemp("cold") / "memory.db"
    with TemporalGraph.open(db, embed=False) as tg:
        fact = tg.add_fact("Alice", "lives in", "Paris", valid_at="2020-01-01")
        tg.add_fact("Alice", "works at", "Acme", valid_at="2021")
    return db, fact.fact_id


@pytest.mark.parametrize("args", [["now"], ["as-of", "2022-01-01"], ["history", "Alice"], ["audit", "{id}"],
                                  ["show", "Alice"], ["export"]])
def test_commands_that_do_not_embed_import_no_runtime(memory: tuple[Path, str], args: list[str]) -> None:
    db, fact_id = memory
    code, loaded, out = tgraph(db, *(a.format(id=fact_id) for a in args))
    assert code == 0 and "Paris" in out, out
    assert loaded == []


@pytest.mark.slow
@pytest.mark.parametrize("args", [["search", "Paris"], ["add-fact", "Bob", "lives in", "Rome"]])
def test_commands_that_embed_load_onnxruntime_not_torch(memory: tuple[Path, str], args: list[str]) -> None:
    onnx_file(packaged_model_path())  # exported once per install (the first run on a machine does it)
    code, loaded, out = tgraph(memory[0], *args)
    assert code == 0 and args[-1] in out
    assert "onnxruntime" in loaded and "torch" not in loaded and "transformers" not in loaded
