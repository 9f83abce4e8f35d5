"""Dates said at the precision they are known, and durations in the units both ends are known to."""

from __future__ import annotations

from datetime import UTC, datetime

from queries.answer_text import date_text, duration_text, precision


def at(*parts: int) -> datetime:
    return datetime(*parts, tzinfo=UTC)


def test_dates_at_the_precision_known():
    assert date_text(at(2019, 1, 1)) == "2019"
    assert date_text(at(2024, 6, 1), preposition=True) == "in June 2024"
    assert date_text(at(2024, 9, 2), preposition=True) == "on 2024-09-02"
    assert date_text(at(2023, 1, 10, 10, 1)) == "by 2023-01-10"  # only when it was told
    assert precision(at(2024, 1, 1), "day") == "day"  # a recorded granularity wins over the guess


def test_durations():
    assert duration_text(at(2019, 3, 1), at(2023, 5, 1), "month") == "4 years 2 months"
    assert duration_text(at(1990, 1, 1), at(1996, 1, 1), "year") == "6 years"
    assert duration_text(at(2024, 6, 1), at(2024, 6, 20), "month") == "less than a month"
