"""How long something takes, as a value that changes: "the nightly build takes 40 minutes", "after the
cache fix the nightly build takes 12 minutes", "nightly build: 40 min".

The thing is what the sentence names ("nightly build", "the full test suite", "CI pipeline"; "my
commute" is the speaker's COMMUTE_DURATION) and its DURATION the time as said, always with a number
("takes forever", "like a thousand years" are no duration). Only what it takes now: "took 40 minutes"
is one run, not its usual time.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_UNIT = (r"(?i:ms|milliseconds?|s|secs?|seconds?|m|mins?|minutes?|h|hrs?|hours?|days?|weeks?)")
_AMOUNT = (r"(?:(?i:about|around|roughly|approximately|under|over|almost|nearly|just over|just under|~)\s*)?"
           rf"\d+(?:[.,]\d+)?\s*{_UNIT}(?:\s+(?i:and)\s+\d+\s*{_UNIT})?(?![\w])")
_THING = r"(?:[A-Za-z][\w-]*\s+){0,3}?[A-Za-z][\w-]*"
_NOT_THING = re.compile(r"^(?:it|this|that|which|what|he|she|they|we|i|you|there|everything|something|"
                        r"anything|nothing|one|each|every|all)\b", re.I)
_OWNER = r"(?:(?P<own>\b(?i:my|our))\s+|(?P<the>\b(?i:the))\s+)?"
# The thing opens the clause or follows "the" / "my" ("after the cache fix the nightly build takes ...").
TAKES = re.compile(r"(?:^\s*|(?<=,\s)|(?<=\s)(?=(?i:the|my|our)\s))"
                   rf"(?!(?i:it|this|that|which|what|he|she|they|we|i|you)\b){_OWNER}"
                   rf"(?P<thing>{_THING})\s+(?:(?i:now|currently|still|only|usually|typically)\s+)?"
                   rf"(?i:takes|runs|lasts|is taking|runs for)\s+(?P<value>{_AMOUNT})"
                   r"(?=\s*(?:[,.!;]|$|\s+(?i:now|again|to|on|per|a|each|every|and|but|after|since)\b))")
COLON = re.compile(rf"^\s*{_OWNER}(?P<thing>{_THING})\s*:\s*(?P<value>{_AMOUNT})"
                   r"(?:\s+(?i:now|again|today))?\s*(?:[,.;!]|$)")


@dataclass(frozen=True)
class Duration:
    """``thing`` takes ``value``; ``mine`` when it is the speaker's ("my commute")."""

    thing: str
    value: str
    mine: bool
    span: tuple[int, int]


def find_durations(clause: str, *, colon: bool = False) -> list[Duration]:
    if not re.search(r"\d", clause):
        return []
    m = (COLON if colon else TAKES).search(clause)
    if m is None:
        return []
    thing = " ".join(m.group("thing").split())
    if _NOT_THING.match(thing) or not m.group("thing")[:1].isalpha():
        return []
    words = thing.split()
    if thing[:1].isupper() and thing[1:2].islower() and (len(words) == 1 or words[1].islower()):
        thing = thing[:1].lower() + thing[1:]  # "Full test suite": the sentence's capital
    return [Duration(thing, " ".join(m.group("value").split()), bool(m.group("own")), m.span())]
