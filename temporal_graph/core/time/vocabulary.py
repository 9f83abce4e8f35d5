"""The words of time phrases and the regular-expression fragments built from them: one vocabulary
for messages (:mod:`.phrases`, :mod:`.finder`) and questions (``queries.question_time``) alike."""

from __future__ import annotations

import re
from collections.abc import Iterable

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


def alternation(words: Iterable[str]) -> str:
    """``a|b|c`` of the escaped words, longest first so "a couple of" wins over "a"."""
    return "|".join(sorted((re.escape(w) for w in words), key=len, reverse=True))


MON = rf"(?:{alternation(MONTHS)})\.?"
WD = rf"(?:{alternation(WEEKDAYS)})\.?"
SEASON = rf"(?:{alternation(SEASONS)})"
NUM = rf"(?:\d{{1,2}}|{alternation(NUMBERS)})"
UNIT = rf"(?:{alternation(UNITS)})s?"
YEAR = r"(?:1[5-9]\d\d|2[01]\d\d)"
DECADE = r"(?:1[5-9]|2[01])\d0"
WHICH = r"(?:this past|this coming|last|next|this|past|coming|previous)"
APPROX_WORDS = r"about|around|roughly|approximately|almost|nearly|just|only|like|some"
APPROX = rf"(?:(?:{APPROX_WORDS})\s+)"


def number_of(text: str) -> int | None:
    """``3`` or ``three`` or ``a couple of`` as a number; ``None`` for "several" and the like."""
    text = text.strip()
    return int(text) if text.isdigit() else NUMBERS.get(text)


def unit_of(text: str) -> str:
    """The unit a word names, plural or not."""
    return UNITS[text[:-1] if text.endswith("s") and text[:-1] in UNITS else text]
