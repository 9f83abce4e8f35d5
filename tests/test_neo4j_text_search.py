"""Full-text search on the Neo4j store asks its indexes for one group's current records alone
(the group's token is in the index), so neither other groups nor ended rows crowd a group out."""

from __future__ import annotations

from typing import Any

import pytest
from doc_examples import block_with

from temporal_graph import TemporalGraph
from temporal_graph.core.stores.protocol import FactQuery
from temporal_graph.testing import neo4j_store_from_env, unique_test_group
from temporal_graph.times import ManualClock

pytestmark = pytest.mark.neo4j


def test_a_groups_text_search_is_not_crowded_out_by_other_groups_or_ended_rows() -> None:
    store = neo4j_store_from_env()
    assert store is not None
    clock = ManualClock("2024-01-01")
    crowd, mine = unique_test_group("crowd"), unique_test_group("mine")
    with TemporalGraph(store, clock=clock, embed=False) as tg:
        try:
            # Another group's rows and entities that match better (shorter texts, the same words).
            tg.add_facts([(f"Ana {i}", "lives in", "Oslo", "2020") for i in range(60)], group_id=crowd)
            # This group's moves: each one ends a row in transaction time, whose text stays indexed.
            for year in range(1990, 2020):
                clock.set(f"{year + 40}-01-01")
                tg.add_fact("Ana Lind", "lives in", f"Town {year}", valid_at=str(year), group_id=mine)
            current = {f.id for f in store.facts(FactQuery(mine))}
            ended = {f.id for f in store.facts(FactQuery(mine, all_versions=True))} - current
            assert len(ended) >= 20  # the rows the search must not count
            hits = store.text_search(mine, "fact", "Ana lives in Oslo", 10)
            assert len(hits) == 10 and {i for i, _ in hits} <= current
            names = store.text_search(mine, "entity", "Ana", 5)
            assert [e.name for e in store.entities(mine, ids=[names[0][0]])] == ["Ana Lind"]
            assert store.text_search(crowd, "entity", "Lind", 5) == []
            # Messages: other groups' do not crowd this group's out, a withdrawn one is not offered.
            for i in range(40):
                tg.add_episode(f"Kayak {i}", reference_time="2024-05-01", speaker="Bo", group_id=crowd)
            told = [tg.add_episode(f"Ana Lind took the kayak out, trip {i}.", group_id=mine,
                                   reference_time=f"2024-05-{i + 1:02d}").episode.id for i in range(6)]
            tg.retract_episode(told[0], group_id=mine)
            found = store.text_search(mine, "episode", "kayak", 5)
            assert len(found) == 5 and {i for i, _ in found} == set(told[1:])
        finally:
            tg.forget(crowd)
            tg.forget(mine)


def test_a_text_search_sees_each_write_made_just_before_it() -> None:
    # The full-text indexes refresh in the background, not in each write's commit: a search
    # waits for that refresh, so a word just written is found at once, and a word just withdrawn
    # or replaced is not. Without the wait some of these searches miss (a refresh takes ~10 ms).
    store = neo4j_store_from_env()
    assert store is not None
    group = unique_test_group("fresh")
    with TemporalGraph(store, clock=ManualClock("2024-01-01"), embed=False) as tg:
        try:
            for i in range(25):
                said = tg.add_episode(f"Ana paddled to islet{i} today.", speaker="Ana", group_id=group,
                                      reference_time=f"2024-02-{1 + i:02d}")
                found = store.text_search(group, "episode", f"islet{i}", 5)
                assert [h for h, _ in found] == [said.episode.id]
                row = tg.add_fact(f"Ana{i}", "lives in", f"Harbourtown{i}", valid_at="2024", group_id=group)
                assert [h for h, _ in store.text_search(group, "fact", f"Harbourtown{i}", 5)] == [row.id]
                assert len(store.text_search(group, "entity", f"Harbourtown{i}", 5)) == 1
                tg.retract_episode(said.episode.id, group_id=group)
                assert store.text_search(group, "episode", f"islet{i}", 5) == []
            # The docs' Cypher for the console waits the same way: a message just told is found.
            tg.add_episode("Ana took the kayak out.", reference_time="2024-03-01", group_id=group)
            with store.driver.session(database=store.database) as session:
                query = block_with("awaitEventuallyConsistentIndexRefresh", "cypher")
                rows = session.run(query.replace("'default'", f"'{group}'")).data()
            assert [r["node.content"] for r in rows] == ["Ana took the kayak out."]
        finally:
            tg.forget(group)


def refreshed_in_the_background(store: Any) -> dict[str, bool]:
    """Each full-text index of the store's database: whether it refreshes in the background."""
    with store.driver.session(database=store.database) as session:
        rows = session.run("SHOW FULLTEXT INDEXES YIELD name, options RETURN name, options")
        return {r["name"]: r["options"]["indexConfig"]["fulltext.eventually_consistent"] for r in rows}


def test_the_full_text_indexes_refresh_in_the_background() -> None:
    store = neo4j_store_from_env()
    assert store is not None
    with TemporalGraph(store, embed=False):
        assert refreshed_in_the_background(store) == {"entity_names": True, "episode_contents": True,
                                                      "fact_text": True}
