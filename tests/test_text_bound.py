"""Full-text search ranks a bounded number of hits: a word held by a great many messages costs no
more than one held by a few. Below the bound every hit is ranked, as ever."""

from __future__ import annotations

import pytest

from temporal_graph import TemporalGraph
from temporal_graph.core.stores import sqlite as sqlite_store
from temporal_graph.times import ManualClock


@pytest.fixture
def memory(tmp_path):
    tg = TemporalGraph.open(tmp_path / "m.db", embed=False, clock=ManualClock("2030-01-01T00:00:00+00:00"))
    for day in range(1, 29):
        for hour in range(3):
            tg.add_episode(f"We had coffee again, round {day}-{hour}.",
                           reference_time=f"2029-02-{day:02d}T0{hour}:00", speaker="Ana")
    tg.add_episode("The coffee in Lisbon tasted of cardamom.", reference_time="2029-01-05", speaker="Ana")
    yield tg
    tg.close()


def texts(tg: TemporalGraph, query: str, limit: int = 200) -> list[str]:
    store = tg.core.store
    found = store.text_search("default", "episode", query, limit)
    by_id = {e.id: e.content for e in store.episodes("default", ids=[i for i, _ in found])}
    return [by_id[i] for i, _ in found]  # in rank order


def test_below_the_bound_every_hit_is_ranked(memory) -> None:
    assert len(texts(memory, "coffee")) == 85


def test_a_common_word_beside_a_rare_one_leaves_the_rare_hit_first(memory, monkeypatch) -> None:
    whole = texts(memory, "coffee cardamom")
    monkeypatch.setattr(sqlite_store, "TEXT_RANKED", 10)
    bounded = texts(memory, "coffee cardamom")
    assert bounded == ["The coffee in Lisbon tasted of cardamom."]  # 'coffee' is in 85 rows: left out
    assert whole[0] == bounded[0]


def test_only_common_words_rank_the_hits_written_last(memory, monkeypatch) -> None:
    monkeypatch.setattr(sqlite_store, "TEXT_RANKED", 10)
    found = " | ".join(texts(memory, "coffee"))
    assert 0 < found.count("|") + 1 <= 11
    assert "cardamom" in found and "round 28-2" in found  # the last written are among them
    assert "round 1-0" not in found  # the first written is past the bound


def test_another_tenants_newer_messages_never_push_a_groups_own_out(memory, monkeypatch) -> None:
    for n in range(40):  # written after every message of the default group
        memory.add_episode(f"Coffee for the team, cup {n}.", reference_time="2029-03-01", speaker="Bo",
                           group_id="other")
    monkeypatch.setattr(sqlite_store, "TEXT_RANKED", 10)
    found = texts(memory, "coffee")
    assert len(found) == 11 and "round 28-2" in " | ".join(found)  # the group's own newest, bounded
    assert not any("cup" in text for text in found)


@pytest.mark.parametrize("writer", ["this connection", "another connection"])
def test_a_word_made_rare_again_by_removals_is_ranked_again(memory, monkeypatch, tmp_path, writer) -> None:
    monkeypatch.setattr(sqlite_store, "TEXT_RANKED", 10)
    # 'coffee' is in more rows than the bound: left out of the ranking
    assert texts(memory, "coffee cardamom") == ["The coffee in Lisbon tasted of cardamom."]
    rounds = [e.id for e in memory.core.store.episodes("default") if "round" in e.content]
    other = TemporalGraph.open(tmp_path / "m.db", embed=False) if writer == "another connection" else memory
    for episode_id in rounds[5:]:  # 'coffee' is left in 6 messages, under the bound
        other.retract_episode(episode_id)
    if other is not memory:
        other.close()
    found = texts(memory, "coffee cardamom")
    assert len(found) == 6 and found[0] == "The coffee in Lisbon tasted of cardamom."  # all ranked again
