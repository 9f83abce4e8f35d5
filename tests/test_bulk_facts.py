"""``add_facts`` (bulk load) gives the rows ``add_fact`` one by one gives, on any input order."""

from __future__ import annotations

import json
import random
from datetime import UTC, datetime, timedelta
from unittest import mock

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from temporal_graph import FactInput, Ontology, TemporalGraph
from temporal_graph.core.stores import sqlite as sqlite_store
from temporal_graph.errors import InvalidInput
from temporal_graph.interfaces.cli import main
from temporal_graph.times import ManualClock

ONTOLOGY = Ontology.default_personal().with_relations({"PLAYS_FOR": "one", "WON": "many"})
YEARS = [None, *range(2000, 2012)]

statement = st.tuples(
    st.sampled_from(["Ana", "Bo", "ana "]),
    st.sampled_from(["plays for", "WON", "lives in"]),
    st.sampled_from(["Ajax", "PSV", "Cup", "Rome"]),
    st.sampled_from(YEARS),
    st.sampled_from([None, None, *range(2001, 2014)]),
)


def year(y: int | None) -> datetime | None:
    return None if y is None else datetime(y, 1, 1, tzinfo=UTC)


def belief(tg: TemporalGraph, *, valid_time=None, known_at=None) -> list[tuple]:
    if valid_time is None:
        rows = [f for s in ("Ana", "Bo") for f in tg.history(s)]
    else:
        rows = tg.as_of(valid_time, known_at=known_at)
    return sorted((f.subject, f.relation, f.object, str(f.valid_at), str(f.invalid_at), f.text) for f in rows)


def summaries(tg: TemporalGraph) -> dict[str, str]:
    """Each entity's current summary text (a bulk load refreshes them once per entity per batch).
    Entities without one are left out: a bulk load keeps the object entity of an item it refuses."""
    out: dict[str, str] = {}
    for e in tg.core.store.entities("default"):
        found = tg.summary(e.name)
        if found is not None:
            out[e.name] = found.text
    return out


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(statement, max_size=14), st.randoms(use_true_random=False))
def test_bulk_load_equals_one_by_one_on_shuffled_input(items, rnd) -> None:
    rnd.shuffle(items)
    when = "2030-01-01T00:00:00+00:00"
    with TemporalGraph.open(":memory:", clock=ManualClock(when), ontology=ONTOLOGY, embed=False) as one, \
            TemporalGraph.open(":memory:", clock=ManualClock(when), ontology=ONTOLOGY, embed=False) as bulk:
        refused = []
        for i, (s, r, o, start, end) in enumerate(items):
            try:
                one.add_fact(s, r, o, valid_at=year(start), invalid_at=year(end))
            except InvalidInput:
                refused.append(i)
        # Keys split over transactions or not; the query-only indexes built at the end or kept.
        with mock.patch.object(sqlite_store, "BULK_INDEXES_AT", rnd.choice([0, 200_000])):
            report = bulk.add_facts(((s, r, o, year(a), year(b)) for s, r, o, a, b in items),
                                    batch_size=rnd.choice([1, 3, 20_000]))
        assert [e.index for e in report.errors] == refused
        assert belief(bulk) == belief(one)
        assert summaries(bulk) == summaries(one)
        # Summaries made in the load's write (of entities it created, from the rows it holds) are
        # those made later from the store's rows.
        with TemporalGraph.open(":memory:", clock=ManualClock(when), ontology=ONTOLOGY, embed=False) as later:
            later.add_facts(((s, r, o, year(a), year(b)) for s, r, o, a, b in items), summaries=False)
            later.refresh_summaries()
            assert summaries(later) == summaries(bulk)
        for _ in range(5):  # as of a random (T, K), before and after the load's transaction time
            t = datetime(rnd.randint(1999, 2014), 6, 1, tzinfo=UTC)
            k = datetime(2030, 1, 1, tzinfo=UTC) + timedelta(days=rnd.choice([-1, 0, 1]))
            assert belief(bulk, valid_time=t, known_at=k) == belief(one, valid_time=t, known_at=k)


