"""Context that respects time, and the relevance floor (issue 26): a block as of a date holds no
message told after it (nor, with known_at, recorded after it); facts and messages carry their
dates; a search for something the memory never mentions returns nothing."""

from __future__ import annotations

import pytest

from temporal_graph import TemporalGraph
from temporal_graph.times import ManualClock

pytestmark = pytest.mark.slow  # counts tokens with the embedding model's tokenizer

CHAT = [
    ("Bob", "2023-01-10T10:00:00+00:00", "I live in Berlin."),
    ("Alice", "2023-02-10T10:00:00+00:00", "I live in Paris."),
    ("Bob", "2024-06-10T10:00:00+00:00", "I moved to Munich last week."),
]


@pytest.fixture
def memory():
    clock = ManualClock("2023-01-10T10:00:00+00:00")
    tg = TemporalGraph.open(":memory:", clock=clock)
    for speaker, at, text in CHAT:
        clock.set(at)  # each message recorded when it was told
        tg.add_episode(text, reference_time=at, speaker=speaker)
    clock.set("2024-07-01T00:00:00+00:00")
    yield tg
    tg.close()


def test_context_as_of_has_no_later_message_and_dates_everything(memory):
    block = memory.context("Where does Bob live?", as_of="2023-06-01")
    assert block.startswith("Facts (as of 2023-06-01):")
    assert "Bob lived in Berlin (2023-01-10 to 2024-06-03)" in block  # valid then, dated, ended since
    assert "Munich" not in block and "2024-06-10" not in block
    assert "- [2023-01-10] Bob: I live in Berlin." in block
    now = memory.context("Where does Bob live?")
    assert "Munich" in now and "- [2024-06-10] Bob: I moved to Munich last week." in now


def test_context_known_at_leaves_out_what_was_recorded_later(memory):
    block = memory.context("Where does Bob live?", known_at="2023-06-01")
    assert "Munich" not in block and "Berlin" in block


def test_search_for_something_never_mentioned_returns_nothing(memory):
    assert memory.search("badminton") == []
    assert memory.search("badminton", relevance_floor=0.0)  # without the floor: the nearest anyway
    # A real match is untouched: the Berlin message, out of date now, gives its place to what replaced it.
    berlin = memory.search("Berlin")
    assert berlin.stale_left_out == 1 and berlin[0].fact is not None and berlin[0].fact.object == "Munich"
