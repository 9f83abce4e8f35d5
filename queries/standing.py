"""Where a message stands: whether what it told the memory still holds.

A message is

- ``current`` when one of the facts it asserted holds (valid at the asked time, believed at
  ``known_at``);
- ``superseded`` when it asserted at least one fact and every one of them has ended or was
  replaced, as known at ``known_at``: "I live in Chicago." once the memory learned of the move to
  Denver. ``replaced_by`` names the facts that hold now for what it spoke of;
- ``unparsed`` when it gave no fact (known at ``known_at``): small talk, or a statement the
  extractor could not read. Nothing says it is out of date, so it is never hidden.

Read for the messages a search found, through the store's provenance index: one read for all of
them, then one per (subject, relation) a superseded message spoke of.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime

from pydantic import BaseModel, ConfigDict

from temporal_graph.core import Core
from temporal_graph.core.model import Episode, Fact, Standing
from temporal_graph.core.stores.protocol import FactQuery

__all__ = ["MessageStanding", "standings"]


class MessageStanding(BaseModel):
    model_config = ConfigDict(frozen=True)

    standing: Standing
    replaced_by: tuple[str, ...] = ()  # row ids of the facts holding for what it spoke of


def standings(
    core: Core, group_id: str, episodes: Iterable[Episode], *, valid_time: datetime | None,
    known_at: datetime | None,
) -> dict[str, MessageStanding]:
    """Each message's standing at ``valid_time`` (None: any valid time counts) as known at
    ``known_at`` (None: the current belief), by episode id."""
    ids = list(dict.fromkeys(e.id for e in episodes))
    if not ids:
        return {}
    told: dict[str, list[Fact]] = {i: [] for i in ids}
    for f in core.store.facts_citing(group_id, ids):
        if known_at is None or f.created_at <= known_at:
            for i in f.episode_ids:
                if i in told:
                    told[i].append(f)
    out: dict[str, MessageStanding] = {}
    replacements: dict[tuple[str, str], tuple[str, ...]] = {}
    for i, rows in told.items():
        if not rows:
            out[i] = MessageStanding(standing="unparsed")
        elif any(_holds(f, valid_time, known_at) for f in rows):
            out[i] = MessageStanding(standing="current")
        else:
            keys = dict.fromkeys((f.subject_id, f.relation) for f in rows)
            for key in keys:
                if key not in replacements:
                    replacements[key] = _holding(core, group_id, key, valid_time, known_at)
            replaced = dict.fromkeys(r for key in keys for r in replacements[key])
            out[i] = MessageStanding(standing="superseded", replaced_by=tuple(replaced))
    return out


def _holds(f: Fact, valid_time: datetime | None, known_at: datetime | None) -> bool:
    believed = f.expired_at is None if known_at is None else f.known_at(known_at)
    return believed and (valid_time is None or f.valid_at_time(valid_time))


def _holding(core: Core, group_id: str, key: tuple[str, str], valid_time: datetime | None,
             known_at: datetime | None) -> tuple[str, ...]:
    subject_id, relation = key
    rows = core.store.facts(FactQuery(group_id, subject_id=subject_id, relation=relation,
                                      valid_time=valid_time, known_at=known_at))
    return tuple(f.id for f in sorted(rows, key=lambda f: (f.created_at, f.id)))
