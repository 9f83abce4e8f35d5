"""The vector change log of the embedded file keeps no id of what an erase or a prune removed, and a
vector matrix saved before the erase (held by another process, or left beside the file) is never
brought up to date from the log: it is loaded whole again, without the erased vectors."""

from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path

from temporal_graph import TemporalGraph
from temporal_graph.times import ManualClock

GROUP = "default"


def memory(path: Path) -> TemporalGraph:
    return TemporalGraph.open(path, clock=ManualClock("2030-01-01T00:00:00+00:00"))


def logged(path: Path) -> set[str]:
    with sqlite3.connect(path) as conn:
        return {r[0] for r in conn.execute("SELECT item_id FROM vector_changes")}


def nearest(tg: TemporalGraph, kind: str, text: str) -> list[str]:
    vector = list(tg.embedder.encode([text])[0])
    return [item_id for item_id, _ in tg.core.store.vector_search(GROUP, kind, vector, 10)]


def test_an_erased_message_leaves_the_vector_change_log(tmp_path: Path) -> None:
    db = tmp_path / "m.db"
    with memory(db) as tg:
        kept = tg.add_episode("I live in Denver.", reference_time="2024-01-01", speaker="Maya").episode.id
        gone = tg.add_episode("Zqvx likes quiet mornings.", reference_time="2024-01-02").episode.id
        tg.reindex()
        assert gone in nearest(tg, "episode", "Zqvx likes quiet mornings.")
        tg.add_episode("Another message.", reference_time="2024-01-03")  # the log now names `gone`
        tg.erase_episode(gone)
        assert gone not in logged(db)
        assert gone not in nearest(tg, "episode", "Zqvx likes quiet mornings.")
        assert kept in nearest(tg, "episode", "I live in Denver.")


def test_an_erased_person_and_their_facts_leave_the_log(tmp_path: Path) -> None:
    db = tmp_path / "m.db"
    with memory(db) as tg:
        tg.add_fact("Zqvx", "lives in", "Oslo")
        tg.add_fact("Zqvx", "lives in", "Bergen")  # Oslo's row expires: its id is logged
        tg.add_fact("Ana", "lives in", "Rome")
        tg.reindex()
        ids = {r[0] for r in sqlite3.connect(db).execute(
            "SELECT f.id FROM facts f JOIN entities e ON e.id = f.subject_id WHERE e.name = 'Zqvx' "
            "UNION SELECT id FROM entities WHERE name IN ('Zqvx', 'Oslo', 'Bergen')")}
        assert ids & logged(db)
        tg.erase_entity("Zqvx")
        assert not ids & logged(db)


def test_pruning_takes_the_ids_it_removes_out_of_the_log(tmp_path: Path) -> None:
    db = tmp_path / "m.db"
    clock = ManualClock("2030-01-01T00:00:00+00:00")
    with TemporalGraph.open(db, clock=clock) as tg:
        tg.add_fact("Ana", "lives in", "Paris")
        tg.add_fact("Ana", "lives in", "Rome")  # Paris's row expires
        old = tg.add_episode("Zqvx said this long ago.", reference_time="2020-01-01").episode.id
        tg.reindex()
        expired = {r[0] for r in sqlite3.connect(db).execute(
            "SELECT id FROM facts WHERE expired_at IS NOT NULL")}
        assert expired and expired <= logged(db)
        clock.set("2030-02-01T00:00:00+00:00")
        tg.prune(history_before="2030-01-15", episodes_before="2021-01-01")
        assert not (expired | {old}) & logged(db)
        assert old not in nearest(tg, "episode", "Zqvx said this long ago.")


def test_a_matrix_saved_before_an_erase_is_not_trusted_after_it(tmp_path: Path) -> None:
    """Restore the saved matrices an erase deleted (a process saved them before, or a backup tool
    put them back): the next process still finds no erased vector."""
    db = tmp_path / "m.db"
    saved = Path(str(db) + ".vectors")
    with memory(db) as tg:
        tg.add_episode("I live in Denver.", reference_time="2024-01-01")
        gone = tg.add_episode("Zqvx likes quiet mornings.", reference_time="2024-01-02").episode.id
        tg.reindex()
    with memory(db) as tg:
        assert gone in nearest(tg, "episode", "Zqvx likes quiet mornings.")  # saves the matrix
    assert any(saved.iterdir())
    shutil.copytree(saved, tmp_path / "kept")
    with memory(db) as tg:
        tg.erase_episode(gone)
    shutil.rmtree(saved, ignore_errors=True)
    shutil.copytree(tmp_path / "kept", saved)
    with memory(db) as tg:
        assert gone not in nearest(tg, "episode", "Zqvx likes quiet mornings.")
