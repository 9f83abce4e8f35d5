"""Unit tests of the pure temporal rules (``temporal_graph.core.rules``): live assertions, undated
starts, timeline derivation for both cardinalities, and reconciliation into row changes."""

from __future__ import annotations

import itertools
from datetime import UTC, datetime

import pytest

from temporal_graph.core.model import Assertion, Fact
from temporal_graph.core.rules import (
    check_interval,
    derive_timeline,
    live_assertions,
    reconcile,
    resolve_start,
)
from temporal_graph.errors import InvalidInterval

TX0 = datetime(2025, 1, 1, tzinfo=UTC)
_ids = itertools.count()


def y(year: int) -> datetime:
    return datetime(year, 1, 1, tzinfo=UTC)


def tx(n: int) -> datetime:
    return TX0.replace(day=1 + n)


def start(
    obj: str, at: int | None, until: int | None = None, *, n: int, episode: str | None = None
) -> Assertion:
    return _a("start", obj, at=y(at) if at else None, until=y(until) if until else None, n=n,
              episode_id=episode)


def end(obj: str | None, at: int, *, n: int) -> Assertion:
    return _a("end", obj, at=y(at), n=n)


def retract(obj: str, *, n: int) -> Assertion:
    return _a("retract", obj, n=n)


def _a(kind: str, obj: str | None, *, n: int, **fields) -> Assertion:
    return Assertion(id=f"a{next(_ids)}", group_id="g", subject_id="alice", relation="LIVES_IN",
                     object_id=obj, kind=kind, created_at=tx(n), seq=0, **fields)


def spans(segments) -> list[tuple]:
    return [(s.object_id, s.valid_at and s.valid_at.year, s.invalid_at and s.invalid_at.year)
            for s in segments]


# -- check_interval / resolve_start ---------------------------------------------------------------
def test_check_interval_rejects_empty_and_reversed_intervals_naming_them() -> None:
    check_interval(y(2020), y(2021))
    check_interval(None, y(2021))
    check_interval(y(2020), None)
    for a, b in ((y(2021), y(2020)), (y(2020), y(2020))):
        with pytest.raises(InvalidInterval, match="2020"):
            check_interval(a, b)


def test_an_undated_start_stays_since_forever_unless_it_enters_a_one_object_timeline() -> None:
    now = tx(5)
    assert resolve_start(None, cardinality="one", timeline_empty=True, default_start=now) is None
    assert resolve_start(None, cardinality="one", timeline_empty=False, default_start=now) == now
    assert resolve_start(None, cardinality="many", timeline_empty=False, default_start=now) is None
    assert resolve_start(y(2020), cardinality="one", timeline_empty=False, default_start=now) == y(2020)


# -- live_assertions --------------------------------------------------------------------------------
def test_a_retraction_cancels_earlier_statements_about_its_object_only() -> None:
    paris, rome = start("paris", 2020, n=1), start("rome", 2021, n=2)
    ended = end("paris", 2022, n=3)
    again = start("paris", 2023, n=5)
    live = live_assertions([again, retract("paris", n=4), ended, rome, paris])
    assert live == [rome, again]  # in arrival order, retraction itself not included


def test_an_ending_of_everything_survives_retractions() -> None:
    ending = end(None, 2022, n=2)
    assert live_assertions([start("paris", 2020, n=1), ending, retract("paris", n=3)]) == [ending]


# -- derive_timeline: one object at a time --------------------------------------------------------
def test_a_new_object_ends_the_previous_one_where_it_begins() -> None:
    got = derive_timeline([start("beijing", 2020, n=1), start("shanghai", 2024, n=2)], "one")
    assert spans(got) == [("beijing", 2020, 2024), ("shanghai", 2024, None)]


def test_late_news_about_the_past_is_born_closed() -> None:
    got = derive_timeline([start("paris", 2022, n=1), start("rome", 2019, n=2)], "one")
    assert spans(got) == [("rome", 2019, 2022), ("paris", 2022, None)]


def test_repeated_starts_of_the_same_object_merge_into_one_segment() -> None:
    got = derive_timeline(
        [start("paris", 2020, n=1, episode="e1"), start("paris", 2021, n=2, episode="e2")], "one"
    )
    assert spans(got) == [("paris", 2020, None)]
    assert got[0].episode_ids == ("e1", "e2")


def test_endings_apply_before_starts_at_the_same_instant() -> None:
    got = derive_timeline(
        [start("paris", 2020, n=1), end("paris", 2022, n=2), start("paris", 2022, n=3)], "one"
    )
    assert spans(got) == [("paris", 2020, 2022), ("paris", 2022, None)]


def test_at_the_same_start_instant_the_last_to_arrive_wins() -> None:
    got = derive_timeline([start("paris", 2020, n=1), start("rome", 2020, n=2)], "one")
    assert spans(got) == [("rome", 2020, None)]


def test_an_explicit_until_ends_a_fact_and_an_ending_of_another_object_does_nothing() -> None:
    got = derive_timeline([start("paris", 2020, 2022, n=1), end("rome", 2021, n=2)], "one")
    assert spans(got) == [("paris", 2020, 2022)]


