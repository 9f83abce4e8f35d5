"""The embedded store's SQL: every statement compiles against the schema (SQLite's own parser and
planner, as the Cypher lint does for Neo4j), every SQL string lives in ``stores/sql.py``, and the
as-of plan answers what a scan of every row answers."""

from __future__ import annotations

import inspect
import re
import sqlite3
from datetime import datetime, timedelta
from pathlib import Path

from temporal_graph import TemporalGraph
from temporal_graph.core.model import RECORD_KINDS
from temporal_graph.core.stores import sql
from temporal_graph.core.stores.protocol import AssertionQuery, FactQuery, RowQuery
from temporal_graph.core.stores.sqlite import SQLiteStore
from temporal_graph.core.time import UTC, ManualClock
from temporal_graph.testing import count_facts_brute_force

STORE_SOURCE = Path(sql.__file__).with_name("sqlite.py")
T, K = 1_600_000_000_000_000, 1_700_000_000_000_000
QUERIES = [
    FactQuery("g"),
    FactQuery("g", all_versions=True),
    FactQuery("g", subject_id="s", relation="LIVES_IN"),
    FactQuery("g", object_id="o", valid_time=datetime(2020, 1, 1, tzinfo=UTC)),
    FactQuery("g", fact_id="f", known_at=datetime(2021, 1, 1, tzinfo=UTC)),
    FactQuery("g", ids=("a", "b"), known_at=datetime(2021, 1, 1, tzinfo=UTC)),
    FactQuery("g", ids=()),
    FactQuery("g", valid_time=datetime(2020, 1, 1, tzinfo=UTC), known_at=datetime(2021, 1, 1, tzinfo=UTC)),
]
MOMENT = datetime(2020, 1, 1, tzinfo=UTC)
ROW_QUERIES = [
    RowQuery("g", "s", "LIVES_IN"),
    RowQuery("g", "s", "LIVES_IN", before=MOMENT, latest_first=True, limit=8),
    RowQuery("g", "s", "LIKES", object_id="o", since=MOMENT, limit=8),
    RowQuery("g", "s", "LIKES", since=MOMENT, before=MOMENT + timedelta(days=9)),
    RowQuery("g", "s", "LIKES", before=MOMENT, ending_after=MOMENT),
]
ASSERTION_QUERIES = [
    AssertionQuery("g", "s", "LIVES_IN", kinds=("start", "end"), since=MOMENT, through=MOMENT),
    AssertionQuery("g", "s", "LIVES_IN", kinds=("start", "end"), through=MOMENT),
    AssertionQuery("g", "s", "LIKES", kinds=("start", "end"), object_id="o", since=MOMENT),
    AssertionQuery("g", "s", "LIKES", endings_of_all=True, since=MOMENT, through=MOMENT),
    AssertionQuery("g", "s", "LIKES", kinds=("retract",), object_id="o"),
    AssertionQuery("g", "s", "LIKES", object_id="o"),
]


