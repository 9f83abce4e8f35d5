"""Revisions that do not say what they revise: "it's 960 now", "They've put it up to 960", "cut to
3.8M units", "Went back to the classic one", "Now shipped", "It's now at 5 Market Square".

Such a clause gives a value and no attribute; the attribute (and its subject) is that of the value it
revises: the latest attribute told before in the message or the last turns whose value is of the same
kind (an amount for an amount, an address for an address, a status for a status, a setting's word for a
setting), which the extractor finds. With no such value before, the clause gives nothing.

A revision may name its subject ("Noor went back to the list one"): then only that subject's values
are revised.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

from .addresses import ADDRESS, address_of
from .attributes import AMOUNTS
from .statuses import STATUS_WORDS

Kind = Literal["amount", "address", "status", "setting", "any"]

_VALUE = r"(?P<value>(?:[^,;]|,(?=\d{3}))+?)"  # "1,050 euros": a comma inside a number
_END = r"\s*(?:[;!?]|,(?!\d{3})|\.(?!\d)|$)"
_REVISE = (r"(?i:put|raised|cut|bumped|slashed|lowered|upgraded|downgraded|moved|changed|dropped|increased|"
           r"reduced|pushed|set|switched|hiked|trimmed|lifted|boosted|updated|revised|brought)")
_INTRANSITIVE = (r"(?i:went up|went down|gone up|gone down|dropped|rose|risen|fell|fallen|increased|"
                 r"decreased|"
                 r"jumped|climbed|moved|changed|slipped|shot up)")
_WHO = (r"(?:(?P<who>\b(?:I|[Ww]e|[Tt]hey|[Hh]e|[Ss]he|(?-i:[A-Z][a-z]+))"
        r"|(?i:the\s+)?(?i:landlord|provider|company|bank|boss|team))\s+)?")
_SETTING_NOUNS = r"(?i:layout|theme|mode|plan|font|tier)"

# What may open a revision's clause: "and", "now", or a phrase of what changed it ("after the upgrade").
_OPENING = (r"^\s*(?:(?i:after|since|with|following|thanks to|from)\s+(?:[\w'’-]+\s+){0,4}?)?"
            r"(?:(?i:and|but|so|now|then|oh|well|yeah|yep|ok|okay|also|plus|update)[,:]?\s+)*")
FORMS: tuple[tuple[re.Pattern[str], Kind], ...] = (
    # "They've put it up to 960", "landlord bumped it to 700", "We moved it to 19 Water Lane"
    (re.compile(r"(?:^|(?<=[\s,]))" + _WHO + r"(?:(?i:have|has|just|finally|also)\s+)*" + _REVISE
                + r"\s+(?i:it|them)\s+(?:(?i:up|down|back)\s+)?(?i:to)\s+" + _VALUE + _END), "any"),
    # "It got slashed to $1.5M", "Went up to 740", "Dropped to 3,900 euros", "it is raised to 8,600"
    (re.compile(_OPENING + r"(?:(?i:it|that|which)\s+)?(?:(?i:got|was|has been|is|just|has|have|now)\s+)*"
                r"(?:" + _REVISE + r"|" + _INTRANSITIVE + r")\s+(?:(?i:up|down|back)\s+)?(?i:to)\s+" + _VALUE
                + _END), "any"),
    # "Up to 1,100 now", "Down to 12 minutes after the fix"
    (re.compile(_OPENING + r"(?i:up|down|back)\s+(?i:to)\s+" + _VALUE + r"(?:\s+(?i:now|again|already))?"
                + r"(?:\s+(?i:after|since|with|thanks to)\s+[^,;]{1,40})?" + _END), "any"),
    # "it's 960 now", "it is now at 2 Quay Street", "its 25 now", "it's down to 15 minutes"
    (re.compile(_OPENING + r"(?i:now it is|it is|its|that is)\s+(?:(?i:now|currently|already|only|just)\s+)?"
                r"(?:(?i:at|on|in|down to|up to|back to|back at|only)\s+)?" + _VALUE
                + r"(?:\s+(?i:now|again|already))?" + _END), "any"),
    # "Now shipped", "closed now"
    (re.compile(r"^\s*(?:(?i:now|currently|and now)\s+)?(?P<value>(?i:" + "|".join(STATUS_WORDS)
                + r"))(?:\s+(?i:now|already|at last|finally))?" + _END), "status"),
    # "I went back to the classic one", "Noor went back to the list one", "Switched to the annual one"
    (re.compile(r"(?:^|(?<=[\s,]))" + _WHO + r"(?:(?i:have|has|just|finally)\s+)*(?i:went|gone|go|switched|"
                r"changed|moved|reverted|am going|is going)\s+(?:(?i:back)\s+)?(?i:to)\s+(?i:the)\s+"
                r"(?P<value>[a-z][\w-]*(?:\s+[a-z][\w-]*)?)\s+(?i:one)\b"), "setting"),
)


_STATUS_CUES = frozenset(STATUS_WORDS)


@dataclass(frozen=True)
class Revision:
    """A new value for an attribute the clause does not name; ``who`` the subject it names, if any."""

    value: str
    kind: Kind
    who: str | None
    span: tuple[int, int]
    value_start: int
    changed_to: bool = False  # "changed it to dark": someone set the value (a setting's too)


def kind_of(relation: str, value: str) -> Kind | None:
    """What kind of value an attribute holds, so a revision's value can be matched to it."""
    if relation == "STATUS" or relation.endswith("_STATUS"):
        return "status"
    if not value:  # an attribute named without its value ("raised the rent"): by what it is
        return "amount" if relation.rsplit("_", 1)[-1] in AMOUNTS or relation in AMOUNTS else None
    if re.search(r"(?:^|_)(?:LAYOUT|THEME|MODE|PLAN|FONT|TIER)$", relation) and not re.search(r"\d", value):
        return "setting"
    if address_of(value):
        return "address"
    if re.search(r"\d", value):
        return "amount"
    return None


