"""``tgraph view``: the web page over HTTP, on the demo memory (the sample chat, imported as
scripts/demo.sh does), as a person using it in a browser would notice."""

from __future__ import annotations

import http.client
import re
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from html import unescape
from pathlib import Path
from urllib.parse import quote, urlencode

import pytest

from temporal_graph import TemporalGraph
from temporal_graph.interfaces.cli import main
from temporal_graph.interfaces.view import Server

pytest.importorskip("uvicorn")
ROOT = Path(__file__).resolve().parents[1]
SVG = "{http://www.w3.org/2000/svg}"
HOSTILE = "<script>alert(1)</script>"


@pytest.fixture(scope="module")
def demo_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    db = tmp_path_factory.mktemp("view") / "demo.db"
    with TemporalGraph.open(db) as tg:
        tg.import_file(ROOT / "examples" / "sample_chat.jsonl", progress=False, replay=True)
        # another tenant, which the page on group 'demo' must never show
        tg.add_fact("Mallory", "lives in", "Atlantis", valid_at="2020-01-01", group_id="secret")
        # hostile names and messages, in a group of their own
        tg.add_fact(HOSTILE, "lives in", '<img src=x onerror="alert(2)">', valid_at="2021-01-01",
                    group_id="hostile")
        tg.add_episode(f"{HOSTILE} I live in Oslo.", speaker="Eve", reference_time="2022-05-01",
                       group_id="hostile")
    return db


@pytest.fixture(scope="module")
def demo(demo_db: Path) -> Iterator[Server]:
    with TemporalGraph.open(demo_db) as tg:
        server = Server(tg, "demo")
        server.start()
        yield server
        server.stop()


def get(server: Server, path: str, headers: dict[str, str] | None = None) -> tuple[int, str]:
    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=60)
    connection.request("GET", path, headers=headers or {})
    response = connection.getresponse()
    return response.status, response.read().decode("utf-8")


def text_of(html: str) -> str:
    """What a reader sees: the page without its tags, entities decoded."""
    return unescape(re.sub(r"<[^>]+>", " ", html))


def section(html: str, heading: str) -> str:
    """The page from the heading that starts with ``heading`` to the next heading."""
    start = html.index(heading)
    end = html.find("<h2", start + 1)
    return html[start:end if end > 0 else len(html)]


def svg_bars(svg: ET.Element) -> list[ET.Element]:
    return [g for g in svg.iter(f"{SVG}g") if "version" in g.get("class", "").split()]


# -- search and the entity page --------------------------------------------------------------------
def test_search_finds_badminton_and_links_to_zhang_wei(demo: Server) -> None:
    status, html = get(demo, "/?q=badminton")
    assert status == 200
    hits = section(html, "<h2>")
    assert "badminton" in text_of(hits).lower()
    assert 'href="/entity?name=Zhang+Wei"' in hits  # a hit leads to the entity's page
    assert 'href="/message?id=' in hits


def test_zhang_wei_two_homes_meet_at_the_move(demo: Server) -> None:
    status, html = get(demo, "/entity?name=Zhang+Wei")
    assert status == 200
    current = text_of(section(html, "<h2>Current facts"))
    assert "Shanghai" in current and "Hangzhou" not in current
    svg = ET.fromstring(re.search(r"<svg.*?</svg>", html, re.S).group(0))
    homes = [g for g in svg_bars(svg) if "Hangzhou" in "".join(g.itertext()) or
             "Shanghai" in "".join(g.itertext())]
    believed = [g for g in homes if "superseded" not in g.get("class", "")]
    superseded = [g for g in homes if "superseded" in g.get("class", "")]
    assert len(believed) == 2 and len(superseded) == 1  # the two homes, and Hangzhou as first believed
    rects = {("Hangzhou" if "Hangzhou" in "".join(g.itertext()) else "Shanghai"): g.find(f".//{SVG}rect")
             for g in believed}
    hangzhou_end = float(rects["Hangzhou"].get("x")) + float(rects["Hangzhou"].get("width"))
    assert abs(hangzhou_end - float(rects["Shanghai"].get("x"))) < 1.0  # they meet at the move
    # each bar leads to the message that said it, and the Hangzhou bars to the one that ended them
    links = {a.get("class"): a.get("href") for g in homes for a in g.iter(f"{SVG}a")}
    assert links["asserted"].startswith("/message?id=") and links["ended"].startswith("/message?id=")
    versions = text_of(section(html, "<h2>Every version"))
    # the first Hangzhou row: valid from the first chat, open-ended, believed until the move was told
    assert "Hangzhou 2023-01-14 – open 2023-01-14 – 2024-03-11" in " ".join(versions.split())
    status, message = get(demo, unescape(links["ended"]))
    assert status == 200 and "I just moved to Shanghai!" in text_of(message)


