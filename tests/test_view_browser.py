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
            page.fill("input[name=as_of]", "2023-06-01")
            page.click("button:text('redraw')")
            page.wait_for_selector("#as-of")
            assert "Hangzhou" in page.locator("#as-of + table").inner_text()
            assert page.locator("svg.tg-graph").is_visible()
            page.screenshot(path=str(SCREENSHOT), full_page=True)
            # a bar's link opens the message that asserted it
            page.locator("svg.tg-chart a.asserted").first.click()
            assert page.wait_for_selector("pre.content").is_visible()
            assert not errors, errors  # no script, no blocked resource
        finally:
            browser.close()
    assert SCREENSHOT.stat().st_size > 10_000
