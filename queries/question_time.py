"""The time a question asks about, read from its words and resolved against a reference time.

"now"/"currently" or the present tense -> now; "in 2019", "in May 2023", "last summer", "two years
ago" -> that period (any fact overlapping it); "since 2023" -> from then to the reference time;
"before she moved" -> just before the latest change of where she lives ("after …" -> from it); a past
tense with no time -> the whole history. "as known on DATE" (or "what did the memory believe … on
DATE") also sets the transaction time the answer is read at. Phrases are resolved by the
time-expression parser of ``ingestion`` (one parser for both sides).
"""

from __future__ import annotations

import calendar
import re
from dataclasses import dataclass
from datetime import datetime, timedelta

from temporal_graph.core.model import TimeKind
from temporal_graph.core.timeexpr import resolve_time

EPSILON = timedelta(microseconds=1)

# "before she moved": which change anchors the time, by verb.
CHANGE_VERBS: list[tuple[re.Pattern[str], str]] = [
    (re.compile(r"moved|relocated|moving|move"), "LIVES_IN"),
    (
        re.compile(
            r"(?:changed|switched|changing|switching|new) jobs?|quit"
            r"|started (?:a |her |his |their )?(?:new )?job"
        ),
        "WORKS_AT",
    ),
    (re.compile(r"married|wedding"), "MARRIED_TO"),
]
_PAST = re.compile(
    r"\b(?:did|was|were|used to|had|previously|formerly|before|ever)\b"
    r"|\bha(?:s|ve) (?:\w+ ){0,3}(?:lived|worked|been|studied|visited|owned|liked)\b",
    re.IGNORECASE,
)
_NOW = re.compile(r"\b(?:now|currently|nowadays|these days|at the moment|at present|today)\b", re.IGNORECASE)

_MONTH_NAMES = {m.lower(): i for i, m in enumerate(calendar.month_name) if m}
_MONTH_NAMES.update({m.lower(): i for i, m in enumerate(calendar.month_abbr) if m})
_MONTH = r"(?:" + "|".join(sorted(_MONTH_NAMES, key=len, reverse=True)) + r")\.?"
_DATE = (
    rf"(?:\d{{1,2}}(?:st|nd|rd|th)?\s+{_MONTH},?\s+\d{{4}}|{_MONTH}\s+\d{{1,2}}(?:st|nd|rd|th)?,?\s+\d{{4}}"
    rf"|{_MONTH},?\s+\d{{4}}|\d{{4}}-\d{{2}}(?:-\d{{2}})?|\d{{4}}|{_MONTH})"
)
_NUMBER_WORDS = ("a", "an", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten")
_RELATIVE_TEXT = (
    rf"(?:(?:last|this|next|past) (?:year|month|week|summer|winter|spring|autumn|fall|{_MONTH})"
    rf"|(?:\d+|{'|'.join(_NUMBER_WORDS)}) (?:years?|months?|weeks?|days?) ago|yesterday)"
)
_RELATIVE = re.compile(rf"\b{_RELATIVE_TEXT}\b", re.IGNORECASE)
_ABSOLUTE = re.compile(
    rf"\b(?:in|during|on|as of|at|around|by|back in)\s+(?:early |late |mid[- ])?({_DATE})\b", re.IGNORECASE
)
_BEFORE_DATE = re.compile(rf"\bbefore\s+({_DATE})\b", re.IGNORECASE)
_SINCE_DATE = re.compile(rf"\bsince\s+((?:early |late |mid[- ])?{_DATE}|{_RELATIVE_TEXT})\b", re.IGNORECASE)
_CHANGE = re.compile(
    r"\b(before|after|since)\s+(?:[\w'-]+\s+){0,3}?("
    + "|".join(p.pattern for p, _ in CHANGE_VERBS)
    + r")\b",
    re.IGNORECASE,
)
# "…, as known on 1 May 2024?" / "as the memory knew it in 2023" / "according to the memory on …"
_KNOWN_AT = re.compile(
    rf",?\s*\b(?:as (?:known|believed|recorded|the memory (?:knew|believed) it)|according to (?:the )?memory)"
    rf"\s+(?:on|in|at|by|as of)\s+({_DATE})\b",
    re.IGNORECASE,
)
# "What did the memory believe about Kenji on 2024-01-01?": the date is valid and known time alike.
_BELIEVED = re.compile(
    rf"\b(?:memory|you)\s+(?:believe|believed|think|thought|know|knew)\b"
    rf".*?(\b(?:on|in|at|as of)\s+({_DATE}))\b",
    re.IGNORECASE,
)


@dataclass
class TimeSpec:
    kind: TimeKind
    start: datetime | None = None  # "at": the moment; "during": [start, end)
    end: datetime | None = None
    text: str = ""  # the phrase, for the answer
    change_relation: str | None = None


def resolve_phrase(phrase: str, reference: datetime) -> tuple[datetime, datetime] | None:
    """[start, end) of a time phrase, by the same deterministic parser ingestion uses."""
    span = resolve_time(phrase, reference)
    return (span.start, span.end) if span is not None and span.end > span.start else None


def known_time(question: str, reference: datetime) -> tuple[datetime, str, str] | None:
    """(moment, phrase, question without the phrase) when the question asks what was known at a
    date: the end of the named period, so everything recorded on that day counts."""
    match = _KNOWN_AT.search(question)
    if match:
        span = resolve_phrase(match.group(1), reference)
        if span is not None:
            rest = question[: match.start()] + question[match.end():]
            return span[1] - EPSILON, match.group(0).strip(" ,"), rest
    match = _BELIEVED.search(question)
    if match:
        span = resolve_phrase(match.group(2), reference)
        if span is not None:
            return span[1] - EPSILON, match.group(1), question
    return None


def question_time(question: str, reference: datetime) -> TimeSpec:
    """The time a question asks about, resolved against ``reference``."""
    q = question.strip()
    change = _CHANGE.search(q)
    if change:
        for pattern, relation in CHANGE_VERBS:
            if pattern.fullmatch(change.group(2).lower()):
                kind: TimeKind = "before_change" if change.group(1).lower() == "before" else "after_change"
                return TimeSpec(kind, text=change.group(0), change_relation=relation)
    since = _SINCE_DATE.search(q)
    if since:
        span = resolve_phrase(since.group(1), reference)
        if span is not None and span[0] < reference:
            return TimeSpec("during", start=span[0], end=reference, text=since.group(0))
    before = _BEFORE_DATE.search(q)
    if before:
        span = resolve_phrase(before.group(1), reference)
        if span is not None:
            return TimeSpec("at", start=span[0] - EPSILON, text=before.group(0))
    relative = _RELATIVE.search(q)
    if relative:
        span = resolve_phrase(relative.group(0), reference)
        if span is not None:
            return TimeSpec("during", start=span[0], end=span[1], text=relative.group(0))
    absolute = _ABSOLUTE.search(q)
    if absolute:
        span = resolve_phrase(absolute.group(1), reference)
        if span is not None:
            return TimeSpec("during", start=span[0], end=span[1], text=absolute.group(0))
    if _NOW.search(q):
        return TimeSpec("at", start=reference, text="now")
    if _PAST.search(q):
        return TimeSpec("ever", text="")
    return TimeSpec("at", start=reference, text="now")


def is_now(time: TimeSpec) -> bool:
    return time.kind == "at" and time.text == "now"