def test_bad_items_are_reported_by_index_and_the_rest_loaded(tg) -> None:
    report = tg.add_facts([
        ("Ana", "lives in", "Rome", "2019"),
        ("", "lives in", "Paris"),
        {"subject": "Bo", "relation": "likes", "object": "chess", "valid_at": "not a date"},
        FactInput(subject="Bo", relation="works at", object="Acme", valid_at="2020", invalid_at="2019"),
        {"subject": "Bo", "relation": "likes", "object": "go", "colour": "red"},
        ("Bo", "likes", "tea"),
    ])
    assert report.items == 6 and report.rows_written == 2
    assert [e.index for e in report.errors] == [1, 2, 3, 4]
    assert "not a date" in report.errors[1].reason and "colour" in report.errors[3].reason
    assert {f.object for f in tg.now()} == {"Rome", "tea"}
    with pytest.raises(InvalidInput, match="item 1"):
        tg.add_facts([("Cy", "likes", "tea"), ("", "likes", "x")], strict=True)
    assert tg.now("Cy") == []  # strict: nothing written


def test_import_facts_from_csv_and_jsonl(tmp_path, capsys) -> None:
    rows = [("Ana", "lives in", "Rome", "2001", ""), ("Ana", "lives in", "Oslo", "2005", ""),
            ("Bo", "won", "Cup", "2003", "2004")]
    random.Random(1).shuffle(rows)
    csv_file = tmp_path / "facts.csv"
    csv_file.write_text("subject,relation,object,valid_at,invalid_at\n"
                        + "".join(",".join(r) + "\n" for r in rows) + "Ana,,Rome,2001,\n", encoding="utf-8")
    db = tmp_path / "m.db"
    code = main(["--db", str(db), "--group", "club", "import-facts", str(csv_file), "--no-embed", "--json"])
    out = json.loads(capsys.readouterr().out)
    assert code == 0 and out["rows_written"] == 3
    assert [(e["line"], "relation" in e["reason"]) for e in out["errors"]] == [(5, True)]
    jsonl = tmp_path / "facts.jsonl"
    jsonl.write_text(json.dumps({"subject": "Cy", "relation": "lives in", "object": "Oslo"}) + "\n{oops\n",
                     encoding="utf-8")
    assert main(["--db", str(db), "--group", "club", "import-facts", str(jsonl), "--no-embed"]) == 0
    assert "facts.jsonl:2: not JSON" in capsys.readouterr().out
    strict = ["--db", str(db), "--group", "club", "import-facts", str(jsonl), "--strict", "--no-embed"]
    assert main(strict) == 2
    with TemporalGraph.open(db, ontology=ONTOLOGY, embed=False) as tg:
        history = tg.history("Ana", "lives in", group_id="club")
        assert [(f.object, f.valid_at.year, f.invalid_at and f.invalid_at.year) for f in history] == [
            ("Rome", 2001, 2005), ("Oslo", 2005, None)]


def test_the_bulk_load_example_in_the_docs(tmp_path, monkeypatch, capsys) -> None:

    from tests.doc_examples import block_with

    code = block_with("add_facts(")
    monkeypatch.chdir(tmp_path)
    scope: dict = {}
    exec(compile(code, "docs", "exec"), scope)
    assert capsys.readouterr().out.strip() == "3 []"
    with TemporalGraph.open(tmp_path / "kb.db") as tg:
        assert tg.reindex() == 0
        hits = tg.search("Which club does Tony Capaldi play for?", kinds=("fact",))
        assert "Cardiff City" in [h.fact.object for h in hits[:2]]
        assert any(r.startswith("embedding") for h in hits for r in h.reasons)  # reindexed vectors count


