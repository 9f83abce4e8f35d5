"""Derived data is complete after any crash: a write keeps its rows, their vectors and the entity
summaries they change in one transaction, so an import or a bulk load stopped at any point and run
again gives the memory a clean run gives (beliefs, entities, a vector for every record, the same
summaries), and a write that raises has written nothing."""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import zlib
from collections import Counter
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ingestion.ingest import Ingestion
from temporal_graph import TemporalGraph
from temporal_graph.core.model import RECORD_KINDS
from temporal_graph.core.stores.protocol import ChangeSet, FactQuery
from temporal_graph.core.stores.sqlite import SQLiteStore
from temporal_graph.errors import StoreLocked
from temporal_graph.times import ManualClock

ROOT = Path(__file__).resolve().parents[1]
GROUP = "chat"
NOW = "2025-01-01T00:00:00+00:00"  # one transaction time for every run: runs compare exactly
CITIES = ["Paris", "Rome", "Lisbon", "Oslo", "Vienna", "Prague"]
JOBS = ["Acme", "Globex", "Initech", "Umbrella"]
HOBBIES = ["chess", "jazz", "tennis", "opera", "golf"]


class Killed(BaseException):
    """Stands for kill -9: nothing in the engine catches it."""


class HashEmbedder:
    """Deterministic vectors from a text's checksum, far apart for different texts (no model to
    load); ``crash_at``: the encode call that is killed."""

    dimensions = 64

    def __init__(self, crash_at: int | None = None) -> None:
        self.crash_at, self.calls = crash_at, 0

    def encode(self, texts: Sequence[str]) -> list[list[float]]:
        self.calls += 1
        if self.calls == self.crash_at:
            raise Killed("encode")
        out = []
        for text in texts:
            v = np.random.default_rng(zlib.crc32(text.encode())).standard_normal(self.dimensions)
            out.append((v / np.linalg.norm(v)).tolist())
        return out


class CrashingStore(SQLiteStore):
    """The embedded store, killed at the n-th change applied inside a transaction (rolled back,
    as a kill before COMMIT is) or right after the n-th commit (before whatever came next)."""

    def __init__(self, path: Path, crash: tuple[str, int] | None = None) -> None:
        super().__init__(path)
        self.crash, self.steps = crash, Counter[str]()

    def _step(self, where: str) -> None:
        self.steps[where] += 1
        if self.crash == (where, self.steps[where]):
            raise Killed(where)

    def apply(self, changes: ChangeSet) -> None:
        self._step("apply")
        super().apply(changes)

    def write(self, fn: Callable[[Any], Any]) -> Any:
        result = super().write(fn)
        self._step("commit")
        return result


def chat_log(path: Path) -> Path:
    """Three people over eight months: moves (a 'one' relation with successor versions), jobs,
    likes, shared places and hobbies (entities summarized across batches)."""
    lines = []
    for i, person in enumerate(["Ana", "Ben", "Cleo"]):
        for k in range(8):
            text = [f"I live in {CITIES[(i + k) % 6]}.", f"I work at {JOBS[(i + k) % 4]}.",
                    f"I like {HOBBIES[(i + k) % 5]}.",
                    f"I moved to {CITIES[(i + k + 2) % 6]} last month."][k % 4]
            lines.append({"id": f"{person}-{k}", "group": GROUP, "speaker": person, "text": text,
                          "timestamp": f"2023-{k + 1:02d}-{10 + i:02d}T09:00:00+00:00"})
    path.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    return path


FACTS = [
    *[(f"Person {p}", "lives in", CITIES[(p + y) % 6], str(2010 + 3 * y))
      for p in range(6) for y in range(3)],
    *[(f"Person {p}", "likes", HOBBIES[(p * 2 + k) % 5]) for p in range(6) for k in range(2)],
    *[(f"Person {p}", "works at", JOBS[p % 4], "2015", "2020") for p in range(6)],
]


def memory(
    path: Path, store: SQLiteStore | None = None, embedder: HashEmbedder | None = None
) -> TemporalGraph:
    return TemporalGraph(store or SQLiteStore(path), clock=ManualClock(NOW),
                         embedder=embedder or HashEmbedder())


def state(tg: TemporalGraph, group: str) -> dict[str, Any]:
    """What a user can tell apart: current beliefs, entity names, which records have vectors, and
    the current summaries."""
    store = tg.core.store
    rows = store.facts(FactQuery(group))
    totals = {"fact": len(rows), "entity": len(store.entities(group)), "episode": len(store.episodes(group))}
    missing = {kind: len(store.missing_embeddings(group, kind, 10**6)) for kind in RECORD_KINDS}
    return {
        "beliefs": sorted((f.subject, f.relation, f.object, str(f.valid_at), str(f.invalid_at))
                          for f in rows),
        "entities": sorted(e.name for e in store.entities(group)),
        "vectors": {kind: totals[kind] - missing[kind] for kind in RECORD_KINDS},
        "missing_vectors": missing,
        "summaries": sorted((s.entity, s.text) for s in store.summaries(group)),
    }


