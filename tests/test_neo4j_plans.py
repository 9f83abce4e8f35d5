"""The server's plans of the statements a search sends per candidate: each reads what it names."""

from __future__ import annotations

import pytest

from temporal_graph import TemporalGraph
from temporal_graph.core.stores.statements import load
from temporal_graph.testing import neo4j_store_from_env, unique_test_group
from temporal_graph.times import ManualClock

pytestmark = pytest.mark.neo4j


def _operators(plan: dict) -> list[tuple[str, int]]:
    out = [(plan["operatorType"].split("@")[0], plan.get("dbHits", 0))]
    for child in plan.get("children", []):
        out += _operators(child)
    return out


def test_search_candidates_are_read_by_element_id_not_by_a_scan_of_the_group() -> None:
    group = unique_test_group("plans")
    store = neo4j_store_from_env()
    assert store is not None
    with TemporalGraph(store, clock=ManualClock("2024-01-01"), embed=False) as tg:
        try:
            people = [(f"Person {i}", "lives in", f"Town {i}", "2001") for i in range(300)]
            tg.add_facts(people, group_id=group)
            ids = [f.id for f in tg.now(group_id=group)[:30]]
            with store.driver.session(database=store.database) as session:
                profile = session.run("PROFILE " + load("current_facts_by_ids"), group_id=group, ids=ids,
                                      valid_time=None, limit=100).consume().profile
            operators = _operators(profile)
            assert any(op.endswith("ByElementIdSeek") for op, _ in operators), operators
            # 600 entities in the group: a scan of them per candidate would cost thousands of hits
            assert sum(hits for _, hits in operators) < 40 * len(ids), operators
        finally:
            tg.forget(group)
