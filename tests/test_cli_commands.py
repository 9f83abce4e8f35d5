"""Every library verb has a ``tgraph`` command: documented, with help, with JSON a script can read."""

from __future__ import annotations

import json
import re
import shlex
from collections.abc import Callable
from pathlib import Path
from typing import Any

import networkx as nx
import pytest

import temporal_graph
from temporal_graph.interfaces import cli
from temporal_graph.interfaces.cli import COMMANDS, arg, command, main

FACT_FIELDS = {"id", "fact_id", "group_id", "subject", "relation", "object", "valid_at", "invalid_at",
               "created_at", "expired_at", "episode_ids", "confidence"}


def run(capsys: pytest.CaptureFixture[str], db: Path, *args: str) -> tuple[int, str, str]:
    code = main(["--db", str(db), *args])
    out, err = capsys.readouterr()
    return code, out, err


def run_json(capsys: pytest.CaptureFixture[str], db: Path, *args: str) -> Any:
    code, out, err = run(capsys, db, *args, "--json")
    assert code == 0, err
    return json.loads(out)


# -- every command is documented ------------------------------------------------------------------
def cli_page_block() -> str:
    """The command line page's big block (docs/cli.md)."""
    from tests.doc_examples import first_block

    return first_block("Command line", "bash")


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_every_command_has_help(name: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exited:
        main([name, "--help"])
    assert exited.value.code == 0
    assert f"usage: tgraph {name}" in capsys.readouterr().out


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_every_command_has_an_example_in_the_docs(name: str) -> None:
    examples = [shlex.split(line, comments=True) for line in cli_page_block().splitlines()]
    words = [[w for w in example if not w.startswith("-")] for example in examples
             if example[:1] == ["tgraph"]]
    # the first word after 'tgraph' and its global options is the command
    assert any(name in example[1:3] for example in words), f"docs/cli.md's block has no 'tgraph {name}' line"


# -- a round trip through the command line --------------------------------------------------------
def test_a_long_table_shows_its_first_rows_and_says_how_many_more(tmp_path: Path, capsys) -> None:
    db = tmp_path / "m.db"
    for i in range(5):
        assert run(capsys, db, "add-fact", "Alice", "likes", f"hobby {i}")[0] == 0
    code, out, _ = run(capsys, db, "now", "--limit", "2")
    assert code == 0 and "(first 2 of 5)" in out and "3 more not shown" in out
    assert len(re.findall(r"hobby \d", out)) == 2
    code, out, _ = run(capsys, db, "history", "Alice", "--limit", "0")
    assert "(5)" in out and len(re.findall(r"hobby \d", out)) == 5 and "more not shown" not in out
    assert len(run_json(capsys, db, "now", "--limit", "2")) == 5  # JSON is never cut
    code, out, _ = run(capsys, db, "show", "Alice", "--limit", "1")
    assert "current facts (first 1 of 5)" in out and "4 more not shown" in out
    with pytest.raises(SystemExit):
        main(["--db", str(db), "now", "--limit", "-1"])
    assert "not a number of rows" in capsys.readouterr().err


def test_add_fact_now_end_fact_history(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "m.db"
    added = run_json(capsys, db, "add-fact", "Alice", "lives in", "Paris", "--valid-at", "2020-01-01")
    assert (added["relation"], added["object"]) == ("LIVES_IN", "Paris")
    assert added["valid_at"] == "2020-01-01T00:00:00Z"

    assert [f["object"] for f in run_json(capsys, db, "now", "Alice")] == ["Paris"]

    ended = run_json(capsys, db, "end-fact", "Alice", "lives in", "--at", "2024-05-01")
    assert [(f["object"], f["invalid_at"]) for f in ended] == [("Paris", "2024-05-01T00:00:00Z")]
    assert run_json(capsys, db, "now", "Alice") == []

    history = run_json(capsys, db, "history", "Alice", "--relation", "LIVES_IN")
    assert [(f["object"], f["valid_at"], f["invalid_at"]) for f in history] == [
        ("Paris", "2020-01-01T00:00:00Z", "2024-05-01T00:00:00Z")]

    code, table, _ = run(capsys, db, "history", "Alice")
    assert code == 0 and "Paris" in table and "2024-05-01" in table


def test_retract_leaves_no_current_belief(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "m.db"
    run_json(capsys, db, "add-fact", "Bob", "works at", "Acme", "--valid-at", "2021")
    retracted = run_json(capsys, db, "retract", "Bob", "works at", "Acme")
    assert [f["object"] for f in retracted] == ["Acme"] and retracted[0]["expired_at"] is not None
    assert run_json(capsys, db, "history", "Bob") == []


def test_add_episode_extracts_facts(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "m.db"
    result = run_json(capsys, db, "add-episode", "I live in Lyon.", "--speaker", "Carol",
                      "--reference-time", "2023-03-01")
    assert [(f["subject"], f["object"]) for f in result["added"]] == [("Carol", "Lyon")]
    assert result["episode"]["speaker"] == "Carol"
    again = run_json(capsys, db, "add-episode", "I live in Lyon.", "--speaker", "Carol",
                     "--reference-time", "2023-03-01")
    assert again["skipped"]



def test_search_says_how_many_times_a_message_was_said(tmp_path: Path, capsys) -> None:
    db = tmp_path / "m.db"
    for day in ("2023-03-01", "2023-04-01", "2023-05-01"):
        run_json(capsys, db, "add-episode", "Any tips for a salary conversation?", "--speaker", "Carol",
                 "--reference-time", day)
    code, out, _ = run(capsys, db, "search", "salary conversation", "--kind", "episode")
    assert code == 0 and out.count("Any tips for a salary") == 1 and "(said 3 times)" in out
    hits = run_json(capsys, db, "search", "salary conversation", "--kind", "episode")
    assert len(hits) == 1 and len(hits[0]["repeats"]) == 2

# -- JSON of every read command --------------------------------------------------------------------
@pytest.fixture(scope="module")
def memory(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    """A small memory written through the CLI, and the id of one of its facts."""
    db = tmp_path_factory.mktemp("cli") / "m.db"
    writes = [
        ["add-fact", "Alice", "lives in", "Paris", "--valid-at", "2020-01-01"],
        ["add-fact", "Alice", "works at", "Acme", "--valid-at", "2021-01-01", "--text", "Alice is at Acme."],
        ["add-fact", "Acme", "located in", "Paris"],
        ["end-fact", "Alice", "works at", "--at", "2023-01-01"],
        ["add-episode", "I play badminton on Sundays.", "--speaker", "Alice",
         "--reference-time", "2022-05-01"],
    ]
    for argv in writes:
        assert main(["--db", str(db), "--json", *argv]) == 0
    with temporal_graph.TemporalGraph.open(db) as tg:
        fact_id = tg.now("Alice", "lives in")[0].fact_id
    return db, fact_id


def facts_with_fields(value: Any) -> bool:
    return isinstance(value, list) and bool(value) and all(FACT_FIELDS <= set(f) for f in value)


READ_CASES: list[tuple[list[str], Callable[[Any], bool]]] = [
    (["now", "Alice"], facts_with_fields),
    (["as-of", "2021-06-01", "Alice", "--known-at", "2100-01-01"], facts_with_fields),
    (["history", "Alice"], facts_with_fields),
    (["show", "alice"], lambda v: v["entity"] == "Alice" and "Alice lives in Paris" in v["summary"]["text"]
     and facts_with_fields(v["facts"]) and facts_with_fields(v["timeline"])),
    (["audit", "{fact_id}"], lambda v: facts_with_fields(v) and v[0]["object"] == "Paris"),
    (["diff", "2019-01-01", "2030-01-01", "--subject", "Alice"],
     lambda v: {"start", "end", "started", "ended", "revised"} <= set(v) and facts_with_fields(v["ended"])),
    (["paths", "Alice", "--max-hops", "2", "--direction", "any"],
     lambda v: all(facts_with_fields(chain) for chain in v) and any(len(chain) == 2 for chain in v)),
    (["paths", "Alice", "--overlapping", "--limit", "1"], lambda v: len(v) == 1 and facts_with_fields(v[0])),
    (["search", "badminton", "--limit", "3", "--include-history"],
     lambda v: 0 < len(v) <= 3 and {"kind", "score", "reasons"} <= set(v[0])),
    (["search", "Acme", "--kind", "entity", "--method", "bm25"],
     lambda v: v and {h["kind"] for h in v} == {"entity"}),
    (["ask", "Where does Alice live?"],
     lambda v: v["known"] and "Paris" in v["text"] and facts_with_fields(v["facts"])),
    (["context", "Where does Alice live?", "--budget", "200"],
     lambda v: v["budget_tokens"] == 200 and "Paris" in v["context"]),
    (["snapshot", "--format", "json", "--as-of", "2022-01-01"],
     lambda v: {n["name"] for n in v["nodes"]} >= {"Alice", "Paris", "Acme"} and len(v["edges"]) == 3),
    (["export"], lambda v: v["group_id"] == "default" and facts_with_fields(v["facts"]) and v["episodes"]),
]


@pytest.mark.parametrize("argv, expected", READ_CASES, ids=[" ".join(c[0][:2]) for c in READ_CASES])
def test_json_of_read_commands(memory: tuple[Path, str], argv: list[str], expected: Callable[[Any], bool],
                               capsys: pytest.CaptureFixture[str]) -> None:
    db, fact_id = memory
    value = run_json(capsys, db, *[a.replace("{fact_id}", fact_id) for a in argv])
    assert expected(value), json.dumps(value)[:2000]


def test_snapshot_graphml_is_read_by_networkx(memory: tuple[Path, str], tmp_path: Path,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    db, _ = memory
    target = tmp_path / "now.graphml"
    code, _, err = run(capsys, db, "snapshot", "--output", str(target))
    assert code == 0 and str(target) in err
    graph = nx.read_graphml(target)
    names = nx.get_node_attributes(graph, "name")
    edges = {(names[s], d["relation"], names[t]) for s, t, d in graph.edges(data=True)}
    assert ("Alice", "LIVES_IN", "Paris") in edges and ("Acme", "LOCATED_IN", "Paris") in edges
    assert not any(rel == "WORKS_AT" for _, rel, _ in edges)  # ended in 2023


# -- errors: one line, non-zero exit, no traceback -------------------------------------------------
ERROR_CASES = [
    ["end-fact", "Alice", "lives in"],  # --at is required
    ["add-fact", "Alice", "lives in", "Rome", "--valid-at", "the day after never"],
    ["add-fact", "Alice", "lives in", "Rome", "--confidence", "7"],
    ["add-fact", "Alice", "lives in", "Rome", "--attribute", "no-equals-sign"],
    ["audit", "ffffffffffffffff"],
    ["show", "Nobody"],
    ["search", "Paris", "--limit", "0"],
    ["paths", "Alice", "--max-hops", "0"],
    ["snapshot", "--format", "xml"],
    ["add-episode", "I live in Rome.", "--reference-time", "yesterday-ish"],
]


@pytest.mark.parametrize("argv", ERROR_CASES, ids=[" ".join(a) for a in ERROR_CASES])
def test_bad_input_is_one_line_and_exit_2(memory: tuple[Path, str], argv: list[str],
                                          capsys: pytest.CaptureFixture[str]) -> None:
    db, _ = memory
    try:
        code = main(["--db", str(db), *argv])
    except SystemExit as exited:  # argparse refusals
        code = exited.code
    out, err = capsys.readouterr()
    assert code == 2 and out == ""
    assert err.startswith("tgraph: ") and err.count("\n") == 1 and "Traceback" not in err


# -- adding a command is a few lines ---------------------------------------------------------------
def test_a_registered_command_gets_help_and_json(monkeypatch: pytest.MonkeyPatch, memory: tuple[Path, str],
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(cli, "COMMANDS", dict(COMMANDS))

    @command("count", "how many facts are true now", arg("--subject", help="only about this entity"),
             show=lambda n, args, out: out.print(f"{n['facts']} facts"))
    def _count(tg: temporal_graph.TemporalGraph, args: Any) -> dict[str, int]:
        return {"facts": len(tg.now(args.subject))}

    db, _ = memory
    alice = len(run_json(capsys, db, "now", "Alice"))
    assert run_json(capsys, db, "count", "--subject", "Alice") == {"facts": alice}
    assert run(capsys, db, "count", "--subject", "Alice")[1].strip() == f"{alice} facts"
    assert "count" not in COMMANDS  # the registry the test replaced is untouched


# -- the package's public names --------------------------------------------------------------------
EXPORTED = [
    "Answer",
    "AsyncTemporalGraph",
    "BulkError",
    "BulkReport",
    "Diff",
    "Entity",
    "EntityRetraction",
    "EntitySummary",
    "Episode",
    "EpisodeRetraction",
    "ErasureReceipt",
    "ErasureReport",
    "Fact",
    "FactInput",
    "Forgotten",
    "ImportReport",
    "IngestResult",
    "Insight",
    "LearnedAfter",
    "MaskingPolicy",
    "Ontology",
    "Path",
    "PruneReport",
    "Reflection",
    "SearchHit",
    "SearchResults",
    "Supersession",
    "TemporalGraph",
    "erasure_digest",
]


def test_exported_names_are_frozen() -> None:
    """Adding or removing a public name is a decision: change this list with docs/reference/api.md."""
    assert temporal_graph.__all__ == EXPORTED
    for name in EXPORTED:
        scope: dict[str, Any] = {}
        exec(f"from temporal_graph import {name}", scope)
        assert scope[name] is getattr(temporal_graph, name)


def test_an_ending_that_ends_nothing_says_so(tmp_path: Path, capsys) -> None:
    db = tmp_path / "m.db"
    assert run(capsys, db, "add-fact", "Alice", "lives in", "Paris", "--valid-at", "2020-01-01")[0] == 0
    code, out, _ = run(capsys, db, "end-fact", "Alice", "lives in", "Paris", "--at", "2020-01-01")
    assert code == 0 and "nothing ended" in out and "tgraph retract" in out
