"""Message standing through every interface: the MCP tools, the async client and the CLI report
what the Python search reports (the Chicago -> Denver case)."""

from __future__ import annotations

import asyncio
import json

from doc_examples import run_example

from temporal_graph import TemporalGraph
from temporal_graph.interfaces.async_client import AsyncTemporalGraph
from temporal_graph.interfaces.cli import main
from temporal_graph.tools import call_tool

QUERY = "where does Sam live? Chicago Denver"


def _told(tg: TemporalGraph, tick) -> None:
    for text, when in (("I live in Chicago.", "2023-01-05"), ("I moved to Denver.", "2023-06-01")):
        tick()
        tg.add_episode(text, speaker="Sam", reference_time=when)


def test_mcp_search_and_context_hide_label_and_count_the_superseded_message(tmp_path, clock, tick) -> None:
    with TemporalGraph.open(tmp_path / "m.db", clock=clock, embed=False) as tg:
        _told(tg, tick)
        hidden = call_tool(tg, "search", {"query": QUERY})
        assert hidden["stale_left_out"] == 1
        assert "I live in Chicago." not in [h["episode"]["content"] for h in hidden["hits"] if h["episode"]]
        labelled = call_tool(tg, "search", {"query": QUERY, "stale": "label"})
        last = labelled["hits"][-1]
        assert last["episode"]["content"] == "I live in Chicago." and last["standing"] == "superseded"
        assert last["replaced_by"] == [f.id for f in tg.now("Sam", "LIVES_IN")]
        block = call_tool(tg, "context", {"query": QUERY, "stale": "label"})["context"]
        assert "I live in Chicago. [superseded: now: Sam lives in Denver" in block
        assert "Chicago" not in call_tool(tg, "context", {"query": QUERY})["context"].split("Supporting")[-1]


def test_the_async_client_reports_standing_and_the_count(tmp_path, clock, tick) -> None:
    with TemporalGraph.open(tmp_path / "m.db", clock=clock, embed=False) as tg:
        _told(tg, tick)

    async def run():
        async with AsyncTemporalGraph.open(tmp_path / "m.db", clock=clock, embed=False) as memory:
            return await memory.search(QUERY), await memory.search(QUERY, stale="label")

    hidden, labelled = asyncio.run(run())
    assert hidden.stale_left_out == 1
    assert [h.standing for h in labelled if h.episode] == ["current", "superseded"]


def test_the_cli_says_what_it_left_out_and_lists_it_with_stale_label(tmp_path, clock, tick, capsys) -> None:
    db = tmp_path / "m.db"
    with TemporalGraph.open(db, clock=clock, embed=False) as tg:
        _told(tg, tick)
    assert main(["--db", str(db), "search", QUERY]) == 0
    out = capsys.readouterr().out
    assert "1 superseded message left out" in out and "I live in Chicago." not in out
    assert main(["--db", str(db), "search", QUERY, "--stale", "label", "--json"]) == 0
    hits = json.loads(capsys.readouterr().out)
    assert [(h["episode"]["content"], h["standing"]) for h in hits if h["episode"]][-1] == (
        "I live in Chicago.", "superseded")


def test_the_docs_example_runs_as_written(capsys) -> None:
    run_example("### Stale messages: what recall leaves out")
    assert capsys.readouterr().out.strip() == "I live in Chicago. superseded"
