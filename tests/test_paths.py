"""Multi-hop paths: every hop valid at the asked time, as currently believed; overlap variant."""

from __future__ import annotations

import pytest

from queries.paths import overlapping_paths, shared_interval
from temporal_graph.errors import InvalidInput


def chains(paths):
    return [[(f.subject, f.relation, f.object) for f in p.hops] for p in paths]


@pytest.fixture
def company(tg, tick):
    """Alice works at Acme 2019-2023; Acme is based in Berlin from 2015; Dana joins Acme in 2026."""
    tick()
    tg.add_fact(
        "Alice", "works at", "Acme", valid_at="2019-01-01", invalid_at="2023-01-01", episode_id="ep-1"
    )
    tick()
    tg.add_fact("Acme", "based in", "Berlin", valid_at="2015-01-01", episode_id="ep-2")
    tick()
    tg.add_fact("Bob", "works at", "Acme", valid_at="2020-01-01")
    return tg


def test_chain_valid_at_the_asked_time_carries_provenance(company):
    found = company.paths("Alice", end="Berlin", as_of="2021-06-01")
    assert chains(found) == [[("Alice", "WORKS_AT", "Acme"), ("Acme", "BASED_IN", "Berlin")]]
    assert [f.episode_ids for f in found[0].hops] == [("ep-1",), ("ep-2",)]
    assert found[0].start == "Alice" and found[0].end == "Berlin"


def test_never_through_an_ended_fact(company):
    # Alice left Acme at the start of 2023: no chain from her today or in 2024.
    assert company.paths("Alice", end="Berlin") == []
    assert company.paths("Alice", end="Berlin", as_of="2024-01-01") == []
    assert company.paths("Alice", end="Berlin", as_of="2023-01-01") == []  # half-open end


def test_never_through_a_fact_not_yet_valid(company, tick):
    tick()
    company.add_fact("Acme", "owns", "Lab", valid_at="2022-01-01")
    assert company.paths("Alice", end="Lab", as_of="2021-06-01") == []
    assert chains(company.paths("Alice", end="Lab", as_of="2022-06-01")) == [
        [("Alice", "WORKS_AT", "Acme"), ("Acme", "OWNS", "Lab")]
    ]


def test_never_through_a_retracted_belief(company, tick):
    tick()
    company.retract_fact("Acme", "based in", "Berlin")
    assert company.paths("Alice", end="Berlin", as_of="2021-06-01") == []
    assert company.paths("Bob", end="Berlin") == []


def test_shortest_first_relations_and_hop_limit(tg, tick):
    tick()
    tg.add_fact("A", "knows", "B")
    tg.add_fact("B", "knows", "C")
    tg.add_fact("C", "knows", "D")
    tg.add_fact("A", "likes", "D")
    found = tg.paths("A", end="D")
    assert [len(p) for p in found] == [1, 3]
    assert chains(tg.paths("A", end="D", relations=["knows"])) == [
        [("A", "KNOWS", "B"), ("B", "KNOWS", "C"), ("C", "KNOWS", "D")]
    ]
    assert tg.paths("A", end="D", relations=["knows"], max_hops=2) == []
    # Without an end: everything reachable, shortest first.
    assert [len(p) for p in tg.paths("A")] == [1, 1, 2, 3]
    # Facts are followed subject to object unless asked otherwise.
    assert tg.paths("D", end="A") == []
    assert [len(p) for p in tg.paths("D", end="A", direction="any")] == [1, 3]


def test_unknown_entities_give_no_paths_and_bad_options_are_named(tg, tick):
    tick()
    tg.add_fact("A", "knows", "B")
    assert tg.paths("Nobody") == []
    assert tg.paths("A", end="Nobody") == []
    with pytest.raises(InvalidInput, match="max_hops"):
        tg.paths("A", max_hops=0)
    with pytest.raises(InvalidInput, match="sideways"):
        tg.paths("A", direction="sideways")
    with pytest.raises(TypeError, match="colour"):
        tg.paths("A", colour="red")


def test_groups_do_not_mix(tg, tick):
    tick()
    tg.add_fact("A", "knows", "B", group_id="one")
    tg.add_fact("B", "knows", "C", group_id="two")
    assert tg.paths("A", end="C", group_id="one") == []
    assert len(tg.paths("A", end="B", group_id="one")) == 1


@pytest.fixture
def managers(tg, tick):
    """Who managed Alice while she lived in Berlin? Bob did (2020); Carol only after she left."""
    tick()
    tg.add_fact("Alice", "lives in", "Berlin", valid_at="2018-01-01")
    tg.add_fact("Alice", "lives in", "Paris", valid_at="2021-01-01")
    tg.add_fact("Bob", "manages", "Alice", valid_at="2020-01-01", invalid_at="2020-12-01")
    tg.add_fact("Carol", "manages", "Alice", valid_at="2022-01-01")
    return tg


def test_overlapping_paths_answer_who_managed_her_while_she_lived_there(managers):
    found = overlapping_paths(managers.core, "Berlin", relations=["lives in", "manages"], max_hops=2)
    two_hops = [p for p in found if len(p) == 2]
    assert [p.hops[1].subject for p in two_hops] == ["Bob"]
    assert shared_interval(two_hops[0])[0].year == 2020
    # The same through the client, discoverable as an option of tg.paths.
    via_client = managers.paths("Berlin", end="Bob", direction="any", overlapping=True)
    assert chains(via_client) == [[("Alice", "LIVES_IN", "Berlin"), ("Bob", "MANAGES", "Alice")]]
    assert managers.paths("Berlin", end="Carol", direction="any", overlapping=True) == []
    # At one moment (today) Alice lives in Paris, so no chain reaches Berlin at all.
    assert managers.paths("Carol", end="Berlin") == []
    assert chains(managers.paths("Carol", end="Paris")) == [
        [("Carol", "MANAGES", "Alice"), ("Alice", "LIVES_IN", "Paris")]
    ]


def test_overlap_within_a_window(managers):
    inside = managers.paths("Bob", end="Berlin", during=("2020-06-01", "2020-07-01"))
    assert len(inside) == 1
    assert managers.paths("Bob", end="Berlin", during=("2021-06-01", "2021-07-01")) == []
    with pytest.raises(InvalidInput):
        managers.paths("Bob", overlapping=True, as_of="2020-06-01")
