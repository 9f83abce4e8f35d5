"""The one phrase grammar: time phrases ("last March", "two weeks ago", "since 2020") resolved to UTC
spans, in code. Messages and questions are read by it alike.

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
* "from September" and "starting in June" are the span of the start they name: of its last and
  next occurrences, the nearer one ("rent goes up from February" said in January is the coming
  February; only the next with ``prefer="future"``). The finder leaves out a bare "from
  May/June/April/August", which is more often a person ("a letter from May") than a month.
* "for three years" is the three years up to the reference time (meant for present-perfect
  statements: "I have lived here for three years").
"""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import UTC, date, datetime, time, timedelta

from ..errors import InvalidTime
from .absolute import to_utc
from .spans import (
    Granularity,
    Prefer,
    TimeSpan,
    date_without_year,
    day_at,
    days_span,
    decade_span,
    month_named,
    month_span,
    months_span,
    pick,
    season_named,
    season_span,
    shift,
    unit_span,
    weekday_named,
    weekend_span,
    which_word,
    year_span,
)
from .vocabulary import (
    APPROX_WORDS,
    DAY_PARTS,
    DECADE,
    MON,
    MONTHS,
    NUM,
    SEASON,
    UNIT,
    WD,
    WEEKDAYS,
    WHICH,
    YEAR,
    number_of,
    unit_of,
)

__all__ = ["resolve_range", "resolve_time"]


# --- handlers: each takes (match, ref, prefer) and returns a span or None --------------------------

Handler = Callable[[re.Match[str], datetime, Prefer], "TimeSpan | None"]


def _h_iso(m: re.Match[str], ref: datetime, prefer: Prefer) -> TimeSpan | None:
    text = m.group(0).upper().replace("/", "-")
    if re.fullmatch(r"\d{4}-\d{2}", text):
        year, month = map(int, text.split("-"))
        return month_span(year, month) if 1 <= month <= 12 else None
    try:
        moment = to_utc(text, name="time phrase")  # the one absolute parser reads ISO text
    except InvalidTime:
        return None
    if "T" not in text and " " not in text:
        return days_span(moment.date(), 1)
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
            return days_span(date(int(m.group("y")), month, day), 1)
        except ValueError:
            return None
    if not 1 <= day <= 31:
        return None
    return date_without_year(month, day, ref, prefer)


def _h_month_year(m: re.Match[str], ref: datetime, prefer: Prefer) -> TimeSpan | None:
    return month_span(int(m.group("y")), MONTHS[m.group("m").rstrip(".")])


def _h_part_of_year(m: re.Match[str], ref: datetime, prefer: Prefer) -> TimeSpan | None:
    part = m.group("p")
    first = 1 if part in ("early", "the beginning of", "the start of") else 5 if part in (
        "mid", "the middle of") else 9
    return months_span(int(m.group("y")), first, 4, "month")


def _h_year(m: re.Match[str], ref: datetime, prefer: Prefer) -> TimeSpan | None:
    return year_span(int(m.group("y")))


def _h_decade(m: re.Match[str], ref: datetime, prefer: Prefer) -> TimeSpan | None:
    if m.group("y"):
        return decade_span(int(m.group("y")))
    short = int(m.group("yy"))
    return decade_span(1900 + short if short >= 30 else 2000 + short)


def _h_named_day(m: re.Match[str], ref: datetime, prefer: Prefer) -> TimeSpan | None:
    offsets = {"the day before yesterday": -2, "yesterday": -1, "today": 0, "tomorrow": 1,
               "the day after tomorrow": 2}
    word, part = m.group("w"), m.group("part")
    d = ref.date() + timedelta(days=offsets[word])
    if part is None:
        return days_span(d, 1)
    lo, hi = DAY_PARTS[part]
    return TimeSpan(start=day_at(d, lo), end=day_at(d, hi), granularity="day")