# Units, by what they measure: a revised amount keeps its measure ("960" or "960 euros" for a rent,
# never "2 hours" or "10 degrees").
_UNITS = {
    "money": r"euros?|pounds?|dollars?|bucks|quid|grand|zloty|złoty|dirhams?|dinars?|yen|rupees?|francs?|"
             r"kronas?|k|m|bn|[$£€¥₹]",
    "time": r"ms|s|secs?|seconds?|mins?|minutes?|h|hrs?|hours?|days?|weeks?|months?|years?",
    "data": r"[kmgt]b|[kmgt]bps|bytes?|gigs?",
    "count": r"people|persons?|units?|users?|items?|times?|points?|stars?|goals?",
    "measure": r"degrees?|°[cf]?|km|kms|miles?|m|meters?|metres?|kg|kilos?|lbs?|%|percent|pm|am",
}
_UNIT_RE = {name: re.compile(r"(?i)(?:\d\s*|\b)(?:" + body + r")(?![a-z])") for name, body in _UNITS.items()}


def measure_of(value: str) -> str | None:
    """What an amount measures by its unit ("960 euros": money, "12 minutes": time); None when bare."""
    for name, pattern in _UNIT_RE.items():
        if pattern.search(value):
            return name
    return None


# What an attribute measures, by the last word of its name.
_MEASURED = {**dict.fromkeys("""RENT PRICE PRICES COST FEE FEES FARE SALARY WAGE PAY INCOME BUDGET VALUATION
REVENUE PROFIT BALANCE DEBT LOAN MORTGAGE TAX TARIFF DEDUCTIBLE PREMIUM CAP DISCOUNT""".split(), "money"),
             "DURATION": "time", "TIMEOUT": "time", "INTERVAL": "time", "RAM": "data", "SPEED": "data",
             "HEADCOUNT": "count", "POPULATION": "count", "CAPACITY": "count", "ATTENDANCE": "count"}


