"""Erase and retention: what is erased is gone from the answers and from the bytes of the embedded
file and its WAL (secure delete, full-text segments merged, WAL truncated, VACUUM); timelines are
derived again from what remains."""

from __future__ import annotations

import json
from collections.abc import Callable
from datetime import datetime
from pathlib import Path

import pytest

from temporal_graph import TemporalGraph
from temporal_graph.errors import NotFound
from temporal_graph.interfaces.cli import main
from temporal_graph.times import ManualClock


def _file_bytes(path: Path) -> bytes:
    """The database file and its WAL, lower-cased (full-text tokens are stored lower-case)."""
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
def memory(db: Path, clock: ManualClock) -> TemporalGraph:
    return TemporalGraph.open(db, clock=clock)


def test_an_erased_message_leaves_no_byte_and_its_facts_no_trace(memory, db, tick: Callable[..., datetime]):
    tick()
    memory.add_episode("I live in Denver.", reference_time="2023-01-05", speaker="Maya")
    tick()
    moved = memory.add_episode("I moved to Zqvxmarker last month.", reference_time="2024-03-05",
                               speaker="Maya")
    assert [f.object for f in memory.now("Maya", "lives in")] == ["Zqvxmarker"]
    assert b"zqvxmarker" in _file_bytes(db)
    tick()
    report = memory.erase_episode(moved.episode.id)
    assert report.episodes == [moved.episode.id] and report.fact_versions >= 1
    # Denver holds again, as if the message had never been told; history keeps nothing of it.
    [denver] = memory.now("Maya", "lives in")
    assert denver.object == "Denver" and denver.invalid_at is None
    assert "Zqvxmarker" not in str(memory.export())
    assert "Zqvxmarker" not in memory.summary("Maya").text
    assert all("Zqvxmarker" not in h.text for h in memory.search("Zqvxmarker moved"))
    assert b"zqvxmarker" not in _file_bytes(db)
    memory.close()
    assert b"zqvxmarker" not in _file_bytes(db)
    with TemporalGraph.open(db) as again, pytest.raises(NotFound):
        again.erase_episode(moved.episode.id)


def test_a_fact_other_messages_support_stays_without_the_erased_one(memory, tick):
    tick()
    first = memory.add_episode("I live in Denver.", reference_time="2023-01-05", speaker="Maya")
    tick()
    again = memory.add_episode("I live in Denver.", reference_time="2023-06-05", speaker="Maya")
    tick()
    memory.erase_episode(first.episode.id)
    [denver] = memory.now("Maya", "lives in")
    assert denver.episode_ids == (again.episode.id,)
    assert all(first.episode.id not in v.episode_ids for v in memory.audit(denver.fact_id))


def test_erasing_an_entity_reports_and_with_episodes_erases_the_messages_naming_it(memory, db, tick):
    tick()
    memory.add_fact("Qwzperson", "lives in", "Oslo")
    tick()
    memory.add_fact("Maya", "knows", "Qwzperson")
    tick()
    memory.add_fact("Maya", "lives in", "Denver")
    tick()
    naming = memory.add_episode("I had lunch with Qwzperson today.", reference_time="2024-05-01",
                                speaker="Maya")
    report = memory.erase_entity("Qwzperson")
    assert report.entities == ["Qwzperson"] and naming.episode.id in report.naming_episodes
    assert memory.find_entity("Qwzperson") is None
    assert all("Qwzperson" not in f.text and "Qwzperson" not in (f.subject, f.object) for f in memory.now())
    assert "Qwzperson" not in memory.summary("Maya").text
    assert [f.object for f in memory.now("Maya", "lives in")] == ["Denver"]
    assert b"qwzperson" in _file_bytes(db)  # the message naming them is still there, as reported

    tick()
    memory.add_fact("Qwzperson", "lives in", "Oslo")  # told again, then erased with the messages
    report = memory.erase_entity("qwzperson", include_episodes=True)
    assert naming.episode.id in report.episodes and report.naming_episodes == []
    memory.close()
    assert b"qwzperson" not in _file_bytes(db)


