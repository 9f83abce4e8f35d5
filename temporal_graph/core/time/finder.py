"""Finding time phrases inside a sentence ("I moved to Kyoto two years ago"), each one checked to
resolve by the phrase grammar (:mod:`.phrases`), with what to keep as its start and end text."""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import UTC, datetime

from .phrases import resolve_time
from .vocabulary import APPROX, DECADE, MON, MONTHS, NUM, SEASON, UNIT, WD, WEEKDAYS, WHICH, YEAR

__all__ = ["TimeMatch", "find_time_expressions"]


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
_NAME_MONTHS = r"(?:april|may|june|august)"  # also given names
_FINDER = re.compile(
    rf"\b(?:"
    rf"(?P<range>(?:from|between)\s+(?:{_SIMPLE})\s+(?:to|and|until|till|through)\s+(?:{_SIMPLE})|{YEAR}\s*[-–]\s*{YEAR})"
    rf"|(?P<until>(?:until|till|up until)\s+(?:{_SIMPLE}))"
    # the start of an open stretch; "a letter from May" is more likely from a person than a month
    rf"|from\s+(?!{_NAME_MONTHS}\b(?!,?\s+(?:of\s+)?{YEAR}))(?:{_SIMPLE})"
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
