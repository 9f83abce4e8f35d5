"""The memory block: relevant facts with dates, then supporting messages, within the token budget."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from queries.context import count_tokens
from temporal_graph.core.model import Episode
from temporal_graph.core.stores.protocol import ChangeSet

pytestmark = pytest.mark.slow  # counts tokens with the embedding model's tokenizer


@pytest.fixture
def memory(tg, tick, clock):
    tick()
    tg.add_fact("Zhang Wei", "lives in", "Beijing", valid_at="2020-03-01", episode_id="ep-0")
    tg.add_fact("Zhang Wei", "works as", "software engineer", valid_at="2021-03-01")
    tg.add_fact("Zhang Wei", "likes", "hiking")
    tg.add_fact("Tom", "plays", "violin", text="Tom plays the violin in an orchestra")
    tick()
    tg.add_fact("Zhang Wei", "lives in", "Shanghai", valid_at="2024-06-01", episode_id="ep-1")
    base = datetime(2024, 6, 2, tzinfo=UTC)
    words = "We finally moved to Shanghai last week and the new flat near the river is lovely " * 3
    episodes = [
        Episode(
            id="ep-0",
            group_id="default",
            speaker="Zhang Wei",
            content="I live in Beijing.",
            reference_time=base - timedelta(days=1500),
            created_at=clock(),
        ),
        Episode(
            id="ep-1",
            group_id="default",
            speaker="Zhang Wei",
            content=words.strip(),
            reference_time=base,
            created_at=clock(),
        ),
    ]
    tg.core.store.write(lambda tx: tx.apply(ChangeSet(episodes=episodes)))
    return tg


def test_facts_with_dates_then_supporting_messages(memory):
    block = memory.context("Where does Zhang Wei live?", budget_tokens=1000)
    lines = block.splitlines()
    assert lines[0] == "Facts:"
    assert "- Zhang Wei lives in Shanghai (since 2024-06-01)" in lines
    assert not any("Beijing (" in line for line in lines)  # not a current fact
    messages = lines.index("Supporting messages:")
    assert lines.index("- Zhang Wei lives in Shanghai (since 2024-06-01)") < messages
    assert any(line.startswith("- [2024-06-02] Zhang Wei: We finally moved") for line in lines[messages:])


def test_as_of_gives_the_facts_of_that_time(memory):
    block = memory.context("Where does Zhang Wei live?", as_of="2022-01-01")
    assert block.splitlines()[0] == "Facts (as of 2022-01-01):"
    assert "- Zhang Wei lived in Beijing (2020-03-01 to 2024-06-01)" in block  # ended since: the past
    assert "Shanghai (since" not in block


def test_never_over_budget_to_the_token(memory):
    question = "Where does Zhang Wei live?"
    full = memory.context(question, budget_tokens=10_000)
    lines = full.splitlines()
    # Budgets exactly at, and one token short of, every prefix of the full block.
    # (A section header is only ever kept with a line under it.)
    edges = sorted(
        {
            count_tokens(memory.core, "\n".join(lines[:i]))
            for i in range(2, len(lines) + 1)
            if not lines[i - 1].endswith(":")
        }
    )
    budgets = sorted({0, 1, *edges, *(e - 1 for e in edges), *(e + 1 for e in edges)})
    previous = 0
    for budget in budgets:
        block = memory.context(question, budget_tokens=budget)
        size = count_tokens(memory.core, block)
        assert size <= budget
        assert size >= previous  # a bigger budget never gives less
        if budget in edges:
            assert size == budget  # nothing is dropped that would have fitted
        previous = size


def test_a_long_message_is_cut_at_a_word_to_fit(memory):
    question = "moved to Shanghai flat river"
    full = memory.context(question, budget_tokens=10_000).splitlines()
    header = full.index("Supporting messages:")
    budget = count_tokens(memory.core, "\n".join(full[: header + 1])) + 20
    cut = memory.context(question, budget_tokens=budget)
    assert count_tokens(memory.core, cut) <= budget
    last = cut.splitlines()[-1]
    assert last.startswith("- [2024-06-02] Zhang Wei: We finally moved") and last.endswith(" …")


def test_nothing_to_say_gives_an_empty_block(memory):
    assert memory.context("Where does Zhang Wei live?", budget_tokens=0) == ""
    assert memory.context("Where does Zhang Wei live?", budget_tokens=2) == ""
    assert memory.context("anything", group_id="empty-group") == ""
