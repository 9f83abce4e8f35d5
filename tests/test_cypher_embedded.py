"""``tgraph cypher`` on the embedded store: the exploration set (tests/data/cypher_exploration.json)
gives the rows Neo4j's semantics give, the snippets agree with the library, writes are refused
with the file left byte for byte as it was, and the non-interactive flags (-e, --file, --param,
--json) exit 2 on a bad statement with one line. The same set runs on Neo4j when NEO4J_URI is set."""

from __future__ import annotations

import hashlib
import io
import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from rich.console import Console

from temporal_graph import TemporalGraph
from temporal_graph.interfaces.cli import main
from temporal_graph.interfaces.console import SNIPPETS, run_console
from temporal_graph.interfaces.cypher_embedded import EmbeddedCypher
from temporal_graph.interfaces.cypher_embedded.dialect import return_columns, translate
from temporal_graph.testing import (
    EXPLORATION_GROUP,
    comparable_rows,
    exploration_memory,
    exploration_params,
    exploration_set,
    exploration_text,
    fact_symbols,
)
from temporal_graph.times import ManualClock, to_utc

STATEMENTS = {s["name"]: s for s in exploration_set()}
# What the embedded engine gets wrong, with the reason (benchmarks/cypher_engines.py counts them too).
Memory = tuple[TemporalGraph, ManualClock]
Capture = pytest.CaptureFixture[str]
KNOWN_GAPS = {"collect()": "LadybugDB's collect() ignores an ORDER BY of the WITH before it"}


@pytest.fixture(scope="module")
def memory(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Memory]:
    clock = ManualClock("2024-01-01")
    tg = TemporalGraph.open(tmp_path_factory.mktemp("explore") / "memory.db", clock=clock, embed=False)
    exploration_memory(tg, clock)
    yield tg, clock
    tg.close()


# -- the exploration set ---------------------------------------------------------------------------
def test_the_set_covers_what_the_issue_lists() -> None:
    own = [s for s in STATEMENTS.values() if "snippet" not in s]
    assert len(own) >= 25 and {s["snippet"] for s in STATEMENTS.values() if "snippet" in s} == set(SNIPPETS)
    text = " ".join(s["cypher"] for s in own)
    for needle in ("labels(", "|", "*1..3", "OPTIONAL MATCH", "WITH", "count(", "collect(", "min(", "max(",
                   "DISTINCT", "ORDER BY", "SKIP", "LIMIT", "type(", "toLower(", "size(", "coalesce(",
                   "datetime(", "duration(", "$name", "$t"):
        assert needle in text, needle


@pytest.mark.parametrize("name", list(STATEMENTS))
def test_exploration_statement_gives_neo4js_rows(name: str, memory: Memory) -> None:
    tg, clock = memory
    entry = STATEMENTS[name]
    if name in KNOWN_GAPS:
        pytest.xfail(KNOWN_GAPS[name])
    cypher = EmbeddedCypher(tg.core.store, clock=clock)
    try:
        params = exploration_params(entry, EXPLORATION_GROUP, clock())
        columns, rows = cypher.run(exploration_text(entry), params)
    finally:
        cypher.close()
    assert columns == entry["columns"]
    symbols = fact_symbols(tg, EXPLORATION_GROUP)
    assert comparable_rows(entry, rows, symbols) == comparable_rows(entry, entry["rows"], symbols)


def test_known_gaps_are_still_gaps(memory: Memory) -> None:
    """A gap that closes (a newer engine) must leave KNOWN_GAPS, so the docs' count stays true."""
    tg, clock = memory
    cypher = EmbeddedCypher(tg.core.store, clock=clock)
    for name in KNOWN_GAPS:
        entry = STATEMENTS[name]
        params = exploration_params(entry, EXPLORATION_GROUP, clock())
        _columns, rows = cypher.run(exploration_text(entry), params)
        assert comparable_rows(entry, rows, {}) != comparable_rows(entry, entry["rows"], {}), name
    cypher.close()


def test_snippets_agree_with_the_library(memory: Memory) -> None:
    tg, clock = memory
    cypher = EmbeddedCypher(tg.core.store, clock=clock)
    g = EXPLORATION_GROUP
    _cols, now_rows = cypher.run(SNIPPETS["now"], {"group_id": g, "now": clock()})
    assert sorted((s, r, o) for s, r, o, _ in now_rows) == sorted(
        (f.subject, f.relation, f.object) for f in tg.now(group_id=g))
    t, k = to_utc("2023-06-01"), to_utc("2024-02-01")
    _cols, asof_rows = cypher.run(SNIPPETS["asof"], {"group_id": g, "t": t, "k": k})
    assert sorted((s, r, o) for s, r, o, *_ in asof_rows) == sorted(
        (f.subject, f.relation, f.object) for f in tg.as_of(t, known_at=k, group_id=g))
    cypher.close()


