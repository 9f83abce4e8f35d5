"""A Neo4j database written by an earlier data layout is brought up to this one on connect; one of a
newer layout is refused."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from test_neo4j_text_search import refreshed_in_the_background

from temporal_graph import IngestResult, TemporalGraph
from temporal_graph.core.stores.protocol import FactQuery
from temporal_graph.errors import StoreError
from temporal_graph.testing import neo4j_store_from_env, unique_test_group
from temporal_graph.times import ManualClock

pytestmark = pytest.mark.neo4j


@contextmanager
def _connected_again(group: str, clock: ManualClock, **options: Any) -> Iterator[TemporalGraph]:
    """A memory on a new connection, which brings what the test left up to this layout; the group is
    forgotten after."""
    upgraded = neo4j_store_from_env()
    assert upgraded is not None
    with TemporalGraph(upgraded, clock=clock, **options) as tg:
        try:
            yield tg
        finally:
            tg.forget(group)


def test_a_database_of_the_earlier_layout_is_upgraded_on_connect() -> None:
    group = unique_test_group("layout")
    clock = ManualClock("2024-01-01")
    store = neo4j_store_from_env()
    assert store is not None
    with TemporalGraph(store, clock=clock, embed=False) as tg:
        tg.add_fact("Ana", "lives in", "Oslo", valid_at="2019", group_id=group)
        tg.add_fact("Ana", "works at", "Acme", group_id=group)
        clock.set("2024-02-01")
        tg.add_fact("Ana", "lives in", "Rome", valid_at="2022", group_id=group)
        history = tg.history("Ana", group_id=group)
        expected = {(f.relation, f.object, f.valid_at, f.invalid_at) for f in history}
        # What the earlier layout left: no :CurrentFact nodes, no assertion keys, no relation list.
        with store.driver.session(database=store.database) as session:
            session.run("MATCH (c:CurrentFact {group_id: $g}) DELETE c", g=group).consume()
            session.run("MATCH (a:Assertion {group_id: $g}) REMOVE a.at_key, a.object_key", g=group).consume()
            session.run("MATCH (m:MemoryGroup {group_id: $g}) REMOVE m.relations", g=group).consume()
            session.run("MATCH (l:MemoryLayout) DELETE l").consume()
    with _connected_again(group, clock, embed=False) as tg:
        assert {(f.relation, f.object, f.valid_at, f.invalid_at)
                for f in tg.history("Ana", group_id=group)} == expected
        assert tg.core.store.relations(group) == ["LIVES_IN", "WORKS_AT"]
        clock.set("2024-03-01")
        # The rules read the upgraded keys: a move between the two homes ends and starts right.
        tg.add_fact("Ana", "lives in", "Lyon", valid_at="2021", group_id=group)
        timeline = [(f.object, f.valid_at.year, f.invalid_at and f.invalid_at.year)
                    for f in tg.history("Ana", "lives in", group_id=group)]
        assert timeline == [("Oslo", 2019, 2021), ("Lyon", 2021, 2022), ("Rome", 2022, None)]
        assert [f.object for f in tg.now("Ana", "works at", group_id=group)] == ["Acme"]


def test_fact_vectors_of_layout_2_move_under_the_one_vector_index_on_connect() -> None:
    group = unique_test_group("layout3")
    store = neo4j_store_from_env()
    assert store is not None
    with TemporalGraph(store, clock=ManualClock("2024-01-01")) as tg:
        tg.add_fact("Ana", "lives in", "Oslo", valid_at="2019", group_id=group, text="Ana lives in Oslo")
        tg.add_fact("Ana", "works at", "Acme", group_id=group, text="Ana works at Acme")
        query = tg.embedder.encode(["Ana lives in Oslo"])[0]
        # What layout 2 left: vectors on the relationships only, one vector index per relation type.
        with store.driver.session(database=store.database) as session:
            session.run("MATCH (c:CurrentFact {group_id: $g}) REMOVE c.embedding", g=group).consume()
            session.run("CREATE VECTOR INDEX fact_embedding_LIVES_IN IF NOT EXISTS "
                        "FOR ()-[r:LIVES_IN]-() ON r.embedding OPTIONS {indexConfig: "
                        "{`vector.dimensions`: 384, `vector.similarity_function`: 'cosine'}}").consume()
            session.run("MATCH (l:MemoryLayout) SET l.version = 2").consume()
        assert tg.core.store.vector_search(group, "fact", query, 5) == []
    with _connected_again(group, ManualClock("2024-01-01")) as tg:
        found = tg.core.store.vector_search(group, "fact", query, 5)
        oslo = tg.now("Ana", "lives in", group_id=group)[0]
        assert found[0][0] == oslo.id and found[0][1] > 0.99
        assert len(found) == 2  # both relation types, from the one index
        with tg.core.store.driver.session(database=tg.core.store.database) as session:
            names = [r["name"] for r in session.run("SHOW VECTOR INDEXES YIELD name RETURN name")]
        assert "fact_embedding_LIVES_IN" not in names and "current_fact_embedding" in names


def _ana_and_her_kayak(tg: TemporalGraph, group: str) -> IngestResult:
    tg.add_fact("Ana Lind", "lives in", "Oslo", valid_at="2019", group_id=group)
    return tg.add_episode("Ana Lind took the kayak out.", reference_time="2024-01-01", group_id=group)


def _found_by_their_words(tg: TemporalGraph, group: str, kayak_id: str) -> None:
    """Ana's entity, her home and the kayak message, each found by full-text search."""
    [ana] = [e.id for e in tg.core.store.entities(group) if e.name == "Ana Lind"]
    assert [i for i, _ in tg.core.store.text_search(group, "entity", "Lind", 5)] == [ana]
    oslo = tg.now("Ana Lind", "lives in", group_id=group)[0]
    assert [i for i, _ in tg.core.store.text_search(group, "fact", "Oslo", 5)] == [oslo.id]
    assert [i for i, _ in tg.core.store.text_search(group, "episode", "kayak", 5)] == [kayak_id]


