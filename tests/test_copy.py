"""Copying a memory between stores (``tg.copy_to``, ``tgraph copy``): the target equals the source on
``export``, on every vector and on random ``as_of(T, K)``; a copy stopped half-way completes when run
again, and a second run writes nothing. SQLite -> SQLite always; through Neo4j when NEO4J_URI is set."""

from __future__ import annotations

import random
import sqlite3
from datetime import timedelta
from pathlib import Path

import pytest

from temporal_graph import TemporalGraph
from temporal_graph.core.copy import summary_steps
from temporal_graph.core.model import RECORD_KINDS, EntitySummary
from temporal_graph.core.stores.protocol import FactQuery, Store
from temporal_graph.core.stores.sqlite import SQLiteStore
from temporal_graph.interfaces.cli import main
from temporal_graph.times import ManualClock

SAMPLE = Path(__file__).resolve().parents[1] / "examples" / "sample_chat.jsonl"


def _source(path: Path, clock: ManualClock, *, kb: str = "kb", chat: bool = True) -> TemporalGraph:
    """A memory with history in two groups: a replayed chat log (vectors, summaries) and hand-told
    facts that were contradicted, ended and retracted."""
    tg = TemporalGraph.open(path, clock=clock)
    if chat:
        tg.import_file(SAMPLE, replay=True)
    for step, (call, *args) in enumerate([
        ("add", "Alice", "lives in", "Paris", "2019-01-01"),
        ("add", "Alice", "works at", "Acme", "2019-02-01"),
        ("add", "Alice", "lives in", "Berlin", "2021-06-01"),
        ("add", "Bob", "likes", "chess", None),
        ("end", "Alice", "works at", "Acme", "2022-01-01"),
        ("retract", "Bob", "likes", "chess"),
        ("add", "Alice", "lives in", "Lisbon", "2023-03-01"),
    ]):
        clock.set(clock() + timedelta(days=1 + step))
        if call == "add":
            tg.add_fact(*args[:3], valid_at=args[3], group_id=kb)
        elif call == "end":
            tg.end_fact(*args[:3], at=args[3], group_id=kb)
        else:
            tg.retract_fact(*args, group_id=kb)
    return tg


def _vectors(store: Store, group_id: str) -> dict:
    ids = {
        "fact": [f.id for f in store.facts(FactQuery(group_id, all_versions=True))],
        "entity": [e.id for e in store.entities(group_id)],
        "episode": [e.id for e in store.episodes(group_id)],
    }
    return {kind: store.vectors(group_id, kind, ids[kind]) for kind in RECORD_KINDS}


def _assert_same(source: TemporalGraph, target: TemporalGraph, groups: list[str]) -> None:
    for group in groups:
        assert target.export(group) == source.export(group)
        assert _vectors(target.core.store, group) == _vectors(source.core.store, group)
        facts = source.core.store.facts(FactQuery(group, all_versions=True))
        valid = sorted({t for f in facts for t in (f.valid_at, f.invalid_at) if t} | {source.core.now()})
        known = sorted({t for f in facts for t in (f.created_at, f.expired_at) if t})
        rng = random.Random(7)
        for _ in range(40):
            t, k = rng.choice(valid), rng.choice(known) + timedelta(microseconds=rng.choice([-1, 0, 1]))
            assert target.as_of(t, known_at=k, group_id=group) == source.as_of(t, known_at=k, group_id=group)


@pytest.fixture
def source(tmp_path, clock) -> TemporalGraph:
    tg = _source(tmp_path / "source.db", clock)
    yield tg
    tg.close()


def test_a_copy_equals_its_source_and_a_second_run_writes_nothing(source, tmp_path, clock):
    with TemporalGraph.open(tmp_path / "copy.db", clock=clock) as target:
        report = source.copy_to(target)
        assert report.ok and {g.group_id for g in report.groups} == {"demo", "kb"}
        kb = next(g for g in report.groups if g.group_id == "kb")
        assert kb.samples > 0 and kb.written["fact versions"] == kb.source["fact versions"] > 4
        _assert_same(source, target, ["demo", "kb"])
        # Expired versions kept exactly: a retracted fact is still there, with its transaction time.
        assert any(f["expired_at"] for f in target.export("kb")["facts"])

        again = source.copy_to(target)
        assert again.ok and all(sum(g.written.values()) == 0 for g in again.groups)
        _assert_same(source, target, ["demo", "kb"])