def test_an_undated_start_holds_since_forever() -> None:
    got = derive_timeline([start("paris", None, n=1), end(None, 2021, n=2)], "one")
    assert spans(got) == [("paris", None, 2021)]


def test_a_retracted_object_vanishes_and_its_predecessor_holds_on() -> None:
    got = derive_timeline(
        [start("beijing", 2018, n=1), start("paris", 2021, n=2), retract("paris", n=3)], "one"
    )
    assert spans(got) == [("beijing", 2018, None)]


def test_the_timeline_depends_on_the_set_of_assertions_not_their_order() -> None:
    statements = [
        start("a", 2018, n=1), start("b", 2020, 2023, n=2), end(None, 2021, n=3), start("c", 2022, n=4)
    ]
    expected = spans(derive_timeline(statements, "one"))
    assert expected == [("a", 2018, 2020), ("b", 2020, 2021), ("c", 2022, None)]
    for order in itertools.permutations(statements):
        assert spans(derive_timeline(list(order), "one")) == expected


# -- derive_timeline: many at once ------------------------------------------------------------------
def test_many_objects_hold_side_by_side_and_end_independently() -> None:
    got = derive_timeline(
        [start("tea", 2019, n=1), start("coffee", 2020, n=2), end("tea", 2021, n=3), end(None, 2023, n=4)],
        "many",
    )
    assert sorted(spans(got)) == [("coffee", 2020, 2023), ("tea", 2019, 2021)]


# -- reconcile ---------------------------------------------------------------------------------------
def row(obj: str, valid: int | None, invalid: int | None, *, id: str, fact_id: str, episodes=()) -> Fact:
    return Fact(id=id, fact_id=fact_id, group_id="g", subject="Alice", relation="LIVES_IN", object=obj,
                subject_id="alice", object_id=obj, text="", valid_at=y(valid) if valid else None,
                invalid_at=y(invalid) if invalid else None, created_at=tx(1), episode_ids=tuple(episodes))


def make_row(seg, row_id: str, fact_id: str) -> Fact:
    return row(seg.object_id, seg.valid_at and seg.valid_at.year, seg.invalid_at and seg.invalid_at.year,
               id=row_id, fact_id=fact_id, episodes=seg.episode_ids)


def plan_for(current, statements):
    counter = itertools.count()
    return reconcile(current, derive_timeline(statements, "one"),
                     new_id=lambda: f"new{next(counter)}", make_row=make_row)


def test_reconcile_keeps_unchanged_rows_and_versions_changed_ones_under_the_same_fact_id() -> None:
    beijing = row("beijing", 2020, None, id="r1", fact_id="f1")
    plan = plan_for([beijing], [start("beijing", 2020, n=1), start("shanghai", 2024, n=2)])
    assert plan.expire == [beijing]
    assert [(r.object, r.valid_at.year, r.invalid_at and r.invalid_at.year) for r in plan.insert] == [
        ("beijing", 2020, 2024), ("shanghai", 2024, None)
    ]
    successor, new = plan.insert
    assert successor.fact_id == "f1" and successor.id != "r1"
    assert new.fact_id not in ("f1",)


def test_reconcile_keeps_an_exact_match_and_adds_only_new_provenance() -> None:
    paris = row("paris", 2020, None, id="r1", fact_id="f1", episodes=("e1",))
    plan = plan_for(
        [paris], [start("paris", 2020, n=1, episode="e1"), start("paris", 2020, n=2, episode="e2")]
    )
    assert plan.kept == [paris] and plan.expire == [] and plan.insert == []
    assert plan.provenance == {"r1": ("e2",)}


def test_reconcile_expires_a_retracted_row_without_successor() -> None:
    beijing = row("beijing", 2018, 2021, id="r1", fact_id="f1")
    paris = row("paris", 2021, None, id="r2", fact_id="f2")
    plan = plan_for(
        [beijing, paris], [start("beijing", 2018, n=1), start("paris", 2021, n=2), retract("paris", n=3)]
    )
    assert {r.id for r in plan.expire} == {"r1", "r2"}
    assert [(r.object, r.fact_id, r.invalid_at) for r in plan.insert] == [("beijing", "f1", None)]


def test_a_restatement_lasts_as_long_as_the_longest_statement_of_its_stretch() -> None:
    longer = [start("acme", 2019, 2021, n=1), start("acme", 2020, 2023, n=2)]
    assert spans(derive_timeline(longer, "one")) == [("acme", 2019, 2023)]
    open_one = [start("acme", 2019, n=1), start("acme", 2020, 2021, n=2)]
    assert spans(derive_timeline(open_one, "one")) == [("acme", 2019, None)]
    gap = [start("acme", 2019, 2020, n=1), start("acme", 2021, 2022, n=2)]
    assert spans(derive_timeline(gap, "many")) == [("acme", 2019, 2020), ("acme", 2021, 2022)]
    superseded = [start("acme", 2019, 2025, n=1), start("beta", 2020, n=2), start("acme", 2021, 2022, n=3)]
    assert spans(derive_timeline(superseded, "one")) == [("acme", 2019, 2020), ("beta", 2020, 2021),
                                                         ("acme", 2021, 2022)]
