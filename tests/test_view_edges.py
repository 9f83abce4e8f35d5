"""``tgraph view`` at the edges (issue 54): the calendar's ends, an entity with more facts than a
page draws, a page that takes long while others are asked for, the chart's axis and labels, the
entity list, and a group that holds nothing."""

from __future__ import annotations

import http.client
import re
import threading
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from html import unescape
from pathlib import Path
from urllib.parse import urlencode

import pytest

from temporal_graph import TemporalGraph
from temporal_graph.interfaces.cli import main
from temporal_graph.interfaces.view import ROWS, Server
from temporal_graph.interfaces.view_svg import HATCH_FILL, MAX_BARS, MAX_LANES
from temporal_graph.times import LATEST

pytest.importorskip("uvicorn")
ROOT = Path(__file__).resolve().parents[1]
SVG = "{http://www.w3.org/2000/svg}"
T0 = datetime(2010, 1, 1, tzinfo=UTC)
EDGES = ("0001-01-01", "9999-12-31", "9999-12-31T23:59:59.999999")


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("view-edges") / "m.db"
    with TemporalGraph.open(path, embed=False) as tg:
        tg.import_file(ROOT / "examples" / "sample_chat.jsonl", progress=False, replay=True)
        # the calendar's ends
        tg.add_fact("Ancient", "lives in", "Ur", valid_at="0001-01-01", group_id="edges")
        tg.add_fact("Forever", "works at", "Acme", valid_at="2020-01-01", invalid_at="9999-12-31",
                    group_id="edges")
        tg.add_fact("Last", "lives in", "Oslo", valid_at="2020-01-01", group_id="edges")
        tg.end_fact("Last", "lives in", at=LATEST, group_id="edges")
        # one entity with more versions than a page draws: 300 open likes (a lane each), 300 homes
        # (one lane), 20 likes ended later (a superseded version each)
        items = [("Big", "likes", f"thing {i}", T0 + timedelta(days=i)) for i in range(300)]
        items += [("Big", "lives in", f"City {i % 7}", T0 + timedelta(days=i, hours=1)) for i in range(300)]
        tg.add_facts(items, group_id="big")
        for i in range(0, 300, 15):
            tg.end_fact("Big", "likes", f"thing {i}", at=T0 + timedelta(days=i + 30), group_id="big")
        # values beside people, and entities whose facts were all retracted
        for text in ("My rent is 2,100 pounds a month.", "I live in Leeds."):
            tg.add_episode(text, speaker="Priya", reference_time="2024-02-14", group_id="mixed")
        tg.add_fact("Tom", "likes", "golf", group_id="mixed")
        tg.retract_fact("Tom", "likes", "golf", group_id="mixed")
    return path


@pytest.fixture(scope="module")
def tg(db: Path) -> Iterator[TemporalGraph]:
    with TemporalGraph.open(db, embed=False) as graph:
        yield graph


def serve(tg: TemporalGraph, group: str) -> Server:
    server = Server(tg, group)
    server.start()
    return server


@pytest.fixture(scope="module")
def servers(tg: TemporalGraph) -> Iterator[dict[str, Server]]:
    running = {group: serve(tg, group) for group in ("demo", "edges", "big", "mixed", "nobody")}
    yield running
    for server in running.values():
        server.stop()


def get(server: Server, path: str, timeout: float = 120) -> tuple[int, str]:
    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=timeout)
    connection.request("GET", path)
    response = connection.getresponse()
    return response.status, response.read().decode("utf-8")


def chart_of(html: str) -> ET.Element:
    return ET.fromstring(re.search(r'<svg[^>]*class="tg-chart".*?</svg>', html, re.S).group(0))


def bars(svg: ET.Element) -> list[ET.Element]:
    return [g for g in svg.iter(f"{SVG}g") if "version" in g.get("class", "").split()]


def text_of(html: str) -> str:
    return " ".join(unescape(re.sub(r"<[^>]+>", " ", html)).split())


# -- the calendar's ends ---------------------------------------------------------------------------
@pytest.mark.parametrize("name", ["Ancient", "Forever", "Last"])
def test_facts_at_the_ends_of_the_calendar_are_drawn(servers, name) -> None:
    for when in ("", *EDGES):
        for key in ("as_of", "known_at"):
            query = {"name": name, **({key: when} if when else {})}
            status, html = get(servers["edges"], "/entity?" + urlencode(query))
            assert status == 200, (query, html[-300:])
            svg = chart_of(html)
            assert len(bars(svg)) == (2 if name == "Last" else 1)  # Last: as first told, then ended
            ticks = [t.text for t in svg.iter(f"{SVG}text") if t.get("class") == "tick"]
            assert ticks and all(t for t in ticks)
            status, svg_text = get(servers["edges"], "/chart.svg?" + urlencode(query))
            assert status == 200 and ET.fromstring(svg_text).tag == f"{SVG}svg"