def test_one_group_only(source, tmp_path, clock):
    with TemporalGraph.open(tmp_path / "copy.db", clock=clock) as target:
        report = source.copy_to(target.core.store, group_id="kb")
        assert report.ok and [g.group_id for g in report.groups] == ["kb"]
        assert target.core.store.groups() == ["kb"]


class _Killed(Exception):
    pass


class _DiesAfter(SQLiteStore):
    """A target that is killed after ``writes`` committed write transactions."""

    def __init__(self, path: Path, writes: int) -> None:
        super().__init__(path)
        self.left = writes

    def write(self, fn):  # type: ignore[override]
        if self.left == 0:
            raise _Killed
        self.left -= 1
        return super().write(fn)


@pytest.mark.parametrize("writes", [1, 3, 6])
def test_a_copy_killed_half_way_completes_when_run_again(source, tmp_path, clock, writes):
    path = tmp_path / "copy.db"
    dying = _DiesAfter(path, writes)
    with pytest.raises(_Killed):
        source.copy_to(dying, batch_size=7)
    dying.close()
    with TemporalGraph.open(path, clock=clock) as target:
        report = source.copy_to(target, batch_size=7)
        assert report.ok
        _assert_same(source, target, ["demo", "kb"])


def test_a_later_copy_brings_what_changed_since(source, tmp_path, clock):
    with TemporalGraph.open(tmp_path / "copy.db", clock=clock) as target:
        assert source.copy_to(target).ok
        clock.set(clock() + timedelta(days=30))
        source.add_fact("Alice", "lives in", "Porto", valid_at="2024-09-01", group_id="kb")  # expires a row
        report = source.copy_to(target)
        kb = next(g for g in report.groups if g.group_id == "kb")
        assert report.ok and kb.written["fact versions"] >= 2
        _assert_same(source, target, ["kb"])


def test_summary_versions_ended_without_a_successor_end_the_same_on_the_target(clock):
    t = [clock() + timedelta(days=i) for i in range(4)]

    def version(i: int, created: int, expired: int | None) -> EntitySummary:
        return EntitySummary(id=f"s{i}", group_id="g", entity_id="e", entity="E", text=f"v{i}",
                             created_at=t[created], expired_at=None if expired is None else t[expired])

    versions = [version(0, 0, 1), version(1, 2, 3)]  # ended at t1, a new one at t2, ended at t3
    steps = summary_steps(versions, {})
    assert [(s.summaries_ended, [v.id for v in s.summaries]) for s in steps] == [
        ([], ["s0"]), ([("g", "e", t[1])], []), ([], ["s1"]), ([("g", "e", t[3])], []),
    ]
    assert summary_steps(versions, {v.id: v for v in versions}) == []


def test_a_copy_whose_fact_version_changed_on_the_target_is_reported(source, tmp_path):
    """The comparison reads every fact version field by field, not only counts and samples: one
    version's text altered on the target, behind the engine's back, makes the report differ."""
    target_path = tmp_path / "copy.db"
    assert source.copy_to(target_path, group_id="kb").ok
    with sqlite3.connect(target_path) as db:
        db.execute("UPDATE facts SET text = 'Alice lives in Oslo' WHERE rowid = "
                   "(SELECT min(rowid) FROM facts WHERE group_id = 'kb')")
    [kb] = source.copy_to(target_path, group_id="kb").groups
    assert not kb.ok and kb.source == kb.target
    assert any("1 fact versions differ" in m for m in kb.mismatches)


def test_tgraph_copy_reports_and_fails_on_a_mismatch(source, tmp_path, capsys):
    src, dst = str(tmp_path / "source.db"), str(tmp_path / "copy.db")
    assert main(["--db", src, "copy", "--to", dst]) == 0
    out = capsys.readouterr().out
    assert "fact versions" in out and "both sides agree" in out

    with TemporalGraph.open(dst) as target:  # the target now holds something the source does not
        target.add_fact("Mallory", "lives in", "Nowhere", group_id="kb")
    # A merge keeps it, so both sides differ, and the command says so.
    assert main(["--db", src, "--group", "kb", "copy", "--to", dst, "--merge"]) == 1
    assert "differs" in capsys.readouterr().out
    # A copy brings the target level with its source: what the source does not hold goes.
    assert main(["--db", src, "--group", "kb", "copy", "--to", dst]) == 0
    assert "both sides agree" in capsys.readouterr().out
    with TemporalGraph.open(dst) as target:
        assert target.find_entity("Mallory", "kb") is None

    assert main(["--db", src, "copy", "--to", src]) == 2
    assert "that is the memory being copied" in capsys.readouterr().err