def import_chat(tg: TemporalGraph, log: Path) -> None:
    Ingestion(tg.core).import_file(log, progress=False, batch_size=5)


def load_facts(tg: TemporalGraph, _: Path) -> None:
    tg.add_facts(FACTS, group_id=GROUP, batch_size=7)


RUNS = {"import": import_chat, "add_facts": load_facts}
CRASHES = st.one_of(
    st.tuples(st.sampled_from(["apply", "commit"]), st.integers(1, 40)),
    st.tuples(st.just("encode"), st.integers(1, 12)),
)


@pytest.fixture(scope="module")
def clean(tmp_path_factory: pytest.TempPathFactory) -> dict[str, dict[str, Any]]:
    """Each run once, uninterrupted, in a file of its own."""
    out = {}
    for name, run in RUNS.items():
        folder = tmp_path_factory.mktemp(name)
        with memory(folder / "clean.db") as tg:
            run(tg, chat_log(folder / "chat.jsonl"))
            out[name] = state(tg, GROUP)
    return out


def test_the_clean_runs_have_every_vector_and_a_summary_for_every_entity(clean) -> None:
    for found in clean.values():
        assert found["missing_vectors"] == {"fact": 0, "entity": 0, "episode": 0}
        assert found["vectors"]["fact"] > 10
        holding = {name for s, _, o, _, end in found["beliefs"] if end == "None" for name in (s, o)}
        assert {entity for entity, _ in found["summaries"]} == holding  # each with a fact that still holds


@pytest.mark.parametrize("run", sorted(RUNS))
@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(crash=CRASHES)
def test_a_run_killed_anywhere_then_run_again_equals_a_clean_run(
    run: str, crash: tuple[str, int], clean, tmp_path_factory: pytest.TempPathFactory
) -> None:
    folder = tmp_path_factory.mktemp("crash")
    log, db = chat_log(folder / "chat.jsonl"), folder / "memory.db"
    where, n = crash
    store = CrashingStore(db, crash if where != "encode" else None)
    tg = memory(db, store, HashEmbedder(crash_at=n if where == "encode" else None))
    try:
        RUNS[run](tg, log)
    except Killed:
        pass
    finally:
        tg.close()  # the process is gone; what it committed is what the file holds
    with memory(db) as again:  # a new process, run again
        RUNS[run](again, log)
        assert state(again, GROUP) == clean[run]


# -- a real kill -9, in another process ---------------------------------------------------------------
KILLED_AFTER_A_COMMIT = """
import sys, time, zlib
import numpy as np
from ingestion.ingest import Ingestion
from temporal_graph import TemporalGraph
from temporal_graph.core.stores.sqlite import SQLiteStore
from temporal_graph.times import ManualClock

class HashEmbedder:
    dimensions = 64
    def encode(self, texts):
        out = []
        for text in texts:
            v = np.random.default_rng(zlib.crc32(text.encode())).standard_normal(64)
            out.append((v / np.linalg.norm(v)).tolist())
        return out

class Store(SQLiteStore):
    commits = 0
    def write(self, fn):
        result = super().write(fn)
        Store.commits += 1
        if Store.commits == int(sys.argv[3]):
            print("committed", flush=True)
            time.sleep(120)  # killed here, between a commit and whatever follows it
        return result

tg = TemporalGraph(Store(sys.argv[1]), clock=ManualClock("%s"), embedder=HashEmbedder())
Ingestion(tg.core).import_file(sys.argv[2], progress=False, batch_size=5)
print("finished", flush=True)
""" % NOW


@pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="needs SIGKILL")
@pytest.mark.parametrize("commit", [1, 2])
def test_an_import_killed_by_sigkill_after_a_commit_is_completed_by_running_it_again(
    commit: int, clean, tmp_path: Path
) -> None:
    log, db = chat_log(tmp_path / "chat.jsonl"), tmp_path / "memory.db"
    proc = subprocess.Popen([sys.executable, "-c", KILLED_AFTER_A_COMMIT, str(db), str(log), str(commit)],
                            cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert proc.stdout.readline().strip() == "committed", proc.stderr.read()
    finally:
        os.kill(proc.pid, signal.SIGKILL)
        proc.communicate(timeout=60)
    with memory(db) as tg:
        half = state(tg, GROUP)
        assert half["missing_vectors"] == {"fact": 0, "entity": 0, "episode": 0}  # nothing half-done
        assert 0 < len(half["beliefs"]) < len(clean["import"]["beliefs"])
        import_chat(tg, log)
        assert state(tg, GROUP) == clean["import"]


# -- a write that raises wrote nothing -----------------------------------------------------------------
class LockGrabbingEmbedder(HashEmbedder):
    """While the first write encodes its texts, another process takes the file's write lock."""

    def __init__(self, path: Path) -> None:
        super().__init__()
        self.other = sqlite3.connect(path, isolation_level=None, timeout=0)

    def encode(self, texts: Sequence[str]) -> list[list[float]]:
        if self.calls == 0:
            self.other.execute("BEGIN IMMEDIATE")
        return super().encode(texts)


def test_add_fact_under_a_held_lock_raises_with_nothing_committed(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setenv("TGRAPH_LOCK_TIMEOUT", "0")
    db = tmp_path / "memory.db"
    with memory(db) as tg:
        tg.add_fact("Ana", "lives in", "Rome", valid_at="2020")
    grabbing = LockGrabbingEmbedder(db)
    with memory(db, embedder=grabbing) as tg:
        with pytest.raises(StoreLocked):
            tg.add_fact("Ana", "lives in", "Oslo", valid_at="2024")
        grabbing.other.execute("ROLLBACK")  # the other writer is done
        assert [(f.object, f.invalid_at) for f in tg.history("Ana")] == [("Rome", None)]
        assert tg.find_entity("Oslo") is None and tg.summary("Ana").text == "Ana lives in Rome since 2020."
        tg.add_fact("Ana", "lives in", "Oslo", valid_at="2024")  # the same call, once the lock is free
        assert state(tg, "default")["missing_vectors"] == {"fact": 0, "entity": 0, "episode": 0}
        assert tg.summary("Ana").text.startswith("Ana lives in Oslo since 2024.")
    grabbing.other.close()


# -- files an older version wrote ----------------------------------------------------------------------
def test_reindex_rebuilds_the_vectors_and_summaries_an_older_version_left_out(clean, tmp_path: Path) -> None:
    db = tmp_path / "memory.db"
    with memory(db) as tg:
        load_facts(tg, tmp_path)
    with sqlite3.connect(db) as old:  # as a version that embedded lazily and kept no summaries left it
        old.execute("DELETE FROM summaries")
        old.execute("UPDATE facts SET embedding = NULL")
    with memory(db) as tg:
        assert state(tg, GROUP)["summaries"] == []
        assert tg.reindex() == clean["add_facts"]["vectors"]["fact"] + len(clean["add_facts"]["summaries"])
        assert state(tg, GROUP) == clean["add_facts"]
        assert tg.reindex() == 0
        tg.add_facts([("Person 0", "lives in", "Lima", "2030")], group_id=GROUP, summaries=False)
        assert "Lima" not in tg.summary("Person 0", group_id=GROUP).text  # stale now
        assert tg.reindex(GROUP) == 3  # Person 0 (moved), Lima (new), the city Person 0 left
        assert tg.summary("Person 0", group_id=GROUP).text.startswith("Person 0 lives in Lima since 2030.")


# -- the model never runs while the write lock is held --------------------------------------------------
class WatchingEmbedder(HashEmbedder):
    """Counts the texts a write encodes inside its own transaction (holding the write lock). An
    import encodes its next batch in another thread meanwhile: that never holds the lock up."""

    def __init__(self) -> None:
        super().__init__()
        self.store: SQLiteStore | None = None
        self.inside = 0

    def encode(self, texts: Sequence[str]) -> list[list[float]]:
        store = self.store
        if store is not None and store._conn._conn.in_transaction and store._lock._is_owned():  # noqa: SLF001
            self.inside += len(texts)
        return super().encode(texts)


def test_what_a_write_embeds_is_encoded_before_its_transaction_opens(tmp_path: Path) -> None:
    watching = WatchingEmbedder()
    with memory(tmp_path / "memory.db", embedder=watching) as tg:
        watching.store = tg.core.store  # type: ignore[assignment]
        tg.add_fact("Ana", "lives in", "Rome", valid_at="2020")
        tg.add_fact("ana", "lives in", "Oslo", valid_at="2024")  # Rome's new version re-uses its vector
        tg.end_fact("Ana", "lives in", at="2024-06-01")
        tg.add_episode("I live in Lima.", reference_time="2024-07-01", speaker="Ben")
        import_chat(tg, chat_log(tmp_path / "chat.jsonl"))
        assert watching.calls > 5 and watching.inside == 0
        assert all(state(tg, group)["missing_vectors"] == {"fact": 0, "entity": 0, "episode": 0}
                   for group in ("default", GROUP))