def _h_part_of_today(m: re.Match[str], ref: datetime, prefer: Prefer) -> TimeSpan | None:
    word = m.group(0)
    today = ref.date()
    if word in ("now", "right now", "just now"):
        return TimeSpan(start=ref, end=ref + timedelta(minutes=1), granularity="instant")
    if word == "earlier today":
        start = day_at(today)
        return TimeSpan(start=start, end=max(ref, start + timedelta(minutes=1)), granularity="day")
    if word == "last night":
        lo, hi = DAY_PARTS["night"]
        yesterday = today - timedelta(days=1)
        return TimeSpan(start=day_at(yesterday, lo), end=day_at(yesterday, hi), granularity="day")
    part = "evening" if word == "tonight" else word.split()[-1]
    lo, hi = DAY_PARTS[part]
    return TimeSpan(start=day_at(today, lo), end=day_at(today, hi), granularity="day")


def _h_which_unit(m: re.Match[str], ref: datetime, prefer: Prefer) -> TimeSpan | None:
    which = which_word(m.group("w"))
    unit = unit_of(m.group("u"))
    step = {"last": -1, "next": 1, "this": 0}[which]  # type: ignore[index]
    return unit_span(unit, shift(ref.date(), unit, step))


def _h_weekday(m: re.Match[str], ref: datetime, prefer: Prefer) -> TimeSpan | None:
    return weekday_named(WEEKDAYS[m.group("d").rstrip(".")], which_word(m.group("w")), ref, prefer)


def _h_month(m: re.Match[str], ref: datetime, prefer: Prefer) -> TimeSpan | None:
    return month_named(MONTHS[m.group("m").rstrip(".")], which_word(m.group("w")), ref, prefer)


def _h_season(m: re.Match[str], ref: datetime, prefer: Prefer) -> TimeSpan | None:
    name = m.group("s")
    if m.group("y"):
        return None if m.group("w") else season_span(name, int(m.group("y")))
    return season_named(name, which_word(m.group("w")), ref, prefer)


def _h_bare_weekend(m: re.Match[str], ref: datetime, prefer: Prefer) -> TimeSpan | None:
    weekends = [weekend_span(ref.date() + timedelta(weeks=k)) for k in (-1, 0, 1)]
    return pick(weekends, None, ref, prefer)


def _h_ago(m: re.Match[str], ref: datetime, prefer: Prefer) -> TimeSpan | None:
    n = number_of(m.group("n"))
    unit = unit_of(m.group("u"))
    return None if n is None else unit_span(unit, shift(ref.date(), unit, -n))


def _h_in_future(m: re.Match[str] | _Regroup, ref: datetime, prefer: Prefer) -> TimeSpan | None:
    n = number_of(m.group("n"))
    unit = unit_of(m.group("u"))
    return None if n is None else unit_span(unit, shift(ref.date(), unit, n))


def _h_duration(m: re.Match[str], ref: datetime, prefer: Prefer) -> TimeSpan | None:
    n = number_of(m.group("n"))
    unit = unit_of(m.group("u"))
    if n is None or unit == "weekend":
        return None
    start = day_at(shift(ref.date(), unit, -n))
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
    n = number_of(m.group("n")) if m.group("n") else 1
    if anchor is None or n is None:
        return None
    unit = unit_of(m.group("u"))
    if m.group("dir") == "before":
        return unit_span(unit, shift(anchor.start.date(), unit, -n))
    last_day = (anchor.end - timedelta(microseconds=1)).date()
    return unit_span(unit, shift(last_day, unit, n))


def _h_within_unit(m: re.Match[str], ref: datetime, prefer: Prefer) -> TimeSpan | None:
    unit = unit_span(m.group("u"), ref.date())
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
# "from September" / "starting in May" name the start of an open stretch, which may lie ahead
# ("rent goes up from February", said in January) or behind ("here from March", said in May).
_OPEN_START = re.compile(r"^(?:from|starting(?:\s+(?:in|from|on))?)\s+(?:the\s+)?")


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
    if span is None and _OPEN_START.match(normalized):
        span = _nearest_start(_OPEN_START.sub("", normalized), ref, prefer)
    return span


def _nearest_start(text: str, ref: datetime, prefer: Prefer) -> TimeSpan | None:
    """The start an open stretch names: the nearer of its last and next occurrences (only the next
    with ``prefer="future"``); a phrase with its own direction gives the same span both ways."""
    ahead = _match_table(text, ref, "future")
    if prefer == "future":
        return ahead
    behind = _match_table(text, ref, "past")
    if ahead is None or behind is None:
        return ahead or behind
    return min(behind, ahead, key=lambda span: abs(span.start - ref))


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