def test_records_of_layout_3_take_their_group_token_for_full_text_search_on_connect() -> None:
    group = unique_test_group("layout4")
    store = neo4j_store_from_env()
    assert store is not None
    with TemporalGraph(store, clock=ManualClock("2024-01-01"), embed=False) as tg:
        said = _ana_and_her_kayak(tg, group)
        # What layout 3 left: no group token on records, full-text indexes without it.
        with store.driver.session(database=store.database) as session:
            session.run("MATCH (n:Entity {group_id: $g}) REMOVE n.search_group", g=group).consume()
            session.run("MATCH (n:Episode {group_id: $g}) REMOVE n.search_group", g=group).consume()
            session.run("MATCH ()-[r]->() WHERE r.group_id = $g REMOVE r.search_group", g=group).consume()
            session.run("DROP INDEX entity_names").consume()
            session.run("CREATE FULLTEXT INDEX entity_names FOR (n:Entity) ON EACH [n.name_text]").consume()
            session.run("DROP INDEX episode_contents").consume()
            session.run("CREATE FULLTEXT INDEX episode_contents FOR (n:Episode) ON EACH [n.content]"
                        ).consume()
            session.run("CALL db.awaitIndexes(300)").consume()
            session.run("MATCH (l:MemoryLayout) SET l.version = 3").consume()
        assert tg.core.store.text_search(group, "entity", "Lind", 5) == []
        assert tg.core.store.text_search(group, "fact", "Oslo", 5) == []
        assert tg.core.store.text_search(group, "episode", "kayak", 5) == []
    with _connected_again(group, ManualClock("2024-01-01"), embed=False) as tg:
        _found_by_their_words(tg, group, said.episode.id)


def test_full_text_indexes_of_layout_5_are_made_again_to_refresh_in_the_background_on_connect() -> None:
    group = unique_test_group("layout6")
    store = neo4j_store_from_env()
    assert store is not None
    with TemporalGraph(store, clock=ManualClock("2024-01-01"), embed=False) as tg:
        said = _ana_and_her_kayak(tg, group)
        # What layout 5 left: full-text indexes refreshed in every write's commit.
        with store.driver.session(database=store.database) as session:
            types = session.run("SHOW FULLTEXT INDEXES YIELD name, labelsOrTypes WHERE name = 'fact_text' "
                                "RETURN labelsOrTypes").single()[0]
            rels = "|".join(types)
            for name, target in (("entity_names", "(n:Entity) ON EACH [n.name_text, n.search_group]"),
                                 ("episode_contents", "(n:Episode) ON EACH [n.content, n.search_group]"),
                                 ("fact_text", f"()-[n:{rels}]-() ON EACH [n.text, n.search_group]")):
                session.run(f"DROP INDEX {name}").consume()
                session.run(f"CREATE FULLTEXT INDEX {name} FOR {target}").consume()
            session.run("CALL db.awaitIndexes(300)").consume()
            session.run("MATCH (l:MemoryLayout) SET l.version = 5").consume()
    with _connected_again(group, ManualClock("2024-01-01"), embed=False) as tg:
        with tg.core.store.driver.session(database=tg.core.store.database) as session:
            version = session.run("MATCH (l:MemoryLayout) RETURN l.version AS v").single()["v"]
        assert version == 6
        assert refreshed_in_the_background(tg.core.store) == {"entity_names": True, "episode_contents": True,
                                                         "fact_text": True}
        _found_by_their_words(tg, group, said.episode.id)


