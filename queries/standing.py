"""Where a message stands: whether the memory still believes what it said.

A message is

- ``superseded`` when a later message of one of its keys holds in its place, when a message the
  caller said replaces it was told by then (``supersede``), or when it asserted facts and none
  holds as it said them: what it stated as open was ended or replaced by what the memory learned
  since ("I live in Chicago." once the move to Denver was told, in either order), or withdrawn,
  and it said nothing else.
  ``superseded_by`` names the messages that replaced it, ``replaced_by`` the facts that hold now
  instead (of a relation with one object at a time: another like does not replace one that ended);
- ``partly_superseded`` when some of its facts hold and others ended or were replaced ("Rafa is a
  nurse at St Mary's" after the move to King's: the nurse part holds), or when all did but it has a
  part no fact read from it covers (:mod:`temporal_graph.core.unread`: "Ms. Varga is our landlord;
  rent is €950" once the rent went up, when only the rent was read). ``stale`` says which of its
  statements no longer hold, ``replaced_by`` what holds instead;
- ``current`` when what it said still holds: every fact it asserted is valid at the asked time
  (believed at ``known_at``), or it told a bounded past ("I worked at Initech from 2019 to 2021")
  that the memory still believes, or it holds its key's timeline;
- ``possibly_superseded``: set by search (:mod:`queries.probable`), never here;
- ``unparsed`` when it gave no fact (known at ``known_at``) and carries no key: small talk, or a
  statement the extractor could not read. Nothing says it is out of date, so it is never hidden.

A message ``retract_entity`` took out of reads is ``withdrawn``: reads leave it out altogether.

Read for the messages a search found, through the store's indexes: their statements, the fact
versions citing them and their topics (one read each for all of them, the three at once), the
timelines of their keys (one read), then what holds of each (subject, relation) they spoke of (one
read each, all at once), and one of the names its statements are about when every fact of a
message went stale.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime
from functools import partial

from pydantic import BaseModel, ConfigDict

from temporal_graph.core import Core
from temporal_graph.core.message_links import (
    KEY_RELATION,
    LINK_RELATIONS,
    believed,
    key_subject,
    key_successors,
    place,
    topic_states,
)
from temporal_graph.core.model import Assertion, Episode, Fact, Standing
from temporal_graph.core.stores.protocol import FactQuery
from temporal_graph.core.unread import unread_parts

__all__ = ["MessageStanding", "standings"]

class MessageStanding(BaseModel):
    model_config = ConfigDict(frozen=True)

    standing: Standing
    replaced_by: tuple[str, ...] = ()  # row ids of the facts holding for what it spoke of
    superseded_by: tuple[str, ...] = ()  # ids of the messages that replaced it
    stale: tuple[str, ...] = ()  # its statements that no longer hold, as sentences (partly superseded)
    withdrawn: bool = False  # retract_entity took it out of reads


def standings(
    core: Core, group_id: str, episodes: Iterable[Episode], *, valid_time: datetime | None,
    known_at: datetime | None,
) -> dict[str, MessageStanding]:
    """Each message's standing at ``valid_time`` (None: any valid time counts) as known at
    ``known_at`` (None: the current belief), by episode id."""
    by_id = {e.id: e for e in episodes}
    ids = list(by_id)
    if not ids:
        return {}
    # Three reads that do not depend on each other: a server store runs them at once.
    statements, citing, topics = core.store.at_once([
        partial(core.store.statements_of, group_id, ids),
        partial(core.store.facts_citing, group_id, ids),
        partial(topic_states, core.store, group_id, ids, known_at),
    ])
    told = believed(statements, known_at)
    said: dict[str, list[Assertion]] = {i: [] for i in ids}
    links: dict[str, list[Assertion]] = {i: [] for i in ids}
    for a in told:
        if a.episode_id in said:
            if a.relation in LINK_RELATIONS:
                links[a.episode_id].append(a)
            elif a.kind in ("start", "end"):
                said[a.episode_id].append(a)
    rows: dict[str, list[Fact]] = {i: [] for i in ids}
    for f in citing:
        if (known_at is None or f.created_at <= known_at) and (
                f.expired_at is None if known_at is None else f.known_at(known_at)):
            for i in f.episode_ids:
                if i in rows:
                    rows[i].append(f)
    by_key = _key_successors(core, group_id, links, valid_time, known_at)
    out: dict[str, MessageStanding] = {}
    # What holds now for each (subject, relation) the messages spoke of, read at once. Only a
    # relation of one object at a time has what holds *instead*: another like or visit does not
    # replace the one that ended.
    spoken = dict.fromkeys([*((f.subject_id, f.relation) for i in ids for f in rows[i]),
                            *((a.subject_id, a.relation) for i in ids for a in said[i] if a.kind == "start")])
    ones = [key for key in spoken if core.ontology.cardinality(key[1]) == "one"]
    holding: dict[tuple[str, str], tuple[str, ...]] = dict.fromkeys(spoken, ())
    holding.update(zip(ones, core.store.at_once(
        [partial(_holding, core, group_id, key, valid_time, known_at) for key in ones]), strict=True))
    wholly: dict[str, MessageStanding] = {}  # every fact read from it is stale: unless it says more
    for i in ids:
        topic = topics[i]
        if topic.withdrawn_for:
            out[i] = MessageStanding(standing="superseded", withdrawn=True)
            continue
        replaced_by = tuple(dict.fromkeys(r for f in rows[i] for r in holding[f.subject_id, f.relation]))
        successors = topic.superseders(valid_time)
        if successors:
            out[i] = MessageStanding(standing="superseded", superseded_by=successors,
                                     replaced_by=replaced_by)
            continue
        if by_key.get(i):
            out[i] = MessageStanding(standing="superseded", superseded_by=by_key[i],
                                     replaced_by=replaced_by)
            continue
        if not said[i] and not rows[i]:
            out[i] = MessageStanding(standing="current" if links[i] else "unparsed")
            continue
        # Replaced by the caller after the asked time: what the replacement retracted (a value it
        # was to give later) did not make it stale before then.
        replaced_later = valid_time is not None and any(at is not None and at > valid_time
                                                        for at, _ in topic.superseded)
        stale = [a for a in said[i] if a.kind == "start" and not _holds(a, rows[i], valid_time)
                 and not (replaced_later and not _told_rows(a, rows[i]))]
        starts = [a for a in said[i] if a.kind == "start"]
        if not stale:
            out[i] = MessageStanding(standing="current")
            continue
        keys = dict.fromkeys((a.subject_id, a.relation) for a in stale)
        replaced = tuple(dict.fromkeys(r for key in keys for r in holding[key]))
        texts = tuple(dict.fromkeys(a.text for a in stale if a.text))
        out[i] = MessageStanding(standing="partly_superseded", replaced_by=replaced, stale=texts)
        if len(stale) == len(starts) and not links[i]:
            wholly[i] = out[i]
    for i in _saying_more(core, group_id, {i: by_id[i] for i in wholly}, said):
        del wholly[i]
    out.update((i, s.model_copy(update={"standing": "superseded", "stale": ()})) for i, s in wholly.items())
    return out


def _saying_more(core: Core, group_id: str, episodes: dict[str, Episode],
                 said: dict[str, list[Assertion]]) -> list[str]:
    """Those of ``episodes`` with a part no statement read from them covers ("... and plays the
    cello" when only where Rafa lives was read): what was not read may still hold, so the message
    is partly superseded, not wholly. One read of the names of whom and what the statements are
    about, for all of them."""
    if not episodes:
        return []
    ids = {x for i in episodes for a in said[i] for x in (a.subject_id, a.object_id) if x}
    named = {e.id: e for e in core.store.entities(group_id, ids=list(ids))}
    out = []
    for i, episode in episodes.items():
        read = [a.text for a in said[i]]
        read += [f"{a.relation.replace('_', ' ')} {named[a.object_id].name}" for a in said[i]
                 if a.object_id in named]
        about = [n for a in said[i] if a.subject_id in named
                 for n in (named[a.subject_id].name, *named[a.subject_id].aliases)]
        if unread_parts(episode.content, read, about):
            out.append(i)
    return out


def _told_rows(a: Assertion, believed_rows: list[Fact]) -> list[Fact]:
    """The believed rows of the fact the start ``a`` told."""
    return [f for f in believed_rows if (f.subject_id, f.relation, f.object_id) == (a.subject_id, a.relation,
                                                                                  a.object_id)]


def _holds(a: Assertion, believed_rows: list[Fact], valid_time: datetime | None) -> bool:
    """The start ``a`` holds as said: a believed row of its fact is valid at ``valid_time`` (any
    time when None), or the statement bounded its own fact and a believed row of it remains."""
    same = _told_rows(a, believed_rows)
    if any(valid_time is None or f.valid_at_time(valid_time) for f in same):
        return True
    if valid_time is not None and any(f.valid_at is not None and valid_time < f.valid_at for f in same):
        return True  # not begun yet at the asked time ("the wedding is on 14 September"): nothing replaced it
    return a.until is not None and bool(same)


def _key_successors(
    core: Core, group_id: str, links: dict[str, list[Assertion]], valid_time: datetime | None,
    known_at: datetime | None,
) -> dict[str, tuple[str, ...]]:
    """For each message with keys, the messages that replaced it on one of its keys' timelines by
    ``valid_time``, as believed at ``known_at``."""
    keys = {i: list(dict.fromkeys(str(a.attributes.get("key", a.text)) for a in told
                                  if a.relation == KEY_RELATION and a.kind == "start"))
            for i, told in links.items()}
    subjects = {key_subject(group_id, k): k for ks in keys.values() for k in ks}
    if not subjects or valid_time is None:
        return {}
    timelines: dict[str, list[Assertion]] = {k: [] for k in subjects.values()}
    for a in believed(core.store.assertions_about(group_id, list(subjects), KEY_RELATION), known_at):
        timelines[subjects[a.subject_id]].append(a)
    out: dict[str, tuple[str, ...]] = {}
    for i, ks in keys.items():
        found: list[str] = []
        for k in ks:
            placed = place(i, timelines[k])
            if placed is not None:
                found += key_successors(placed, valid_time)
        if found:
            out[i] = tuple(dict.fromkeys(found))
    return out


def _holding(core: Core, group_id: str, key: tuple[str, str], valid_time: datetime | None,
             known_at: datetime | None) -> tuple[str, ...]:
    subject_id, relation = key
    rows = core.store.facts(FactQuery(group_id, subject_id=subject_id, relation=relation,
                                      valid_time=valid_time, known_at=known_at))
    return tuple(f.id for f in sorted(rows, key=lambda f: (f.created_at, f.id)))

