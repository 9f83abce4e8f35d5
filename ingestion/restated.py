"""A held value said again, hedged or spelt another way, is the same value (issue 50).

"The nightly build takes 40 minutes." then "Nightly build still takes about 40 minutes.": the second
message confirms the first; it does not replace it with a value called "about 40 minutes". The
extractor reads the value as written (the hedge is part of what was said), so the decision is made
where a new value meets the one the memory holds: a fact of a one-valued relation whose value is the
held value once both are read without their hedges ("about", "around", "roughly", "approximately",
"approx.", "circa", "~", "≈", "some", "or so", "give or take", "-ish", "or thereabouts") and their
spelling (thousands separators, a space before a unit, "min"/"mins" for minutes, case) takes the
held value's name, so the write is a confirmation.

Only a restatement of the *same* number and unit is one: "about 45 minutes" after "40 minutes" is a
new value, and so is "nearly 40 minutes" (a bound, not a hedge). Values without a digit are compared
only on case and spacing.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from datetime import datetime

_HEDGE_BEFORE = re.compile(
    r"^(?:(?:about|around|roughly|approximately|approx\.?|circa|ca\.|some|~|≈|\+/-|±)\s*)+", re.I)
_HEDGE_AFTER = re.compile(r"(?:\s*(?:or so|give or take(?: a (?:bit|few))?|or thereabouts|-?ish))+$", re.I)
_UNITS = {
    "min": "minutes", "mins": "minutes", "minute": "minutes",
    "hr": "hours", "hrs": "hours", "hour": "hours", "h": "hours",
    "sec": "seconds", "secs": "seconds", "second": "seconds",
    "day": "days", "week": "weeks", "wk": "weeks", "wks": "weeks", "month": "months", "year": "years",
    "yr": "years", "yrs": "years", "kilo": "kg", "kilos": "kg", "kgs": "kg", "kilograms": "kg",
    "kilogram": "kg", "pound": "lb", "pounds": "lb", "lbs": "lb",
}
_THOUSANDS = re.compile(r"(?<=\d),(?=\d{3}\b)")
_NUMBER_UNIT = re.compile(r"(\d)\s+(?=[^\W\d])")
_WORD = re.compile(r"[^\W\d_]+|\d+(?:\.\d+)?|\S")


def _words(value: str) -> list[str]:
    value = value.strip().rstrip(".!,;").strip()
    value = _HEDGE_AFTER.sub("", _HEDGE_BEFORE.sub("", value)).strip()
    value = _NUMBER_UNIT.sub(r"\1", _THOUSANDS.sub("", value.casefold()))
    return [_UNITS.get(w, w) for w in _WORD.findall(value)]


def same_value(held: str, said: str) -> bool:
    """Whether ``said`` states the value ``held`` again (hedged, or spelt another way)."""
    if not any(c.isdigit() for c in said) or not any(c.isdigit() for c in held):
        return " ".join(held.casefold().split()) == " ".join(said.casefold().split())
    return _words(held) == _words(said)


def restated(said: str, held: Iterable[tuple[str, datetime | None, datetime | None]], at: datetime | None
             ) -> str | None:
    """The held value ``said`` restates, as the memory names it, among ``held`` (value, valid from,
    valid until) holding at ``at`` (any when None); None when it names another value, or the same
    value in the same words (nothing to do)."""
    for value, start, until in held:
        if at is not None and ((start is not None and start > at) or (until is not None and until <= at)):
            continue
        if value != said and same_value(value, said):
            return value
    return None
