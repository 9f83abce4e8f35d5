"""Time phrases from chat ("last March", "two weeks ago", "since 2020") resolved to UTC spans, in code.

Everything is deterministic and relative to the episode's reference time, never to the wall clock
and never by asking a model. A phrase we cannot read, or one too vague to place ("recently",
"a while ago", "the other day", "several years ago"), gives ``None``: an unknown time is honest,
a guessed one is a wrong fact.

Conventions (documented because other choices would be just as defensible):

* Spans are half-open ``[start, end)`` in UTC; relative phrases are computed on the reference
  time's UTC calendar date. Weeks run Monday to Sunday; a weekend is that week's Saturday and Sunday.
* ``granularity`` is the unit the phrase names: ``instant``, ``day``, ``week``, ``month``,
  ``season``, ``year`` or ``decade``. For "since X" and "from X to Y" it is X's unit.
* "last/next <unit>" is the previous/next calendar unit ("last year" in May 2024 is 2023).
  "N <units> ago" and "in N <units>" are the calendar unit containing the reference shifted by N
  units, so "a year ago" equals "last year". "a couple of" is 2, "a few" is 3; "several" is vague.
* "last Friday" is the most recent Friday strictly before the reference day, "next Monday" the
  first Monday strictly after it, "this Friday" the Friday of the current week.
* A month, season or date without a year ("in March", "March 3rd", "last summer") is the most
  recent one that has begun by the reference time (``prefer="past"``, the usual case in chat), or
  the next one that has not ended with ``prefer="future"``. "last March" excludes the current
  month; "next March" is the first March after the current month.
* Seasons are northern-hemisphere, meteorological: spring March–May, summer June–August,
  autumn/fall September–November, winter December–February (winter 2019 starts December 2019).
* "early/mid/late 2020" are January–April, May–August, September–December.
* "from 2019 to 2021" ends at the *end* of 2021 (inclusive reading); so does "until 2021" when the
  caller uses ``span.end`` of the end phrase.
* "for three years" is the three years up to the reference time (meant for present-perfect
  statements: "I have lived here for three years").
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta
from typing import Literal

from dateutil import parser as _dateparser
from dateutil.relativedelta import relativedelta
from pydantic import BaseModel, ConfigDict, model_validator

from .intervals import covers
from .times import to_utc

Granularity = Literal["instant", "day", "week", "month", "season", "year", "decade"]
Prefer = Literal["past", "future"]

__all__ = [
    "Granularity",
    "TimeMatch",
    "TimeSpan",
    "find_time_expressions",
    "resolve_range",
    "resolve_time",
]


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


# --- vocabulary --------------------------------------------------------------------------------

MONTHS = {
    "january": 1, "jan": 1, "february": 2, "feb": 2, "march": 3, "mar": 3, "april": 4, "apr": 4,
    "may": 5, "june": 6, "jun": 6, "july": 7, "jul": 7, "august": 8, "aug": 8, "september": 9,
    "sept": 9, "sep": 9, "october": 10, "oct": 10, "november": 11, "nov": 11, "december": 12, "dec": 12,
}
WEEKDAYS = {
    "monday": 0, "mon": 0, "tuesday": 1, "tues": 1, "tue": 1, "wednesday": 2, "wed": 2,
    "thursday": 3, "thurs": 3, "thur": 3, "thu": 3, "friday": 4, "fri": 4, "saturday": 5, "sat": 5,
    "sunday": 6, "sun": 6,
}
SEASONS = {"spring": 3, "summer": 6, "autumn": 9, "fall": 9, "winter": 12}  # first month
NUMBERS = {
    "a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
    "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "fifteen": 15, "twenty": 20,
    "thirty": 30, "a couple of": 2, "a couple": 2, "couple of": 2, "a few": 3, "few": 3,
}
UNITS = {"day": "day", "week": "week", "weekend": "weekend", "fortnight": "fortnight",
         "month": "month", "year": "year", "decade": "decade"}
# Parts of a day as [start hour, end hour).
DAY_PARTS = {"morning": (6, 12), "afternoon": (12, 18), "evening": (18, 24), "night": (18, 24)}


def _alt(words) -> str:
    return "|".join(sorted((re.escape(w) for w in words), key=len, reverse=True))


MON = rf"(?:{_alt(MONTHS)})\.?"
WD = rf"(?:{_alt(WEEKDAYS)})\.?"
SEASON = rf"(?:{_alt(SEASONS)})"
NUM = rf"(?:\d{{1,2}}|{_alt(NUMBERS)})"
UNIT = rf"(?:{_alt(UNITS)})s?"
YEAR = r"(?:1[5-9]\d\d|2[01]\d\d)"
DECADE = r"(?:1[5-9]|2[01])\d0"
WHICH = r"(?:this past|this coming|last|next|this|past|coming|previous)"
APPROX_WORDS = r"about|around|roughly|approximately|almost|nearly|just|only|like|some"
APPROX = rf"(?:(?:{APPROX_WORDS})\s+)"

# --- spans -------------------------------------------------------------------------------------


def _at(d: date, hour: int = 0) -> datetime:
    return datetime(d.year, d.month, d.day, tzinfo=UTC) + timedelta(hours=hour)


def _days(first: date, count: int, granularity: Granularity = "day") -> TimeSpan:
    return TimeSpan(start=_at(first), end=_at(first + timedelta(days=count)), granularity=granularity)


def _week(d: date) -> TimeSpan:
    return _days(d - timedelta(days=d.weekday()), 7, "week")


def _weekend(d: date) -> TimeSpan:
    return _days(d - timedelta(days=d.weekday()) + timedelta(days=5), 2, "day")


def _month(year: int, month: int) -> TimeSpan:
    first = date(year, month, 1)
    return TimeSpan(start=_at(first), end=_at(first + relativedelta(months=1)), granularity="month")


def _months(year: int, month: int, count: int, granularity: Granularity) -> TimeSpan:
    first = date(year, month, 1)
    return TimeSpan(start=_at(first), end=_at(first + relativedelta(months=count)), granularity=granularity)


def _year(year: int) -> TimeSpan:
    return TimeSpan(start=_at(date(year, 1, 1)), end=_at(date(year + 1, 1, 1)), granularity="year")


def _decade(year: int) -> TimeSpan:
    first = year - year % 10
    return TimeSpan(start=_at(date(first, 1, 1)), end=_at(date(first + 10, 1, 1)), granularity="decade")


def _season(name: str, year: int) -> TimeSpan:
    return _months(year, SEASONS[name], 3, "season")


def _unit_span(unit: str, d: date) -> TimeSpan:
    """The calendar unit containing day ``d``."""
    if unit == "day":
        return _days(d, 1)
    if unit in ("week", "fortnight"):
        return _week(d)
    if unit == "weekend":
        return _weekend(d)
    if unit == "month":
        return _month(d.year, d.month)
    if unit == "year":
        return _year(d.year)
    return _decade(d.year)


def _shift(d: date, unit: str, n: int) -> date:
    steps = {
        "day": relativedelta(days=n), "week": relativedelta(weeks=n), "weekend": relativedelta(weeks=n),
        "fortnight": relativedelta(weeks=2 * n), "month": relativedelta(months=n),
        "year": relativedelta(years=n), "decade": relativedelta(years=10 * n),
    }
    return d + steps[unit]


def _number(text: str) -> int | None:
    text = text.strip()
    return int(text) if text.isdigit() else NUMBERS.get(text)


def _unit(text: str) -> str:
    return UNITS[text[:-1] if text.endswith("s") and text[:-1] in UNITS else text]


# --- choosing among repeating periods ------------------------------------------------------------


def _which(word: str | None) -> str | None:
    """last / next / this / None (bare), folding synonyms."""
    if word is None:
        return None
    return {"past": "last", "previous": "last", "this past": "last", "coming": "next",
            "this coming": "next"}.get(word, word)


def _pick(candidates: list[TimeSpan], which: str | None, ref: datetime, prefer: Prefer) -> TimeSpan | None:
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


def _month_named(month: int, which: str | None, ref: datetime, prefer: Prefer) -> TimeSpan | None:
    return _pick([_month(y, month) for y in range(ref.year - 2, ref.year + 3)], which, ref, prefer)


def _season_named(name: str, which: str | None, ref: datetime, prefer: Prefer) -> TimeSpan | None:
    return _pick([_season(name, y) for y in range(ref.year - 2, ref.year + 3)], which, ref, prefer)


def _weekday_named(wd: int, which: str | None, ref: datetime, prefer: Prefer) -> TimeSpan | None:
    today = ref.date()
    if which == "this":
        return _days(today - timedelta(days=today.weekday()) + timedelta(days=wd), 1)
    back = (today.weekday() - wd) % 7
    ahead = (wd - today.weekday()) % 7
    if which == "last":
        return _days(today - timedelta(days=back or 7), 1)
    if which == "next":
        return _days(today + timedelta(days=ahead or 7), 1)
    if prefer == "future":
        return _days(today + timedelta(days=ahead), 1)
    return _days(today - timedelta(days=back), 1)


def _date_without_year(month: int, day: int, ref: datetime, prefer: Prefer) -> TimeSpan | None:
    days = []
    for y in range(ref.year - 4, ref.year + 5):  # wide enough to find a 29 February
        try:
            days.append(_days(date(y, month, day), 1))
        except ValueError:
            continue
    return _pick(days, None, ref, prefer)


# --- handlers: each takes (match, ref, prefer) and returns a span or None --------------------------

Handler = Callable[[re.Match[str], datetime, Prefer], "TimeSpan | None"]


def _h_iso(m: re.Match[str], ref: datetime, prefer: Prefer) -> TimeSpan | None:
    text = m.group(0).upper().replace("/", "-")
    if re.fullmatch(r"\d{4}-\d{2}", text):
        year, month = map(int, text.split("-"))
        return _month(year, month) if 1 <= month <= 12 else None
    try:
        moment = _dateparser.isoparse(text)
    except ValueError:
        return None
    if "T" not in text and " " not in text:
        return _days(moment.date(), 1)
    moment = to_utc(moment)
    return TimeSpan(start=moment, end=moment + timedelta(minutes=1), granularity="instant")


def _h_clock_on_date(m: re.Match[str], ref: datetime, prefer: Prefer) -> TimeSpan | None:
    day = resolve_time(m.group("rest"), ref, prefer=prefer)
    if day is None or day.granularity != "day":
        return None
    hour, minute = int(m.group("h")), int(m.group("mi") or 0)
    if not (1 <= hour <= 12 and minute < 60):
        return None
    hour = hour % 12 + (12 if m.group("ap").startswith("p") else 0)
    start = datetime.combine(day.start.date(), time(hour, minute), tzinfo=UTC)
    return TimeSpan(start=start, end=start + timedelta(minutes=1), granularity="instant")


def _h_day_month(m: re.Match[str], ref: datetime, prefer: Prefer) -> TimeSpan | None:
    month = MONTHS[m.group("m").rstrip(".")]
    day = int(m.group("d"))
    if m.group("y"):
        try:
            return _days(date(int(m.group("y")), month, day), 1)
        except ValueError:
            return None
    if not 1 <= day <= 31:
        return None
    return _date_without_year(month, day, ref, prefer)


def _h_month_year(m: re.Match[str], ref: datetime, prefer: Prefer) -> TimeSpan | None:
    return _month(int(m.group("y")), MONTHS[m.group("m").rstrip(".")])


def _h_part_of_year(m: re.Match[str], ref: datetime, prefer: Prefer) -> TimeSpan | None:
    part = m.group("p")
    first = 1 if part in ("early", "the beginning of", "the start of") else 5 if part in (
        "mid", "the middle of") else 9
    return _months(int(m.group("y")), first, 4, "month")


def _h_year(m: re.Match[str], ref: datetime, prefer: Prefer) -> TimeSpan | None:
    return _year(int(m.group("y")))


def _h_decade(m: re.Match[str], ref: datetime, prefer: Prefer) -> TimeSpan | None:
    if m.group("y"):
        return _decade(int(m.group("y")))
    short = int(m.group("yy"))
    return _decade(1900 + short if short >= 30 else 2000 + short)


def _h_named_day(m: re.Match[str], ref: datetime, prefer: Prefer) -> TimeSpan | None:
    offsets = {"the day before yesterday": -2, "yesterday": -1, "today": 0, "tomorrow": 1,
               "the day after tomorrow": 2}
    word, part = m.group("w"), m.group("part")
    d = ref.date() + timedelta(days=offsets[word])
    if part is None:
        return _days(d, 1)
    lo, hi = DAY_PARTS[part]
    return TimeSpan(start=_at(d, lo), end=_at(d, hi), granularity="day")


def _h_part_of_today(m: re.Match[str], ref: datetime, prefer: Prefer) -> TimeSpan | None:
    word = m.group(0)
    today = ref.date()
    if word in ("now", "right now", "just now"):
        return TimeSpan(start=ref, end=ref + timedelta(minutes=1), granularity="instant")
    if word == "earlier today":
        start = _at(today)
        return TimeSpan(start=start, end=max(ref, start + timedelta(minutes=1)), granularity="day")
    if word == "last night":
        lo, hi = DAY_PARTS["night"]
        return TimeSpan(start=_at(today - timedelta(days=1), lo), end=_at(today - timedelta(days=1), hi),
                        granularity="day")
    part = "evening" if word == "tonight" else word.split()[-1]
    lo, hi = DAY_PARTS[part]
    return TimeSpan(start=_at(today, lo), end=_at(today, hi), granularity="day")


def _h_which_unit(m: re.Match[str], ref: datetime, prefer: Prefer) -> TimeSpan | None:
    which = _which(m.group("w"))
    unit = _unit(m.group("u"))
    step = {"last": -1, "next": 1, "this": 0}[which]  # type: ignore[index]
    return _unit_span(unit, _shift(ref.date(), unit, step))


def _h_weekday(m: re.Match[str], ref: datetime, prefer: Prefer) -> TimeSpan | None:
    return _weekday_named(WEEKDAYS[m.group("d").rstrip(".")], _which(m.group("w")), ref, prefer)


def _h_month(m: re.Match[str], ref: datetime, prefer: Prefer) -> TimeSpan | None:
    return _month_named(MONTHS[m.group("m").rstrip(".")], _which(m.group("w")), ref, prefer)


def _h_season(m: re.Match[str], ref: datetime, prefer: Prefer) -> TimeSpan | None:
    name = m.group("s")
    if m.group("y"):
        return None if m.group("w") else _season(name, int(m.group("y")))
    return _season_named(name, _which(m.group("w")), ref, prefer)


def _h_bare_weekend(m: re.Match[str], ref: datetime, prefer: Prefer) -> TimeSpan | None:
    weekends = [_weekend(ref.date() + timedelta(weeks=k)) for k in (-1, 0, 1)]
    return _pick(weekends, None, ref, prefer)


def _h_ago(m: re.Match[str], ref: datetime, prefer: Prefer) -> TimeSpan | None:
    n = _number(m.group("n"))
    unit = _unit(m.group("u"))
    return None if n is None else _unit_span(unit, _shift(ref.date(), unit, -n))


def _h_in_future(m: re.Match[str] | _Regroup, ref: datetime, prefer: Prefer) -> TimeSpan | None:
    n = _number(m.group("n"))
    unit = _unit(m.group("u"))
    return None if n is None else _unit_span(unit, _shift(ref.date(), unit, n))


def _h_duration(m: re.Match[str], ref: datetime, prefer: Prefer) -> TimeSpan | None:
    n = _number(m.group("n"))
    unit = _unit(m.group("u"))
    if n is None or unit == "weekend":
        return None
    start = _at(_shift(ref.date(), unit, -n))
    granularity: Granularity = "week" if unit == "fortnight" else unit  # type: ignore[assignment]
    return TimeSpan(start=start, end=ref, granularity=granularity) if start < ref else None


def _h_since(m: re.Match[str], ref: datetime, prefer: Prefer) -> TimeSpan | None:
    anchor = resolve_time(m.group("x"), ref, prefer="past")
    if anchor is None or anchor.start >= ref:
        return None
    return TimeSpan(start=anchor.start, end=ref, granularity=anchor.granularity)


def _h_range(m: re.Match[str], ref: datetime, prefer: Prefer) -> TimeSpan | None:
    bounds = _range_bounds(m.group("a"), m.group("b"), ref, prefer)
    if bounds is None:
        return None
    first, last = bounds
    return TimeSpan(start=first.start, end=last.end, granularity=first.granularity)


def _h_relative_to(m: re.Match[str], ref: datetime, prefer: Prefer) -> TimeSpan | None:
    anchor = resolve_time(m.group("x"), ref, prefer=prefer)
    n = _number(m.group("n")) if m.group("n") else 1
    if anchor is None or n is None:
        return None
    unit = _unit(m.group("u"))
    if m.group("dir") == "before":
        return _unit_span(unit, _shift(anchor.start.date(), unit, -n))
    last_day = (anchor.end - timedelta(microseconds=1)).date()
    return _unit_span(unit, _shift(last_day, unit, n))


def _h_within_unit(m: re.Match[str], ref: datetime, prefer: Prefer) -> TimeSpan | None:
    unit = _unit_span(m.group("u"), ref.date())
    granularity = unit.granularity
    if m.group("e") == "earlier":
        return TimeSpan(start=unit.start, end=ref, granularity=granularity) if unit.start < ref else None
    return TimeSpan(start=ref, end=unit.end, granularity=granularity) if ref < unit.end else None


def _p(pattern: str) -> re.Pattern[str]:
    return re.compile(pattern)


# The table: tried in order, each pattern must match the whole (normalized) phrase.
_TABLE: list[tuple[re.Pattern[str], Handler]] = [
    (_p(r"\d{4}-\d{2}(?:-\d{2}(?:[t ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:z|[+-]\d{2}:?\d{2})?)?)?"), _h_iso),
    (_p(r"\d{4}/\d{2}/\d{2}"), _h_iso),
    (_p(r"(?P<h>\d{1,2})(?::(?P<mi>\d{2}))?\s*(?P<ap>am|pm|a\.m\.|p\.m\.)\s+(?:on\s+)?(?P<rest>.+)"),
     _h_clock_on_date),
    (_p(rf"(?:{WD},?\s+)?(?:the\s+)?(?P<d>\d{{1,2}})(?:st|nd|rd|th)?(?:\s+of)?\s+(?P<m>{MON})(?:,?\s+(?P<y>{YEAR}))?"),
     _h_day_month),
    (_p(rf"(?:{WD},?\s+)?(?P<m>{MON})\s+(?:the\s+)?(?P<d>\d{{1,2}})(?:st|nd|rd|th)?(?:,?\s+(?P<y>{YEAR}))?"),
     _h_day_month),
    (_p(rf"(?P<m>{MON}),?\s+(?:of\s+)?(?P<y>{YEAR})"), _h_month_year),
    (_p(rf"(?P<p>early|mid|late|the beginning of|the start of|the middle of|the end of)[\s-]*(?P<y>{YEAR})"),
     _h_part_of_year),
    (_p(rf"(?:the year\s+)?(?P<y>{YEAR})"), _h_year),
    (_p(rf"(?:the\s+)?(?:(?P<y>{DECADE})|'?(?P<yy>\d0))'?s"), _h_decade),
    (_p(r"(?P<w>the day before yesterday|the day after tomorrow|yesterday|today|tomorrow)"
        r"(?:\s+(?P<part>morning|afternoon|evening|night))?"), _h_named_day),
    (_p(r"now|right now|just now|earlier today|last night|tonight|this morning|this afternoon|this evening"),
     _h_part_of_today),
    (_p(rf"(?P<w>{WHICH})\s+(?P<u>week|weekend|month|year|decade)"), _h_which_unit),
    (_p(rf"(?:(?P<w>{WHICH})\s+)?(?P<d>{WD})(?:\s+(?:morning|afternoon|evening|night))?"), _h_weekday),
    (_p(rf"(?:(?P<w>{WHICH})\s+)?(?P<m>{MON})"), _h_month),
    (_p(rf"(?:(?P<w>{WHICH})\s+|the\s+)?(?P<s>{SEASON})(?:\s+(?:of\s+)?(?P<y>{YEAR}))?"), _h_season),
    (_p(r"(?:the\s+)?weekend"), _h_bare_weekend),
    (_p(rf"(?P<n>{NUM})\s+(?P<u>{UNIT})\s+ago"), _h_ago),
    (_p(rf"in\s+(?P<n>{NUM})\s+(?P<u>{UNIT})(?:'?s?\s+time)?|(?P<n2>{NUM})\s+(?P<u2>{UNIT})\s+from now"),
     lambda m, ref, prefer: _h_in_future(_Regroup(m), ref, prefer)),
    (_p(rf"(?:for|over)\s+(?:the\s+(?:past|last)\s+)?(?P<n>{NUM})\s+(?P<u>{UNIT})"), _h_duration),
    (_p(r"(?:ever\s+)?since\s+(?P<x>.+)"), _h_since),
    (_p(rf"(?:the\s+)?(?:(?P<n>{NUM})\s+)?(?P<u>{UNIT})\s+(?P<dir>before|after)\s+(?P<x>.+)"),
     _h_relative_to),
    (_p(r"(?P<e>earlier|later)\s+this\s+(?P<u>week|month|year)"), _h_within_unit),
    (_p(r"(?:from\s+)?(?P<a>.+?)\s+(?:to|until|till|through|thru)\s+(?P<b>.+)"), _h_range),
    (_p(r"between\s+(?P<a>.+?)\s+and\s+(?P<b>.+)"), _h_range),
    (_p(rf"(?P<a>{YEAR})\s*[-–]\s*(?P<b>{YEAR})"), _h_range),
]


class _Regroup:
    """Lets the two spellings of "in N units" share one handler."""

    def __init__(self, m: re.Match[str]) -> None:
        self._m = m

    def group(self, name: str) -> str:
        # The pattern matches one spelling whole, so one of the two groups is always set.
        return self._m.group(name) or self._m.group(name + "2") or ""


_LEADING_FILLER = re.compile(rf"^(?:{APPROX_WORDS}|way back in|back in|sometime in|some time in)\s+")
_LEADING_PREPOSITION = re.compile(r"^(?:in|on|at|during|over|throughout)\s+(?:the\s+)?")


def _normalize(text: str) -> str:
    cleaned = text.strip().lower().replace("’", "'").replace("—", "-")
    cleaned = re.sub(r"\s+", " ", cleaned).strip(" ,!?;:")
    cleaned = re.sub(r"(?<![ap]\.m)\.$", "", cleaned)  # a trailing full stop, but not of "p.m."
    while True:
        stripped = _LEADING_FILLER.sub("", cleaned)
        if stripped == cleaned:
            return cleaned
        cleaned = stripped


def _match_table(text: str, ref: datetime, prefer: Prefer) -> TimeSpan | None:
    for pattern, handler in _TABLE:
        m = pattern.fullmatch(text)
        if m is not None:
            try:
                span = handler(m, ref, prefer)
            except (ValueError, OverflowError, KeyError):
                span = None
            if span is not None:
                return span
    return None


def resolve_time(text: str, reference_time: datetime, *, prefer: Prefer = "past") -> TimeSpan | None:
    """The span ``text`` names, relative to ``reference_time``; ``None`` when unknown or too vague.

    ``prefer`` picks the direction for phrases without one ("in March", "on Friday", "summer"):
    the most recent occurrence (``"past"``, the default) or the next one (``"future"``, e.g. for plans).
    """
    if not text or not text.strip():
        return None
    ref = to_utc(reference_time, name="reference_time")
    normalized = _normalize(text)
    span = _match_table(normalized, ref, prefer)
    if span is None:
        without_preposition = _LEADING_PREPOSITION.sub("", normalized)
        if without_preposition != normalized:
            span = _match_table(without_preposition, ref, prefer)
    return span


def _range_bounds(a: str, b: str, ref: datetime, prefer: Prefer) -> tuple[TimeSpan, TimeSpan] | None:
    last = resolve_time(b, ref, prefer=prefer)
    if last is None:
        return None
    year = re.search(rf"\b{YEAR}\b", b)
    first = None
    if year and not re.search(rf"\b{YEAR}\b", a):  # "from March to June 2020": the year is shared
        first = resolve_time(f"{a} {year.group(0)}", ref, prefer=prefer)
    if first is None:
        first = resolve_time(a, ref, prefer=prefer)
    if first is None or last.end <= first.start:
        return None
    return first, last


def resolve_range(
    text: str, reference_time: datetime, *, prefer: Prefer = "past"
) -> tuple[datetime, datetime] | None:
    """``"from 2019 to 2021"`` → (start of 2019, end of 2021); also "between X and Y", "2019-2021".

    Any other phrase that resolves gives its own span's bounds; ``None`` when unreadable.
    """
    span = resolve_time(text, reference_time, prefer=prefer)
    return None if span is None else (span.start, span.end)


# --- finding time phrases inside a sentence --------------------------------------------------------


@dataclass(frozen=True)
class TimeMatch:
    """A time phrase found in a sentence: where it is, and what to put in time_text / end_time_text."""

    text: str  # as written
    start: int
    end: int
    time_text: str | None  # when it began (the phrase itself, or the first half of a range)
    end_time_text: str | None = None  # "from X to Y" / "until Y": the end, as written
    is_duration: bool = False  # "for three years": only meaningful with a present-perfect verb


_DATE = (
    rf"\d{{4}}-\d{{2}}-\d{{2}}(?:T\d{{2}}:\d{{2}}(?::\d{{2}})?(?:Z|[+-]\d{{2}}:?\d{{2}})?)?"
    rf"|(?:{WD},?\s+)?(?:the\s+)?\d{{1,2}}(?:st|nd|rd|th)?(?:\s+of)?\s+{MON}(?:,?\s+{YEAR})?"
    rf"|(?:{WD},?\s+)?{MON}\s+(?:the\s+)?\d{{1,2}}(?:st|nd|rd|th)?(?!\d)(?:,?\s+{YEAR})?"
    rf"|{MON},?\s+(?:of\s+)?{YEAR}"
    rf"|(?:early|mid|late)[\s-]*{YEAR}"
)
_SIMPLE = (
    rf"{_DATE}|{YEAR}|(?:{WHICH}\s+)?(?:week|weekend|month|year|{WD}|{MON}|{SEASON})"
    rf"|(?:the\s+)?{SEASON}(?:\s+(?:of\s+)?{YEAR})?|yesterday|today|tomorrow"
)
_NAMED = (
    r"the day before yesterday|the day after tomorrow"
    r"|(?:yesterday|today|tomorrow)(?:\s+(?:morning|afternoon|evening|night))?"
    r"|tonight|last night|this morning|this afternoon|this evening|earlier today"
)
_FINDER = re.compile(
    rf"\b(?:"
    rf"(?P<range>(?:from|between)\s+(?:{_SIMPLE})\s+(?:to|and|until|till|through)\s+(?:{_SIMPLE})|{YEAR}\s*[-–]\s*{YEAR})"
    rf"|(?P<until>(?:until|till|up until)\s+(?:{_SIMPLE}))"
    rf"|(?:ever\s+)?since\s+(?:{_SIMPLE})"
    rf"|(?:the\s+)?(?:{NUM}\s+)?{UNIT}\s+(?:before|after)\s+(?:{_DATE}|{_NAMED})"
    rf"|{APPROX}?{NUM}\s+{UNIT}\s+ago"
    rf"|in\s+{NUM}\s+{UNIT}(?:'?s?\s+time)?|{NUM}\s+{UNIT}\s+from now"
    rf"|(?P<duration>for\s+(?:the\s+(?:past|last)\s+)?{NUM}\s+{UNIT})"
    rf"|{_NAMED}"
    rf"|(?:earlier|later)\s+this\s+(?:week|month|year)"
    rf"|{WHICH}\s+(?:(?:week|weekend|month|year)\b|{WD}|{MON}|{SEASON})"
    rf"|(?:(?:back\s+)?(?:in|on|during|over)\s+)?(?:the\s+)?(?:{_DATE})"
    rf"|(?:(?:back\s+)?in|during)\s+(?:the\s+)?(?:{YEAR}|{DECADE}s)"
    rf"|(?:in|during|over)\s+(?:the\s+)?{SEASON}(?:\s+(?:of\s+)?{YEAR})?|{SEASON}\s+(?:of\s+)?{YEAR}"
    rf"|(?:in|during)\s+{MON}"
    rf"|on\s+{WD}"
    rf"|over\s+the\s+weekend"
    rf")(?![\w-])",
    re.IGNORECASE,
)
_FULL_NAMES = frozenset(w for w in (*MONTHS, *WEEKDAYS) if len(w) > 4 or w == "may")
_PROBE = datetime(2024, 6, 15, 12, 0, tzinfo=UTC)  # only to check that a candidate phrase resolves


def find_time_expressions(text: str) -> list[TimeMatch]:
    """Time phrases in ``text``, left to right, each one checked to resolve."""
    found: list[TimeMatch] = []
    for m in _FINDER.finditer(text):
        phrase = m.group(0)
        if m.group("until"):
            inner = re.sub(r"^(?:up\s+)?(?:until|till)\s+", "", phrase, flags=re.IGNORECASE)
            if resolve_time(inner, _PROBE) is not None:
                found.append(TimeMatch(phrase, m.start(), m.end(), None, inner))
            continue
        if resolve_time(phrase, _PROBE) is None:
            continue
        if m.group("range"):
            parts = re.fullmatch(
                r"(?:from|between)\s+(?P<a>.+?)\s+(?:to|and|until|till|through)\s+(?P<b>.+)"
                rf"|(?P<a2>{YEAR})\s*[-–]\s*(?P<b2>{YEAR})",
                phrase, re.IGNORECASE,
            )
            assert parts is not None
            first, last = parts.group("a") or parts.group("a2"), parts.group("b") or parts.group("b2")
            year = re.search(rf"\b{YEAR}\b", last)
            with_year = f"{first} {year.group(0)}" if year else first
            if year and not re.search(rf"\b{YEAR}\b", first) and resolve_time(with_year, _PROBE):
                first = with_year
            found.append(TimeMatch(phrase, m.start(), m.end(), first, last))
            continue
        end = m.end()
        if phrase.endswith(".") and phrase[:-1].split()[-1].lower() in _FULL_NAMES:
            phrase, end = phrase[:-1], end - 1  # the sentence's full stop, not an abbreviation's
        found.append(TimeMatch(phrase, m.start(), end, phrase, None, bool(m.group("duration"))))
    return found