def test_the_chart_file_at_the_end_of_the_calendar(db: Path, tmp_path: Path, capsys) -> None:
    out = tmp_path / "last.svg"
    code = main(["--db", str(db), "--group", "edges", "view", "--entity", "Last", "--svg", str(out),
                 "--as-of", "9999-12-31"])
    assert code == 0, capsys.readouterr().err
    assert ET.parse(out).getroot().tag == f"{SVG}svg"


# -- a big entity ----------------------------------------------------------------------------------
@pytest.mark.parametrize("at_once", [2_000, 100], ids=["read at once", "read by relation"])
def test_a_big_entitys_page_is_bounded_and_pages_through_every_version(servers, tg, at_once,
                                                                     monkeypatch) -> None:
    monkeypatch.setattr("temporal_graph.interfaces.view.READ_AT_ONCE", at_once)
    every = {v.id for f in {f.fact_id for f in tg.history("Big", group_id="big")}
             for v in tg.audit(f, group_id="big")}
    assert len(every) == 620
    status, html = get(servers["big"], "/entity?name=Big")
    assert status == 200 and len(html) < 500_000
    svg = chart_of(html)
    lanes = {float(r.get("y")) for g in bars(svg) for r in g.iter(f"{SVG}rect") if r.get("height") == "18"}
    assert len(bars(svg)) <= MAX_BARS and len(lanes) <= MAX_LANES
    current = re.findall(r"<tr><td>", html.split("<h2>Current facts</h2>")[1].split("<h2>")[0])
    holding = len(tg.now("Big", group_id="big"))
    assert holding > ROWS and len(current) == ROWS  # a page of the facts holding now
    assert "facts_from=100" in html and "versions_from=" in html
    last = urlencode({"name": "Big", "facts_from": str(holding - 1)})
    status, more = get(servers["big"], "/entity?" + last)
    assert f"rows {holding:,}–{holding:,} of {holding:,} shown" in text_of(more)
    # following "next" from page to page draws every version once
    seen: list[str] = []
    path = "/entity?name=Big"
    while path:
        status, html = get(servers["big"], path)
        assert status == 200
        seen += [g.get("data-version-id") for g in bars(chart_of(html))]
        pagers = re.findall(r'<p class="pager note" data-param="versions_from">(.*?)</p>', html)
        following = re.search(r'<a href="([^"]*)">next', pagers[0]) if pagers else None
        path = unescape(following.group(1)) if following else ""
        assert len(seen) <= len(every)
    assert sorted(seen) == sorted(every)


def test_the_insights_page_of_a_big_group_shows_a_page_of_summaries(servers) -> None:
    status, html = get(servers["big"], "/insights")
    assert status == 200
    assert html.count("<tr><td>") == ROWS and "summaries 1–100 of 282 shown" in text_of(html)
    last = re.search(r'<p class="pager note" data-param="summaries_from">.*?<a href="([^"]*)">next', html)
    status, html = get(servers["big"], unescape(last.group(1)))
    assert status == 200 and "summaries 101–200 of 282 shown" in text_of(html)


def test_a_long_page_does_not_hold_up_the_others(db: Path) -> None:
    """While one page waits (here: its summary, held on purpose), another page is served."""
    with TemporalGraph.open(db, embed=False) as graph:
        entered, release = threading.Event(), threading.Event()
        summary = graph.summary

        def slow_summary(entity: str, **kwargs):
            if entity == "Big":
                entered.set()
                release.wait(60)
            return summary(entity, **kwargs)

        graph.summary = slow_summary  # type: ignore[method-assign]
        server = serve(graph, "big")
        try:
            results: list[int] = []
            slow = threading.Thread(target=lambda: results.append(get(server, "/entity?name=Big")[0]))
            slow.start()
            assert entered.wait(60)
            status, html = get(server, "/entity?" + urlencode({"name": "City 1"}), timeout=30)
            assert status == 200 and "City 1" in html
            assert not results  # the first page is still waiting
            release.set()
            slow.join(60)
            assert results == [200]
        finally:
            release.set()
            server.stop()


