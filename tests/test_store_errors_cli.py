"""A store that fails after connecting: the command line prints one line saying what is wrong and
exits non-zero, never with a traceback; the docs' example of catching store errors runs."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
from pathlib import Path

from temporal_graph import TemporalGraph

REPO = Path(__file__).resolve().parents[1]


def _tgraph(*args: str, **env: str) -> subprocess.CompletedProcess[str]:
    environment = {**os.environ, "PYTHONPATH": str(REPO), "HF_HUB_OFFLINE": "1", **env}
    environment.pop("TGRAPH_DEBUG", None)
    return subprocess.run([sys.executable, "-m", "temporal_graph", *args], capture_output=True, text=True,
                          cwd=REPO, env=environment, timeout=300)


def test_a_write_to_a_locked_file_prints_one_line_and_fails(tmp_path: Path) -> None:
    db = tmp_path / "memory.db"
    TemporalGraph.open(db).close()
    chat = tmp_path / "chat.jsonl"
    chat.write_text('{"speaker": "Ana", "text": "I live in Paris.", "timestamp": "2024-05-01"}\n',
                    encoding="utf-8")
    holder = sqlite3.connect(db, isolation_level=None)
    try:
        holder.execute("BEGIN IMMEDIATE")  # another process is writing and does not let go
        done = _tgraph("--db", str(db), "import", str(chat), "--quiet", "--no-embed",
                       TGRAPH_LOCK_TIMEOUT="0.05")
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    assert done.returncode != 0
    assert "Traceback" not in done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr
    assert "locked by another writer" in lines[0] and str(db) in lines[0]
    # The refused import wrote nothing; once the lock is gone it goes through.
    assert _tgraph("--db", str(db), "import", str(chat), "--quiet", "--no-embed").returncode == 0


def test_a_bad_lock_timeout_setting_is_named_in_one_line(tmp_path: Path) -> None:
    db = tmp_path / "memory.db"
    TemporalGraph.open(db).close()
    done = _tgraph("--db", str(db), "now", TGRAPH_LOCK_TIMEOUT="soon")
    assert done.returncode == 2
    assert done.stderr.strip().splitlines() == [
        "tgraph: TGRAPH_LOCK_TIMEOUT: 'soon' is not a number of seconds from 0 to 86400"
    ]


def test_the_store_errors_example_in_the_docs(tmp_path: Path, monkeypatch, capsys) -> None:
    from tests.doc_examples import first_block

    code = first_block("When the store fails")
    monkeypatch.chdir(tmp_path)  # the example writes memory.db in the working directory
    exec(compile(code, "docs", "exec"), {})
    assert capsys.readouterr().out.strip() == "memory.db: the store is closed"
