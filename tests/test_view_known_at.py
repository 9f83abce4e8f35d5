"""``tgraph show X --known-at K`` and the view's entity page with ``known_at``: the memory as it
stood at K, its summary and timeline included (issue 54). The sample chat is imported with
``--replay``, so transaction time follows the messages: on 2023-06-01 the memory knew of Zhang
Wei's home in Hangzhou and his job at Alibaba, and nothing yet of Shanghai (told 2024-03-11)."""

from __future__ import annotations

import http.client
import json
import re
from html import unescape
from pathlib import Path
from urllib.parse import urlencode

import pytest

from temporal_graph import TemporalGraph
from temporal_graph.interfaces.cli import main

ROOT = Path(__file__).resolve().parents[1]
K = "2023-06-01"


@pytest.fixture(scope="module")
def demo_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    db = tmp_path_factory.mktemp("known-at") / "demo.db"
    with TemporalGraph.open(db) as tg:
        tg.import_file(ROOT / "examples" / "sample_chat.jsonl", progress=False, replay=True)
    return db


def show(db: Path, capsys, *extra: str) -> str:
    assert main(["--db", str(db), "--group", "demo", "show", "Zhang Wei", *extra]) == 0
    return capsys.readouterr().out


def test_show_known_at_gives_the_summary_and_timeline_of_then(demo_db: Path, capsys) -> None:
    out = show(demo_db, capsys, "--known-at", K)
    assert "summary: none" not in out
    summary = out.split("summary", 1)[1].split("\n\n")[0]
    assert "as known at 2023-06-01" in summary and "Hangzhou" in summary and "Shanghai" not in summary
    assert "timeline (as believed at 2023-06-01)" in out
    assert "Shanghai" not in out and "SenseTime" not in out  # learned in 2024
    assert "true at 2023-06-01, as believed then" in out
    now = show(demo_db, capsys)  # without --known-at: as now
    assert "timeline (as currently believed)" in now and "Shanghai" in now


def test_show_json_known_at_holds_nothing_learned_after(demo_db: Path, capsys) -> None:
    assert main(["--db", str(demo_db), "--group", "demo", "--json", "show", "Zhang Wei",
                 "--known-at", K]) == 0
    view = json.loads(capsys.readouterr().out)
    assert view["summary"] is not None and "Hangzhou" in view["summary"]["text"]
    assert view["summary_stored"] is False  # made from the facts of then: no summary was stored by then
    assert view["timeline"] and all(f["created_at"] <= "2023-06-01T" for f in view["timeline"])
    assert {f["object"] for f in view["timeline"]} >= {"Hangzhou", "Alibaba"}
    hangzhou = next(f for f in view["timeline"] if f["object"] == "Hangzhou")
    assert hangzhou["invalid_at"] is None  # open, as believed then


def test_a_stored_summary_is_shown_as_stored(demo_db: Path, capsys) -> None:
    out = show(demo_db, capsys, "--known-at", "2025-01-01")
    assert "summary (from its facts, believed since" in out and "Shanghai" in out


def test_the_library_reads_history_and_summary_at_known_at(demo_db: Path) -> None:
    with TemporalGraph.open(demo_db) as tg:
        then = tg.history("Zhang Wei", known_at=K, group_id="demo")
        assert {f.object for f in then if f.relation == "LIVES_IN"} == {"Hangzhou"}
        assert tg.summary("Zhang Wei", known_at=K, group_id="demo") is None  # none was stored by then
        made = tg.summary("Zhang Wei", known_at=K, group_id="demo", derive=True)
        assert made is not None and made.id == "" and "Hangzhou" in made.text and "Shanghai" not in made.text
        stored = tg.summary("Zhang Wei", group_id="demo", derive=True)
        assert stored is not None and stored.id != "" and "Shanghai" in stored.text


def test_the_view_entity_page_has_the_summary_of_then(demo_db: Path) -> None:
    from temporal_graph.interfaces.view import Server

    with TemporalGraph.open(demo_db) as tg:
        server = Server(tg, "demo")
        server.start()
        try:
            connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=60)
            connection.request("GET", "/entity?" + urlencode({"name": "Zhang Wei", "known_at": K}))
            response = connection.getresponse()
            html = response.read().decode("utf-8")
        finally:
            server.stop()
    assert response.status == 200
    summary = re.search(r'<p class="summary">(.*?)</p>', html, re.S)
    assert summary is not None
    text = unescape(re.sub(r"<[^>]+>", " ", summary.group(1)))
    assert "Hangzhou" in text and "Shanghai" not in text and "as known at 2023-06-01" in text