@pytest.mark.parametrize("layout", [3, 4, 5])
def test_a_process_killed_after_dropping_the_fact_text_index_makes_it_again_on_connect(layout: int) -> None:
    group = unique_test_group("killed")
    store = neo4j_store_from_env()
    assert store is not None
    with TemporalGraph(store, clock=ManualClock("2024-01-01"), embed=False) as tg:
        tg.add_fact("Ana", "lives in", "Oslo", group_id=group)
        # Killed between the drop and the create (the upgrade to layout 4, or a widening to a new
        # relation): no fact index to read the types from.
        with store.driver.session(database=store.database) as session:
            session.run("DROP INDEX fact_text").consume()
            session.run("MATCH (l:MemoryLayout) SET l.version = $v", v=layout).consume()
    with _connected_again(group, ManualClock("2024-01-01"), embed=False) as tg:
        oslo = tg.now("Ana", "lives in", group_id=group)[0]
        assert [i for i, _ in tg.core.store.text_search(group, "fact", "Oslo", 5)] == [oslo.id]


def test_groups_of_layout_4_get_their_counts_of_current_rows_on_connect() -> None:
    group = unique_test_group("layout5")
    store = neo4j_store_from_env()
    assert store is not None
    with TemporalGraph(store, clock=ManualClock("2024-01-01"), embed=False) as tg:
        tg.add_fact("Ana", "lives in", "Oslo", valid_at="2019", group_id=group)
        tg.add_fact("Bo", "works at", "Acme", valid_at="2018", invalid_at="2021", group_id=group)
        tg.add_fact("Cy", "likes", "chess", group_id=group)
        # What layout 4 left: no counts on the group node.
        with store.driver.session(database=store.database) as session:
            session.run("MATCH (g:MemoryGroup {group_id: $g}) REMOVE g.current_rows, g.current_ended",
                        g=group).consume()
            session.run("MATCH (l:MemoryLayout) SET l.version = 4").consume()
    with _connected_again(group, ManualClock("2024-02-01"), embed=False) as tg:
        with tg.core.store.driver.session(database=tg.core.store.database) as session:
            kept = session.run("MATCH (g:MemoryGroup {group_id: $g}) RETURN g.current_rows AS rows, "
                               "g.current_ended AS ended", g=group).single()
        assert (kept["rows"], kept["ended"]) == (3, 1)
        tg.add_fact("Ana", "lives in", "Rome", valid_at="2022", group_id=group)  # Oslo ends: 4, 2
        for year in ("2017", "2020", "2023"):
            query = FactQuery(group, valid_time=tg.core.time(year))
            assert tg.core.store.count_facts(query) == len(tg.core.store.facts(query))


def test_a_database_of_a_newer_layout_is_refused_before_anything_is_written() -> None:
    """A process of this version would write a newer layout's database without what that layout
    keeps (the groups' counts, for layout 5): it must not open it."""
    from temporal_graph.core.stores.neo4j import LAYOUT_VERSION

    store = neo4j_store_from_env()
    assert store is not None
    with store.driver.session(database=store.database) as session:
        session.run("MATCH (l:MemoryLayout) SET l.version = $v", v=LAYOUT_VERSION + 1).consume()
    try:
        with pytest.raises(StoreError, match=f"layout is version {LAYOUT_VERSION + 1}, newer"):
            neo4j_store_from_env()
    finally:
        with store.driver.session(database=store.database) as session:
            session.run("MATCH (l:MemoryLayout) SET l.version = $v", v=LAYOUT_VERSION).consume()
        store.close()
