"""The Cypher console's core, without a server: input splitting, write refusal, parameters,
tables, and the refusal of --write on the embedded store."""

from __future__ import annotations

import io
from datetime import UTC, datetime

from rich.console import Console

from temporal_graph.core.stores.sqlite import SQLiteStore
from temporal_graph.interfaces.console import (
    Command,
    ConsoleState,
    Query,
    parse_param,
    render_table,
    run_console,
    split_input,
    write_clause,
)
from temporal_graph.times import to_utc


def _out() -> tuple[Console, io.StringIO]:
    buffer = io.StringIO()
    return Console(file=buffer, width=120, color_system=None), buffer


def test_statements_end_at_semicolons_outside_strings_and_comments() -> None:
    items, rest = split_input(
        "MATCH (n) // a comment; not the end\nWHERE n.name = 'a;b' AND n.`odd;name` = \"c;\"\nRETURN n;"
        " RETURN 1; RETURN"
    )
    assert [type(i) for i in items] == [Query, Query]
    assert items[0].text.endswith("RETURN n")
    assert "'a;b'" in items[0].text
    assert items[1].text == "RETURN 1"
    assert rest.strip() == "RETURN"


def test_multi_line_input_waits_for_the_semicolon() -> None:
    items, rest = split_input("MATCH (n)\n")
    assert items == [] and rest == "MATCH (n)\n"
    items, rest = split_input(rest + "RETURN n\n")
    assert items == []
    items, rest = split_input(rest + ";\n")
    assert items == [Query("MATCH (n)\nRETURN n")] and rest == ""


def test_commands_are_lines_starting_with_a_colon() -> None:
    items, rest = split_input(':param name => "Alice"\n:asof 2023-05-01 2024-01-01\nRETURN $name;\n')
    assert items == [Command("param", 'name => "Alice"'), Command("asof", "2023-05-01 2024-01-01"),
                     Query("RETURN $name")]
    assert rest == ""


def test_write_clauses_are_spotted_and_reads_are_not() -> None:
    assert write_clause("MATCH (n) DETACH DELETE n") == "DETACH"
    assert write_clause("create (n:X)") == "CREATE"
    assert write_clause("MATCH (n) SET n.x = 1") == "SET"
    assert write_clause("CALL db.create.setNodeVectorProperty(n, 'e', [1])") is not None
    assert write_clause("UNWIND [1] AS x CALL { CREATE () } IN TRANSACTIONS") is not None
    assert write_clause("MATCH (n) WHERE n.name = 'CREATE' RETURN n.set, n.`delete`") is None
    assert write_clause("MATCH (n) // DELETE later\nRETURN n") is None
    assert write_clause("MATCH (s)-[r:LIVES_IN]->(o) WHERE o.name STARTS WITH 'Ber' RETURN s") is None


def test_parameters_commands_and_asof_snippet() -> None:
    out, text = _out()
    state = ConsoleState(params={"group_id": "default"})
    state.handle(Command("param", "name => Alice"), out, to_utc)
    state.handle(Command("param", "limit => 5"), out, to_utc)
    assert state.params["name"] == "Alice" and state.params["limit"] == 5
    state.handle(Command("asof", "2023-05-01 2024-01-01"), out, to_utc)
    assert state.params["t"] == datetime(2023, 5, 1, tzinfo=UTC)
    assert state.params["k"] == datetime(2024, 1, 1, tzinfo=UTC)
    assert "r.valid_at <= $t" in text.getvalue() and "r.expired_at > $k" in text.getvalue()
    state.handle(Command("params", '{"group_id": "g2"}'), out, to_utc)
    assert state.params == {"group_id": "g2"}
    state.handle(Command("params", "not json"), out, to_utc)
    assert "not a JSON object" in text.getvalue()
    state.handle(Command("frobnicate"), out, to_utc)
    assert "unknown command :frobnicate" in text.getvalue()
    state.handle(Command("quit"), out, to_utc)
    assert state.done


def test_param_syntax() -> None:
    assert parse_param("$x => [1, 2]") == ("x", [1, 2])
    assert parse_param("when: 2023-05-01") == ("when", "2023-05-01")
    assert parse_param('s = "a b"') == ("s", "a b")


def test_tables_show_times_and_hide_embeddings() -> None:
    out, text = _out()
    when = datetime(2023, 5, 1, tzinfo=UTC)
    row = ["Alice", when, [0.1] * 384, {"a": 1, "embedding": [1.0] * 384}]
    out.print(render_table(["name", "since", "vector", "props"], [row]))
    shown = text.getvalue()
    assert "Alice" in shown and "2023-05-01T00:00:00+00:00" in shown
    assert "[384 numbers]" in shown and "{a: 1}" in shown


def test_the_embedded_store_is_explored_read_only(tmp_path) -> None:
    out, text = _out()
    store = SQLiteStore(tmp_path / "m.db")
    try:
        assert run_console(store, write=True, out=out, input_fn=lambda _: ":quit") == 2
        assert "read-only" in text.getvalue() and "--neo4j" in text.getvalue()
        assert run_console(store, out=out, statements=["RETURN 1 AS one"]) == 0
    finally:
        store.close()
    assert "one" in text.getvalue()
