"""What ``tgraph`` writes never carries a stored control character raw (issue 22): an ESC sequence, an
OSC 52 clipboard write, NUL, C1 controls or a bidi override in a fact's text, a name or a message is
shown escaped in tables and plain text, escaped in JSON (the same data once parsed), and GraphML
from ``snapshot`` is well-formed XML that networkx reads back."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path

import networkx as nx
import pytest

from temporal_graph import TemporalGraph
from temporal_graph.interfaces.cli import main
from temporal_graph.interfaces.graph_files import graph_file
from temporal_graph.interfaces.safe_text import json_text, visible
from temporal_graph.times import ManualClock

OSC52 = "\x1b]52;c;ZWNobyBwd25lZA==\x07"  # "copy this to the clipboard", as a terminal reads it
FACT_TEXT = f"Mallory lives in Paris {OSC52}\x00\x9b31m\u202etxet desrever\x1b[2J"
MESSAGE = "I live in Rome \x1b[31mred\x1b[0m now.\x00"
NAME = "Mallory\u200b"  # looks like "Mallory"
PLACE = "Pa\u202eris"
# Anything a terminal could act on (what may never reach it raw), tab and newline aside.
RAW = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u200b\u202a-\u202e\u2066-\u2069\ufffe\uffff]")


@pytest.fixture
def db(tmp_path: Path) -> Path:
    path = tmp_path / "memory.db"
    with TemporalGraph.open(path, clock=ManualClock("2024-06-01"), embed=False) as tg:
        tg.add_fact(NAME, "lives in", PLACE, text=FACT_TEXT, valid_at="2020")
        tg.add_fact(NAME, "works at", "Acme\ufffe", text="works at \x1b[5mAcme", valid_at="2019")
        tg.add_episode(MESSAGE, reference_time="2021-01-01", speaker=NAME)
    return path


COMMANDS = [
    ["search", "Mallory"],
    ["search", "Mallory", "--include-history"],
    ["context", "Where does Mallory live?"],
    ["ask", "Where does Mallory live?"],
    ["show", NAME],
    ["history", NAME],
    ["now"],
    ["as-of", "2020-06-01"],
    ["diff", "2000", "2030"],
    ["paths", NAME, "--as-of", "2020-06-01"],
]


@pytest.mark.parametrize("args", COMMANDS, ids=[" ".join(a[:2]) for a in COMMANDS])
def test_tables_and_plain_text_show_control_characters_escaped(db: Path, args: list[str],
                                                               capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["--db", str(db), *args])
    out, err = capsys.readouterr()
    assert code == 0, err
    assert not RAW.findall(out), f"raw control characters reach the terminal: {RAW.findall(out)}"
    if args[0] in ("show", "history", "now"):
        assert "Mallory\\u200b" in out  # the lookalike name shows what sets it apart


def test_the_audit_of_a_hostile_fact_is_escaped(db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with TemporalGraph.open(db, embed=False) as tg:
        fact_id = next(f.fact_id for f in tg.history(NAME, "lives in") if f.object == PLACE)
    assert main(["--db", str(db), "audit", fact_id]) == 0
    out = capsys.readouterr().out
    assert not RAW.findall(out) and "\\u202e" in out


def test_search_shows_the_osc52_sequence_as_text(db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--db", str(db), "search", "Paris", "--include-history", "--kind", "fact"]) == 0
    out = capsys.readouterr().out
    assert "\x1b]52" not in out and "\\x1b]52;c;" in "".join(out.split())


@pytest.mark.parametrize("args", [["search", "Mallory", "--json"], ["now", "--json"], ["export"],
                                  ["snapshot", "--format", "json"]])
def test_json_output_escapes_them_and_keeps_the_data(db: Path, args: list[str],
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--db", str(db), *args]) == 0
    out = capsys.readouterr().out
    assert not RAW.findall(out)
    texts = json.dumps(json.loads(out), ensure_ascii=False)  # the parsed data holds the exact values
    assert json.dumps(NAME, ensure_ascii=False).strip('"') in texts


def test_export_round_trips_every_character(db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--db", str(db), "export"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert FACT_TEXT in {f["text"] for f in data["facts"]}
    assert MESSAGE in {e["content"] for e in data["episodes"]}


def test_graphml_is_well_formed_and_read_back_by_networkx(db: Path, tmp_path: Path,
                                                          capsys: pytest.CaptureFixture[str]) -> None:
    target = tmp_path / "graph.graphml"
    assert main(["--db", str(db), "snapshot", "--as-of", "2020-06-01", "-o", str(target)]) == 0
    text = target.read_text(encoding="utf-8")
    assert not RAW.findall(text)  # a terminal can cat it too
    graph = nx.read_graphml(target)
    names = {d["name"] for _, d in graph.nodes(data=True)}
    # Characters XML 1.0 can hold come back exactly; the ones it cannot are visible escapes.
    assert {NAME, PLACE, "Acme\\ufffe"} <= names
    texts = {d["text"] for _, _, d in graph.edges(data=True)}
    assert FACT_TEXT.replace("\x1b", "\\x1b").replace("\x07", "\\x07").replace("\x00", "\\x00") in texts
    assert "works at \\x1b[5mAcme" in texts


@pytest.mark.parametrize("text", [
    "\x00\x01\x08\x0b\x0c\x0e\x1f", "\ufffe\uffff", "\x7f\x80\x85\x9f", "a\r\nb\tc", "\u202e\u2066\u200f",
    "emoji \U0001f600 and tags \U000e0041\U000e007f", "&<>\"' ]]> <!--", "😀" * 3,
])
def test_any_text_makes_graphml_that_reads_back(text: str) -> None:
    with TemporalGraph.open(":memory:", embed=False) as tg:
        tg.add_fact("Ann", "likes", "tea", text=text)
        tg.add_fact("Bo\ufffe", "likes", "X\u202eY", text=text + "!")
        out = graph_file(tg.snapshot(), "graphml")
    graph = nx.read_graphml(io.BytesIO(out.encode("utf-8")))
    got = sorted(d["text"] for _, _, d in graph.edges(data=True))
    expected = sorted(visible_xml(t) for t in (text, text + "!"))
    assert got == expected


def visible_xml(text: str) -> str:
    """What GraphML holds for ``text``: every character, but those XML 1.0 forbids escaped."""
    return re.sub("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]", lambda m: visible(m.group()), text)


def test_json_text_is_valid_json_with_the_same_values() -> None:
    value = {"t": "\x1b\x9b\u202e\u2028\ufeff\U000e0041 ok \u200d", "n": [1, None]}
    text = json_text(value)
    assert json.loads(text) == value and not RAW.findall(text)
    assert "\u200d" in text  # joiners stay: emoji and scripts need them


def test_an_error_line_is_escaped(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["--db", str(tmp_path / "x\x1b[2J.db"), "now"])
    err = capsys.readouterr().err
    assert code == 2 and "\x1b" not in err and "x\\x1b[2J.db" in err
