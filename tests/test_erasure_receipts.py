"""Erasure receipts on the embedded store: what a data-protection officer files. The receipt of an
erasure is in the erasure log once the erased bytes are gone, holds nothing of what was erased,
and outlives a forgotten group; ``tgraph erase`` asks first, ``tgraph erasures`` lists the log."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from temporal_graph import TemporalGraph, erasure_digest
from temporal_graph.errors import InvalidInput, NotFound
from temporal_graph.interfaces.cli import main


def _file_bytes(path: Path) -> bytes:
    data = b""
    for suffix in ("", "-wal"):
        part = Path(f"{path}{suffix}")
        if part.exists():
            data += part.read_bytes()
    return data.lower()


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return tmp_path / "memory.db"


@pytest.fixture
def memory(db: Path, clock) -> TemporalGraph:
    return TemporalGraph.open(db, clock=clock, embed=False)


def _log_text(memory: TemporalGraph, group_id: str = "default") -> str:
    return json.dumps([r.model_dump(mode="json") for r in memory.erasures(group_id=group_id)]).lower()


def test_an_erasure_leaves_its_receipt_and_nothing_of_what_it_erased(memory, db, tick):
    tick()
    memory.add_episode("I live in Denver.", reference_time="2023-01-05", speaker="Maya")
    tick()
    moved = memory.add_episode("I moved to Zqrcptville last month.", reference_time="2024-03-05",
                               speaker="Maya")
    assert b"zqrcptville" in _file_bytes(db)
    at = tick()
    report = memory.erase_episode(moved.episode.id, request_id="DSR-2025-0042")
    receipt = report.receipt
    assert receipt is not None
    assert (receipt.request_id, receipt.at, receipt.group_id, receipt.operation) == (
        "DSR-2025-0042", at, "default", "erase_episode")
    assert receipt.counts["episodes"] == 1
    assert receipt.counts["fact_versions"] == report.fact_versions >= 1
    assert receipt.counts["assertions"] == report.assertions
    assert receipt.counts["summary_versions"] == report.summary_versions
    assert len(receipt.digest) == 64
    memory.close()
    # The bytes are gone; the receipt is there, and it holds neither the text nor the ids.
    assert b"zqrcptville" not in _file_bytes(db)
    with TemporalGraph.open(db) as again:
        assert again.erasures() == [receipt]
        log = _log_text(again)
    assert "zqrcptville" not in log and moved.episode.id.lower() not in log and "maya" not in log


def test_the_digest_is_that_of_the_erased_ids_and_the_log_outlives_a_forgotten_group(memory, db, tick):
    tick()
    memory.add_episode("I live in Zqforgetton.", reference_time="2024-01-05", speaker="Maya",
                       group_id="zqgroupname")
    held = memory.export("zqgroupname")
    ids = {"episodes": [e["id"] for e in held["episodes"]], "entities": [e["id"] for e in held["entities"]],
           "assertions": [a["id"] for a in held["assertions"]],
           "fact_versions": [f["id"] for f in held["facts"]],
           "summary_versions": [s["id"] for s in held["summaries"]]}
    tick()
    removed = memory.forget("zqgroupname", request_id="ticket 7")
    assert removed > 0 and isinstance(removed, int)
    receipt = removed.receipt
    assert receipt.operation == "forget" and receipt.request_id == "ticket 7"
    assert receipt.digest == erasure_digest(ids)  # anyone holding the ids can check it
    assert {k: len(v) for k, v in ids.items()} == {k: n for k, n in receipt.counts.items() if n}
    assert "zqgroupname" not in memory.groups()
    assert memory.erasures(group_id="zqgroupname") == [receipt]
    assert memory.erasures() == []  # another group's log is its own
    memory.close()
    data = _file_bytes(db)
    assert b"zqforgetton" not in data and b"zqgroupname" not in data  # the log names groups by a digest


def test_a_prune_writes_one_receipt_per_part_under_one_request_id(memory, tick):
    tick()
    memory.add_episode("I live in Paris.", reference_time="2023-01-05", speaker="Maya")
    tick()
    memory.add_episode("I moved to Berlin.", reference_time="2024-01-05", speaker="Maya")
    cutoff = tick()
    report = memory.prune(history_before=cutoff, episodes_before="2023-06-01", request_id="retention-2025")
    history, texts = report.receipts
    assert (history.operation, texts.operation) == ("prune_history", "prune_episode_texts")
    assert {history.request_id, texts.request_id} == {"retention-2025"}
    assert history.counts["fact_versions"] + history.counts["summary_versions"] == report.versions_removed
    assert texts.counts["episode_texts"] == report.episodes_erased == 1
    assert memory.erasures() == report.receipts
    assert memory.erasures(since=tick()) == []


def test_request_ids_are_generated_or_checked(memory, tick):
    tick()
    told = memory.add_episode("I live in Oslo.", reference_time="2023-01-05", speaker="Maya")
    for bad in ("", "   ", "x" * 129, "line\nbreak", 42):
        with pytest.raises(InvalidInput, match="request_id"):
            memory.erase_episode(told.episode.id, request_id=bad)
    assert [e.id for e in memory.core.store.episodes("default")] == [told.episode.id]  # nothing erased
    assert memory.erasures() == []
    first = memory.erase_episode(told.episode.id).receipt
    assert first is not None and len(first.request_id) == 36  # a UUID
    with pytest.raises(NotFound):
        memory.erase_episode(told.episode.id)
    assert memory.erasures() == [first]  # a refused erasure leaves no receipt


def test_cli_erase_asks_first_and_erasures_lists_the_log(db, capsys, monkeypatch):
    assert main(["--db", str(db), "add-episode", "I live in Zqclitown.", "--reference-time", "2023-01-05",
                 "--speaker", "Maya", "--json"]) == 0
    episode_id = json.loads(capsys.readouterr().out)["episode"]["id"]
    monkeypatch.setattr("sys.stdin.isatty", lambda: True)
    monkeypatch.setattr("builtins.input", lambda prompt: "no")
    assert main(["--db", str(db), "erase", "episode", episode_id]) == 1
    assert "nothing erased" in capsys.readouterr().err
    prompts: list[str] = []
    monkeypatch.setattr("builtins.input", lambda prompt: prompts.append(prompt) or episode_id)
    assert main(["--db", str(db), "erase", "episode", episode_id, "--request-id", "DSR-9"]) == 0
    assert "for good" in prompts[0]
    out = capsys.readouterr().out
    assert "erased episode" in out and "receipt DSR-9" in out
    assert main(["--db", str(db), "erasures"]) == 0
    table = capsys.readouterr().out
    assert "DSR-9" in table and "erase_episode" in table
    assert main(["--db", str(db), "erasures", "--json"]) == 0
    [receipt] = json.loads(capsys.readouterr().out)
    assert receipt["request_id"] == "DSR-9" and receipt["counts"]["episodes"] == 1
    assert "zqclitown" not in json.dumps(receipt).lower()
    assert main(["--db", str(db), "forget", "--group", "default", "--yes", "--request-id", "DSR-10",
                 "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["receipt"]["request_id"] == "DSR-10"
    assert main(["--db", str(db), "erasures", "--json"]) == 0
    assert [r["request_id"] for r in json.loads(capsys.readouterr().out)] == ["DSR-9", "DSR-10"]


def test_cli_forget_says_how_many_records_of_each_kind_went_and_the_receipt_agrees(db, capsys):
    """One number in both lines, and what it counts (issue 54: "17 records removed" beside a receipt
    of 11 records)."""
    with TemporalGraph.open(db, embed=False) as tg:
        tg.add_episode("I live in Paris. I work at Acme.", reference_time="2023-01-05", speaker="Ana")
    assert main(["--db", str(db), "forget", "--group", "default", "--yes", "--request-id", "DSR-11"]) == 0
    said, receipt_line = capsys.readouterr().out.strip().splitlines()
    with TemporalGraph.open(db, embed=False) as tg:
        (logged,) = tg.erasures()
    total = logged.total
    assert said.startswith(f"forgot group 'default': {total} records removed (1 episode, ")
    assert f"{logged.counts['entities']} entities" in said and "fact versions" in said
    assert f": {total} records," in receipt_line


def test_the_mcp_forget_tool_returns_the_receipt(memory, tick):
    from temporal_graph.tools import call_tool

    tick()
    memory.add_fact("Ann", "lives in", "Rome")
    done = call_tool(memory, "forget_group", {"group_id": "default"}, allow_forget=True)
    assert done["removed"] > 0 and done["receipt"]["operation"] == "forget"
    assert memory.erasures()[0].digest == done["receipt"]["digest"]


def test_the_docs_examples_of_receipts_and_backtests_run():
    from doc_examples import run_example

    assert run_example("### Erasure receipts")["receipt"].operation == "erase_episode"
    assert run_example("### Backtests: what the memory learned after K")["report"].clean