def _built() -> dict[str, list[tuple[str, list]]]:
    """What each statement-building function of ``sql`` gives for sample arguments."""
    parts = [part for q in QUERIES for part in sql.fact_plan(q, lambda group_id: 1)]
    return {
        "table_columns": [(sql.table_columns("facts"), [])],
        "add_column": [(sql.add_column("facts", "probe", "INTEGER"), [])],
        "synchronous": [(sql.synchronous(mode), []) for mode in sql.SYNCHRONOUS_MODES],
        "valid_at": [(f"SELECT 1 FROM facts WHERE {sql.valid_at(T)[0]}", sql.valid_at(T)[1])],
        "believed_at": [(f"SELECT 1 FROM facts f WHERE {text}", params)
                        for text, params in (sql.believed_at(None, "f."), sql.believed_at(K, "f."),
                                             sql.believed_at(K, "f.", "current"),
                                             sql.believed_at(K, "f.", "expired"))],
        "expired_box": [(sql.INSERT_EXPIRED_BOX, list(sql.expired_box(1, 1, T, K, None, T)))],
        "fact_plan": [sql.select_facts(part) for part in parts],
        "select_facts": [sql.select_facts(part, 5) for part in parts],
        "count_facts": [sql.count_facts(part) for part in parts],
        "count_facts_scan": [sql.count_facts_scan("g", T, K), sql.count_facts_scan("g", T, K, "s")],
        "by_ids": [(sql.by_ids(table, 3), ["g", "a", "b", "c"]) for table in ("entities", "episodes")],
        "recorded_at": [(sql.recorded_at(2), ["g", "a", "b"])],
        "from_json": [(sql.from_json(s), ["[]"]) for s in (
            sql.INSERT_ENTITY, sql.INSERT_ENTITY_NAMES_OF, sql.ADD_ENTITY_KEY, sql.INSERT_ASSERTION,
            sql.INSERT_FACT, sql.ADD_PROVENANCE, sql.INSERT_SUMMARY)],
        "text_search": [(sql.text_search(kind), ['"x"', 5, "g"]) for kind in RECORD_KINDS],
        "text_cutoff": [(sql.text_cutoff(kind), ["g", '"x"', 5]) for kind in RECORD_KINDS],
        "text_bound": [(sql.text_bound(kind), ['"x"', 5]) for kind in RECORD_KINDS],
        "counted_vectors": [(sql.counted_vectors(kind), ["g", 5]) for kind in RECORD_KINDS],
        "missing_embeddings": [(sql.missing_embeddings(kind), ["g", 5]) for kind in RECORD_KINDS],
        "counted": [(sql.counted(sql.ENTITIES), ["g"])],
        "stored_vectors": [(sql.stored_vectors(kind, among=among), ["g", '["a"]'][: 1 + among])
                           for kind in RECORD_KINDS for among in (False, True)],
        "set_embedding": [(sql.set_embedding(kind), [b"", "id"]) for kind in RECORD_KINDS],
        "fact_vectors": [(sql.fact_vectors(2), ["g", "a", "b"])],
        "vectors_by_ids": [(sql.vectors_by_ids(kind, 2), ["g", "a", "b"]) for kind in RECORD_KINDS],
        "drop_index": [(sql.drop_index(n), []) for n in (*sql.RETIRED_INDEXES, *sql.DEFERRABLE_INDEXES)],
        "create_index": [(sql.create_index(name), []) for name in sql.DEFERRABLE_INDEXES],
        "busy_timeout": [(sql.busy_timeout(2.5), [])],
        "newest_facts_params": [(sql.NEWEST_FACTS, sql.newest_facts_params("g", "e", T, 5, 0))],
        "key_rows": [part for q in ROW_QUERIES for part in sql.key_rows(q)],
        "key_assertions": [part for q in ASSERTION_QUERIES for part in sql.key_assertions(q)],
        "merge_segments": [(sql.merge_segments(fts), []) for fts in sql.FULL_TEXT_TABLES],
        "read_summaries": [sql.read_summaries("g", entity, k, every)
                           for entity in (None, "e") for k in (None, K) for every in (False, True)],
        "read_insights": [sql.read_insights("g", subject, k, every)
                          for subject in (None, "e") for k in (None, K) for every in (False, True)],
    }


def _constants() -> list[str]:
    out: list[str] = []
    for name, value in vars(sql).items():
        if name.isupper() and not name.startswith("_") and name not in ("SCHEMA", "FACT_COLUMNS"):
            if isinstance(value, str):
                out.append(value)
            elif isinstance(value, tuple) and all(isinstance(v, str) and "?" in v for v in value):
                out.extend(value)
    return out


def _schema() -> sqlite3.Connection:
    """A connection to an empty database with the whole schema a store opens a file with."""
    conn = sqlite3.connect(":memory:")
    conn.executescript(sql.SCHEMA)
    for table, column, declaration in sql.ADDED_COLUMNS:
        conn.execute(sql.add_column(table, column, declaration))
    for statement in sql.ADDED_INDEXES:
        conn.execute(statement)
    for name in sql.DEFERRABLE_INDEXES:
        conn.execute(sql.create_index(name))
    return conn


def test_every_statement_compiles_against_the_schema() -> None:
    conn = _schema()
    statements = [(text, [None] * text.count("?")) for text in _constants()]
    statements += [item for built in _built().values() for item in built]
    assert len(statements) > 60
    for text, params in statements:
        assert text.count("?") == len(params), text
        conn.execute(f"EXPLAIN {text}", params)  # compiles (names, columns, indexes) without running