def test_as_of_2023_shows_hangzhou_as_it_was(demo: Server) -> None:
    status, html = get(demo, "/entity?" + urlencode({"name": "Zhang Wei", "as_of": "2023-06-01"}))
    assert status == 200
    then = text_of(section(html, '<h2 id="as-of">'))
    assert "True on 2023-06-01" in then and "Hangzhou" in then and "Shanghai" not in then
    # as known on 2024-01-01 (before the move was told) the Hangzhou row was open-ended
    status, html = get(demo, "/entity?" + urlencode({"name": "Zhang Wei", "as_of": "2024-07-01",
                                                     "known_at": "2024-01-01"}))
    then = text_of(section(html, '<h2 id="as-of">'))
    assert "Hangzhou" in then and "Shanghai" not in then
    svg = ET.fromstring(re.search(r"<svg.*?</svg>", html, re.S).group(0))
    held = [g for g in svg_bars(svg) if "held" in g.get("class", "").split()]
    assert any("Hangzhou" in "".join(g.itertext()) for g in held)
    assert not any("Shanghai" in "".join(g.itertext()) for g in held)


def test_the_neighbourhood_graph_links_to_neighbours(demo: Server) -> None:
    query = {"name": "Zhang Wei", "as_of": "2023-06-01", "hops": "2"}
    status, html = get(demo, "/entity?" + urlencode(query))
    graph = section(html, "<h2>Neighbourhood")
    svg = ET.fromstring(re.search(r"<svg.*?</svg>", graph, re.S).group(0))
    names = {"".join(t.itertext()) for t in svg.iter(f"{SVG}text")}
    assert {"Hangzhou", "Alibaba", "Lin", "Shenzhen"} <= names  # Shenzhen: two hops, through Lin
    assert "Shanghai" not in names  # not his home yet


def test_a_console_snippet_returns_rows(demo: Server) -> None:
    statement = (":asof 2023-06-01\nMATCH (s)-[r:LIVES_IN]->(o) WHERE r.valid_at <= $t "
                 "AND (r.invalid_at IS NULL OR r.invalid_at > $t) AND r.expired_at IS NULL "
                 "RETURN s.name, o.name")
    status, html = get(demo, "/cypher?q=" + quote(statement))
    assert status == 200
    rows = re.findall(r"<tr><td>(.*?)</td><td>(.*?)</td></tr>", section(html, '<table class="rows">'))
    assert ("Zhang Wei", "Hangzhou") in rows and ("Zhang Wei", "Shanghai") not in rows
    status, html = get(demo, "/cypher?q=" + quote("MATCH (n) DETACH DELETE n"))
    assert status == 400 and "read-only" in text_of(html)
    status, html = get(demo, "/cypher?q=" + quote(":group secret\nMATCH (n) RETURN n.name"))
    assert status == 400 and "Mallory" not in html


def test_a_result_of_nodes_and_relationships_is_drawn_as_a_graph(demo: Server) -> None:
    from temporal_graph.core.stores.statements import statement

    status, html = get(demo, "/cypher?q=" + quote(statement("console/now_graph").readable))
    assert status == 200
    drawn = section(html, '<div class="result-graph">')
    assert "Zhang Wei" in drawn and "Shanghai" in drawn and "Hangzhou" not in drawn  # now, not the past
    rows = re.findall(r"<tr><td>", section(html, '<table class="rows">'))
    assert drawn.count('<g class="edge">') == len(rows)
    # a path draws its relationships in order; names and types alone draw nothing
    status, html = get(demo, "/cypher?q=" + quote("MATCH p=(s {name: 'Zhang Wei'})-[:LIVES_IN]->() RETURN p"))
    assert status == 200 and "lives_in" in section(html, '<div class="result-graph">')
    status, html = get(demo, "/cypher?q=" + quote("MATCH (s)-[r]->(o) RETURN s.name, type(r), o.name"))
    assert status == 200 and 'class="result-graph"' not in html