def measure_of_relation(relation: str) -> str | None:
    return _MEASURED.get(relation.rsplit("_", 1)[-1])


def number_of(value: str) -> float | None:
    """The first number of a value ("1,050 euros" -> 1050, "3.8M units" -> 3.8e6), None without one."""
    m = re.search(r"(\d[\d,]*(?:\.\d+)?)\s*([kKmMbB])?", value)
    if m is None:
        return None
    number = float(m.group(1).replace(",", ""))
    return number * {"k": 1e3, "m": 1e6, "b": 1e9}.get((m.group(2) or "").lower(), 1.0)


def nearness(value: str, before: str) -> float | None:
    """How far a revised amount is from the one it may revise, as a ratio >= 1 (1: the same size):
    "960" revises a rent of 900 (1.07) sooner than a council tax of 140 (6.9)."""
    new, old = number_of(value), number_of(before)
    if not new or not old:
        return None
    return max(new, old) / min(new, old)


_RELATIVE_VALUES = frozenset("new old other same previous original usual first second last latest".split())


# An amount as a revision says it: a number with its unit and period at most ("1,050 euros a month",
# "3.8M units", "$2.5M", "12 minutes"), never a number inside a phrase ("3 stops from the station").
_AMOUNT = re.compile(
    r"^(?:(?i:about|around|roughly|almost|nearly|over|under|just|only)\s+)?[$£€¥₹]?\d[\d,.]*\s*"
    r"(?:[kKmMbB]n?|%)?(?:\s+[A-Za-z$£€¥₹%°]+)?(?:\s+(?i:a|an|per|each|every)\s+"
    r"(?i:month|year|week|day|hour|term|night|person|head))?$")


def fits(kind: Kind, value: str, before: str = "", relation: str = "") -> bool:
    """Whether a revision's value is of this kind (and, for an amount, of the same measure as the
    attribute and the value ``before`` it, when they name one)."""
    if kind == "address":
        return address_of(value) is not None
    if kind == "amount":
        if not _AMOUNT.match(value) or address_of(value) is not None:
            return False
        new, old = measure_of(value), measure_of_relation(relation) or measure_of(before)
        return new is None or old is None or new == old
    if kind == "status":
        return value.lower() in STATUS_WORDS
    if kind == "setting":
        return (bool(re.fullmatch(r"[A-Za-z][\w-]*(?:\s+[a-z][\w-]*)?", value))
                and value.split()[0].lower() not in _RELATIVE_VALUES)
    return False


def find_revision(clause: str) -> Revision | None:
    """The revision a clause tells, if it tells one and names no attribute of its own."""
    low = clause.lower()
    if (not re.search(r"\d|\bone\b|\b(?:changed|switched|set)\s+(?:it|that)\b", low)
            and _STATUS_CUES.isdisjoint(re.findall(r"[a-z]+", low))):
        return None  # a revised value is an amount, an address, a status, "the ... one" or a setting set
    if re.search(r"\b" + _SETTING_NOUNS + r"\b", clause) and not re.search(r"\bone\b", clause):
        return None  # "went back to the classic layout" names its setting (``settings``)
    for form, kind in FORMS:
        m = form.search(clause)
        if m is None:
            continue
        value = " ".join(m.group("value").split()).strip(" .")
        value = re.sub(r"\s+(?i:now|again|already|ugh|smh|lol|btw|finally)+$", "", value).strip()
        if not value or len(value.split()) > 6:
            continue
        if kind == "any":
            address = re.match(rf"^{ADDRESS}$", value)
            if address is None and re.match(r"^(?i:a|an|the|my|our|this|that|so|very|too|not|like|literally|"
                                            r"basically|about)\b", value):
                continue
        groups = m.groupdict()
        return Revision(value, kind, groups.get("who"), m.span(), m.start("value"),
                        changed_to=form is FORMS[0][0])
    return None
