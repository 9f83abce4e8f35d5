"""Full-text search on the Neo4j store asks its indexes for one group's current records alone
(the group's token is in the index), so neither other groups nor ended rows crowd a group out."""

from __future__ import annotations

import pytest

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