# -- hostile input ---------------------------------------------------------------------------------
def test_script_tags_in_names_and_messages_are_shown_as_text(demo_db: Path) -> None:
    with TemporalGraph.open(demo_db) as tg:
        server = Server(tg, "hostile")
        server.start()
        try:
            pages = [get(server, "/")[1], get(server, "/?q=" + quote("Oslo"))[1],
                     get(server, "/entity?" + urlencode({"name": HOSTILE}))[1], get(server, "/insights")[1]]
            search = get(server, "/?q=Oslo")[1]
            message = re.search(r'href="(/message\?id=[^"]+)"', search).group(1)
            pages.append(get(server, unescape(message))[1])
        finally:
            server.stop()
    for html in pages:
        assert "<script" not in html and "<img" not in html
    assert HOSTILE in text_of(pages[2])  # the name, shown as written
    assert '<img src=x onerror="alert(2)">' in text_of(pages[2])
    assert f"{HOSTILE} I live in Oslo." in text_of(pages[-1])


def test_a_long_query_and_an_unknown_entity_get_a_message(demo: Server) -> None:
    status, html = get(demo, "/?q=" + "a" * 5000)
    assert status == 400 and "over the limit" in text_of(html)
    status, html = get(demo, "/entity?name=Nobody+Here")
    assert status == 404 and "no entity named 'Nobody Here'" in text_of(html)
    status, html = get(demo, "/entity?name=Zhang+Wei&as_of=someday")
    assert status == 400 and "someday" in text_of(html)


def test_another_groups_id_in_the_url_shows_nothing_of_it(demo: Server) -> None:
    # the page echoes what was typed; nothing the other group holds (Mallory lives in Atlantis) shows
    for name in ("Mallory", "Atlantis"):
        for key in ("group", "group_id"):
            status, html = get(demo, "/entity?" + urlencode({"name": name, key: "secret"}))
            assert status == 404 and "lives in" not in html.lower()
            status, html = get(demo, "/?" + urlencode({"q": name, key: "secret"}))
            assert 'class="hit"' not in html and "Mallory lives in" not in html
            assert get(demo, "/chart.svg?" + urlencode({"name": name, key: "secret"}))[0] == 404
    status, html = get(demo, "/cypher?q=" + quote("MATCH (n) RETURN n.name") + "&group_id=secret")
    assert status == 200 and "Zhang Wei" in html and "Mallory" not in html and "Atlantis" not in html


def test_a_foreign_host_or_origin_is_refused(demo: Server) -> None:
    assert get(demo, "/", {"Host": "evil.example:80"})[0] == 421
    assert get(demo, "/", {"Host": f"127.0.0.1.evil.example:{demo.port}"})[0] == 421
    assert get(demo, "/", {"Origin": "http://evil.example"})[0] == 403
    local = {"Host": f"localhost:{demo.port}", "Origin": f"http://localhost:{demo.port}"}
    assert get(demo, "/", local)[0] == 200
    connection = http.client.HTTPConnection("127.0.0.1", demo.port, timeout=30)
    connection.request("POST", "/cypher", body="q=x")
    assert connection.getresponse().status == 405


# -- the chart as a file ---------------------------------------------------------------------------
def test_the_svg_export_holds_one_bar_per_fact_version(demo_db: Path, tmp_path: Path, capsys) -> None:
    out = tmp_path / "zhang.svg"
    code = main(["--db", str(demo_db), "--group", "demo", "view", "--entity", "Zhang Wei", "--svg", str(out)])
    assert code == 0, capsys.readouterr().err
    svg = ET.parse(out).getroot()  # well-formed XML
    assert svg.tag == f"{SVG}svg"
    with TemporalGraph.open(demo_db) as tg:
        history = tg.history("Zhang Wei", group_id="demo")
        every = {v.id for f in {f.fact_id for f in history} for v in tg.audit(f, group_id="demo")}
    bars = svg_bars(svg)
    assert sorted(g.get("data-version-id") for g in bars) == sorted(every)
    assert len(every) > len(history)  # superseded versions are drawn too
    assert main(["--db", str(demo_db), "--group", "demo", "view", "--entity", "Nobody", "--svg",
                 str(tmp_path / "x.svg")]) == 2
    assert "no entity named 'Nobody'" in capsys.readouterr().err
