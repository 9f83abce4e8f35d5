"""A fact row's provenance as it was known at a transaction time.

A message that says a fact again confirms the row already holding it: its id is appended to the
row's ``episode_ids`` in place, with no new version (a fact told a hundred times stays one row).
So a row believed at transaction time K may list messages recorded after K. A read as known at K
cuts each row's citations to the messages recorded by K: a message is known from its own
``created_at``. A row written later than a message it cites (a new version inheriting the
citations of the row it revises) is only seen at or after its own ``created_at``, so every
citation it was written with is known whenever the row is.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime

from .model import Fact

__all__ = ["cited_as_known_at", "citing"]


def citing(facts: Sequence[Fact]) -> list[str]:
    """The ids of the messages ``facts`` cite, each once."""
    return list(dict.fromkeys(e for f in facts for e in f.episode_ids))


def cited_as_known_at(
    facts: Sequence[Fact], recorded: Mapping[str, datetime], known_at: datetime
) -> list[Fact]:
    """``facts`` with each one's ``episode_ids`` cut to the messages ``recorded`` (id -> the
    transaction time it was recorded at) by ``known_at``. An id that names no recorded message
    (``add_fact(episode_id=...)`` may name a record of the caller's own) has no time of its own:
    it counts from the row's."""
    out = []
    for f in facts:
        kept = tuple(e for e in f.episode_ids if recorded.get(e, f.created_at) <= known_at)
        out.append(f if kept == f.episode_ids else f.model_copy(update={"episode_ids": kept}))
    return out