def _written(tg: TemporalGraph) -> tuple[list[tuple], list[tuple]]:
    """The rows and entities a user sees, without ids and transaction times."""
    rows = sorted((f.subject, f.relation, f.object, str(f.valid_at), f.text, f.episode_ids, f.confidence,
                   f.importance, sorted(f.attributes.items()), f.claimed_by)
                  for s in ("Ana", "Bo", "Rome") for f in tg.history(s))
    entities = sorted((e["name"], e["type"]) for e in tg.export()["entities"])
    return rows, entities


def test_every_argument_of_add_fact_is_a_field_of_fact_input_and_loads_alike() -> None:
    """Episode ids, attributes (a claim among them) and entity types: the bulk load writes what
    add_fact one by one writes, each new entity typed by the first item naming it."""
    items = [
        FactInput(subject="Ana", relation="lives in", object="Rome", valid_at="2019", episode_id="ep-1",
                  attributes={"source": "census"}, subject_type="Person", importance=8),
        FactInput(subject="Bo", relation="knows", object="Ana", object_type="Friend"),
        FactInput(subject="Bo", relation="knows", object="Cy"),
        FactInput(subject="Ana", relation="lives in", object="Oslo", valid_at="2021", confidence=0.5),
        FactInput(subject="Ana", relation="lives in", object="Cy", valid_at="2023"),  # Cy: a Person first
        FactInput(subject="Ana", relation="lives in", object="Paris", attributes={"claimed_by": "Bo"}),
        FactInput(subject="Rome", relation="located in", object="Italy", subject_type="City"),
    ]
    when = "2030-01-01T00:00:00+00:00"
    with TemporalGraph.open(":memory:", clock=ManualClock(when), embed=False) as one, \
            TemporalGraph.open(":memory:", clock=ManualClock(when), embed=False) as bulk:
        for item in items:
            one.add_fact(**item.model_dump())
        assert bulk.add_facts(items).errors == []
        rows, entities = _written(one)
        assert _written(bulk) == (rows, entities)
    assert {("Ana", "Person"), ("Rome", "Place"), ("Cy", "Person")} <= set(entities)
    assert any(r[2] == "Paris" and r[-1] == "Bo" for r in rows)  # a claim stays a claim in bulk


def test_fact_input_is_checked_when_made_with_the_errors_of_add_fact() -> None:
    from pydantic import ValidationError

    from temporal_graph.errors import InvalidName, InvalidTime

    assert FactInput(subject=" Ana  Lee ", relation="lives in", object="Rome").relation == "LIVES_IN"
    for fields, error in (({"subject": None}, InvalidName), ({"valid_at": 12345}, InvalidTime)):
        with pytest.raises(ValidationError) as caught:
            FactInput(**{"subject": "Ana", "relation": "likes", "object": "tea", **fields})
        assert isinstance(caught.value.errors()[0]["ctx"]["error"], error)


def test_import_facts_on_the_memory_reports_lines_and_takes_every_field(tmp_path, tg) -> None:
    path = tmp_path / "facts.jsonl"
    lines = [{"subject": "Ana", "relation": "lives in", "object": "Rome", "valid_at": "2019",
              "subject_type": "Person", "attributes": {"source": "census"}},
             {"subject": "Ana", "relation": "lives in", "object": "Oslo", "valid_at": 12345}]
    path.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    report = tg.import_facts(path, group_id="kb")
    assert report.rows_written == 1 and [(e.line, "12345" in e.reason) for e in report.errors] == [(2, True)]
    [fact] = tg.now("Ana", group_id="kb")
    assert fact.attributes == {"source": "census"} and tg.find_entity("Ana", "kb").type == "Person"
    with pytest.raises(InvalidInput, match="path"):
        tg.import_facts(None)


def test_the_import_facts_example_in_the_docs(tmp_path, monkeypatch, capsys) -> None:

    from tests.doc_examples import block_with

    code = block_with("import_facts(")
    monkeypatch.chdir(tmp_path)
    (tmp_path / "facts.jsonl").write_text(
        '{"subject": "Tony Capaldi", "relation": "plays for", "object": "Cardiff City", "valid_at": "2007"}\n'
        '{"subject": "Tony Capaldi", "relation": "born in", "object": "Porsgrunn", "valid_at": "May"}\n',
        encoding="utf-8")
    exec(compile(code, "docs", "exec"), {})
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("1 [(2, ") and "'May'" in out[0]
    assert out[1:] == ["2024-05-01 07:00:00+00:00"]


