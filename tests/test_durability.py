"""Durability of the embedded store: what one process committed, a fresh process reads, even
when the writer was killed without closing anything; what it had not committed is not there."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from temporal_graph import TemporalGraph

ROOT = Path(__file__).resolve().parent.parent


def python(code: str, *args: str, **options) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, "-c", code, *args], cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        text=True, **options,
    )


def run(code: str, *args: str) -> str:
    proc = python(code, *args)
    out, err = proc.communicate(timeout=120)
    assert proc.returncode == 0, err
    return out


WRITE_AND_EXIT = """
import sys
from temporal_graph import TemporalGraph
with TemporalGraph.open(sys.argv[1]) as tg:
    tg.add_fact("Alice", "lives in", "Paris", valid_at="2020", group_id="g1")
"""

READ = """
import json, sys
from temporal_graph import TemporalGraph
with TemporalGraph.open(sys.argv[1]) as tg:
    print(json.dumps([[f.subject, f.relation, f.object, f.valid_at.isoformat()]
                      for f in tg.now(group_id="g1")]))
"""


def test_a_fact_committed_by_one_process_is_read_by_a_fresh_one(tmp_path: Path) -> None:
    db = str(tmp_path / "memory.db")
    run(WRITE_AND_EXIT, db)
    expected = [["Alice", "LIVES_IN", "Paris", "2020-01-01T00:00:00+00:00"]]
    assert json.loads(run(READ, db)) == expected
    with TemporalGraph.open(db) as tg:
        assert [[f.subject, f.relation, f.object] for f in tg.now(group_id="g1")] == [e[:3] for e in expected]


WRITE_THEN_HANG = """
import sys, time
from temporal_graph import TemporalGraph
tg = TemporalGraph.open(sys.argv[1])
tg.add_fact("Alice", "lives in", "Paris", valid_at="2020", group_id="g1")
print("committed", flush=True)
time.sleep(120)
"""

# Commits Paris, then starts a second write (Rome) and is killed inside its transaction.
HANG_INSIDE_A_WRITE = """
import sys, time
from temporal_graph import TemporalGraph
tg = TemporalGraph.open(sys.argv[1])
tg.add_fact("Alice", "lives in", "Paris", valid_at="2020", group_id="g1")

def half_done(w):
    s, o = w.entity("Alice"), w.entity("Rome")
    w.start(s, "LIVES_IN", o, valid_at=None, invalid_at=None, default_start=w.now)
    print("inside", flush=True)
    time.sleep(120)

tg.core.write("g1", half_done)
"""


@pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="needs SIGKILL")
def test_a_killed_writer_loses_no_committed_fact(tmp_path: Path) -> None:
    db = str(tmp_path / "memory.db")
    proc = python(WRITE_THEN_HANG, db)
    try:
        assert proc.stdout.readline().strip() == "committed", proc.stderr.read()
    finally:
        os.kill(proc.pid, signal.SIGKILL)
        proc.communicate(timeout=60)
    assert proc.returncode == -signal.SIGKILL
    with TemporalGraph.open(db) as tg:
        assert [(f.subject, f.object) for f in tg.now(group_id="g1")] == [("Alice", "Paris")]


@pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="needs SIGKILL")
def test_a_write_killed_before_commit_leaves_no_trace(tmp_path: Path) -> None:
    db = str(tmp_path / "memory.db")
    proc = python(HANG_INSIDE_A_WRITE, db)
    try:
        assert proc.stdout.readline().strip() == "inside", proc.stderr.read()
    finally:
        os.kill(proc.pid, signal.SIGKILL)
        proc.communicate(timeout=60)
    with TemporalGraph.open(db) as tg:
        assert [(f.object, f.invalid_at) for f in tg.history("Alice", group_id="g1")] == [("Paris", None)]
        assert "Rome" not in {e["name"] for e in tg.export("g1")["entities"]}
        # The store is usable afterwards: the lock of the dead writer is gone.
        tg.add_fact("Alice", "lives in", "Lyon", valid_at="2024", group_id="g1")
        assert [f.object for f in tg.history("Alice", group_id="g1")] == ["Paris", "Lyon"]


def test_reopening_in_the_same_process_reads_every_version(
    tmp_path: Path, file_tg: TemporalGraph, tick
) -> None:
    tick()
    file_tg.add_fact("Alice", "lives in", "Beijing", valid_at="2020")
    tick()
    file_tg.add_fact("Alice", "lives in", "Shanghai", valid_at="2024")
    exported = file_tg.export()
    file_tg.close()
    with TemporalGraph.open(tmp_path / "memory.db") as again:
        assert again.export() == exported
