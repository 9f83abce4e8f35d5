"""Where a message stands: whether the memory still believes what it said.

A message is

- ``current`` when something it stated still holds as it said it: a fact it asserted is valid at
  the asked time (believed at ``known_at``), or it told a bounded past ("I worked at Initech
  from 2019 to 2021", "I went to Paris last week") that the memory still believes;
- ``superseded`` when it asserted at least one fact and none holds as it said: what it stated
  as open was ended or replaced by what the memory learned since ("I live in Chicago." once the
  move to Denver was told, in either order), or withdrawn. ``replaced_by`` names the facts that
  hold now for what it spoke of;
- ``unparsed`` when it gave no fact (known at ``known_at``): small talk, or a statement the
  extractor could not read. Nothing says it is out of date, so it is never hidden.

Read for the messages a search found, through the store's indexes: their statements and the
fact versions citing them (one read each for all of them), then one read per (subject,
relation) a superseded message spoke of.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime

from pydantic import BaseModel, ConfigDict

from temporal_graph.core import Core
from temporal_graph.core.model import Assertion, Episode, Fact, Standing
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
    recorded = (lambda t: True) if known_at is None else (lambda t: t <= known_at)
    said: dict[str, list[Assertion]] = {i: [] for i in ids}
    for a in core.store.statements_of(group_id, ids):
        if a.episode_id in said and a.kind in ("start", "end") and recorded(a.created_at):
            said[a.episode_id].append(a)
    rows: dict[str, list[Fact]] = {i: [] for i in ids}
    for f in core.store.facts_citing(group_id, ids):
        if recorded(f.created_at) and (f.expired_at is None if known_at is None else f.known_at(known_at)):
            for i in f.episode_ids:
                if i in rows:
                    rows[i].append(f)
    out: dict[str, MessageStanding] = {}
    replacements: dict[tuple[str, str], tuple[str, ...]] = {}
    for i in ids:
        if not said[i] and not rows[i]:
            out[i] = MessageStanding(standing="unparsed")
        elif _still_holds(said[i], rows[i], valid_time):
            out[i] = MessageStanding(standing="current")
        else:
            keys = dict.fromkeys([*((a.subject_id, a.relation) for a in said[i]),
                                  *((f.subject_id, f.relation) for f in rows[i])])
            for key in keys:
                if key not in replacements:
                    replacements[key] = _holding(core, group_id, key, valid_time, known_at)
            replaced = dict.fromkeys(r for key in keys for r in replacements[key])
            out[i] = MessageStanding(standing="superseded", replaced_by=tuple(replaced))
    return out


def _still_holds(said: list[Assertion], believed: list[Fact], valid_time: datetime | None) -> bool:
    """One statement holds as said: a believed row of its fact is valid at ``valid_time`` (any
    time when None), or the statement bounded its own fact and a believed row of it remains.
    A message that only ended something ("I left Initech") told what still holds: the end."""
    starts = [a for a in said if a.kind == "start"]
    if not starts:
        return True
    for a in starts:
        same = [f for f in believed if (f.subject_id, f.relation, f.object_id) == (a.subject_id, a.relation,
                                                                                  a.object_id)]
        if any(valid_time is None or f.valid_at_time(valid_time) for f in same):
            return True
        if a.until is not None and same:
            return True
    return False


def _holding(core: Core, group_id: str, key: tuple[str, str], valid_time: datetime | None,
             known_at: datetime | None) -> tuple[str, ...]:
    subject_id, relation = key
    rows = core.store.facts(FactQuery(group_id, subject_id=subject_id, relation=relation,
                                      valid_time=valid_time, known_at=known_at))
    return tuple(f.id for f in sorted(rows, key=lambda f: (f.created_at, f.id)))