def test_every_statement_builder_is_compiled_by_the_test() -> None:
    builders = {name for name, f in inspect.getmembers(sql, inspect.isfunction)
                if f.__module__ == sql.__name__ and not name.startswith("_")}
    assert builders == set(_built()), "add the new builder to _built()"


def test_a_write_reads_its_key_through_an_index_never_a_scan() -> None:
    """The reads a write makes (the stretch of one timeline around a statement) seek an index on
    the key; none walks the table or the whole group."""
    conn = _schema()
    reads = [*sql.key_rows(ROW_QUERIES[1]), *sql.key_rows(ROW_QUERIES[2]), *sql.key_rows(ROW_QUERIES[4]),
             *sql.key_assertions(ASSERTION_QUERIES[0]), *sql.key_assertions(ASSERTION_QUERIES[3]),
             *sql.key_assertions(ASSERTION_QUERIES[4]), (sql.LATEST_ASSERTION, ["g", "s", "LIVES_IN"])]
    for text, params in reads:
        top = [r[3] for r in conn.execute(f"EXPLAIN QUERY PLAN {text}", params) if r[1] == 0]
        read = [step for step in top if step.startswith(("SEARCH f ", "SEARCH assertions "))]
        assert len(read) == 1 and "(group_id=? AND subject_id=? AND relation=?" in read[0], (text, top)
        assert not [step for step in top if "TEMP B-TREE" in step], top  # in the index's order


def test_a_summary_reads_an_entitys_newest_facts_without_walking_the_ended_ones() -> None:
    """The rows that ended before the write (9,999 of a 'one' key with 10,000 versions) are never
    walked: each side reads its open rows in order and finds the others by their end."""
    conn = _schema()
    plan = [r[3] for r in conn.execute(f"EXPLAIN QUERY PLAN {sql.NEWEST_FACTS}",
                                       sql.newest_facts_params("g", "e", T, 5, 0))]
    reads = [step for step in plan if step.startswith("SEARCH facts ")]
    assert reads == [f"SEARCH facts USING INDEX facts_{side}_{kind} (group_id=? AND {side}_id=?{bound})"
                     for side in ("subject", "object")
                     for kind, bound in (("open", ""), ("ending", " AND invalid_at>?"))], plan


def test_what_a_message_told_is_found_on_an_index_that_holds_only_told_assertions() -> None:
    """retract_episode and erase_episode find a message's assertions on an index that a structured
    fact (told by no message, as most of a bulk load) is never added to."""
    conn = _schema()
    plan = [r[3] for r in conn.execute(f"EXPLAIN QUERY PLAN {sql.EPISODE_ASSERTIONS}", ["g", "ep"])]
    assert plan == ["SEARCH assertions USING INDEX assertions_told (group_id=? AND episode_id=?)"], plan
    (where,) = conn.execute("SELECT sql FROM sqlite_master WHERE name = 'assertions_told'").fetchone()
    assert where.endswith("WHERE episode_id IS NOT NULL")


def test_the_store_holds_no_sql_of_its_own() -> None:
    source = STORE_SOURCE.read_text(encoding="utf-8")
    strings = re.findall(r"\"[^\"\n]*\"", source)
    words = re.compile(r"\b(SELECT|INSERT|UPDATE|DELETE|PRAGMA|CREATE|ALTER|BEGIN|COMMIT|ROLLBACK)\b")
    assert [s for s in strings if words.search(s)] == []
    # the bi-temporal predicate is sql.py's too
    assert not re.search(r"(valid_at|expired_at|created_at)\s*(<|>|IS\b)", source)


def test_the_as_of_plan_counts_what_a_scan_of_every_row_counts(tmp_path: Path) -> None:
    clock = ManualClock("2024-01-01T00:00:00+00:00")
    store = SQLiteStore(tmp_path / "m.db")
    tg = TemporalGraph(store, clock=clock, embed=False)
    moves = [("Alice", "Paris", "2019"), ("Bob", "Rome", "2020"), ("Alice", "Lyon", "2021"),
             ("Bob", "Oslo", "2022"), ("Alice", "Nice", "2023")]
    for person, city, year in moves:
        clock.set(clock() + timedelta(days=30))
        tg.add_fact(person, "lives in", city, valid_at=year, group_id="g")
    clock.set(clock() + timedelta(days=30))
    tg.retract_fact("Bob", "lives in", "Oslo", group_id="g")
    alice = tg.find_entity("Alice", "g")
    assert alice is not None
    checked = 0
    for year in range(2018, 2025):
        for days in (0, 45, 100, 200):
            t = datetime(year, 6, 1, tzinfo=UTC)
            k = datetime(2024, 1, 1, tzinfo=UTC) + timedelta(days=days)
            for subject in (None, alice.id):
                expected = store.count_facts(FactQuery("g", subject_id=subject, valid_time=t, known_at=k))
                assert count_facts_brute_force(store, "g", t, k, subject_id=subject) == expected
                checked += expected
    assert checked > 0
    tg.close()



