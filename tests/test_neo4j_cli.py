"""Every ``tgraph`` command with ``--neo4j`` gives what it gives on the embedded store.

One session of commands (imports, writes, un-learning, every read) runs on a fresh embedded file
and, in a group of its own, on the Neo4j server; each command's JSON must match once what only
differs by chance is set aside: random row ids, the wall clock of this run, and the order of lists
whose order ties on random ids.
"""

from __future__ import annotations

import contextlib
import difflib
import io
import json
import os
import re
from pathlib import Path
from typing import Any

import pytest

from temporal_graph.interfaces.cli import main
from temporal_graph.testing import unique_test_group

pytestmark = pytest.mark.neo4j
EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
# Commands whose JSON is a list in an order that ties on random ids (or a graph's edge list), and
# search: its BM25 side ranks by Lucene's statistics on Neo4j (over every group of the database)
# and FTS5's on SQLite, so the same hits may come in another order.
UNORDERED = {"reflect", "insights", "snapshot", "export", "show", "search"}
_HEX = re.compile(r"\b[0-9a-f]{8,32}\b")
# "reasons" of a search hit hold its BM25 rank (see UNORDERED).
_VOLATILE = {"id", "fact_id", "created_at", "expired_at", "episode_ids", "known_at", "score",
             "retracted_at", "erased_at", "at", "seconds", "reasons", "digest"}


def _session(tmp: Path) -> list[list[str]]:
    return [
        ["import", str(EXAMPLES / "sample_chat.jsonl"), "--quiet", "--replay"],
        ["alias-speaker", "zw", "Zhang Wei"],
        ["import-facts", str(EXAMPLES / "facts.csv"), "--no-embed"],  # for reindex to embed
        ["add-fact", "Alice", "lives in", "Paris", "--valid-at", "2020-01-01"],
        ["end-fact", "Alice", "works at", "Acme", "--at", "2023-06-30"],
        ["retract", "Alice", "lives in", "Paris"],
        ["add-episode", "I moved to Berlin.", "--reference-time", "2024-01-01", "--speaker", "Bob"],
        ["add-episode", "My email is bob@example.org.", "--reference-time", "2024-01-02", "--speaker", "Bob"],
        ["reflect"],
        ["reindex"],
        ["now"],
        ["now", "Zhang Wei"],
        ["as-of", "2023-06-01", "Zhang Wei"],
        ["as-of", "2024-07-01", "Zhang Wei", "--known-at", "2024-01-01"],
        ["history", "Zhang Wei"],
        ["show", "Zhang Wei"],
        ["insights"],
        ["diff", "2023-01-01", "2024-12-31"],
        ["paths", "Zhang Wei", "--max-hops", "2"],
        ["search", "badminton"],
        ["search", "where does Zhang Wei work?"],
        ["ask", "Where did Zhang Wei live in June 2023?"],
        ["ask", "Where does Zhang Wei live now?"],
        ["context", "where does Zhang Wei live"],
        ["snapshot", "--format", "json"],
        ["copy", "--to", str(tmp / "copied.db")],
        ["retract-episode", "{episode}"],  # the last message told: Bob's e-mail
        ["now", "Bob"],
        ["erase", "entity", "Lin", "--yes", "--request-id", "cli-erase"],
        ["prune", "--history-before", "2024-04-01", "--request-id", "cli-prune"],
        ["erasures"],
        ["now"],
        ["export"],
    ]


def _run(store: list[str], group: str, args: list[str]) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main([*store, "--group", group, "--json", *args])
    return code, out.getvalue(), err.getvalue()


def _comparable(value: Any, *, unordered: bool) -> Any:
    if isinstance(value, dict):
        return {k: _comparable(v, unordered=unordered) for k, v in value.items() if k not in _VOLATILE}
    if isinstance(value, list):
        items = [_comparable(v, unordered=unordered) for v in value]
        return sorted(items, key=lambda v: json.dumps(v, sort_keys=True)) if unordered else items
    if isinstance(value, str):
        return _HEX.sub("<id>", value)
    return value


def _diff(a: Any, b: Any) -> str:
    lines = [json.dumps(x, indent=1, sort_keys=True).splitlines() for x in (a, b)]
    return "\n".join(difflib.unified_diff(*lines, "embedded", "neo4j", lineterm="", n=2))


def _answer(command: list[str], code: int, out: str) -> Any:
    try:
        data = json.loads(out)
    except json.JSONDecodeError:
        data = out  # a command without JSON output (copy prints its report as a table)
    if command[0] == "copy":
        return code  # the copies themselves are compared below
    return code, _comparable(data, unordered=command[0] in UNORDERED)


def test_every_command_answers_on_neo4j_as_on_the_embedded_store(tmp_path: Path) -> None:
    group = unique_test_group("cli")
    neo4j = ["--neo4j", os.environ["NEO4J_URI"]]
    stores = {"embedded": ["--db", str(tmp_path / "memory.db")], "neo4j": neo4j}
    answers: dict[str, list[Any]] = {}
    try:
        for name, store in stores.items():
            session_dir = tmp_path / name
            session_dir.mkdir()
            answers[name] = []
            episode = ""
            for command in _session(session_dir):
                command = [episode if word == "{episode}" else word for word in command]
                code, out, err = _run(store, group, command)
                assert code == 0, f"{name}: tgraph {' '.join(command)} -> {code}: {err}"
                answers[name].append(_answer(command, code, out))
                if command[0] == "add-episode":
                    episode = json.loads(out)["episode"]["id"]
        for command, embedded, on_neo4j in zip(_session(tmp_path), answers["embedded"], answers["neo4j"],
                                               strict=True):
            shown = " ".join(command)
            assert on_neo4j == embedded, f"tgraph {shown} differs on Neo4j:\n" + _diff(embedded, on_neo4j)
        # Both copies (one out of each store) hold the same memory.
        exports = [_comparable(json.loads(_run(["--db", str(tmp_path / name / "copied.db")], group,
                                               ["export"])[1]), unordered=True) for name in stores]
        assert exports[0] == exports[1]
    finally:
        code, _, err = _run(neo4j, group, ["forget", "--yes"])
        assert code == 0, err


def test_a_bad_command_on_neo4j_is_one_line_and_exit_2() -> None:
    group = unique_test_group("cli")
    code, out, err = _run(["--neo4j", os.environ["NEO4J_URI"]], group, ["as-of", "May", "Alice"])
    assert code == 2 and out == "" and len(err.strip().splitlines()) == 1 and "May" in err
