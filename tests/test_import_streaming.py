"""Imports that lose nothing to one unlucky line, and stream (issue 42, items 9-12).

A line nested 100k deep, or with a timestamp no float holds, is one bad line: reported with file
and line, skipped (``strict``: the run stops, nothing written), the rest imported. A first message
of 100k characters is read whole; a line longer than any message can be is a bad line, not a
failed file. A conversation id with spaces around it is refused, never filed under the trimmed id.
A log is read into a spool on disk and applied a batch at a time, so its size is not held in
memory; the order, the conflicts and the resume after a crash are those of one whole pass.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from ingestion.ingest import Ingestion
from temporal_graph import TemporalGraph
from temporal_graph.core.stores.protocol import FactQuery
from temporal_graph.errors import ImportFormatError


def line(text: str, day: int, *, speaker: str = "Ana", group: str = "chat", **extra: object) -> str:
    return json.dumps({"speaker": speaker, "text": text, "timestamp": f"2023-01-{day:02d}T10:00:00Z",
                       "conversation": group, **extra})


def write(path: Path, lines: list[str]) -> Path:
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def open_memory(path: Path, **options: object) -> TemporalGraph:
    return TemporalGraph.open(path, embed=False, **options)


def lives_in(tg: TemporalGraph, group: str = "chat") -> list[tuple[str, str]]:
    facts = tg.core.store.facts(FactQuery(group))
    return sorted((f.object, f.invalid_at.date().isoformat() if f.invalid_at else "now")
                  for f in facts if f.relation == "LIVES_IN")


HOSTILE = {
    "nested 100k deep": '{"speaker": "Ana", "text": ' + "[" * 100_000 + "]" * 100_000
                        + ', "timestamp": "2023-01-02"}',
    "timestamp 1e400": '{"speaker": "Ana", "text": "I live in Oslo.", "timestamp": 1e400}',
    "timestamp of 400 digits": '{"text": "I live in Oslo.", "timestamp": 1' + "0" * 400 + "}",
    "negative timestamp of 400 digits": '{"text": "I live in Oslo.", "timestamp": -1' + "0" * 400 + "}",
    "a number Python will not convert": '{"text": "I live in Oslo.", "timestamp": 1' + "0" * 5000 + "}",
    "an object nested 100k deep in another field": '{"text": "hi", "timestamp": "2023-01-02", "meta": '
                                                   + '{"a": ' * 100_000 + "1" + "}" * 100_000 + "}",
}


@pytest.mark.parametrize("bad", HOSTILE.values(), ids=HOSTILE.keys())
def test_a_hostile_line_is_one_bad_line_and_the_rest_imports(tmp_path, bad) -> None:
    path = write(tmp_path / "chat.jsonl", [line("I live in Paris.", 1), bad, line("I moved to Rome.", 3)])
    with open_memory(tmp_path / "m.db") as tg:
        report = tg.import_file(path, progress=False)
        assert [(e.line, e.file) for e in report.errors] == [(2, str(path))]
        assert len(report.errors[0].reason) < 300  # the value is not repeated back whole
        assert report.episodes_imported == 2
        assert lives_in(tg) == [("Paris", "2023-01-03"), ("Rome", "now")]


@pytest.mark.parametrize("bad", [HOSTILE["nested 100k deep"], HOSTILE["timestamp of 400 digits"]],
                         ids=["nested", "digits"])
def test_strict_stops_at_a_hostile_line_with_nothing_written(tmp_path, bad) -> None:
    path = write(tmp_path / "chat.jsonl", [line("I live in Paris.", 1), bad, line("I moved to Rome.", 3)])
    with open_memory(tmp_path / "m.db") as tg:
        with pytest.raises(ImportFormatError, match=r"chat\.jsonl:2: .*nothing was imported"):
            tg.import_file(path, progress=False, strict=True)
        assert tg.core.store.episodes("chat") == []


def test_a_document_nested_too_deep_is_a_clear_file_error(tmp_path) -> None:
    path = tmp_path / "export.json"
    path.write_text("[" * 100_000 + "]" * 100_000, encoding="utf-8")
    with open_memory(tmp_path / "m.db") as tg, pytest.raises(ImportFormatError, match="nested too deeply"):
        tg.import_file(path, progress=False)


def test_a_first_message_of_100k_characters_is_read_whole(tmp_path) -> None:
    long_text = "I live in Paris. " + "la " * 33_400  # about 100k characters, under the limit
    path = write(tmp_path / "chat.jsonl", [line(long_text, 1), line("I moved to Rome.", 3)])
    with open_memory(tmp_path / "m.db") as tg:
        report = tg.import_file(path, progress=False)
        assert report.format == "jsonl" and report.errors == []
        assert report.episodes_imported == 2
        stored = {len(e.content) for e in tg.core.store.episodes("chat")}
        assert len(long_text.strip()) in stored


def test_a_line_longer_than_any_message_is_a_bad_line_not_a_failed_file(tmp_path) -> None:
    huge = line("x" * 400_000, 2)  # over what 1,000 characters can take even escaped (76 KB)
    for lines in ([huge, line("I live in Paris.", 1)], [line("I live in Paris.", 1), huge]):
        path = write(tmp_path / "chat.jsonl", lines)
        with open_memory(tmp_path / "m.db", max_message_chars=1_000) as tg:
            report = tg.import_file(path, progress=False)
            assert [e.line for e in report.errors] == [lines.index(huge) + 1]
            assert "longer than" in report.errors[0].reason
            assert report.episodes_read == 1 and tg.core.store.episodes("chat")


def test_binary_garbage_lines_cost_only_themselves(tmp_path) -> None:
    path = tmp_path / "chat.jsonl"
    garbage = bytes(b for b in range(256) if b != 0x0A)
    chatter = "".join(line(f"Hello number {i}.", 2, speaker="Bo") + "\n" for i in range(800))  # > 64 KiB
    path.write_bytes(line("I live in Paris.", 1).encode() + b"\n" + chatter.encode() + garbage * 40
                     + b"\n\xff\xfe{\n" + line("I moved to Rome.", 3).encode() + b"\n")
    with open_memory(tmp_path / "m.db") as tg:
        report = tg.import_file(path, progress=False)
        assert [e.line for e in report.errors] == [802, 803]
        assert lives_in(tg) == [("Paris", "2023-01-03"), ("Rome", "now")]


@pytest.mark.parametrize("group", [" alice ", "alice ", "\talice", "  "])
def test_a_conversation_id_with_surrounding_space_is_refused_not_trimmed(tmp_path, group) -> None:
    path = write(tmp_path / "chat.jsonl", [line("I live in Paris.", 1, group=group),
                                          line("I live in Rome.", 2, group="alice")])
    with open_memory(tmp_path / "m.db") as tg:
        report = tg.import_file(path, progress=False)
        assert [e.line for e in report.errors] == [1]
        assert "conversation id" in report.errors[0].reason and "whitespace" in report.errors[0].reason
        assert report.groups == {"alice": 1}
        assert [e.content for e in tg.core.store.episodes("alice")] == ["I live in Rome."]
        with pytest.raises(ImportFormatError, match=r"chat\.jsonl:1: conversation id"):
            tg.import_file(path, progress=False, strict=True)


def test_a_csv_conversation_cell_with_spaces_is_refused_too(tmp_path) -> None:
    path = tmp_path / "chat.csv"
    path.write_text("speaker,text,timestamp,conversation\nAna,I live in Paris.,2023-01-01, alice\n"
                    "Ana,I live in Rome.,2023-01-02,alice\n", encoding="utf-8")
    with open_memory(tmp_path / "m.db") as tg:
        report = tg.import_file(path, progress=False)
        assert [e.line for e in report.errors] == [2] and report.groups == {"alice": 1}


def test_batches_apply_each_group_in_time_order_across_the_whole_file(tmp_path) -> None:
    cities = ["Paris", "Lyon", "Berlin", "Madrid", "Rome", "Vienna", "Prague", "Oslo"]
    lines = [line(f"I live in {cities[day % 8]}.", day, group=f"g{day % 2}") for day in range(1, 29)]
    path = write(tmp_path / "chat.jsonl", lines[::-1])  # newest first, groups interleaved
    with open_memory(tmp_path / "one.db") as whole, open_memory(tmp_path / "small.db") as batched:
        a = whole.import_file(path, progress=False)
        b = Ingestion(batched.core).import_file(path, progress=False, batch_size=3)
        assert a.groups == b.groups == {"g0": 14, "g1": 14}
        for group in ("g0", "g1"):
            assert lives_in(whole, group) == lives_in(batched, group)
            assert sum(1 for _, end in lives_in(batched, group) if end == "now") == 1
        assert lives_in(batched, "g0")[-1] != lives_in(batched, "g1")[-1]


def test_a_reused_message_id_in_a_later_batch_is_a_conflict_naming_the_first_line(tmp_path) -> None:
    lines = [line(f"Message {i}.", 1 + i, id=f"m{i}") for i in range(6)]
    lines.append(line("Something else entirely.", 20, id="m1"))
    lines.append(line("Message 2.", 3, id="m2"))  # the same message again: skipped, no conflict
    path = write(tmp_path / "chat.jsonl", lines)
    with open_memory(tmp_path / "m.db") as tg:
        report = Ingestion(tg.core).import_file(path, progress=False, batch_size=2)
        assert [(c.line, "line 2" in c.reason) for c in report.conflicts] == [(7, True)]
        assert report.episodes_imported == 6 and report.episodes_skipped == 1
        assert "Something else entirely." not in {e.content for e in tg.core.store.episodes("chat")}
        again = Ingestion(tg.core).import_file(path, progress=False, batch_size=2)
        assert again.episodes_imported == 0 and [c.line for c in again.conflicts] == [7]


def test_an_import_stopped_mid_file_resumes_from_the_spool_order(tmp_path, monkeypatch) -> None:
    from ingestion import batch

    lines = [line(f"I live in City{day}.", day) for day in range(1, 29)][::-1]
    path = write(tmp_path / "chat.jsonl", lines)
    real, calls = batch._apply_batch, []

    def failing(*args, **kwargs):
        calls.append(1)
        if len(calls) == 3:
            raise RuntimeError("the power went out")
        return real(*args, **kwargs)

    with open_memory(tmp_path / "m.db") as tg:
        monkeypatch.setattr(batch, "_apply_batch", failing)
        with pytest.raises(RuntimeError):
            Ingestion(tg.core).import_file(path, progress=False, batch_size=4)
        assert len(tg.core.store.episodes("chat")) == 8  # two whole batches, the earliest days
        monkeypatch.setattr(batch, "_apply_batch", real)
        report = Ingestion(tg.core).import_file(path, progress=False, batch_size=4)
        assert (report.episodes_skipped, report.episodes_imported) == (8, 20)
        assert [city for city, end in lives_in(tg) if end == "now"] == ["City28"]


def test_messages_are_held_a_batch_at_a_time_not_the_whole_file(tmp_path, monkeypatch) -> None:
    """Held whole, a 70 MB log took 3 GB: every message and its episode were alive before the first
    write. Now only the batches in flight are."""
    import gc

    from ingestion import batch
    from ingestion.readers import ChatMessage
    from temporal_graph.core.model import Episode

    path = write(tmp_path / "chat.jsonl",
                 [line(f"Chatting away, message {i}.", 1 + i % 28, speaker=f"P{i % 9}", group=f"c{i % 3}")
                  for i in range(3000)])
    real, alive = batch._apply_batch, []

    def counting(*args, **kwargs):
        if len(alive) == 5:
            gc.collect()
            alive.append(sum(isinstance(o, (ChatMessage, Episode)) for o in gc.get_objects()))
        else:
            alive.append(0)
        return real(*args, **kwargs)

    monkeypatch.setattr(batch, "_apply_batch", counting)
    with open_memory(tmp_path / "m.db") as tg:
        report = Ingestion(tg.core).import_file(path, progress=False, batch_size=100)
    assert report.episodes_imported == 3000 and len(alive) == 30
    assert alive[5] < 600  # a few batches of 100 (reading, encoding ahead, writing), not 6,000


def test_a_spool_left_by_a_killed_import_is_removed_by_the_next_one(tmp_path) -> None:
    import subprocess
    import sys

    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True,
                          text=True, check=True)
    left = tmp_path / f".tgraph-import-{dead.stdout.strip()}-abc123"  # as kill -9 mid-import leaves it
    left.mkdir()
    (left / "spool.db").write_bytes(b"\0" * 4096)
    path = write(tmp_path / "chat.jsonl", [line("I live in Paris.", 1)])
    with open_memory(tmp_path / "m.db") as tg:
        assert tg.import_file(path, progress=False).episodes_imported == 1
    assert not left.exists()
    assert not list(tmp_path.glob(".tgraph-import-*"))  # and its own spool is gone too


_PAUSED_IMPORT = """
import sys, time
sys.path.insert(0, sys.argv[1])
from ingestion import batch
from ingestion.ingest import Ingestion
from temporal_graph import TemporalGraph