class _UnitVectors:
    """Vectors with no model: a load with embeddings, without the wait."""

    dimensions = 4

    def encode(self, texts):
        return [[1.0, 0.0, 0.0, 0.0] for _ in texts]


@pytest.mark.parametrize(("embed", "commits"), [(False, 2), (True, 3)])
def test_a_load_with_embeddings_commits_in_smaller_batches_by_default(embed, commits, monkeypatch) -> None:
    """Encoding dominates a load with embeddings: its batches are smaller, so progress moves and a
    crash loses less (constants made small here: 10 facts a batch without, 4 with)."""
    from temporal_graph.core import bulk

    monkeypatch.setattr(bulk, "BATCH_FACTS", 10)
    monkeypatch.setattr(bulk, "BATCH_EMBEDDED_FACTS", 4)
    with TemporalGraph.open(":memory:", embedder=_UnitVectors(), embed=embed) as tg:
        store, written = tg.core.store, []
        real_write = store.write
        monkeypatch.setattr(store, "write", lambda fn: written.append(1) or real_write(fn))
        report = tg.add_facts([(f"Person {i}", "likes", "tea") for i in range(12)])
        assert report.rows_written == 12 and len(written) == commits
        assert (store.missing_embeddings("default", "fact", 100) == []) is embed  # embedded as it went


class _Retried(Exception):
    pass


def test_a_load_whose_transactions_are_run_again_counts_each_row_once(tmp_path) -> None:
    """Stores run a write again after a transient failure (Neo4j: a deadlock, or a first row of a
    new relation type, written once its schema exists): the report counts what committed."""
    with TemporalGraph.open(tmp_path / "m.db", ontology=ONTOLOGY, embed=False) as tg:
        store, write = tg.core.store, tg.core.store.write
        attempts = []

        def write_twice(fn):
            def failing(tx):
                fn(tx)
                raise _Retried  # rolled back, as a failed attempt is
            attempts.append(1)
            with pytest.raises(_Retried):
                write(failing)
            return write(fn)

        with mock.patch.object(store, "write", write_twice):
            report = tg.add_facts([("Ana", "plays for", "Ajax", "2001"), ("Ana", "plays for", "PSV", "2005"),
                                   ("Bo", "won", "Cup", "2003")])
        assert attempts and (report.rows_written, report.entities_created) == (3, 5)
        assert belief(tg) == belief_after_one_attempt(tmp_path)


def belief_after_one_attempt(tmp_path) -> list[tuple]:
    with TemporalGraph.open(tmp_path / "once.db", ontology=ONTOLOGY, embed=False) as tg:
        tg.add_facts([("Ana", "plays for", "Ajax", "2001"), ("Ana", "plays for", "PSV", "2005"),
                      ("Bo", "won", "Cup", "2003")])
        return belief(tg)


def test_a_store_with_a_transaction_limit_gets_loads_in_batches_it_can_hold(tmp_path) -> None:
    """Neo4j holds a transaction in server memory (a 100,000-fact one went over its 1 GiB): its
    store says how many facts a load may put in one, and the load keeps under it."""
    with TemporalGraph.open(tmp_path / "m.db", ontology=ONTOLOGY, embed=False) as tg:
        store = tg.core.store
        writes = []
        write = store.write

        def counted(fn):
            writes.append(1)
            return write(fn)

        with mock.patch.object(store, "load_batch_limit", 40), mock.patch.object(store, "write", counted):
            report = tg.add_facts([(f"Person {i}", "won", f"Cup {i % 7}", "2001") for i in range(200)])
        assert report.rows_written == 200 and len(writes) >= 5
