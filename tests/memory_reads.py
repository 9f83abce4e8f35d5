"""What the offline extraction tests tell a memory and read back from it, as a user would: messages
told as (day, speaker, text), and the objects ``now``, ``as_of`` and ``history`` give (nothing,
rather than an error, for a subject the memory never heard of)."""

from __future__ import annotations

from temporal_graph import TemporalGraph
from temporal_graph.errors import NotFound


def told(tg: TemporalGraph, *messages: tuple[str, str, str]) -> None:
    for when, speaker, text in messages:
        tg.add_episode(text, reference_time=when, speaker=speaker)


def now(tg: TemporalGraph, subject: str, relation: str) -> list[str]:
    try:
        return sorted(f.object for f in tg.now(subject, relation))
    except NotFound:
        return []


def then(tg: TemporalGraph, at: str, subject: str, relation: str) -> list[str]:
    try:
        return sorted(f.object for f in tg.as_of(at, subject=subject, relation=relation))
    except NotFound:
        return []


def relations(tg: TemporalGraph, subject: str) -> set[tuple[str, str]]:
    try:
        return {(f.relation, f.object) for f in tg.history(subject)}
    except NotFound:
        return set()


def stretches(tg: TemporalGraph, subject: str, relation: str) -> list[tuple[str, str, str]]:
    """(object, start day or "", end day or "") of each stretch, as currently believed."""
    try:
        facts = tg.history(subject, relation)
    except NotFound:
        return []
    return [(f.object, f.valid_at.date().isoformat() if f.valid_at else "",
             f.invalid_at.date().isoformat() if f.invalid_at else "") for f in facts]
