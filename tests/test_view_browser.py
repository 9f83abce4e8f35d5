"""``tgraph view`` in a real headless browser: the system's Chromium (never a downloaded one),
driven by Playwright. Skipped where /usr/bin/chromium or the playwright package is absent."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from temporal_graph import TemporalGraph
from temporal_graph.interfaces.view import Server

CHROMIUM = "/usr/bin/chromium"
ROOT = Path(__file__).resolve().parents[1]
SCREENSHOT = Path(os.environ.get("TGRAPH_VIEW_SCREENSHOT", "/tmp/tgraph-view.png"))

if not os.path.exists(CHROMIUM):
    pytest.skip(f"no Chromium at {CHROMIUM} (Debian: apt-get install chromium); the browser test needs it",
                allow_module_level=True)
sync_api = pytest.importorskip("playwright.sync_api", reason="the browser test drives Chromium with "
                               "playwright (pip install playwright; no browser download needed)")


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    db = tmp_path_factory.mktemp("browser") / "demo.db"
    with TemporalGraph.open(db) as tg:
        tg.import_file(ROOT / "examples" / "sample_chat.jsonl", progress=False, replay=True)
        running = Server(tg, "demo")
        running.start()
        yield running
        running.stop()


def test_search_then_the_entity_page_and_its_time_fields(server: Server) -> None:
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=CHROMIUM,
            args=["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"])
        try:
            page = browser.new_page(viewport={"width": 1150, "height": 900})
            errors: list[str] = []
            page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
            page.goto(server.url)
            page.fill("input[name=q]", "badminton")
            page.click("button:text('search')")
            page.wait_for_selector("tr.hit")
            page.click("tr.hit >> a:text('Zhang Wei')")
            page.wait_for_selector("svg.tg-chart")
            assert page.locator("h1").inner_text().startswith("Zhang Wei")
            # the chart is drawn: its bars have a size on the screen
            bar = page.locator("svg.tg-chart g.version").first
            box = bar.bounding_box()
            assert box is not None and box["width"] > 3 and box["height"] > 10
            # his two homes, as believed now: two bars on one row, meeting at the move
            homes = {}
            for g in page.locator("svg.tg-chart g.version:not(.superseded)").all():
                tip = g.locator("title").first.text_content() or ""
                if " LIVES_IN " in tip:
                    homes[tip.split(" LIVES_IN ")[1].split(":")[0]] = g.locator("rect").first.bounding_box()
            assert set(homes) == {"Hangzhou", "Shanghai"}
            hangzhou, shanghai = homes["Hangzhou"], homes["Shanghai"]
            assert hangzhou is not None and shanghai is not None
            assert abs(hangzhou["y"] - shanghai["y"]) < 1
            assert abs(hangzhou["x"] + hangzhou["width"] - shanghai["x"]) < 2
            # the first Hangzhou version, open-ended, was believed until the move was told
            versions = page.locator("table.versions tr", has_text="Hangzhou").all_inner_texts()
            assert any("2023-01-14 – open" in v and "2023-01-14 – 2024-03-11" in v for v in versions)
            page.fill("input[name=as_of]", "2023-06-01")
            page.click("button:text('redraw')")
            page.wait_for_selector("#as-of")
            assert "Hangzhou" in page.locator("#as-of + table").inner_text()
            assert page.locator("svg.tg-graph").is_visible()
            page.screenshot(path=str(SCREENSHOT), full_page=True)
            # a bar's link opens the message that asserted it
            page.locator("svg.tg-chart a.asserted").first.click()
            assert page.wait_for_selector("pre.content").is_visible()
            # the console: a snippet that returns nodes and relationships is drawn as a graph
            page.click("header >> a:text('cypher')")
            page.click("a:text('now, as a graph')")
            graph = page.wait_for_selector("div.result-graph svg.tg-graph")
            assert graph.is_visible() and page.locator("div.result-graph g.edge").count() >= 5
            page.screenshot(path=str(SCREENSHOT.with_name(SCREENSHOT.stem + "-cypher.png")), full_page=True)
            assert not errors, errors  # no script, no blocked resource
        finally:
            browser.close()
    assert SCREENSHOT.stat().st_size > 10_000
