"""Interval algebra (``temporal_graph.core.intervals``): examples a reader can check, and a property
test against the literal definition — an interval is the set of instants it covers."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from hypothesis import given
from hypothesis import strategies as st

from temporal_graph.core.intervals import ALWAYS, Interval, common, covers, intersection, overlaps

BASE = datetime(2024, 1, 1, tzinfo=UTC)


def day(n: int) -> datetime:
    return BASE + timedelta(days=n)


def test_the_start_counts_and_the_end_does_not():
    span = (day(1), day(3))
    assert covers(span, day(1)) and covers(span, day(2))
    assert not covers(span, day(3)) and not covers(span, day(0))
    assert covers((None, day(3)), day(-1000)) and covers((day(1), None), day(1000))
    assert covers(ALWAYS, day(0))


def test_touching_intervals_do_not_overlap():
    assert not overlaps((day(1), day(2)), (day(2), day(3)))
    assert overlaps((day(1), day(3)), (day(2), day(4)))
    assert intersection((day(1), day(3)), (day(2), None)) == (day(2), day(3))
    assert intersection((day(1), day(2)), (day(2), day(3))) is None


def test_common_time_of_several():
    assert common([]) == ALWAYS
    assert common([(day(0), day(5)), (None, day(3)), (day(2), None)]) == (day(2), day(3))
    assert common([(day(0), day(1)), (day(4), None), (None, None)]) is None


# Day numbers 0..10; the grid of instants reaches past them, so an unbounded end is tested too.
GRID = [day(n) for n in range(-2, 14)]
bound = st.one_of(st.none(), st.integers(0, 10))


@st.composite
def intervals(draw: st.DrawFn) -> Interval:
    """A non-empty interval (the only kind the memory keeps)."""
    start, end = draw(bound), draw(bound)
    if start is not None and end is not None:
        if start == end:
            end += 1
        start, end = min(start, end), max(start, end)
    return (None if start is None else day(start), None if end is None else day(end))


def instants(interval: Interval) -> set[datetime]:
    return {t for t in GRID if covers(interval, t)}


def literal_covers(interval: Interval, t: datetime) -> bool:
    start, end = interval
    after_start = start is None or not t < start
    before_end = end is None or t < end
    return after_start and before_end


@given(intervals(), intervals())
def test_algebra_matches_sets_of_instants(a, b):
    assert all(covers(a, t) == literal_covers(a, t) for t in GRID)
    assert overlaps(a, b) == bool(instants(a) & instants(b)) == overlaps(b, a)
    meet = intersection(a, b)
    assert (meet is None) == (not overlaps(a, b))
    if meet is not None:
        assert instants(meet) == instants(a) & instants(b)


@given(st.lists(intervals(), max_size=4))
def test_common_is_the_intersection_of_all(spans):
    shared = common(spans)
    every = set(GRID)
    for span in spans:
        every &= instants(span)
    assert (shared is None) == (not every)
    if shared is not None:
        assert instants(shared) == every
