"""Batch import and the ``tgraph`` command line, run as a user would."""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from ingestion.pipeline import make_episode
from temporal_graph import TemporalGraph
from temporal_graph.core.stores.protocol import FactQuery
from temporal_graph.core.writer import episode_id_for
from temporal_graph.errors import ImportFormatError

ROOT = Path(__file__).resolve().parents[1]
LOCOMO = ROOT.parent / "shared" / "data" / "locomo" / "locomo_dev.json"
CITIES = ["Paris", "Lyon", "Berlin", "Madrid", "Rome", "Vienna", "Prague", "Oslo"]


def tgraph(*args: str, check: bool = False) -> subprocess.CompletedProcess:
    env = {**os.environ, "HF_HUB_OFFLINE": "1", "COLUMNS": "200"}
    done = subprocess.run([sys.executable, "-m", "temporal_graph", *args], capture_output=True, text=True,
                          env=env, cwd=ROOT, timeout=600)
    if check and done.returncode != 0:
        raise AssertionError(done.stderr)
    return done


def write_jsonl(path: Path, lines: list[str]) -> Path:
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def moves(n: int, people: int = 20) -> list[str]:
    """``n`` messages of people moving between cities, one per day, in a shuffled file order."""
    out = []
    for i in range(n):
        person = f"Person {i % people}"
        day = f"2023-{1 + (i // 28) % 12:02d}-{1 + i % 28:02d}T{(i // 336) % 24:02d}:00:00Z"
        city = CITIES[(i * 7 + i // people) % len(CITIES)]
        out.append(json.dumps({"speaker": person, "text": f"I live in {city}.", "timestamp": day,
                               "conversation": "moves"}))
    return out[::-1]  # newest first: the importer must sort by time


def belief(tg: TemporalGraph, group: str) -> set:
    return {(f.subject, f.relation, f.object, f.valid_at, f.invalid_at)
            for f in tg.core.store.facts(FactQuery(group))}


def test_jsonl_import_orders_messages_and_resolves_contradictions(tmp_path):
    path = write_jsonl(tmp_path / "chat.jsonl", [
        json.dumps({"speaker": "Zhang Wei", "text": "I just moved to Shanghai!",
                    "timestamp": "2024-03-11T10:00:00Z"}),
        json.dumps({"speaker": "Zhang Wei", "text": "I live in Hangzhou.",
                    "timestamp": "2023-01-14T10:00:00Z"}),
    ])
    with TemporalGraph.open(tmp_path / "m.db") as tg:
        report = tg.import_file(path, progress=False)
        assert (report.format, report.episodes_read, report.episodes_imported) == ("jsonl", 2, 2)
        history = tg.history("Zhang Wei", "LIVES_IN")
        assert [f.object for f in history] == ["Hangzhou", "Shanghai"]
        assert history[0].invalid_at == history[1].valid_at


def test_two_people_saying_the_same_words_in_the_same_minute_are_two_messages(tmp_path):
    # Exports stamp messages to the minute: "ok" from two people in one minute is common.
    path = write_jsonl(tmp_path / "chat.jsonl", [json.dumps({"speaker": who, "text": "ok",
                                                             "timestamp": "2024-03-11T10:00:00Z"})
                                                 for who in ("Ana", "Ben")])
    with TemporalGraph.open(tmp_path / "m.db") as tg:
        report = tg.import_file(path, progress=False)
        assert (report.episodes_imported, report.conflicts) == (2, [])
        again = tg.import_file(path, progress=False)
        assert (again.episodes_imported, again.episodes_skipped) == (0, 2)
        assert sorted(e.speaker for e in tg.core.store.episodes("default")) == ["Ana", "Ben"]


def test_a_re_import_into_a_memory_of_the_earlier_message_ids_stores_each_message_once(tmp_path):
    # A memory written before a speaker counted in a message's id holds Ana's "ok" under the id
    # of its text and time (Ben's, the same words in the same minute, was refused then).
    path = write_jsonl(tmp_path / "chat.jsonl", [json.dumps({"speaker": who, "text": "ok",
                                                             "timestamp": "2024-03-11T10:00:00Z"})
                                                 for who in ("Ana", "Ben")])
    with TemporalGraph.open(tmp_path / "m.db") as tg:
        ana, _ = make_episode(tg.core, "ok", reference_time="2024-03-11T10:00:00Z", speaker="Ana",
                              group_id="default", source="import", source_id=None, created_at=tg.core.now())
        earlier = ana.model_copy(update={"id": episode_id_for("default", None, "ok", ana.reference_time)})
        tg.core.write("default", lambda w: w.episode(earlier))
        report = tg.import_file(path, progress=False)
        assert (report.episodes_imported, report.episodes_skipped, report.conflicts) == (1, 1, [])
        assert sorted(e.speaker for e in tg.core.store.episodes("default")) == ["Ana", "Ben"]


def test_csv_and_chatgpt_and_locomo_formats(tmp_path):
    csv_path = tmp_path / "chat.csv"
    csv_path.write_text("speaker,text,timestamp\nAnna,I live in Berlin.,2023-05-01\n", encoding="utf-8")
    with TemporalGraph.open(tmp_path / "m.db") as tg:
        assert tg.import_file(csv_path, progress=False).format == "csv"
        assert [f.object for f in tg.now("Anna")] == ["Berlin"]
        report = tg.import_file(ROOT / "tests" / "data" / "chatgpt_conversations.json", progress=False)
        assert report.format == "chatgpt" and report.episodes_imported > 0


@pytest.mark.skipif(not LOCOMO.exists(), reason="LoCoMo data not present")
def test_a_locomo_conversation(tmp_path):
    one = json.loads(LOCOMO.read_text())[0]
    path = tmp_path / "conv.json"
    path.write_text(json.dumps([one]))
    with TemporalGraph.open(tmp_path / "m.db") as tg:
        report = tg.import_file(path, progress=False)
        assert report.format == "locomo" and report.errors == []
        assert report.episodes_imported == report.episodes_read > 300
        group = one["sample_id"]
        first = tg.core.store.episode_by_source(group, f"{group}:D1:3")
        assert first is not None and "support group" in first.content
        assert tg.history("Caroline", group_id=group)  # facts were extracted about the speakers
        again = tg.import_file(path, progress=False)
        assert again.episodes_imported == 0 and again.episodes_skipped == report.episodes_read


def test_malformed_lines_are_reported_and_skipped(tmp_path):
    lines = moves(6)
    lines.insert(2, "{not json")
    lines.insert(4, json.dumps({"speaker": "X", "text": "I live in Oslo.", "timestamp": "not a time"}))
    path = write_jsonl(tmp_path / "bad.jsonl", lines)
    with TemporalGraph.open(tmp_path / "m.db") as tg:
        report = tg.import_file(path, progress=False)
    assert report.episodes_imported == 6
    assert [e.line for e in report.errors] == [3, 5]
    assert all(e.file.endswith("bad.jsonl") and e.reason for e in report.errors)


def test_strict_stops_with_nothing_written(tmp_path):
    lines = moves(6)
    lines.insert(3, "{not json")
    path = write_jsonl(tmp_path / "bad.jsonl", lines)
    db = tmp_path / "m.db"
    with TemporalGraph.open(db) as tg:
        with pytest.raises(ImportFormatError, match="bad.jsonl:4"):
            tg.import_file(path, progress=False, strict=True)
        assert tg.export("moves")["episodes"] == []
    done = tgraph("--db", str(db), "import", str(path), "--strict")
    assert done.returncode == 2
    assert "bad.jsonl:4" in done.stderr and len(done.stderr.strip().splitlines()) == 1


@pytest.mark.parametrize(
    "make, message",
    [
        (lambda p: p, "no such file"),
        (lambda p: (p.write_text(""), p)[1], "empty"),
        (lambda p: (p.write_bytes(b"\xff\xfe\x00bad"), p)[1], ""),
        (lambda p: (p.write_text("just some words\nnot a chat log\n"), p)[1], ""),
    ],
)
def test_bad_files_get_a_one_line_message_and_exit_2(tmp_path, make, message):
    path = make(tmp_path / "input.jsonl")
    done = tgraph("--db", str(tmp_path / "m.db"), "import", str(path))
    assert done.returncode == 2
    assert done.stderr.startswith("tgraph: ") and len(done.stderr.strip().splitlines()) == 1
    assert message in done.stderr


def test_interrupted_import_then_rerun_equals_uninterrupted(tmp_path):
    path = write_jsonl(tmp_path / "moves.jsonl", moves(3000))
    full, cut = tmp_path / "full.db", tmp_path / "cut.db"
    tgraph("--db", str(full), "import", str(path), "--quiet", check=True)

    env = {**os.environ, "HF_HUB_OFFLINE": "1"}
    proc = subprocess.Popen([sys.executable, "-m", "temporal_graph", "--db", str(cut), "import", str(path),
                             "--quiet"], cwd=ROOT, env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.time() + 300
    committed = 0
    while time.time() < deadline and proc.poll() is None:
        time.sleep(0.2)
        try:
            with sqlite3.connect(cut, timeout=1) as con:
                committed = con.execute("SELECT count(*) FROM episodes").fetchone()[0]
        except sqlite3.Error:
            continue
        if committed >= 300:
            proc.send_signal(signal.SIGKILL)
            break
    proc.wait()
    assert 0 < committed < 3000, "the import was not interrupted mid-run"

    rerun = json.loads(tgraph("--db", str(cut), "import", str(path), "--json", check=True).stdout)
    assert rerun["episodes_skipped"] >= committed
    with TemporalGraph.open(full) as a, TemporalGraph.open(cut) as b:
        ea, eb = a.export("moves"), b.export("moves")
        assert sorted(e["id"] for e in ea["episodes"]) == sorted(e["id"] for e in eb["episodes"])
        assert len(eb["episodes"]) == 3000
        assert sorted(e["name"] for e in ea["entities"]) == sorted(e["name"] for e in eb["entities"])
        assert belief(a, "moves") == belief(b, "moves")


def test_cli_end_to_end(tmp_path):
    db = str(tmp_path / "demo.db")
    sample = str(ROOT / "examples" / "sample_chat.jsonl")
    imported = json.loads(tgraph("--db", db, "import", sample, "--json", check=True).stdout)
    assert imported["episodes_imported"] == imported["episodes_read"] > 0

    now = json.loads(tgraph("--db", db, "--group", "demo", "now", "Zhang Wei", "--json", check=True).stdout)
    assert "Shanghai" in [f["object"] for f in now if f["relation"] == "LIVES_IN"]
    before = json.loads(tgraph("--db", db, "--group", "demo", "as-of", "2023-06-01", "Zhang Wei", "--json",
                               check=True).stdout)
    assert "Hangzhou" in [f["object"] for f in before if f["relation"] == "LIVES_IN"]

    table = tgraph("--db", db, "history", "Zhang Wei", "--group", "demo", "--relation", "lives in",
                   check=True)
    assert "Hangzhou" in table.stdout and "Shanghai" in table.stdout and "valid from" in table.stdout

    fact_id = now[0]["fact_id"]
    audit = json.loads(tgraph("--db", db, "--group", "demo", "audit", fact_id, "--json", check=True).stdout)
    assert audit and all(v["fact_id"] == fact_id for v in audit)
    tgraph("--db", db, "--group", "demo", "diff", "2023-01-01", "2025-01-01", check=True)
    exported = json.loads(tgraph("--db", db, "export", "--group", "demo", check=True).stdout)
    assert exported["group_id"] == "demo" and exported["facts"]

    asked = json.loads(tgraph("--db", db, "--group", "demo", "ask", "Where does Zhang Wei live now?",
                              "--json", check=True).stdout)
    assert asked["known"] and "Shanghai" in asked["text"]
    hits = json.loads(tgraph("--db", db, "--group", "demo", "search", "badminton", "--json",
                             check=True).stdout)
    assert hits and "badminton" in json.dumps(hits[0]).lower()
    chains = json.loads(tgraph("--db", db, "--group", "demo", "paths", "Zhang Wei", "--max-hops", "2",
                               "--json", check=True).stdout)
    assert any(hop["object"] == "Shanghai" for chain in chains for hop in chain)

    bad_time = tgraph("--db", db, "as-of", "the day after never")
    assert bad_time.returncode == 2 and "the day after never" in bad_time.stderr
    assert tgraph("--db", db, "no-such-command").returncode == 2

    forgot = json.loads(tgraph("--db", db, "--json", "forget", "demo", "--yes", check=True).stdout)
    assert forgot["removed"] > 0
    assert json.loads(tgraph("--db", db, "--group", "demo", "now", "--json", check=True).stdout) == []


def test_replay_records_each_message_at_its_own_time(tmp_path):
    """With replay, "as known at K" answers what the memory would have believed then."""
    with TemporalGraph.open(tmp_path / "m.db") as tg:
        tg.import_file(ROOT / "examples" / "sample_chat.jsonl", progress=False, replay=True)
        before_told = tg.as_of("2024-07-01", known_at="2024-01-01", subject="Zhang Wei", relation="LIVES_IN",
                               group_id="demo")
        after_told = tg.as_of("2024-07-01", subject="Zhang Wei", relation="LIVES_IN", group_id="demo")
    assert [f.object for f in before_told] == ["Hangzhou"]
    assert before_told[0].invalid_at is None  # the move was not known yet
    assert [f.object for f in after_told] == ["Shanghai"]
