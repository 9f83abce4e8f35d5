"""``import-facts`` files read exactly or refused by line (issue 22): numbers and booleans are no times,
booleans no numbers, a cell longer than Python csv's field limit or a line of invalid UTF-8 is an error
of its own line (never "internal error" for the file, never U+FFFD stored), and a header after a BOM
is read. Chat CSV imports share the row reader."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from temporal_graph import TemporalGraph
from temporal_graph.errors import ImportFormatError
from temporal_graph.interfaces.cli import main

HEADER = b"subject,relation,object,valid_at,text\n"
OK_ROW = b"Bo,lives in,Oslo,2021,Bo lives in Oslo\n"
LONG = 140_000  # over csv's default field limit of 131,072 characters


def _jsonl(*records: dict) -> bytes:
    return b"".join(json.dumps(r).encode() + b"\n" for r in records)


BASE = {"subject": "Cy", "relation": "plays for", "object": "PSV"}
CASES = [
    # (name, file name, content, {line: what its error says}, objects written)
    ("a year as a JSON number", "f.jsonl", _jsonl({**BASE, "valid_at": 2020}, {**BASE, "object": "Ajax"}),
     {1: "2020"}, ["Ajax"]),
    ("a boolean time", "f.jsonl", _jsonl({**BASE, "invalid_at": True}), {1: "True"}, []),
    ("a boolean importance", "f.jsonl", _jsonl({**BASE, "importance": True}), {1: "importance: True"}, []),
    ("a boolean confidence", "f.jsonl", _jsonl({**BASE, "confidence": False}), {1: "confidence: False"}, []),
    ("importance out of range", "f.jsonl", _jsonl({**BASE, "importance": 2**70}), {1: "from 1 to 10"}, []),
    ("NaN confidence", "f.jsonl", b"{\"subject\": \"C\", \"relation\": \"likes\", \"object\": \"t\", "
     b"\"confidence\": NaN}\n",
     {1: "confidence: nan"}, []),
    ("a CSV cell over the csv field limit", "f.csv", HEADER + b"Cy,likes,tea,2020," + b"x" * LONG + b"\n"
     + OK_ROW, {2: "140,000 characters is over the limit of 10,000"}, ["Oslo"]),
    ("a quoted CSV cell over the limit across lines", "f.csv",
     HEADER + b'Cy,likes,tea,2020,"' + (b"y" * 1000 + b"\n") * 140 + b'"\n' + OK_ROW,
     {2: "over the limit of 10,000"}, ["Oslo"]),
    ("a header after a UTF-8 BOM", "f.csv", b"\xef\xbb\xbf" + HEADER + OK_ROW, {}, ["Oslo"]),
    ("JSONL after a UTF-8 BOM", "f.jsonl", b"\xef\xbb\xbf" + _jsonl({**BASE, "object": "Ajax"}), {},
     ["Ajax"]),
    ("invalid UTF-8 in a CSV row", "f.csv", HEADER + b"Cy,likes,t\xffea,2020,x\n" + OK_ROW,
     {2: "not valid UTF-8"}, ["Oslo"]),
    ("invalid UTF-8 in a JSONL line", "f.jsonl",
     b'{"subject": "Cy", "relation": "likes", "object": "t\xffea"}\n' + _jsonl({**BASE, "object": "Ajax"}),
     {1: "not valid UTF-8"}, ["Ajax"]),
    ("a fact text over 10,000 characters", "f.jsonl", _jsonl({**BASE, "text": "z" * 10_001}),
     {1: "10,001 characters is over the limit of 10,000"}, []),
]


@pytest.mark.parametrize(("content", "name", "errors", "objects"),
                         [(c[2], c[1], c[3], c[4]) for c in CASES], ids=[c[0] for c in CASES])
def test_each_bad_line_is_reported_and_the_rest_loaded(tmp_path: Path, content: bytes, name: str,
                                                       errors: dict[int, str], objects: list[str]) -> None:
    path = tmp_path / name
    path.write_bytes(content)
    with TemporalGraph.open(":memory:", embed=False) as tg:
        report = tg.import_facts(path)
        got = {e.line: e.reason for e in report.errors}
        assert got.keys() == errors.keys(), got
        for line, says in errors.items():
            assert says in got[line], (line, got[line])
        assert sorted(f.object for f in tg.now()) == objects
        stored = json.dumps(tg.export(), ensure_ascii=False)
        assert "\ufffd" not in stored  # nothing read as a replacement character
        assert all(f.valid_at is None or f.valid_at.year > 1970 for f in tg.now())


def test_the_cli_reports_a_long_cell_by_line_and_exits_0(tmp_path: Path,
                                                         capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "facts.csv"
    path.write_bytes(HEADER + b"Cy,likes,tea,2020," + b"x" * LONG + b"\n" + OK_ROW)
    assert main(["--db", str(tmp_path / "m.db"), "import-facts", str(path), "--no-embed", "--quiet"]) == 0
    out = capsys.readouterr().out
    assert f"{path}:2: text: 140,000 characters" in out and "1 rows written" in out


@pytest.mark.parametrize(("header", "says"), [(b"subject,relation,object,object\n", "named twice"),
                                              (b"subject,relation,objet\n", "unknown column")])
def test_a_bad_header_refuses_the_file(tmp_path: Path, header: bytes, says: str) -> None:
    path = tmp_path / "facts.csv"
    path.write_bytes(header + b"Cy,likes,tea\n")
    with TemporalGraph.open(":memory:", embed=False) as tg, pytest.raises(ImportFormatError, match=says):
        tg.import_facts(path)


def test_a_chat_csv_message_longer_than_the_csv_field_limit_is_imported(tmp_path: Path) -> None:
    """Messages may be up to max_message_chars (250,000) long in CSV too, as in JSONL."""
    long_message = "I live in Rome. " + "la " * 50_000 + "end."
    path = tmp_path / "chat.csv"
    path.write_text(f'speaker,text,timestamp\nLi,"{long_message}",2023-01-01\nLi,I like tea.,2023-01-02\n',
                    encoding="utf-8")
    with TemporalGraph.open(":memory:", embed=False) as tg:
        report = tg.import_file(path, progress=False)
        assert report.errors == [] and report.episodes_imported == 2
        assert {e.content for e in tg.core.store.episodes("default")} >= {long_message}
