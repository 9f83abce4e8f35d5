"""The words a fact's time came from: "When did Priya get engaged?" is answered with the date the
memory resolved ("2024-02-13") and the phrase it was resolved from ("last night", in a message of
2024-02-14), not with the time the message was written.

A fact keeps its times, not the phrase; the phrase is found again in the message the fact was
learned from (its first source that the memory still holds): the time phrase of that message that
resolves, against the message's time, to exactly the fact's time.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from temporal_graph.core import Core
from temporal_graph.core.model import Fact
from temporal_graph.core.time import Prefer, find_time_expressions, resolve_time

MAX_SOURCES = 3  # messages of a fact looked at for its phrase
_PREFER: tuple[Prefer, ...] = ("past", "future")


@dataclass(frozen=True)
class Told:
    """A time phrase of a message (``phrase``), the period it names (``granularity``) and when the
    message was written (``told_at``)."""

    phrase: str
    granularity: str
    told_at: datetime


def told_as(core: Core, group_id: str, fact: Fact, moment: datetime) -> Told | None:
    """The phrase of ``fact``'s message that resolves to ``moment`` (when it began or ended), or None."""
    if not fact.episode_ids:
        return None
    for episode in core.store.episodes(group_id, ids=list(fact.episode_ids[:MAX_SOURCES])):
        if not episode.in_recall or not episode.content:
            continue
        for match in find_time_expressions(episode.content):
            text = match.time_text or match.end_time_text
            if not text:
                continue
            for prefer in _PREFER:
                span = resolve_time(text, episode.reference_time, prefer=prefer)
                if span is not None and span.start == moment:
                    return Told(match.text, span.granularity, episode.reference_time)
    return None
