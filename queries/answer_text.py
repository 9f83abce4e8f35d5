"""Answer wording: dates at the precision they are known, durations, the tense of each fact, and
the sentences of each question kind. Pure functions of facts and times.

Tense. An answer is told at its reference time (the asker's now). A fact that ended by then is
told in the past ("Zhang Wei lived in Hangzhou (2023-01-10 to 2024-03-01)"), whatever the question
asked; one that still holds in the present, and, when the question asked about a time gone by, with
"still" ("Where did Zhang Wei live in June 2023?" -> "Zhang Wei still lives in Hangzhou (since
2023-01-10)"): a past tense would tell the asker it ended, which the memory does not believe. What
the memory believed at an earlier time (``known_at``) is reported in the past, as any belief of
then is ("As the memory believed it on 2024-07-01: Hiro lived in Sapporo (since ...)"). Things done
(visits, births) read in the past in every case.

Precision. A fact may record it (``attributes["valid_at_granularity"]`` / ``["invalid_at_granularity"]``,
the unit of the time phrase it came from); otherwise it is read from the time itself, since the
time parser starts every period at midnight UTC of its first day: 1 January 00:00 -> a year
("2019"), the 1st of a month 00:00 -> a month ("June 2024"), another midnight -> a day
("2024-09-02"). A time with a clock part is the moment the fact was told (a present-tense "I live
in Kyoto" starts when it was said), so it is shown as "by <day>": the start is no later than that.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Literal

from dateutil.relativedelta import relativedelta

from temporal_graph.core.model import Episode, Fact
from temporal_graph.core.names import relation_phrase
from temporal_graph.core.sentences import fact_clause, past_text, still_text

from .plan import Plan

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

def fact_line(f: Fact, words: str | None = None) -> str:
    """``Zhang Wei lives in Shanghai (since 2024-06-01)``; ``words`` in place of the fact's own
    sentence (an answer's, in its tense)."""
    start, end = (t.date().isoformat() if t else None for t in (f.valid_at, f.invalid_at))
    if start and end:
        when = f" ({start} to {end})"
    elif start:
        when = f" (since {start})"
    elif end:
        when = f" (until {end})"
    else:
        when = ""
    text = (words or f.text or f"{f.subject} {relation_phrase(f.relation)} {f.object}").rstrip(". ")
    return f"- {text}{when}{claim_label(f)}"


QUOTED_WORDS = 12  # words of a newer message that an answer or a prompt line quotes


def said_later(e: Episode, excerpt: str) -> str:
    """``by the message of 2024-08-01: "I'm at 61 bpm since …"``: a newer message, by its
    ``excerpt`` (:func:`queries.probable.excerpt`: where it gives its value)."""
    return f'by the message of {e.reference_time.date().isoformat()}: "{excerpt}"'


def claim_label(f: Fact) -> str:
    """`` [claimed by Tom]`` for someone else's word (`` [claimed by Tom; Bob said otherwise]``
    when the subject's own record contradicts it); "" for the subject's own fact."""
    if not f.claimed_by:
        return ""
    otherwise = f"; {f.subject} said otherwise" if f.contradicted else ""
    return f" [claimed by {f.claimed_by}{otherwise}]"



AnswerTense = Literal["present", "past", "still"]
# Kin by birth never "still" holds ("Kenji's brother is still Hiro" says more than it should).
_LIFELONG = frozenset({"HAS_SIBLING", "HAS_PARENT", "HAS_CHILD", "HAS_GRANDPARENT", "HAS_GRANDCHILD",
                       "HAS_COUSIN", "HAS_RELATIVE"})


def fact_words(f: Fact, tense: AnswerTense) -> str:
    """``f`` as a clause in ``tense``: its own sentence where that can be told in it (its details
    kept), else worded from its relation. Present: the sentence as stored."""
    own = (f.text or "").strip().rstrip(". ")

    def worded(tense: Literal["present", "past"]) -> str:
        return fact_clause(f.subject, f.relation, f.object, tense=tense, text=f.text, attributes=f.attributes)

    if tense == "present":
        return own or worded("present")
    if tense == "still":
        told = own or worded("present")
        return still_text(f.subject, told) or told
    if own and (then := past_text(f.subject, own)) is not None and own != worded("present"):
        return then
    return worded("past")


@dataclass(frozen=True)
class Telling:
    """How an answer tells its facts: at ``reference`` (the asker's now), about a time gone by
    (``asked_past``) or not, and whether it reports an earlier belief (``believed``)."""

    reference: datetime
    asked_past: bool = False
    believed: bool = False

    def tense(self, f: Fact) -> AnswerTense:
        if self.believed or (f.invalid_at is not None and f.invalid_at <= self.reference):
            return "past"
        return "still" if self.asked_past and f.relation not in _LIFELONG else "present"

    def path(self) -> Telling:
        """For the facts that led to the answer (a chain's hops): no "still", which is said of answers."""
        return replace(self, asked_past=False)

    def line(self, f: Fact) -> str:
        """``Zhang Wei lived in Hangzhou (2023-01-10 to 2024-03-01)``, claim label included."""
        return fact_line(f, fact_words(f, self.tense(f))).removeprefix("- ")

    def lines(self, facts: Sequence[Fact]) -> str:
        return "; ".join(self.line(f) for f in facts)


def telling(plan: Plan) -> Telling:
    """How the answer to ``plan`` tells its facts: about a time gone by when a question for a
    value ("what", "who") placed one before its reference time."""
    time, reference = plan.time, plan.reference
    if plan.kind not in ("what", "who"):  # when, how long, what changed: the dates say it all
        gone = False
    elif time.kind == "at":
        gone = time.start is not None and time.start < reference
    elif time.kind == "during":
        gone = time.end is not None and time.end <= reference
    else:
        gone = time.kind == "before_change"
    return Telling(reference, asked_past=gone, believed=plan.known_at is not None)
