"""The worked examples of DESIGN.md, export / forget and bad input, against every store.

Each write happens one clock tick after the previous one (``tick()``), so transaction times are
distinct and "as known at K" questions have exact answers.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta

import pytest
from test_bad_input import BAD_WRITES

from temporal_graph import Ontology, TemporalGraph
from temporal_graph.core.stores import sqlite as sqlite_store
from temporal_graph.errors import InvalidInput, NotFound


def d(year: int, month: int = 1, day: int = 1) -> datetime:
    return datetime(year, month, day, tzinfo=UTC)


def timeline(facts) -> list[tuple]:
    return [(f.object, f.valid_at, f.invalid_at) for f in facts]


# -- Beijing -> Shanghai: a successor version, not an edit ----------------------------------------
def test_moving_ends_the_old_home_where_the_new_one_begins(tg: TemporalGraph, tick, groups) -> None:
    g = groups()
    told_beijing = tick()
    beijing = tg.add_fact("Alice", "lives in", "Beijing", valid_at="2020-03-01", group_id=g)
    told_move = tick()
    shanghai = tg.add_fact("Alice", "lives in", "Shanghai", valid_at="2024-03-01", group_id=g)
    tick()

    assert timeline(tg.history("Alice", "lives in", group_id=g)) == [
        ("Beijing", d(2020, 3, 1), d(2024, 3, 1)),
        ("Shanghai", d(2024, 3, 1), None),
    ]
    assert [f.object for f in tg.now("Alice", group_id=g)] == ["Shanghai"]
    assert [f.object for f in tg.as_of("2022-01-01", group_id=g)] == ["Beijing"]
    assert tg.as_of("2024-02-29", group_id=g)[0].invalid_at == d(2024, 3, 1)
    assert [f.object for f in tg.as_of("2024-03-01", group_id=g)] == ["Shanghai"]  # half-open

    # As known before the move was told: Beijing, open-ended, the very row written then.
    for known in (told_beijing, told_move - timedelta(seconds=1)):
        then = tg.as_of("2024-06-01", known_at=known, group_id=g)
        assert [(f.id, f.invalid_at) for f in then] == [(beijing.id, None)]

    # The old row was expired and a successor inserted: audit shows both versions.
    versions = tg.audit(beijing.fact_id, group_id=g)
    assert [(f.invalid_at, f.expired_at) for f in versions] == [(None, told_move), (d(2024, 3, 1), None)]
    assert versions[0].id == beijing.id and versions[1].id != beijing.id
    assert versions[1].created_at == versions[0].expired_at
    assert shanghai.fact_id != beijing.fact_id


def test_moving_shows_in_diff_and_snapshot(tg: TemporalGraph, tick, groups) -> None:
    g = groups()
    tick()
    tg.add_fact("Alice", "lives in", "Beijing", valid_at="2020-03-01", group_id=g)
    tick()
    tg.add_fact("Alice", "lives in", "Shanghai", valid_at="2024-03-01", group_id=g)
    tick()

    change = tg.diff("2024-01-01", "2025-01-01", group_id=g)
    assert [f.object for f in change.started] == ["Shanghai"]
    assert [f.object for f in change.ended] == ["Beijing"]

    graph = tg.snapshot(as_of="2022-01-01", group_id=g)
    edges = [
        (graph.nodes[s]["name"], data["relation"], graph.nodes[o]["name"])
        for s, o, data in graph.edges(data=True)
    ]
    assert edges == [("Alice", "LIVES_IN", "Beijing")]


# -- late news about the past is born closed ---------------------------------------------------------
def test_late_news_about_the_past_is_born_ending_where_the_known_fact_begins(
    tg: TemporalGraph, tick, groups
) -> None:
    g = groups()
    tick()
    paris = tg.add_fact("Alice", "lives in", "Paris", valid_at="2022", group_id=g)
    tick()
    rome = tg.add_fact("Alice", "lives in", "Rome", valid_at="2019", group_id=g)

    assert (rome.valid_at, rome.invalid_at) == (d(2019), d(2022))
    assert timeline(tg.history("Alice", group_id=g)) == [("Rome", d(2019), d(2022)), ("Paris", d(2022), None)]
    # Paris stands: the same row, never expired.
    assert [f.id for f in tg.now("Alice", group_id=g)] == [paris.id]
    assert [f.expired_at for f in tg.audit(paris.fact_id, group_id=g)] == [None]
    assert [f.object for f in tg.as_of("2020-06-01", group_id=g)] == ["Rome"]


# -- an ending closes the fact with no successor -----------------------------------------------------
def test_quitting_a_job_ends_it_with_no_successor(tg: TemporalGraph, tick, groups) -> None:
    g = groups()
    tick()
    acme = tg.add_fact("Alice", "works at", "Acme", valid_at="2020", group_id=g)
    tick()
    ended = tg.end_fact("Alice", "works at", "Acme", at="2023", group_id=g)

    assert [(f.object, f.valid_at, f.invalid_at, f.fact_id) for f in ended] == [
        ("Acme", d(2020), d(2023), acme.fact_id)
    ]
    assert tg.now("Alice", "works at", group_id=g) == []
    assert [f.object for f in tg.as_of("2022-06-01", group_id=g)] == ["Acme"]
    assert tg.as_of("2023-06-01", group_id=g) == []
    assert len(tg.audit(acme.fact_id, group_id=g)) == 2


def test_ending_without_an_object_ends_everything_held(tg: TemporalGraph, tick, groups) -> None:
    g = groups()
    tick()
    tg.add_fact("Alice", "likes", "tea", valid_at="2020", group_id=g)
    tick()
    tg.add_fact("Alice", "likes", "coffee", valid_at="2021", group_id=g)
    tick()
    ended = tg.end_fact("Alice", "likes", at="2023", group_id=g)

    assert sorted(f.object for f in ended) == ["coffee", "tea"]
    assert all(f.invalid_at == d(2023) for f in ended)
    assert tg.now("Alice", group_id=g) == []
    assert sorted(f.object for f in tg.as_of("2022", group_id=g)) == ["coffee", "tea"]


def test_ending_one_of_many_leaves_the_others(tg: TemporalGraph, tick, groups) -> None:
    g = groups()
    tick()
    tg.add_fact("Alice", "likes", "tea", group_id=g)
    tick()
    tg.add_fact("Alice", "likes", "coffee", group_id=g)  # many: no supersession, start stays unknown
    assert all(f.valid_at is None for f in tg.now("Alice", group_id=g))
    tick()
    tg.end_fact("Alice", "likes", "tea", at="2024", group_id=g)
    assert [f.object for f in tg.now("Alice", group_id=g)] == ["coffee"]


def test_an_ending_told_before_its_start_still_applies(tg: TemporalGraph, tick, groups) -> None:
    g = groups()
    tick()
    with pytest.raises(NotFound, match="Alice"):  # a name never told: a typo, unless said otherwise
        tg.end_fact("Alice", "works at", "Acme", at="2023", group_id=g)
    tg.end_fact("Alice", "works at", "Acme", at="2023", group_id=g, create_names=True)  # nothing known yet
    tick()
    tg.add_fact("Alice", "works at", "Acme", valid_at="2020", group_id=g)
    assert timeline(tg.history("Alice", group_id=g)) == [("Acme", d(2020), d(2023))]


def test_an_ending_between_known_names_before_its_start_applies(tg: TemporalGraph, tick, groups) -> None:
    g = groups()
    tick()
    tg.add_fact("Bob", "works at", "Acme", group_id=g)
    tg.add_fact("Alice", "likes", "tea", group_id=g)
    tick()
    assert tg.end_fact("Alice", "works at", "Acme", at="2023", group_id=g) == []  # no fact yet
    tick()
    tg.add_fact("Alice", "works at", "Acme", valid_at="2020", group_id=g)
    assert timeline(tg.history("Alice", "works at", group_id=g)) == [("Acme", d(2020), d(2023))]


# -- a correction retracts in transaction time ---------------------------------------------------
def test_a_correction_retracts_the_wrong_fact_and_history_never_shows_it(
    tg: TemporalGraph, tick, groups
) -> None:
    g = groups()
    tick()
    tg.add_fact("Alice", "lives in", "Beijing", valid_at="2018", group_id=g)
    tick()
    believed_paris = tick()
    paris = tg.add_fact("Alice", "lives in", "Paris", valid_at="2021", group_id=g)
    retracted_at = tick()
    retracted = tg.retract_fact("Alice", "lives in", "Paris", group_id=g)
    tick()
    tg.add_fact("Alice", "lives in", "Lyon", valid_at="2021", group_id=g)
    tick()

    assert [f.id for f in retracted] == [paris.id]
    assert retracted[0].expired_at == retracted_at, "retract_fact should return the rows as expired"
    assert timeline(tg.history("Alice", group_id=g)) == [
        ("Beijing", d(2018), d(2021)), ("Lyon", d(2021), None)
    ]
    assert [f.object for f in tg.as_of("2022", group_id=g)] == ["Lyon"]
    # Before the correction the memory believed Paris; the audit keeps the wrong version.
    assert [f.object for f in tg.as_of("2022", known_at=believed_paris, group_id=g)] == ["Paris"]
    assert [f.expired_at for f in tg.audit(paris.fact_id, group_id=g)] == [retracted_at]
    # Between the retraction and Lyon, Beijing held on (a successor version of Beijing).
    assert timeline(tg.as_of("2022", known_at=retracted_at, group_id=g)) == [("Beijing", d(2018), None)]


def test_retracting_something_never_said_changes_nothing(tg: TemporalGraph, tick, groups) -> None:
    g = groups()
    tick()
    tg.add_fact("Alice", "lives in", "Paris", valid_at="2021", group_id=g)
    tg.add_fact("Bob", "lives in", "Rome", valid_at="2021", group_id=g)
    before = tg.export(g)
    tick()
    assert tg.retract_fact("Alice", "lives in", "Rome", group_id=g) == []
    with pytest.raises(NotFound, match="Nobody"):  # a name the group never heard of
        tg.retract_fact("Nobody", "lives in", "Paris", group_id=g)
    with pytest.raises(NotFound, match="Lyon"):
        tg.retract_fact("Alice", "lives in", "Lyon", group_id=g)
    assert tg.export(g)["facts"] == before["facts"] and tg.export(g)["entities"] == before["entities"]


# -- duplicates merge provenance; no new row -------------------------------------------------------
def test_a_duplicate_merges_its_episode_into_the_existing_row(tg: TemporalGraph, tick, groups) -> None:
    g = groups()
    tick()
    first = tg.add_fact("Alice", "lives in", "Paris", valid_at="2021", episode_id="ep-1", group_id=g)
    rows_before = len(tg.export(g)["facts"])
    tick()
    again = tg.add_fact("  alice ", "Lives In", "PARIS", valid_at="2021", episode_id="ep-2", group_id=g)

    assert again.id == first.id
    assert len(tg.export(g)["facts"]) == rows_before
    (current,) = tg.now("Alice", group_id=g)
    assert current.id == first.id and current.episode_ids == ("ep-1", "ep-2")
    assert current.subject == "Alice" and current.object == "Paris"  # first spelling kept
    assert again.episode_ids == ("ep-1", "ep-2"), "add_fact should return the merged row with its provenance"


def test_a_restated_interval_extends_the_fact_and_a_known_end_still_stands(
    tg: TemporalGraph, tick, groups
) -> None:
    g = groups()
    tick()
    tg.add_fact("Alice", "works at", "Acme", valid_at="2019", invalid_at="2021", group_id=g)
    tick()
    # "I was at Acme from 2020 to 2023": the same job, told with a later end.
    tg.add_fact("Alice", "works at", "Acme", valid_at="2020", invalid_at="2023", group_id=g)
    (acme,) = tg.history("Alice", "works at", group_id=g)
    assert (acme.valid_at.year, acme.invalid_at.year) == (2019, 2023)
    assert [f.object for f in tg.as_of("2022-06-01", subject="Alice", group_id=g)] == ["Acme"]
    tick()
    tg.add_fact("Alice", "works at", "Acme", valid_at="2025", invalid_at="2026", group_id=g)
    assert [(f.valid_at.year, f.invalid_at.year) for f in tg.history("Alice", "works at", group_id=g)] == [
        (2019, 2023), (2025, 2026)]  # a gap is not bridged
    tick()
    tg.end_fact("Alice", "works at", "Acme", at="2022", group_id=g)  # an ending told outright wins
    assert [(f.valid_at.year, f.invalid_at.year) for f in tg.history("Alice", "works at", group_id=g)] == [
        (2019, 2022), (2025, 2026)]


def test_an_undated_repeat_merges_and_an_undated_change_starts_at_the_write_time(
    tg: TemporalGraph, tick, groups
) -> None:
    g = groups()
    tick()
    paris = tg.add_fact("Alice", "lives in", "Paris", group_id=g)
    assert paris.valid_at is None  # unknown start: "since forever"
    tick()
    assert tg.add_fact("Alice", "lives in", "Paris", group_id=g).id == paris.id
    written = tick()
    rome = tg.add_fact("Alice", "lives in", "Rome", group_id=g)
    assert rome.valid_at == written
    assert timeline(tg.history("Alice", group_id=g)) == [("Paris", None, written), ("Rome", written, None)]


# -- scoping: only the same group, subject and relation interact ---------------------------------
def test_facts_about_other_subjects_relations_or_groups_never_expire_this_one(
    tg: TemporalGraph, tick, groups
) -> None:
    g, other = groups("a"), groups("b")
    tick()
    paris = tg.add_fact("Alice", "lives in", "Paris", valid_at="2020", group_id=g)
    tick()
    tg.add_fact("Bob", "lives in", "Rome", valid_at="2021", group_id=g)  # another subject
    tick()
    tg.add_fact("Alice", "works at", "Rome", valid_at="2022", group_id=g)  # another relation
    tick()
    tg.add_fact("Alice", "visited", "Rome", valid_at="2023", group_id=g)
    tick()
    tg.add_fact("Alice", "lives in", "Oslo", valid_at="2024", group_id=other)  # same names, other group
    tick()
    tg.end_fact("Alice", "lives in", at="2024", group_id=other)
    tick()
    tg.retract_fact("Alice", "lives in", "Oslo", group_id=other)

    assert [(f.id, f.expired_at) for f in tg.audit(paris.fact_id, group_id=g)] == [(paris.id, None)]
    assert [f.object for f in tg.now("Alice", "lives in", group_id=g)] == ["Paris"]
    assert [f.object for f in tg.now("Bob", group_id=g)] == ["Rome"]


def test_declared_cardinalities_are_obeyed(store_factory, clock, tick, groups) -> None:
    ontology = Ontology.default_personal().with_relations({"plays for": "one", "collects": "many"})
    tg = TemporalGraph(store_factory(), clock=clock, ontology=ontology)
    g = groups()
    try:
        tick()
        tg.add_fact("Ann", "plays for", "Ajax", valid_at="2015", group_id=g)
        tick()
        tg.add_fact("Ann", "plays for", "Porto", valid_at="2018", group_id=g)
        tick()
        tg.add_fact("Ann", "collects", "stamps", valid_at="2015", group_id=g)
        tick()
        tg.add_fact("Ann", "collects", "coins", valid_at="2018", group_id=g)
        assert sorted((f.relation, f.object) for f in tg.now("Ann", group_id=g)) == [
            ("COLLECTS", "coins"), ("COLLECTS", "stamps"), ("PLAYS_FOR", "Porto")
        ]
    finally:
        tg.forget(g)
        tg.close()


# -- export / forget / reopening -------------------------------------------------------------------
def test_export_holds_every_version_and_is_json(tg: TemporalGraph, tick, groups) -> None:
    g = groups()
    tick()
    tg.add_fact("Alice", "lives in", "Beijing", valid_at="2020", episode_id="ep-1", group_id=g)
    tick()
    tg.add_fact("Alice", "lives in", "Shanghai", valid_at="2024", group_id=g)
    data = tg.export(g)
    json.dumps(data)  # JSON-serializable as it is
    assert data["group_id"] == g
    assert sorted(e["name"] for e in data["entities"]) == ["Alice", "Beijing", "Shanghai"]
    assert len(data["facts"]) == 3  # Beijing open, Beijing closed, Shanghai
    assert sum(f["expired_at"] is not None for f in data["facts"]) == 1
    assert all(f["group_id"] == g for f in data["facts"])


def test_forget_removes_one_group_entirely(tg: TemporalGraph, tick, groups) -> None:
    gone, kept = groups("gone"), groups("kept")
    for group in (gone, kept):
        tick()
        tg.add_fact("Alice", "lives in", "Paris", valid_at="2020", group_id=group)
        tick()
        tg.add_fact("Alice", "lives in", "Rome", valid_at="2022", group_id=group)
    kept_before = tg.export(kept)

    assert tg.forget(gone) > 0
    data = tg.export(gone)
    assert (data["entities"], data["facts"], data["episodes"]) == ([], [], [])
    assert tg.now(group_id=gone) == [] and tg.history("Alice", group_id=gone) == []
    assert tg.export(kept) == kept_before
    assert tg.forget(gone) == 0


def test_committed_facts_survive_reopening_the_store(store_factory, clock, tick, groups) -> None:
    g = groups()
    first = TemporalGraph(store_factory(), clock=clock)
    tick()
    paris = first.add_fact("Alice", "lives in", "Paris", valid_at="2020", group_id=g)
    first.close()
    second = TemporalGraph(store_factory(), clock=clock)
    try:
        assert [f.id for f in second.now("Alice", group_id=g)] == [paris.id]
    finally:
        second.forget(g)
        second.close()


def test_importance_survives_reopening_and_successor_versions(store_factory, clock, tick, groups) -> None:
    g = groups()
    first = TemporalGraph(store_factory(), clock=clock, embed=False)
    tick()
    first.add_fact("Alice", "lives in", "Paris", valid_at="2020", importance=8, group_id=g)
    first.add_facts([{"subject": "Alice", "relation": "likes", "object": "tea", "importance": 3}], group_id=g)
    tick()
    first.add_fact("Alice", "lives in", "Lyon", valid_at="2023", group_id=g)  # ends Paris: a new version
    first.close()
    second = TemporalGraph(store_factory(), clock=clock, embed=False)
    try:
        rated = {(f.object, f.invalid_at is None): f.importance for f in second.history("Alice", group_id=g)}
        assert rated == {("Paris", False): 8, ("tea", True): 3, ("Lyon", True): 5}
    finally:
        second.forget(g)
        second.close()


def test_a_large_load_answers_as_one_by_one_and_keeps_answering_after(
    tg: TemporalGraph, tick, groups, monkeypatch
) -> None:
    """Every load counts as large here: the embedded store builds the indexes its writes do not
    read at the load's end (``Store.bulk_loading``); what the store answers is the same."""
    monkeypatch.setattr(sqlite_store, "BULK_INDEXES_AT", 1)
    bulk, one = groups("bulk"), groups("one")
    items = [(f"P{i}", "lives in", ["Rome", "Oslo"][i % 2], str(2000 + i)) for i in range(6)]
    items += [("P1", "lives in", "Lima", "2010"), ("P2", "likes", "tea")]
    tick()
    tg.add_facts(items, group_id=bulk, batch_size=2)
    for s, r, o, *start in items:
        tg.add_fact(s, r, o, valid_at=start[0] if start else None, group_id=one)

    def answers(g: str) -> list:
        rome = sorted(f.subject for f in tg.now(object="Rome", group_id=g))
        history = [timeline(tg.history(f"P{i}", group_id=g)) for i in range(6)]
        return [rome, history, sorted((f.subject, f.object) for f in tg.as_of("2003-06-01", group_id=g))]

    assert answers(bulk) == answers(one)
    assert answers(bulk)[0] == ["P0", "P2", "P4"]
    # A load writes final rows only: P1's Rome was never a version of its own.
    assert [[v.object for v in tg.audit(f.fact_id, group_id=bulk)] for f in tg.history("P1", group_id=bulk)] \
        == [["Oslo"], ["Lima"]]


# -- bad input writes nothing, on every store ------------------------------------------------------
@pytest.mark.parametrize("case", BAD_WRITES, ids=[c.name for c in BAD_WRITES])
def test_bad_input_raises_and_writes_nothing(tg: TemporalGraph, tick, groups, case) -> None:
    g = groups()
    tick()
    tg.add_fact("Alice", "lives in", "Paris", valid_at="2020", group_id=g)
    before = tg.export(g)
    tick()
    with pytest.raises(case.error) as raised:
        case.call(tg, g)
    assert isinstance(raised.value, InvalidInput)
    assert case.names in str(raised.value), f"message {str(raised.value)!r} does not name {case.names!r}"
    assert tg.export(g) == before