@pytest.mark.neo4j
def test_through_neo4j_and_back(tmp_path, clock):
    from temporal_graph.testing import neo4j_store_from_env, unique_test_group

    group = unique_test_group("copy")  # the database may be shared: a group of our own
    store = neo4j_store_from_env()
    assert store is not None
    with _source(tmp_path / "source.db", clock, kb=group, chat=False) as source, \
            TemporalGraph(store, clock=clock) as neo:
        try:
            assert source.copy_to(neo, group_id=group).ok
            _assert_same(source, neo, [group])
            assert source.copy_to(neo, group_id=group).ok  # nothing left to write, still equal
            with TemporalGraph.open(tmp_path / "back.db", clock=clock) as back:
                assert neo.copy_to(back, group_id=group).ok
                _assert_same(source, back, [group])
        finally:
            neo.forget(group)


def test_the_docs_copy_example(tmp_path, monkeypatch, capsys):
    from tests.doc_examples import first_block

    code = first_block("Moving a memory between stores")
    monkeypatch.chdir(tmp_path)
    with TemporalGraph.open("memory.db") as tg:
        tg.import_file(SAMPLE, progress=False)
    exec(compile(code, "docs", "exec"), {})
    assert capsys.readouterr().out.strip() == "['demo'] ['Zhang Wei']"
    with TemporalGraph.open("memory.db") as tg, TemporalGraph.open("copy.db") as target:
        assert target.export("demo") == tg.export("demo")


def test_copy_to_an_empty_path_is_refused_not_a_temporary_database(tmp_path, capsys):
    source = tmp_path / "m.db"
    with TemporalGraph.open(source, embed=False) as tg:
        tg.add_fact("Ana", "lives in", "Oslo", valid_at="2020")
    assert main(["--db", str(source), "copy", "--to", ""]) == 2
    assert "the database path is empty" in capsys.readouterr().err


def test_a_copy_run_again_brings_retractions_prunes_and_erasures_across(source, tmp_path, clock):
    with TemporalGraph.open(tmp_path / "copy.db", clock=clock) as target:
        assert source.copy_to(target).ok
        clock.set(clock() + timedelta(days=30))
        withdrawn = next(e for e in source.core.store.episodes("demo") if "Hangzhou" in e.content)
        source.retract_episode(withdrawn.id, group_id="demo")
        erased = next(e for e in source.core.store.episodes("demo") if "badminton" in e.content)
        source.erase_episode(erased.id, group_id="demo")
        source.prune(history_before=clock(), episodes_before="2023-02-01", group_id="demo")
        source.add_fact("Alice", "lives in", "Porto", valid_at="2024-09-01", group_id="kb")
        report = source.copy_to(target)
        assert report.ok, report
        _assert_same(source, target, ["demo", "kb"])
        kept = {e.id: e for e in target.core.store.episodes("demo")}
        assert erased.id not in kept and kept[withdrawn.id].retracted_at is not None
        assert not any(e.content == erased.content for e in kept.values())
        again = source.copy_to(target)
        assert again.ok and all(sum(g.written.values()) == 0 for g in again.groups)


def test_a_copy_into_a_group_holding_a_memory_of_its_own_is_refused_unless_merging(source, tmp_path, clock):
    from temporal_graph.errors import InvalidInput

    path = tmp_path / "other.db"
    with TemporalGraph.open(path, clock=clock) as other:
        other.add_fact("Alice", "lives in", "Berlin", valid_at="2020", group_id="kb")
    with pytest.raises(InvalidInput, match="merge"):
        source.copy_to(str(path))  # a path names an embedded file
    with TemporalGraph.open(path, clock=clock) as other:
        assert [f.object for f in other.now("Alice", "lives in", group_id="kb")] == ["Berlin"]  # untouched
        assert other.core.store.groups() == ["kb"]
    report = source.copy_to(path, group_id="kb", merge=True)
    assert not report.ok  # two memories in one group: the sides differ, and the report says so
