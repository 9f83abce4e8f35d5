"""What a newcomer meets on the command line: an empty answer says why when a name or the group is
unknown, a retraction of nothing is refused, help shows a command's own options, ``import --help``
names the fields, and a Neo4j that is not there is one line."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from temporal_graph import TemporalGraph
from temporal_graph.interfaces.cli import main

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture
def db(tmp_path: Path) -> str:
    path = str(tmp_path / "m.db")
    with TemporalGraph.open(path, embed=False) as tg:
        tg.add_fact("Zhang Wei", "lives in", "Shanghai", valid_at="2024-03-11", group_id="demo")
        tg.add_fact("Zhang Wei", "works at", "SenseTime", valid_at="2024-03-11", group_id="demo")
    return path


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_an_empty_answer_from_an_unknown_name_says_so(db, capsys):
    code, out, err = run(capsys, "--db", db, "--group", "demo", "--json", "now", "Zhang Wie")
    assert (code, out.strip()) == (0, "[]")
    assert err == "tgraph: no entity named 'Zhang Wie' in group 'demo'; did you mean 'Zhang Wei'?\n"
    for argv in (["history", "zhang wie"], ["as-of", "2024-06-01", "Zhang Wie"],
                 ["diff", "2020", "2025", "--subject", "Zhang Wie"], ["paths", "Zhang Wie"]):
        code, _, err = run(capsys, "--db", db, "--group", "demo", *argv)
        assert code == 0 and "did you mean 'Zhang Wei'?" in err, argv
    # A known name with nothing to show is no mistake: nothing on stderr.
    assert run(capsys, "--db", db, "--group", "demo", "as-of", "2000", "Zhang Wei")[2] == ""


def test_an_empty_answer_from_an_empty_group_names_the_groups_there(db, capsys):
    code, _, err = run(capsys, "--db", db, "history", "Zhang Wei")
    assert code == 0
    assert err == "tgraph: group 'default' holds nothing; groups in this memory: 'demo' (use --group)\n"
    code, _, err = run(capsys, "--db", db, "show", "Zhang Wei")
    assert code == 2 and "groups in this memory: 'demo'" in err


def test_retracting_what_nobody_believes_is_refused_and_writes_nothing(db, capsys):
    with TemporalGraph.open(db, embed=False) as tg:
        before = tg.export("demo")
    code, _, err = run(capsys, "--db", db, "--group", "demo", "retract", "Zhang Wei", "lives in", "SenseTime")
    assert code == 2 and "nothing is believed about 'Zhang Wei' 'lives in' 'SenseTime'" in err
    code, _, err = run(capsys, "--db", db, "--group", "demo", "retract", "Zhang Wei", "lives in", "Shanghia")
    assert code == 2 and "did you mean 'Shanghai'?" in err and "nothing retracted" in err
    with TemporalGraph.open(db, embed=False) as tg:
        assert tg.export("demo") == before
    code, out, _ = run(capsys, "--db", db, "--group", "demo", "--json", "retract", "Zhang Wei", "lives in",
                       "Shanghai")
    assert code == 0 and "Shanghai" in out


def test_audit_quotes_the_id_as_typed(db, capsys):
    code, _, err = run(capsys, "--db", db, "--group", "demo", "audit", "ABCDEF12")
    assert code == 2 and "no fact 'ABCDEF12' in group 'demo'" in err


def test_a_command_help_shows_its_own_options_and_points_at_the_global_ones(capsys):
    with pytest.raises(SystemExit):
        main(["now", "--help"])
    text = capsys.readouterr().out
    assert "--relation" in text and "see 'tgraph --help'" in text
    assert "--llm-workers" not in text and "--max-message-chars" not in text
    assert len(text.splitlines()) < 25
    with pytest.raises(SystemExit):
        main(["--help"])
    assert "--llm-workers" in capsys.readouterr().out


def test_import_help_lists_the_formats_and_field_names(capsys):
    with pytest.raises(SystemExit):
        main(["import", "--help"])
    text = capsys.readouterr().out
    for word in ("jsonl", "csv", "locomo", "chatgpt", "text | content | message",
                 "timestamp | time | date | created_at", "speaker", "conversation_id", "id:"):
        assert word in text, word


def test_a_neo4j_that_is_not_there_is_one_line():
    env = {**os.environ, "HF_HUB_OFFLINE": "1"}
    done = subprocess.run([sys.executable, "-m", "temporal_graph", "--neo4j", "neo4j://127.0.0.1:1", "now"],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 1
    assert done.stderr.count("\n") == 1, done.stderr
    assert done.stderr.startswith("tgraph: cannot connect to Neo4j")
