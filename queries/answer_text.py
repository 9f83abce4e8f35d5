"""Answer wording: dates at the precision they are known, durations, and the sentences of each
question kind. Pure functions of facts and times.

Precision. A fact may record it (``attributes["valid_at_granularity"]`` / ``["invalid_at_granularity"]``,
the unit of the time phrase it came from); otherwise it is read from the time itself, since the
time parser starts every period at midnight UTC of its first day: 1 January 00:00 -> a year
("2019"), the 1st of a month 00:00 -> a month ("June 2024"), another midnight -> a day
("2024-09-02"). A time with a clock part is the moment the fact was told (a present-tense "I live
in Kyoto" starts when it was said), so it is shown as "by <day>": the start is no later than that.
"""

from __future__ import annotations

from datetime import datetime
from typing import Literal

from dateutil.relativedelta import relativedelta

from temporal_graph.core.model import Fact
from temporal_graph.core.names import relation_phrase

Precision = Literal["year", "month", "day", "told"]
_BY_GRANULARITY: dict[str, Precision] = {
    "decade": "year", "year": "year", "season": "month", "month": "month", "week": "day", "day": "day",
    "instant": "day",
}


def precision(moment: datetime, granularity: str | None = None) -> Precision:
    if granularity in _BY_GRANULARITY:
        return _BY_GRANULARITY[granularity]
    if (moment.hour, moment.minute, moment.second, moment.microsecond) != (0, 0, 0, 0):
        return "told"
    if moment.day == 1:
        return "year" if moment.month == 1 else "month"
    return "day"


def date_text(moment: datetime, granularity: str | None = None, *, preposition: bool = False) -> str:
    """``2019`` / ``June 2024`` / ``2024-09-02`` / ``by 2023-01-10``; with ``preposition``:
    ``in 2019`` / ``in June 2024`` / ``on 2024-09-02`` / ``by 2023-01-10``."""
    kind = precision(moment, granularity)
    if kind == "year":
        text, prep = str(moment.year), "in"
    elif kind == "month":
        text, prep = f"{moment:%B} {moment.year}", "in"
    else:
        text, prep = moment.date().isoformat(), "on"
    if kind == "told":
        return f"by {text}"
    return f"{prep} {text}" if preposition else text


def start_text(f: Fact, *, preposition: bool = False) -> str | None:
    return None if f.valid_at is None else date_text(
        f.valid_at, f.attributes.get("valid_at_granularity"), preposition=preposition)


def end_text(f: Fact, *, preposition: bool = False) -> str | None:
    return None if f.invalid_at is None else date_text(
        f.invalid_at, f.attributes.get("invalid_at_granularity"), preposition=preposition)


def duration_text(start: datetime, end: datetime, coarsest: Precision = "day") -> str:
    """``4 years 2 months``: in the units both ends are known to (years only for year dates)."""
    delta = relativedelta(end, start)
    parts = [(delta.years, "year"), (delta.months, "month"), (delta.days, "day")]
    keep = {"year": 1, "month": 2}.get(coarsest, 3)
    words = [f"{n} {unit}{'s' if n != 1 else ''}" for n, unit in parts[:keep] if n]
    if not words:
        return "less than a " + ("year" if keep == 1 else "month" if keep == 2 else "day")
    return " ".join(words)


def coarser(a: Precision, b: Precision) -> Precision:
    order = ["year", "month", "day", "told"]
    return min(a, b, key=order.index)


relation_words = relation_phrase  # the one spelling of a relation as words
