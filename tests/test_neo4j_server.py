"""The Neo4j server the suite runs against is real Neo4j 5, and scripts/neo4j.sh starts and stops one."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import time
from pathlib import Path

import pytest

from temporal_graph import TemporalGraph
from temporal_graph.testing import neo4j_store_from_env, unique_test_group

SCRIPT = Path(__file__).resolve().parents[1] / "scripts" / "neo4j.sh"
# The version the test command pins; a run against another release says which (e.g. "2026.").
EXPECTED = os.environ.get("TGRAPH_NEO4J_EXPECTED_VERSION", "5.")
MARKER = "Zqxlockerplumtree"
# Where the docs' page on forgetting says Neo4j keeps an erased text (paths in its data folder).
KEPT_ON_DISK = ("data/transactions/", "neostore.propertystore.db.strings", "schema/index/")


@pytest.mark.neo4j
def test_the_server_is_neo4j_5() -> None:
    store = neo4j_store_from_env()
    assert store is not None
    with store, store.driver.session(database=store.database) as session:
        components = session.run("CALL dbms.components() YIELD name, versions, edition "
                                 "RETURN name, versions, edition").data()
    assert [c["name"] for c in components] == ["Neo4j Kernel"]
    assert components[0]["versions"][0].startswith(EXPECTED), components


def _script(state: Path, *args: str, timeout: float = 600) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "TGRAPH_NEO4J_STATE": str(state)}
    return subprocess.run(["bash", str(SCRIPT), *args], env=env, capture_output=True, text=True,
                          timeout=timeout, check=False)


def _ready_lines(out: str) -> dict[str, str]:
    lines = dict(line.split("=", 1) for line in out.splitlines() if "=" in line)
    assert set(lines) == {"NEO4J_URI", "NEO4J_USER", "NEO4J_PASSWORD"}, out
    return lines


def _connect(lines: dict[str, str]) -> TemporalGraph:
    return TemporalGraph.connect(lines["NEO4J_URI"], auth=(lines["NEO4J_USER"], lines["NEO4J_PASSWORD"]),
                                 embed=False)


@pytest.mark.neo4j
@pytest.mark.slow
def test_the_script_starts_a_server_that_keeps_its_data_and_ends_cleanly_on_sigterm(tmp_path: Path) -> None:
    state, data = tmp_path / "state", tmp_path / "data"
    started = _script(state, "start", "--data", str(data), "--heap", "512m", "--page-cache", "64m",
                      "--password", "a-secret-pass")
    assert started.returncode == 0, started.stderr
    lines = _ready_lines(started.stdout)
    assert re.fullmatch(r"bolt://127\.0\.0\.1:\d+", lines["NEO4J_URI"])
    assert (lines["NEO4J_USER"], lines["NEO4J_PASSWORD"]) == ("neo4j", "a-secret-pass")
    pid = int((state / "pid").read_text())
    group = unique_test_group("server")
    try:
        status = _script(state, "status")
        assert status.returncode == 0 and _ready_lines(status.stdout) == lines
        again = _script(state, "start")  # a second start finds the running server
        assert again.returncode == 0 and _ready_lines(again.stdout) == lines
        with _connect(lines) as tg:
            tg.add_fact("Ana", "lives in", "Oslo", valid_at="2020", group_id=group)
            told = tg.add_episode(f"My locker code word is {MARKER}, keep it secret.",
                                  reference_time="2024-01-01", speaker="Ana", group_id=group)
            tg.erase_episode(told.episode.id, group_id=group)
            assert MARKER not in json.dumps(tg.export(group)) and not tg.search(MARKER, group_id=group)

        os.kill(pid, signal.SIGTERM)  # what a supervisor or Ctrl-C sends
        deadline = time.monotonic() + 120
        while _alive(pid) and time.monotonic() < deadline:
            time.sleep(0.2)
        assert not _alive(pid), "SIGTERM did not end the server"
        assert not (state / "ready").exists(), "a stopped server left its ready lines behind"
        assert _script(state, "status").returncode == 3
        # What the docs say Neo4j keeps of an erased text on disk, and nothing else.
        kept = sorted(str(f.relative_to(data)) for f in data.rglob("*") if f.is_file() and MARKER.encode()
                      in f.read_bytes())
        assert kept and all(any(place in f for place in KEPT_ON_DISK) for f in kept), kept

        restarted = _script(state, "start", "--data", str(data), "--heap", "512m", "--page-cache", "64m",
                            "--password", "a-secret-pass")
        assert restarted.returncode == 0, restarted.stderr
        with _connect(_ready_lines(restarted.stdout)) as tg:  # a clean shutdown kept what was committed
            assert [f.object for f in tg.now("Ana", group_id=group)] == ["Oslo"]
            assert MARKER not in json.dumps(tg.export(group)) and not tg.search(MARKER, group_id=group)
    finally:
        stopped = _script(state, "stop")
        assert stopped.returncode == 0
    assert _script(state, "status").returncode == 3
    assert data.is_dir(), "stop removed a data folder it was given"


def test_the_script_refuses_what_it_cannot_do(tmp_path: Path) -> None:
    bad = _script(tmp_path / "state", "start", "--version", "5.26; rm -rf /")
    assert bad.returncode == 1 and "--version" in bad.stderr
    unknown = _script(tmp_path / "state", "restart")
    assert unknown.returncode == 1 and "usage" in unknown.stderr
    assert _script(tmp_path / "state", "status").returncode == 3


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    # A zombie (exited, not yet reaped by its parent) counts as ended.
    stat = Path(f"/proc/{pid}/stat")
    return not (stat.exists() and stat.read_text().split(")")[-1].split()[0] == "Z")


@pytest.mark.neo4j
@pytest.mark.slow
def test_the_docs_neo4j_block_runs_as_written(tmp_path: Path) -> None:
    from tests.doc_examples import first_block

    block = first_block("Neo4j", "bash")
    env = {**os.environ, "TGRAPH_NEO4J_STATE": str(tmp_path / "state"), "HF_HUB_OFFLINE": "1",
           "PATH": f"{SCRIPT.parents[1] / '.venv' / 'bin'}{os.pathsep}{os.environ['PATH']}"}
    for name in ("NEO4J_URI", "NEO4J_USER", "NEO4J_PASSWORD"):
        env.pop(name, None)  # the block starts its own server
    done = subprocess.run(["bash", "-euo", "pipefail", "-c", block], cwd=SCRIPT.parents[1], env=env,
                          capture_output=True, text=True, timeout=900, check=False)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    assert "Shanghai" in done.stdout and "running (pid" in done.stderr
    assert _script(tmp_path / "state", "status").returncode == 3  # the block's stop stopped it