def test_forget_leaves_neither_the_group_name_nor_its_words_in_the_file(memory, db, tick):
    tick()
    memory.add_episode("I live in Zkcontentmark.", reference_time="2024-01-05", speaker="Maya",
                       group_id="zkgroupmark")
    memory.add_fact("Ann", "lives in", "Rome")
    assert b"zkcontentmark" in _file_bytes(db)
    assert memory.forget("zkgroupmark") > 0
    data = _file_bytes(db)
    assert b"zkcontentmark" not in data and b"zkgroupmark" not in data
    assert [f.object for f in memory.now("Ann")] == ["Rome"]


def test_prune_drops_old_history_and_old_message_texts_but_keeps_current_beliefs(memory, db, tick):
    tick()
    told = memory.add_episode("I live in Pqcitymark.", reference_time="2023-01-05", speaker="Maya")
    tick()
    memory.add_episode("I moved to Berlin.", reference_time="2024-01-05", speaker="Maya")
    paris = memory.history("Maya", "lives in")[0]
    assert len(memory.audit(paris.fact_id)) == 2  # the open version, then the one ended by Berlin
    cutoff = tick()
    tick()
    assert b"i live in pqcitymark" in _file_bytes(db)
    report = memory.prune(history_before=cutoff, episodes_before="2023-06-01")
    assert report.versions_removed >= 1 and report.episodes_erased == 1
    # Current beliefs and their provenance stay; the message's text is gone, marked erased.
    assert [(f.object, f.invalid_at is None) for f in memory.history("Maya", "lives in")] == [
        ("Pqcitymark", False), ("Berlin", True)]
    assert len(memory.audit(paris.fact_id)) == 1
    [episode] = memory.core.store.episodes("default", ids=[told.episode.id])
    assert episode.content == "" and episode.erased_at is not None
    assert told.episode.id in memory.history("Maya", "lives in")[0].episode_ids
    assert b"i live in pqcitymark" not in _file_bytes(db)


def test_cli_retract_erase_and_prune(db, capsys):
    assert main(["--db", str(db), "add-episode", "I live in Lisbon.", "--reference-time", "2023-01-05",
                 "--speaker", "Maya", "--json"]) == 0
    episode_id = json.loads(capsys.readouterr().out)["episode"]["id"]
    assert main(["--db", str(db), "retract-episode", episode_id]) == 0
    assert "retracted episode" in capsys.readouterr().out
    assert main(["--db", str(db), "erase", "episode", episode_id, "--json"]) == 2  # not a terminal: --yes
    assert "needs --yes" in capsys.readouterr().err
    assert main(["--db", str(db), "erase", "episode", episode_id, "--yes", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["episodes"] == [episode_id]
    assert main(["--db", str(db), "erase", "entity", "Nobody", "--yes"]) == 2
    assert main(["--db", str(db), "prune", "--history-before", "2030-01-01"]) == 0
    assert "old versions removed" in capsys.readouterr().out
    assert main(["--db", str(db), "prune"]) == 2


def test_a_message_erased_by_retention_no_longer_supports_a_context(memory, tick):
    tick()
    memory.add_episode("I live in Denver.", reference_time="2023-01-05", speaker="Maya")
    assert "I live in Denver." in memory.context("where does Maya live")
    memory.prune(episodes_before="2024-01-01")
    block = memory.context("where does Maya live")
    assert "Maya lives in Denver" in block and "Supporting messages" not in block


def test_an_erase_while_another_reader_holds_old_pages_says_so_and_scrubs_once_it_ends(
    db, clock, tick, monkeypatch
):
    import sqlite3

    from temporal_graph.errors import StoreLocked

    monkeypatch.setenv("TGRAPH_LOCK_TIMEOUT", "0.5")  # read when the file is opened
    memory = TemporalGraph.open(db, clock=clock, embed=False)
    told = memory.add_episode(
        "My password hint is Zqreaderplum.", reference_time="2024-01-05", speaker="Maya"
    )
    tick()
    reader = sqlite3.connect(db, isolation_level=None)
    reader.execute("BEGIN")
    assert reader.execute("SELECT count(*) FROM episodes").fetchone()[0] == 1  # a snapshot from before
    with pytest.raises(StoreLocked, match="another connection's open read"):
        memory.erase_episode(told.episode.id)
    assert memory.core.store.episodes("default") == []  # the erase itself is committed
    reader.execute("COMMIT")
    reader.close()
    memory.scrub()
    assert b"zqreaderplum" not in _file_bytes(db)
    memory.close()
