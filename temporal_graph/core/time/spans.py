"""Calendar periods as half-open UTC spans, and the choice among repeating ones ("last March",
"next Friday", "summer"). Pure functions of dates; the conventions are in :mod:`.phrases`."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta
from typing import Literal

from dateutil.relativedelta import relativedelta
from pydantic import BaseModel, ConfigDict, model_validator

from ..intervals import covers
from .vocabulary import SEASONS

Granularity = Literal["instant", "day", "week", "month", "season", "year", "decade"]
Prefer = Literal["past", "future"]


class TimeSpan(BaseModel):
    """The period a phrase names: ``[start, end)`` in aware UTC, with the unit it was named in."""

    model_config = ConfigDict(frozen=True)

    start: datetime
    end: datetime
    granularity: Granularity

    @model_validator(mode="after")
    def _ordered(self) -> TimeSpan:
        if self.end <= self.start:
            raise ValueError(f"time span end {self.end} is not after start {self.start}")
        return self

    def contains(self, moment: datetime) -> bool:
        return covers((self.start, self.end), moment)


def day_at(d: date, hour: int = 0) -> datetime:
    return datetime(d.year, d.month, d.day, tzinfo=UTC) + timedelta(hours=hour)


def days_span(first: date, count: int, granularity: Granularity = "day") -> TimeSpan:
    return TimeSpan(start=day_at(first), end=day_at(first + timedelta(days=count)), granularity=granularity)


def week_span(d: date) -> TimeSpan:
    return days_span(d - timedelta(days=d.weekday()), 7, "week")


def weekend_span(d: date) -> TimeSpan:
    return days_span(d - timedelta(days=d.weekday()) + timedelta(days=5), 2, "day")


def month_span(year: int, month: int) -> TimeSpan:
    first = date(year, month, 1)
    return TimeSpan(start=day_at(first), end=day_at(first + relativedelta(months=1)), granularity="month")


def months_span(year: int, month: int, count: int, granularity: Granularity) -> TimeSpan:
    first = date(year, month, 1)
    return TimeSpan(start=day_at(first), end=day_at(first + relativedelta(months=count)),
                    granularity=granularity)


def year_span(year: int) -> TimeSpan:
    return TimeSpan(start=day_at(date(year, 1, 1)), end=day_at(date(year + 1, 1, 1)), granularity="year")


def decade_span(year: int) -> TimeSpan:
    first = year - year % 10
    return TimeSpan(start=day_at(date(first, 1, 1)), end=day_at(date(first + 10, 1, 1)), granularity="decade")


def season_span(name: str, year: int) -> TimeSpan:
    return months_span(year, SEASONS[name], 3, "season")


def unit_span(unit: str, d: date) -> TimeSpan:
    """The calendar unit containing day ``d``."""
    if unit == "day":
        return days_span(d, 1)
    if unit in ("week", "fortnight"):
        return week_span(d)
    if unit == "weekend":
        return weekend_span(d)
    if unit == "month":
        return month_span(d.year, d.month)
    if unit == "year":
        return year_span(d.year)
    return decade_span(d.year)


def shift(d: date, unit: str, n: int) -> date:
    steps = {
        "day": relativedelta(days=n), "week": relativedelta(weeks=n), "weekend": relativedelta(weeks=n),
        "fortnight": relativedelta(weeks=2 * n), "month": relativedelta(months=n),
        "year": relativedelta(years=n), "decade": relativedelta(years=10 * n),
    }
    return d + steps[unit]


# --- choosing among repeating periods ------------------------------------------------------------


def which_word(word: str | None) -> str | None:
    """last / next / this / None (bare), folding synonyms."""
    if word is None:
        return None
    return {"past": "last", "previous": "last", "this past": "last", "coming": "next",
            "this coming": "next"}.get(word, word)


def pick(candidates: list[TimeSpan], which: str | None, ref: datetime, prefer: Prefer) -> TimeSpan | None:
    """Among occurrences of a repeating period (sorted), pick the one the modifier names."""
    current = [c for c in candidates if c.contains(ref)]
    if which == "last":
        past = [c for c in candidates if c.end <= ref]
        return past[-1] if past else None
    if which == "next":
        future = [c for c in candidates if c.start > ref]
        return future[0] if future else None
    if which == "this":
        if current:
            return current[0]
        same_year = [c for c in candidates if c.start.year == ref.year]
        return same_year[0] if same_year else None
    if prefer == "future":
        future = [c for c in candidates if c.end > ref]
        return future[0] if future else None
    started = [c for c in candidates if c.start <= ref]
    return started[-1] if started else None


def month_named(month: int, which: str | None, ref: datetime, prefer: Prefer) -> TimeSpan | None:
    return pick([month_span(y, month) for y in range(ref.year - 2, ref.year + 3)], which, ref, prefer)


def season_named(name: str, which: str | None, ref: datetime, prefer: Prefer) -> TimeSpan | None:
    return pick([season_span(name, y) for y in range(ref.year - 2, ref.year + 3)], which, ref, prefer)


def weekday_named(wd: int, which: str | None, ref: datetime, prefer: Prefer) -> TimeSpan | None:
    today = ref.date()
    if which == "this":
        return days_span(today - timedelta(days=today.weekday()) + timedelta(days=wd), 1)
    back = (today.weekday() - wd) % 7
    ahead = (wd - today.weekday()) % 7
    if which == "last":
        return days_span(today - timedelta(days=back or 7), 1)
    if which == "next":
        return days_span(today + timedelta(days=ahead or 7), 1)
    if prefer == "future":
        return days_span(today + timedelta(days=ahead), 1)
    return days_span(today - timedelta(days=back), 1)


def date_without_year(month: int, day: int, ref: datetime, prefer: Prefer) -> TimeSpan | None:
    days = []
    for y in range(ref.year - 4, ref.year + 5):  # wide enough to find a 29 February
        try:
            days.append(days_span(date(y, month, day), 1))
        except ValueError:
            continue
    return pick(days, None, ref, prefer)
