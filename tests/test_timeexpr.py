"""Time phrases resolve deterministically against the reference time (Monday 8 May 2023, 13:56 UTC)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone

import pytest

from temporal_graph.core.time import TimeSpan, find_time_expressions, resolve_range, resolve_time

REF = datetime(2023, 5, 8, 13, 56, tzinfo=UTC)  # a Monday


def d(text: str) -> datetime:
    parsed = datetime.fromisoformat(text)
    return parsed.replace(tzinfo=UTC) if "+" not in text else parsed


# (phrase, start, end (exclusive), granularity)
CASES = [
    # absolute
    ("8 May 2023", "2023-05-08", "2023-05-09", "day"),
    ("May 8, 2023", "2023-05-08", "2023-05-09", "day"),
    ("on the 3rd of March, 2021", "2021-03-03", "2021-03-04", "day"),
    ("May 2023", "2023-05-01", "2023-06-01", "month"),
    ("2019", "2019-01-01", "2020-01-01", "year"),
    ("in 2019", "2019-01-01", "2020-01-01", "year"),
    ("back in 2019", "2019-01-01", "2020-01-01", "year"),
    ("on 3 March", "2023-03-03", "2023-03-04", "day"),
    ("March 3rd", "2023-03-03", "2023-03-04", "day"),
    ("2023-05-08", "2023-05-08", "2023-05-09", "day"),
    ("2021-07", "2021-07-01", "2021-08-01", "month"),
    ("2023-05-08T13:56:00+08:00", "2023-05-08T05:56:00", "2023-05-08T05:57:00", "instant"),
    ("1:56 pm on 8 May, 2023", "2023-05-08T13:56:00", "2023-05-08T13:57:00", "instant"),
    ("early 2020", "2020-01-01", "2020-05-01", "month"),
    ("late 2019", "2019-09-01", "2020-01-01", "month"),
    ("in the 1990s", "1990-01-01", "2000-01-01", "decade"),
    # days
    ("yesterday", "2023-05-07", "2023-05-08", "day"),
    ("today", "2023-05-08", "2023-05-09", "day"),
    ("tomorrow", "2023-05-09", "2023-05-10", "day"),
    ("the day before yesterday", "2023-05-06", "2023-05-07", "day"),
    ("tonight", "2023-05-08T18:00:00", "2023-05-09", "day"),
    ("this morning", "2023-05-08T06:00:00", "2023-05-08T12:00:00", "day"),
    ("last night", "2023-05-07T18:00:00", "2023-05-08", "day"),
    ("yesterday afternoon", "2023-05-07T12:00:00", "2023-05-07T18:00:00", "day"),
    # calendar units
    ("last week", "2023-05-01", "2023-05-08", "week"),
    ("this week", "2023-05-08", "2023-05-15", "week"),
    ("next week", "2023-05-15", "2023-05-22", "week"),
    ("last weekend", "2023-05-06", "2023-05-08", "day"),
    ("this weekend", "2023-05-13", "2023-05-15", "day"),
    ("last month", "2023-04-01", "2023-05-01", "month"),
    ("next month", "2023-06-01", "2023-07-01", "month"),
    ("this month", "2023-05-01", "2023-06-01", "month"),
    ("last year", "2022-01-01", "2023-01-01", "year"),
    ("this year", "2023-01-01", "2024-01-01", "year"),
    ("next year", "2024-01-01", "2025-01-01", "year"),
    # weekdays
    ("last Friday", "2023-05-05", "2023-05-06", "day"),
    ("last Fri", "2023-05-05", "2023-05-06", "day"),
    ("last Monday", "2023-05-01", "2023-05-02", "day"),  # the reference day is a Monday
    ("next Monday", "2023-05-15", "2023-05-16", "day"),
    ("next Wednesday", "2023-05-10", "2023-05-11", "day"),
    ("this Friday", "2023-05-12", "2023-05-13", "day"),
    ("on Saturday", "2023-05-06", "2023-05-07", "day"),
    # months and seasons without a year
    ("last March", "2023-03-01", "2023-04-01", "month"),
    ("in March", "2023-03-01", "2023-04-01", "month"),
    ("next March", "2024-03-01", "2024-04-01", "month"),
    ("in June", "2022-06-01", "2022-07-01", "month"),  # most recent June that has begun
    ("last May", "2022-05-01", "2022-06-01", "month"),  # not the current month
    ("last summer", "2022-06-01", "2022-09-01", "season"),
    ("last winter", "2022-12-01", "2023-03-01", "season"),
    ("this summer", "2023-06-01", "2023-09-01", "season"),
    ("next winter", "2023-12-01", "2024-03-01", "season"),
    ("in the spring", "2023-03-01", "2023-06-01", "season"),
    ("the summer of 2019", "2019-06-01", "2019-09-01", "season"),
    ("winter 2019", "2019-12-01", "2020-03-01", "season"),
    # ago / in
    ("two years ago", "2021-01-01", "2022-01-01", "year"),
    ("3 days ago", "2023-05-05", "2023-05-06", "day"),
    ("a week ago", "2023-05-01", "2023-05-08", "week"),
    ("a few weeks ago", "2023-04-17", "2023-04-24", "week"),  # "a few" is three
    ("a couple of months ago", "2023-03-01", "2023-04-01", "month"),
    ("about five years ago", "2018-01-01", "2019-01-01", "year"),
    ("two weekends ago", "2023-04-29", "2023-05-01", "day"),
    ("in two weeks", "2023-05-22", "2023-05-29", "week"),
    ("in 3 days", "2023-05-11", "2023-05-12", "day"),
    ("a month from now", "2023-06-01", "2023-07-01", "month"),
    # since / ranges / relative to a date
    ("since 2020", "2020-01-01", "2023-05-08T13:56:00", "year"),
    ("since March", "2023-03-01", "2023-05-08T13:56:00", "month"),
    ("since last year", "2022-01-01", "2023-05-08T13:56:00", "year"),
    ("for three years", "2020-05-08", "2023-05-08T13:56:00", "year"),
    ("from 2019 to 2021", "2019-01-01", "2022-01-01", "year"),
    ("between 2019 and 2021", "2019-01-01", "2022-01-01", "year"),
    ("2019-2021", "2019-01-01", "2022-01-01", "year"),
    ("from March to June 2020", "2020-03-01", "2020-07-01", "month"),
    ("the week before 9 June 2023", "2023-05-29", "2023-06-05", "week"),
    ("the day after 3 March 2023", "2023-03-04", "2023-03-05", "day"),
    ("two days before 10 May 2023", "2023-05-08", "2023-05-09", "day"),
    ("earlier this year", "2023-01-01", "2023-05-08T13:56:00", "year"),
    # the start of an open stretch: the span it starts in
    ("from September", "2023-09-01", "2023-10-01", "month"),  # nearer than September 2022
    ("from March", "2023-03-01", "2023-04-01", "month"),
    ("from 2021", "2021-01-01", "2022-01-01", "year"),
    ("starting in June 2024", "2024-06-01", "2024-07-01", "month"),
]


@pytest.mark.parametrize(("phrase", "start", "end", "granularity"), CASES)
def test_resolves(phrase: str, start: str, end: str, granularity: str) -> None:
    span = resolve_time(phrase, REF)
    assert span == TimeSpan(start=d(start), end=d(end), granularity=granularity), phrase


@pytest.mark.parametrize(
    "phrase",
    ["recently", "lately", "a while ago", "the other day", "some time ago", "several years ago", "soon",
     "one day", "once", "in the past", "blah", "", "   ", "next", "42", "May be", "on 31 February 2023",
     "since tomorrow", "from 2021 to 2019"],
)
def test_vague_or_unknown_gives_none(phrase: str) -> None:
    assert resolve_time(phrase, REF) is None


def test_every_span_is_aware_utc() -> None:
    for phrase, *_ in CASES:
        span = resolve_time(phrase, REF)
        assert span is not None
        assert span.start.tzinfo is not None and span.start.utcoffset() == timedelta(0)
        assert span.end > span.start


def test_reference_time_in_another_zone_is_read_in_utc() -> None:
    # 8 May 01:00 in UTC+8 is 7 May 17:00 UTC: "yesterday" is 6 May.
    ref = datetime(2023, 5, 8, 1, 0, tzinfo=timezone(timedelta(hours=8)))
    assert resolve_time("yesterday", ref).start == d("2023-05-06")


def test_naive_reference_time_is_read_as_utc() -> None:
    assert resolve_time("today", datetime(2023, 5, 8, 12)).start == d("2023-05-08")


def test_prefer_future_for_plans() -> None:
    assert resolve_time("in March", REF, prefer="future").start == d("2024-03-01")
    assert resolve_time("in June", REF, prefer="future").start == d("2023-06-01")
    assert resolve_time("on Friday", REF, prefer="future").start == d("2023-05-12")
    assert resolve_time("March 3rd", REF, prefer="future").start == d("2024-03-03")
    assert resolve_time("from September", REF, prefer="future").start == d("2023-09-01")


def test_resolve_range() -> None:
    assert resolve_range("from 2019 to 2021", REF) == (d("2019-01-01"), d("2022-01-01"))
    assert resolve_range("between May 2020 and August 2020", REF) == (d("2020-05-01"), d("2020-09-01"))
    assert resolve_range("last year", REF) == (d("2022-01-01"), d("2023-01-01"))
    assert resolve_range("whenever", REF) is None


def test_case_and_punctuation_do_not_matter() -> None:
    assert resolve_time("LAST FRIDAY.", REF) == resolve_time("last friday", REF)
    assert resolve_time("  Last   week! ", REF) == resolve_time("last week", REF)


@pytest.mark.parametrize(
    ("sentence", "expected"),
    [
        ("I went to a LGBTQ support group yesterday and it was so powerful.", [("yesterday", None)]),
        ("I lived in Rome from 2019 to 2021.", [("2019", "2021")]),
        ("We moved there from March to June 2020", [("March 2020", "June 2020")]),
        ("I worked there until 2021", [(None, "2021")]),
        ("Last Friday, I went to a poetry reading.", [("Last Friday", None)]),
        ("I moved to Paris in May 2019.", [("in May 2019", None)]),
        ("I have lived in Berlin since 2020", [("since 2020", None)]),
        ("I started about five years ago", [("about five years ago", None)]),
        ("I may move, but I'm not sure", []),  # the modal "may" is no month
        ("From September I work at Acme.", [("From September", None)]),
        ("Starting in June, my rent is 900 euros.", [("in June", None)]),
        ("I got a letter from May.", []),  # more likely a person than a month
        ("I got a letter from May 2023.", [("from May 2023", None)]),
        ("I sat down and read", []),
        ("Nothing happened recently", []),
    ],
)
def test_find_time_expressions(sentence: str, expected: list[tuple[str | None, str | None]]) -> None:
    found = find_time_expressions(sentence)
    assert [(m.time_text, m.end_time_text) for m in found] == expected
    for m in found:
        assert sentence[m.start:m.end] == m.text


def test_find_marks_durations() -> None:
    [m] = find_time_expressions("I've lived here for 3 years")
    assert m.is_duration and m.time_text == "for 3 years"