real = batch._apply_batch

def pausing(*args, **kwargs):
    done = real(*args, **kwargs)
    print("first batch written", flush=True)
    time.sleep(600)  # killed here
    return done

batch._apply_batch = pausing
with TemporalGraph.open(sys.argv[2], embed=False) as tg:
    Ingestion(tg.core).import_file(sys.argv[3], progress=False, batch_size=2)
"""


def _files_holding(folder: Path, word: bytes) -> list[str]:
    return [str(p.relative_to(folder)) for p in folder.rglob("*") if p.is_file() and word in p.read_bytes()]


def test_an_import_killed_midway_leaves_no_copy_of_the_log_beside_the_database(tmp_path) -> None:
    """kill -9 mid-import: the spool holds the whole log (the messages written and those still to
    come; 6 MB, more than SQLite keeps in memory), but no file beside the database does, neither
    while the import runs nor after it died; so an erased message is gone from every file there
    (issue 54)."""
    import signal
    import subprocess
    import sys

    root = Path(__file__).resolve().parents[1]
    source, home = tmp_path / "in", tmp_path / "memory"
    source.mkdir()
    home.mkdir()
    filler = [line(f"Chatting away, message {i}: " + "la " * 1000, 2) for i in range(2000)]  # 6 MB
    path = write(source / "chat.jsonl", [line("I live in Quokkaville.", 1), *filler,
                                         line("I moved to Wombatfield.", 3)])
    command = [sys.executable, "-c", _PAUSED_IMPORT, str(root), str(home / "m.db"), str(path)]
    worker = subprocess.Popen(command, stdout=subprocess.PIPE, text=True, cwd=root)
    try:
        assert worker.stdout is not None and worker.stdout.readline().strip() == "first batch written"
        assert _files_holding(home, b"Wombatfield") == []  # still to come: in the spool alone
    finally:
        worker.send_signal(signal.SIGKILL)
        worker.wait()
    with open_memory(home / "m.db") as tg:
        (first,) = [e for e in tg.core.store.episodes("chat") if "Quokkaville" in e.content]
        tg.erase_episode(first.id, group_id="chat")
    assert _files_holding(home, b"Quokkaville") == []
    assert _files_holding(home, b"Wombatfield") == []
