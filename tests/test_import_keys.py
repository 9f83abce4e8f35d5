"""A ``key`` field in JSONL and CSV imports: the messages of one key form a timeline, as
``add_episode(key=...)`` makes them; a bad key is reported with its line and the rest imported."""

from __future__ import annotations

import json

from temporal_graph import TemporalGraph


def _standings(tg: TemporalGraph) -> dict[str, str | None]:
    return {h.text: h.standing for h in tg.search("payment terms", stale="show", limit=20) if h.episode}


def test_a_jsonl_key_supersedes_and_a_bad_key_is_reported_with_its_line(tmp_path) -> None:
    rows = [
        {"text": "Globex payment terms: net 30.", "timestamp": "2024-02-01", "key": "Globex/terms"},
        {"text": "Initech payment terms: net 15.", "timestamp": "2024-03-01",
         "keys": ["Initech/terms", "Initech/all"]},
        {"text": "Globex payment terms: net 45.", "timestamp": "2024-07-01", "key": "Globex/terms"},
        {"text": "Hooli payment terms: net 60.", "timestamp": "2024-08-01", "key": "bad\u200bkey"},
    ]
    path = tmp_path / "log.jsonl"
    path.write_text("\n".join(json.dumps(r) for r in rows) + "\n", encoding="utf-8")
    with TemporalGraph.open(":memory:", embed=False) as tg:
        report = tg.import_file(path, progress=False)
        assert report.episodes_imported == 3
        assert [(e.line, "key" in e.reason) for e in report.errors] == [(4, True)]
        assert _standings(tg) == {"Globex payment terms: net 30.": "superseded",
                                  "Initech payment terms: net 15.": "current",
                                  "Globex payment terms: net 45.": "current"}
        assert tg.import_file(path, progress=False).episodes_imported == 0  # a second import adds nothing


def test_a_csv_key_column(tmp_path) -> None:
    path = tmp_path / "log.csv"
    path.write_text("speaker,text,timestamp,key\n"
                    "crm,Globex payment terms: net 30.,2024-02-01,Globex/terms\n"
                    "crm,Globex payment terms: net 45.,2024-07-01,Globex/terms\n"
                    "crm,Initech payment terms: net 15.,2024-03-01,\n", encoding="utf-8")
    with TemporalGraph.open(":memory:", embed=False) as tg:
        assert tg.import_file(path, progress=False).episodes_imported == 3
        assert _standings(tg)["Globex payment terms: net 30."] == "superseded"
        assert _standings(tg)["Initech payment terms: net 15."] in ("current", "unparsed")
