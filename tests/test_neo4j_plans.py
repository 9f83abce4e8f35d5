"""The server's plans of the statements a search sends per candidate: each reads what it names."""

from __future__ import annotations

import pytest

from temporal_graph import TemporalGraph
from temporal_graph.core.stores.neo4j import fact_params
from temporal_graph.core.stores.protocol import FactQuery
from temporal_graph.core.stores.statements import load, render
from temporal_graph.testing import neo4j_store_from_env, unique_test_group
from temporal_graph.times import ManualClock

pytestmark = pytest.mark.neo4j


def _operators(plan: dict) -> list[tuple[str, int]]:
    out = [(plan["operatorType"].split("@")[0], plan.get("dbHits", 0))]
    for child in plan.get("children", []):
        out += _operators(child)
    return out


def test_rows_by_id_are_sought_not_found_by_a_scan_of_the_group() -> None:
    group = unique_test_group("plans")
    store = neo4j_store_from_env()
    assert store is not None
    with TemporalGraph(store, clock=ManualClock("2024-01-01"), embed=False) as tg:
        try:
            people = [(f"Person {i}", relation, f"Town {i}", "2001") for i in range(150)
                      for relation in ("lives in", "works at")]
            tg.add_facts(people, group_id=group)
            ids = [f.id for f in tg.now(group_id=group)[::10]]
            query = FactQuery(group, ids=tuple(ids), all_versions=True)
            with store.driver.session(database=store.database) as session:
                current = session.run("PROFILE " + load("current_facts_by_ids"), group_id=group, ids=ids,
                                      valid_time=None, limit=100).consume().profile
                any_version = session.run("PROFILE " + render("facts_by_ids", types=["LIVES_IN", "WORKS_AT"]),
                                          fact_params(query)).consume().profile
            # 300 entities in the group: a scan of them per id would cost thousands of hits
            for profile, seek in ((current, "ByElementIdSeek"), (any_version, "UniqueIndexSeek")):
                operators = _operators(profile)
                assert any(op.endswith(seek) for op, _ in operators), operators
                assert sum(hits for _, hits in operators) < 40 * len(ids), operators
        finally:
            tg.forget(group)


def test_the_groups_count_now_reads_its_kept_counts_not_every_current_row() -> None:
    """Search weighs its graph ranking by the group's rows valid now: the group node keeps its
    counts of current rows, so the count reads only the rows starting or ending later, and it
    agrees with the rows read, after writes that end, expire and erase rows, and a withdrawn
    message."""
    group = unique_test_group("counts")
    store = neo4j_store_from_env()
    assert store is not None
    clock = ManualClock("2024-01-01")
    with TemporalGraph(store, clock=clock, embed=False) as tg:
        try:
            people = [(f"Person {i}", "lives in", f"Town {i}", "2001", "2010" if i % 3 == 0 else None)
                      for i in range(300)]
            tg.add_facts(people, group_id=group)
            clock.set("2024-02-01")
            tg.add_fact("Person 1", "lives in", "Town 0", valid_at="2020", group_id=group)  # ends a row
            tg.add_fact("Person 2", "lives in", "Mars", valid_at="2090", group_id=group)  # starts later
            tg.erase_entity("Person 4", group_id=group)
            told = tg.add_episode("I live in Lisbon now.", speaker="Person 5", reference_time="2024-01-15",
                                  group_id=group)
            assert told.added and told.ended
            tg.retract_episode(told.episode.id, group_id=group)  # its rows expire, Person 5's home is back
            now = tg.core.time("2024-06-01")
            assert store.count_facts(FactQuery(group, valid_time=now)) == len(
                store.facts(FactQuery(group, valid_time=now)))
            with store.driver.session(database=store.database) as session:
                kept = session.run("MATCH (g:MemoryGroup {group_id: $g}) RETURN g.current_rows AS rows, "
                                   "g.current_ended AS ended", g=group).single()
                current = session.run("MATCH (c:CurrentFact {group_id: $g}) RETURN count(c) AS rows, "
                                      "count(c.ends) AS ended", g=group).single()
                assert (kept["rows"], kept["ended"]) == (current["rows"], current["ended"])
                key = now.timestamp() * 1_000_000
                profile = session.run("PROFILE " + load("facts_count_current"), group_id=group,
                                      start_key=int(key), end_key=int(key)).consume().profile
            # 300 current rows: counting those started by now would read every one of them
            assert sum(hits for _, hits in _operators(profile)) < 60, _operators(profile)
            # Counts not kept (a forget stopped half-way): counted from the rows, the same answer.
            with store.driver.session(database=store.database) as session:
                session.run("MATCH (g:MemoryGroup {group_id: $g}) SET g.current_rows = null, "
                            "g.current_ended = null", g=group).consume()
            for moment in (None, tg.core.time("2005-01-01"), now):
                query = FactQuery(group, valid_time=moment)
                assert store.count_facts(query) == len(store.facts(query))
        finally:
            tg.forget(group)
