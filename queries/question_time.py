"""The time a question asks about, read from its words and resolved against a reference time.

"now"/"currently" or the present tense -> now; "in 2019", "in May 2023", "last summer", "two years
ago" -> that period (any fact overlapping it); "since 2023" -> from then to the reference time;
"before she moved" -> just before the latest change of where she lives ("after …" -> from it); a past
tense with no time -> the whole history. "as known on DATE" (or "what did the memory believe … on
DATE") also sets the transaction time the answer is read at.

Only the words around a time phrase are read here ("since", "before", "as known on"). The phrases
themselves are written in the shared vocabulary and resolved by the one phrase grammar of
:mod:`temporal_graph.core.time`, which reads messages too.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime

from temporal_graph.core.errors import InvalidInput
from temporal_graph.core.model import QuestionPlan, TimeKind
from temporal_graph.core.names import normalize_relation
from temporal_graph.core.time import resolve_range
from temporal_graph.core.time.vocabulary import MON, NUM, SEASON, UNIT

from .plan import EPSILON, TimeSpec

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

# A date as questions name one: with its year, an ISO date, a year, or a bare month.
_DATE = (
    rf"(?:\d{{1,2}}(?:st|nd|rd|th)?\s+{MON},?\s+\d{{4}}|{MON}\s+\d{{1,2}}(?:st|nd|rd|th)?,?\s+\d{{4}}"
    rf"|{MON},?\s+\d{{4}}|\d{{4}}-\d{{2}}(?:-\d{{2}})?|\d{{4}}|{MON})"
)
_RELATIVE_TEXT = rf"(?:(?:last|this|next|past) (?:year|month|week|{SEASON}|{MON})|{NUM} {UNIT} ago|yesterday)"
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
_LEADING_WORD = re.compile(r"^(?:in|during|on|as of|at|around|by|since)\s+", re.IGNORECASE)


@dataclass(frozen=True)
class KnownTime:
    """The transaction time a question asks to read at ("as known on 1 May 2024")."""

    moment: datetime  # the end of the named period, so everything recorded on that day counts
    text: str  # the phrase, for the answer
    rest: str  # the question without the phrase (the question itself when the date is also valid time)


def known_time(question: str, reference: datetime) -> KnownTime | None:
    """The transaction time when the question asks what was known at a date, else ``None``."""
    match = _KNOWN_AT.search(question)
    if match:
        span = resolve_range(match.group(1), reference)
        if span is not None:
            rest = question[: match.start()] + question[match.end():]
            return KnownTime(span[1] - EPSILON, match.group(0).strip(" ,"), rest)
    match = _BELIEVED.search(question)
    if match:
        span = resolve_range(match.group(2), reference)
        if span is not None:
            return KnownTime(span[1] - EPSILON, match.group(1), question)
    return None


def question_time(question: str, reference: datetime) -> TimeSpec:
    """The valid time a question asks about, resolved against ``reference``."""
    q = question.strip()
    change = _CHANGE.search(q)
    if change:
        for pattern, relation in CHANGE_VERBS:
            if pattern.fullmatch(change.group(2).lower()):
                kind: TimeKind = "before_change" if change.group(1).lower() == "before" else "after_change"
                return TimeSpec(kind, text=change.group(0), change_relation=relation)
    since = _SINCE_DATE.search(q)
    if since:
        span = resolve_range(since.group(1), reference)
        if span is not None and span[0] < reference:
            return TimeSpec("during", start=span[0], end=reference, text=since.group(0))
    before = _BEFORE_DATE.search(q)
    if before:
        span = resolve_range(before.group(1), reference)
        if span is not None:
            return TimeSpec("at", start=span[0] - EPSILON, text=before.group(0), before=True)
    relative = _RELATIVE.search(q)
    if relative:
        span = resolve_range(relative.group(0), reference)
        if span is not None:
            return TimeSpec("during", start=span[0], end=span[1], text=relative.group(0))
    absolute = _ABSOLUTE.search(q)
    if absolute:
        span = resolve_range(absolute.group(1), reference)
        if span is not None:
            return TimeSpec("during", start=span[0], end=span[1], text=absolute.group(0))
    if _NOW.search(q):
        return TimeSpec.now(reference)
    if _PAST.search(q):
        return TimeSpec("ever", text="")
    return TimeSpec.now(reference)


def planned_time(plan: QuestionPlan, reference: datetime) -> TimeSpec | None:
    """The valid time of a plan an LLM filled, its phrase resolved as a question's would be;
    ``None`` when it cannot be read (the rules' time is used then)."""
    if plan.time == "now":
        return TimeSpec.now(reference)
    if plan.time == "ever":
        return TimeSpec("ever")
    if plan.time in ("before_change", "after_change"):
        try:
            relation = normalize_relation(plan.change_relation or "LIVES_IN")
        except InvalidInput:
            return None
        return TimeSpec(plan.time, change_relation=relation, text=plan.time_text or "")
    if plan.time_text:
        since = re.match(r"^\s*since\s+", plan.time_text, flags=re.IGNORECASE)
        span = resolve_range(_LEADING_WORD.sub("", plan.time_text.strip()), reference)
        if span is not None:
            if since:
                return TimeSpec("during", start=span[0], end=reference, text=plan.time_text)
            if plan.time == "at":
                return TimeSpec("at", start=span[0], text=plan.time_text)
            return TimeSpec("during", start=span[0], end=span[1], text=plan.time_text)
    return None