def test_a_write_made_after_the_console_started_is_seen(tmp_path: Path) -> None:
    clock = ManualClock("2024-01-01")
    with TemporalGraph.open(tmp_path / "m.db", clock=clock, embed=False) as tg:
        tg.add_fact("Ann", "lives in", "Oslo", valid_at="2020")
        cypher = EmbeddedCypher(tg.core.store, clock=clock)
        query = "MATCH (s:Entity {name: 'Ann'})-[r:LIVES_IN]->(o) WHERE r.expired_at IS NULL RETURN o.name"
        assert cypher.run(query, {"group_id": "default"})[1] == [["Oslo"]]
        clock.set("2024-02-01")
        tg.add_fact("Ann", "lives in", "Bergen", valid_at="2024-01-15")  # another writer, same file
        assert sorted(cypher.run(query, {"group_id": "default"})[1]) == [["Bergen"], ["Oslo"]]
        tg.retract_fact("Ann", "lives in", "Bergen")
        assert cypher.run(query, {"group_id": "default"})[1] == [["Oslo"]]
        cypher.close()


def test_a_group_without_facts_answers_the_snippets_with_no_rows(tmp_path: Path) -> None:
    with TemporalGraph.open(tmp_path / "m.db", embed=False) as tg:
        cypher = EmbeddedCypher(tg.core.store)
        now = to_utc("2024-01-01")
        params = {"group_id": "empty", "now": now, "t": now, "k": now, "name": "Ann"}
        for name, text in SNIPPETS.items():
            assert cypher.run(text, params)[1] == [], name
        cypher.close()


@pytest.mark.neo4j
def test_the_exploration_set_on_neo4j() -> None:
    from temporal_graph.testing import neo4j_store_from_env, unique_test_group

    store = neo4j_store_from_env()
    assert store is not None
    clock = ManualClock("2024-01-01")
    tg = TemporalGraph(store, clock=clock, embed=False)
    group = unique_test_group("explore")
    other = unique_test_group("other")
    try:
        exploration_memory(tg, clock, group_id=group, other_group=other)
        symbols = fact_symbols(tg, group)
        failures = []
        with store.driver.session(database=store.database) as session:
            for name, entry in STATEMENTS.items():
                if entry.get("embedded_only"):
                    continue
                result = session.run(exploration_text(entry), exploration_params(entry, group, clock()))
                keys = list(result.keys())
                rows = [list(r.values()) for r in result]
                if keys != entry["columns"] or comparable_rows(entry, rows, symbols) != comparable_rows(
                        entry, entry["rows"], symbols):
                    failures.append(name)
        assert failures == []
    finally:
        tg.forget(group)
        tg.forget(other)
        tg.close()


# -- the translation layer -------------------------------------------------------------------------
def test_translation_touches_no_string_and_names_columns_as_typed() -> None:
    now = to_utc("2024-06-01")
    text = "MATCH (p:Person)-[r]->(o) WHERE o.name = 'type(r) labels(n)' RETURN type(r), labels(p) AS l"
    translated = translate(text, now=now)
    assert "'type(r) labels(n)'" in translated and "label(r)" in translated and "p._labels" in translated
    assert ":Entity {_type_label: 'Person'}" in translated
    assert return_columns(text) == ["type(r)", "l"]
    assert return_columns("MATCH (n) RETURN DISTINCT n.name, count(*) AS `the count` ORDER BY n.name") == [
        "n.name", "the count"]
    assert "interval('1 years 2 months 3 days')" in translate("RETURN duration('P1Y2M3D')", now=now)
    assert "'2021-01-01T08:00:00+00:00'" in translate("RETURN datetime('2021-01-01T10:00+02:00')", now=now)


# -- the command line ------------------------------------------------------------------------------
def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


@pytest.fixture
def db(tmp_path: Path) -> Path:
    path = tmp_path / "memory.db"
    clock = ManualClock("2024-01-01")
    with TemporalGraph.open(path, clock=clock, embed=False) as tg:
        exploration_memory(tg, clock)
    return path


