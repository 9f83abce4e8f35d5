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
