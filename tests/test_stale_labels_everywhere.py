"""No read about now hands back a stale message unlabelled: in a memory holding messages superseded
by a key, by an explicit supersede and by their facts, a partly superseded one and a possible
revision, every message that search, context, the tools or the CLI return for any ``stale``
setting either holds as said or says it does not."""

from __future__ import annotations

import json

import pytest

from temporal_graph import TemporalGraph
from temporal_graph.core.model import STALE_MODES
from temporal_graph.interfaces.cli import main
from temporal_graph.tools import call_tool

STALE_TEXTS = {
    "Globex payment terms: net 30.",              # a later message of its key
    "Our office is at 221 Baker Street.",         # explicitly superseded
    "I live in Chicago.",                         # its only fact was replaced
    "I live in Turin and I work at Fiat.",        # partly: the job changed
    "The office coffee machine makes 40 cups a day.",  # a newer message reads like its revision
}
QUERIES = ("Globex payment terms", "where is the office", "where does Sam live", "where does Ann work",
           "coffee machine cups", "Sam office coffee Globex")
LABELS = ("[superseded", "[partly superseded", "[possibly superseded")


@pytest.fixture
def memory(tmp_path, clock, tick):
    with TemporalGraph.open(tmp_path / "m.db", clock=clock) as tg:
        def tell(text: str, when: str, speaker: str = "Sam", **extra) -> str:
            tick()
            return tg.add_episode(text, speaker=speaker, reference_time=when, **extra).episode.id

        tell("Globex payment terms: net 30.", "2024-01-02", key="Globex/terms")
        tell("Globex renegotiated; payment terms are net 45.", "2024-05-02", key="Globex/terms")
        office = tell("Our office is at 221 Baker Street.", "2024-01-03")
        tick()
        tg.supersede(office, "The office relocated to 5 Market Square.", reference_time="2024-06-03",
                     speaker="Sam")
        tell("I live in Chicago.", "2024-01-04")
        tell("I moved to Denver.", "2024-06-04")
        tell("I live in Turin and I work at Fiat.", "2024-01-05", speaker="Ann")
        tell("I work at Ferrari now.", "2024-06-05", speaker="Ann")
        tell("The office coffee machine makes 40 cups a day.", "2024-01-06")
        tell("After the repair the office coffee machine makes 25 cups a day.", "2024-06-06")
        yield tg


def _unlabelled_hits(hits) -> list[str]:
    return [h.text for h in hits if h.episode is not None and h.text in STALE_TEXTS and not h.stale]


@pytest.mark.slow
def test_search_and_context_label_every_stale_message_for_every_setting(memory) -> None:
    seen: set[str] = set()
    for query in QUERIES:
        for stale in STALE_MODES:
            hits = memory.search(query, stale=stale, limit=20)
            assert _unlabelled_hits(hits) == [], (query, stale)
            seen |= {h.text for h in hits if h.episode is not None and h.stale}
            block = memory.context(query, stale=stale)
            for line in block.splitlines():
                if any(text in line for text in STALE_TEXTS):
                    assert any(label in line for label in LABELS), (query, stale, line)
    assert seen == STALE_TEXTS  # every kind of stale message was met, labelled


@pytest.mark.slow
def test_the_tools_and_the_cli_carry_the_labels(memory, capsys) -> None:
    for stale in STALE_MODES:
        found = call_tool(memory, "search", {"query": "Turin Fiat coffee machine", "stale": stale,
                                             "limit": 20})
        for hit in found["hits"]:
            if hit["episode"] and hit["episode"]["content"] in STALE_TEXTS:
                assert hit["standing"] in ("superseded", "partly_superseded", "possibly_superseded")
        block = call_tool(memory, "context", {"query": "Turin Fiat", "stale": stale})["context"]
        assert "I work at Fiat. [partly superseded: no longer: Ann works at Fiat." in block
    path = memory.core.store.path
    assert main(["--db", str(path), "search", "Turin Fiat work", "--limit", "20"]) == 0
    out = capsys.readouterr().out
    assert "partly superseded" in out
    assert main(["--db", str(path), "--json", "search", "coffee machine cups"]) == 0
    hits = json.loads(capsys.readouterr().out)
    coffee = "The office coffee machine makes 40 cups a day."
    old = next(h for h in hits if h["episode"] and h["episode"]["content"] == coffee)
    assert old["standing"] == "possibly_superseded" and old["superseded_by"]


def test_a_message_replaced_by_one_restating_its_fact_is_not_in_the_block_unlabelled(
    tmp_path, clock, tick,
) -> None:
    # The Austin row holds on, citing both messages: the block once listed the old one among the
    # supporting messages, unlabelled, whatever ``stale`` said.
    with TemporalGraph.open(tmp_path / "m.db", clock=clock) as tg:
        old = tg.add_episode("I live in Austin.", speaker="Sam", reference_time="2024-01-01").episode.id
        tick()
        tg.supersede(old, "I live in Austin and I work at Fiat.", speaker="Sam", reference_time="2024-03-01")
        blocks = {stale: tg.context("where does Sam live", stale=stale) for stale in STALE_MODES}
    for stale, block in blocks.items():
        assert "Sam: I live in Austin and I work at Fiat." in block
        lines = [line for line in block.splitlines() if "Sam: I live in Austin." in line]
        assert all("[superseded: by the message of 2024-03-01" in line for line in lines), (stale, block)
        assert bool(lines) == (stale in ("label", "show")), (stale, block)
