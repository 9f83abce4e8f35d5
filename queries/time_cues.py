"""Time cues of a search: does the query ask for a time or name a period, and which messages say
one or fall in it.

"When did Melanie run a charity race?" is answered by the message that dated the event ("I ran a
charity race last Saturday"), and that message seldom shares more words with the question than
the other messages about races do: its time phrase is what sets it apart. "Where did Joanna travel
in July 2022?" is answered by a message told in July 2022, or one that puts its event there ("we
got back from Rome last week", told on 2 August). So search adds one ranking to its fusion for
each cue the question gives: the candidate messages that say a time (for *when*, *how long*,
*what year*), and those whose time falls in the period the question names. A message without the
cue can still win on its words; cues only reorder candidates, never bring in unrelated messages.

Time phrases are found and resolved by the one phrase grammar (:mod:`temporal_graph.core.time`),
against each message's own time, so "yesterday", "last Fri", "two weekends ago" and "next month"
all count. A period named without a year ("in June") is the most recent one at the message's time.
"""

from __future__ import annotations

import re
from datetime import datetime, timedelta
from functools import lru_cache

from temporal_graph.core.time import TimeSpan, find_time_expressions, resolve_time

# Anchored at the start: "what did she do when she moved" asks for a thing, not a time.
_ASKS_TIME = re.compile(
    r"^\W*(?:when\b|since when\b|how long\b|how many (?:years|months|weeks|days)\b"
    r"|(?:in |of |during )?(?:what|which) (?:year|month|week|day|date|season|time of year)\b)"
    r"|\b(?:how long ago|what (?:year|date)|which year)\b",
    re.IGNORECASE,
)
_DAY = timedelta(days=1)
# Messages never change, and the grammar costs about a millisecond a message: a search reads up to
# 30 candidates, and the same messages come back from one question to the next.
_CACHED = 8192


# A question about the past, or about a change: what used to hold is its answer, not stale evidence.
# Its tense says so, not the asking for a time: "When is parents' evening?" and "How long does the
# build take?" ask about now, and "first" alone is mostly a noun's ("first response time").
_ASKS_PAST = re.compile(
    r"\b(?:did|was|were|had|ever|used to|before|after|previously|formerly|originally|earlier|"
    r"last|until|since|anymore|any more|no longer|still|change[sd]?|moved|history)\b",
    re.IGNORECASE,
)


def asks_past(query: str) -> bool:
    """True for a question about the past or a change ("Did ...", "Has she ever ...", "Where did
    she live before ...", "Does she still ...", "When did ..."), or naming a period of time."""
    return bool(_ASKS_PAST.search(query)) or bool(named_periods(query))


def asks_time(query: str) -> bool:
    """True for a question whose answer is a time or a duration ("When did ...", "How long ...")."""
    return bool(_ASKS_TIME.search(query))


@lru_cache(maxsize=_CACHED)
def says_time(text: str) -> bool:
    """True when ``text`` holds a time phrase the grammar resolves ("last Saturday", "in 2022")."""
    return bool(find_time_expressions(text))


def named_periods(query: str) -> list[str]:
    """The time phrases of a question ("in July 2022", "during the summer"), as written."""
    return [m.time_text for m in find_time_expressions(query) if m.time_text and not m.is_duration]


@lru_cache(maxsize=_CACHED)
def message_times(text: str, told: datetime) -> tuple[TimeSpan, ...]:
    """When a message places what it tells: its time phrases resolved at ``told``, or the day it
    was told when it names no time."""
    spans = [resolve_time(m.time_text, told) for m in find_time_expressions(text) if m.time_text]
    found = tuple(s for s in spans if s is not None)
    return found or (TimeSpan(start=told, end=told + _DAY, granularity="day"),)


def falls_in(periods: list[str], text: str, told: datetime) -> bool:
    """True when the message (told at ``told``) places something in one of the named periods."""
    asked = [s for s in (resolve_time(p, told) for p in periods) if s is not None]
    return any(a.start < m.end and m.start < a.end for a in asked for m in message_times(text, told))