# -- the chart's axis and labels -------------------------------------------------------------------
def test_the_axis_spans_the_history_drawn_not_up_to_now(servers) -> None:
    status, html = get(servers["demo"], "/entity?name=Zhang+Wei")
    svg = chart_of(html)
    ticks = [t.text for t in svg.iter(f"{SVG}text")
             if t.get("text-anchor") == "middle" and t.get("fill") == "#555"]  # the axis's labels
    years = [int(t) for t in ticks if t.isdigit()]
    assert years == [2023, 2024]  # the chat ran from 2023-01 to 2024-07; today is later


def test_a_superseded_bar_ends_at_its_revision(servers) -> None:
    svg = chart_of(get(servers["demo"], "/entity?name=Zhang+Wei")[1])
    homes = {}
    for g in bars(svg):
        tip = "".join(g.find(f"{SVG}title").itertext())
        if " LIVES_IN " in tip:
            homes[(tip.split(" LIVES_IN ")[1].split(":")[0], "superseded" in g.get("class"))] = g
    old = homes[("Hangzhou", True)]
    rect = next(r for r in old.iter(f"{SVG}rect") if r.get("height") == "18")
    end = float(rect.get("x")) + float(rect.get("width"))
    shanghai = next(r for r in homes[("Shanghai", False)].iter(f"{SVG}rect") if r.get("height") == "18")
    assert abs(end - float(shanghai.get("x"))) < 1.0  # believed open-ended until the move was told
    cap = old.find(f".//{SVG}a[@class='ended']/{SVG}rect")
    assert abs(float(cap.get("x")) + 5 - end) < 1.0  # the "ended by" cap sits there, not at the edge


def _luminance(colour: str) -> float:
    if len(colour) == 4:  # #fff
        colour = "#" + "".join(c * 2 for c in colour[1:])
    channels = [int(colour[i:i + 2], 16) / 255 for i in (1, 3, 5)]
    linear = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def _contrast(a: str, b: str) -> float:
    hi, lo = sorted((_luminance(a), _luminance(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


@pytest.mark.parametrize("known_at", ["", "2024-01-01"])
def test_every_bar_label_is_readable_on_its_bar(servers, known_at) -> None:
    query = {"name": "Zhang Wei", **({"known_at": known_at} if known_at else {})}
    svg = chart_of(get(servers["demo"], "/entity?" + urlencode(query))[1])
    kinds = set()
    for g in bars(svg):
        assert g.get("opacity") is None  # no see-through bars: faded ones are pale and keep dark words
        rect = next(r for r in g.iter(f"{SVG}rect") if r.get("height") == "18")
        label = next(g.iter(f"{SVG}text"))
        fill = HATCH_FILL if rect.get("fill").startswith("url(") else rect.get("fill")
        assert _contrast(label.get("fill"), fill) >= 4.5, (label.text, label.get("fill"), fill)
        kinds.add(("faded" in g.get("class"), "superseded" in g.get("class")))
    assert (True, False) in kinds if known_at else (False, True) in kinds


# -- the entity list and groups --------------------------------------------------------------------
def test_the_entity_list_puts_values_apart_and_leaves_out_entities_without_facts(servers) -> None:
    status, html = get(servers["mixed"], "/")
    assert status == 200
    people = text_of(html.split("<h2>People and things</h2>")[1].split("<h2>")[0])
    values = text_of(html.split("<h2>Values</h2>")[1].split("<h2>")[0])
    assert "Priya" in people and "Leeds" in people and "2,100 pounds a month" not in people
    assert "2,100 pounds a month" in values
    assert "Tom" not in people and "golf" not in people and "2 without facts left out" in people


def test_a_group_that_holds_nothing_names_the_groups_there_are(servers) -> None:
    status, html = get(servers["nobody"], "/")
    assert status == 200
    said = text_of(html)
    assert "group 'nobody' holds nothing" in said and "'demo'" in said and "'big'" in said
    status, html = get(servers["nobody"], "/entity?name=Zhang+Wei")
    assert status == 404 and "'demo'" in text_of(html)
    status, html = get(servers["demo"], "/entity?name=Zhang+We")
    assert status == 404 and "did you mean 'Zhang Wei'" in text_of(html)


def test_the_chart_file_of_an_empty_group_names_the_groups(db: Path, tmp_path: Path, capsys) -> None:
    code = main(["--db", str(db), "--group", "nobody", "view", "--entity", "Zhang Wei", "--svg",
                 str(tmp_path / "x.svg")])
    err = capsys.readouterr().err
    assert code == 2 and "group 'nobody' holds nothing" in err and "'demo'" in err
    assert not (tmp_path / "x.svg").exists()