def cli(capsys: pytest.CaptureFixture[str], db: Path, *args: str) -> tuple[int, str, str]:
    code = main(["--db", str(db), "--group", EXPLORATION_GROUP, "cypher", *args])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("statement", [
    "CREATE (n:Entity {name: 'Mallory'})",
    "MATCH (n:Entity {name: 'Alice'}) SET n.name = 'Eve'",
    "MATCH (n) DETACH DELETE n",
    "MERGE (n:Entity {id: 'x'})",
    "MATCH ()-[r]->() REMOVE r.valid_at",
    "COPY Entity FROM '/tmp/x.csv'",
    "LOAD FROM '/etc/passwd' RETURN *",
])
def test_a_write_is_refused_and_the_file_is_unchanged(
    statement: str, db: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    before = digest(db)
    code, out, err = cli(capsys, db, "-e", statement)
    assert code == 2 and out == ""
    assert err.startswith("refused: ") and len(err.strip().splitlines()) == 1
    assert digest(db) == before


def test_write_mode_is_refused_on_the_embedded_store(db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    before = digest(db)
    code, _out, err = cli(capsys, db, "--write", "-e", "CREATE (n:Entity {name: 'x'})")
    assert code == 2 and "read-only" in err and len(err.strip().splitlines()) == 1
    assert digest(db) == before


def test_commands_and_statements_in_order_as_json_lines(db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = cli(capsys, db, "--json", "-e", ":asof 2023-06-01 2024-02-01", "-e",
                         "MATCH (s {group_id: $group_id})-[r:LIVES_IN]->(o) WHERE r.valid_at <= $t "
                         "AND (r.invalid_at IS NULL OR r.invalid_at > $t) AND r.created_at <= $k "
                         "AND (r.expired_at IS NULL OR r.expired_at > $k) RETURN s.name, o.name;",
                         "-e", "RETURN $who AS who, $n + 1 AS next",
                         "--param", "who=Alice", "--param", "n=41")
    assert code == 0, err
    lines = [json.loads(line) for line in out.splitlines()]
    assert [line["columns"] for line in lines] == [["s.name", "o.name"], ["who", "next"]]
    assert lines[0]["rows"] == [["Zhang Wei", "Hangzhou"]] and lines[1]["rows"] == [["Alice", 42]]


def test_a_file_of_statements_and_tables(db: Path, tmp_path: Path, capsys: Capture) -> None:
    script = tmp_path / "explore.cypher"
    script.write_text("// who lives where now\n:param city => \"Shanghai\"\n"
                      "MATCH (s:Entity)-[r:LIVES_IN]->(o:City {name: $city})\n"
                      "WHERE r.expired_at IS NULL\nRETURN s.name AS who;\n"
                      "MATCH (n:Entity {name: 'Initech'}) RETURN n.type\n", encoding="utf-8")
    code, out, err = cli(capsys, db, "--file", str(script))
    assert code == 0, err
    assert "Zhang Wei" in out and "organization" in out and out.count("1 row(s)") == 2


@pytest.mark.parametrize(("statement", "says"), [
    ("MATCH (x RETURN x", "Invalid input"),
    ("RETURN [x IN [1, 2] WHERE x > 1]", "not supported on the embedded store: list comprehensions"),
    ("RETURN duration.between(datetime('2020-01-01'), datetime('2021-01-01'))", "duration.between()"),
    ("RETURN reverse_the_world(1)", "the function reverse_the_world()"),
    ("RETURN datetime('next Tuesday')", "next Tuesday"),
])
def test_a_bad_statement_exits_2_with_one_line(
    statement: str, says: str, db: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = cli(capsys, db, "-e", "RETURN 1 AS one", "-e", statement, "-e", "RETURN 2 AS two")
    assert code == 2
    assert "one" in out and "two" not in out  # ran in order, stopped at the bad one
    assert says in err and len(err.strip().splitlines()) == 1 and "Traceback" not in err


def test_a_bad_command_or_param_exits_2(db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert cli(capsys, db, "-e", ":asof someday")[0] == 2
    assert cli(capsys, db, "-e", ":frobnicate")[0] == 2
    code, _out, err = cli(capsys, db, "--param", "nothing-here", "-e", "RETURN 1")
    assert code == 2 and "NAME=VALUE" in err


def test_group_switch_sees_only_that_group(db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _err = cli(capsys, db, "--json", "-e", ":group other", "-e",
                          "MATCH (s)-[r]->(o) RETURN s.name, o.name, s.group_id")
    assert code == 0
    assert json.loads(out)["rows"] == [["Zhang Wei", "Tokyo", "other"]]


def test_the_interactive_console_runs_on_the_embedded_store(db: Path) -> None:
    buffer = io.StringIO()
    out = Console(file=buffer, width=120, color_system=None)
    lines = iter(["MATCH (p:Person {group_id: $group_id})", "RETURN p.name ORDER BY p.name;",
                  "RETURN foo(;", "CREATE (n);", ":quit"])
    with TemporalGraph.open(db, embed=False) as tg:
        code = run_console(tg.core.store, group_id=EXPLORATION_GROUP, out=out, input_fn=lambda _: next(lines))
    shown = buffer.getvalue()
    assert code == 0
    assert "Alice" in shown and "Zhang Wei" in shown and "3 row(s)" in shown
    assert "error:" in shown and "refused: CREATE" in shown  # the session went on after both