def test_reads_by_id_seek_the_ids_never_the_whole_group() -> None:
    """Search reads its candidates by id: each id is one index seek, whatever the size of the group
    (on the group's index SQLite would walk every episode of a 100k-message memory per search)."""
    conn = _schema()
    ids = [f"id{i}" for i in range(90)]  # search reads about this many (SQLite's choice depends on it)
    reads = [(sql.by_ids(table, len(ids)), ["g", *ids]) for table in ("episodes", "entities")]
    now = datetime(2024, 1, 1, tzinfo=UTC)
    for query in (FactQuery("g", ids=ids), FactQuery("g", ids=ids, valid_time=now)):
        reads += [sql.select_facts(part, None) for part in sql.fact_plan(query, lambda group: 1)]
    for text, params in reads:
        top = [r[3] for r in conn.execute(f"EXPLAIN QUERY PLAN {text}", params) if r[1] == 0]
        assert re.search(r"^SEARCH \w+ USING INDEX .*\bid=\?", top[0]), (text, top)


def test_a_file_with_the_former_newest_facts_indexes_opens_without_them(tmp_path: Path) -> None:
    """A file written before the summary's read split its indexes loses the old ones when opened
    (they would only cost every write), and the summaries read the new ones."""
    path = tmp_path / "old.db"
    SQLiteStore(path).close()
    conn = sqlite3.connect(path)
    for side, other in (("subject", "object"), ("object", "subject")):
        conn.execute(f"CREATE INDEX facts_{side}_newest ON facts (group_id, {side}_id, "
                     f"coalesce(valid_at, created_at) DESC, created_at DESC, relation, {other}_id, id) "
                     "WHERE expired_at IS NULL")
    conn.commit()
    conn.close()
    clock = ManualClock("2024-01-01T00:00:00+00:00")
    tg = TemporalGraph(SQLiteStore(path), clock=clock, embed=False)
    tg.add_fact("Ana", "lives in", "Paris", valid_at="2020")
    tg.add_fact("Ana", "lives in", "Lyon", valid_at="2022")
    tg.close()
    conn = sqlite3.connect(path)
    names = {name for (name,) in conn.execute("SELECT name FROM sqlite_master WHERE type = 'index'")}
    conn.close()
    assert not {"facts_subject_newest", "facts_object_newest"} & names
    assert {"facts_subject_open", "facts_subject_ending", "facts_object_open", "facts_object_ending"} <= names
    tg = TemporalGraph(SQLiteStore(path), clock=clock, embed=False)
    ana = tg.find_entity("Ana")
    assert ana is not None
    (summary,) = tg.core.store.summaries("default", ana.id)
    assert "Lyon" in summary.text and "Paris" not in summary.text  # the version that ended is left out
    tg.close()


def test_a_stale_matrix_reads_the_changed_records_by_id_not_the_group() -> None:
    """Bringing a saved vector matrix up to date reads the log and the changed records through
    indexes: never every record (or every logged change) of the group."""
    conn = _schema()
    reads = [(sql.stored_vectors(kind, among=True), ["g", '["a"]']) for kind in RECORD_KINDS]
    reads += [(sql.VECTOR_MARK_SEQ, ["m", "g", "fact"]), (sql.VECTOR_CHANGES_AFTER, ["g", "fact", 1])]
    for text, params in reads:
        plan = " ".join(r[3] for r in conn.execute(f"EXPLAIN QUERY PLAN {text}", params))
        assert "SCAN json_each" in plan or "json_each" not in text
        assert re.search(r"SEARCH \w+ USING INDEX (sqlite_autoindex_\w+ \(id=\?\)|vector_changes_mark"
                         r"|vector_changes_key \(group_id=\? AND kind=\? AND rowid>\?\))", plan), plan
