"""Broad questions about the whole group ("Tell me about people", "What do you know?"): the weightiest
current facts of the memory, for ``ask`` and ``search`` alike.

Who the memory is about is read from who speaks: the people of the latest messages (an assistant is
no one's subject), then those their facts name. Each one's current facts are read by subject, never
the whole group; the weightiest come first (importance, then the newest). A memory told no messages
(facts written with ``add_fact``) or whose speakers hold nothing now is read from a bounded page of
the group's current facts instead (:data:`GROUP_PAGE`), and the weightiest of that page come back.
A person whose every message was withdrawn is simply not among them: the others still are.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from temporal_graph.core import Core
from temporal_graph.core.claims import apply_claims
from temporal_graph.core.identity import speaker_entity
from temporal_graph.core.model import DEFAULT_CLAIMS, Entity, Fact
from temporal_graph.core.stores.protocol import FactQuery

from .asker import RECENT_MESSAGES, is_assistant

PEOPLE = 12  # entities whose facts are read: the speakers first, then those their facts name
PER_PERSON = 50  # current facts read per entity
GROUP_PAGE = 2000  # current facts read when no speaker leads anywhere
BROAD_FACTS = 10  # facts a broad answer states
LABEL = "weightiest current facts of the memory (a broad question)"


def weightiest(facts: list[Fact]) -> list[Fact]:
    """Weightiest first, then newest, then by what they say (the same order in every store and run)."""
    return sorted({f.id: f for f in facts}.values(),
                  key=lambda f: (-f.importance, -f.created_at.timestamp(), f.text, f.id))


def group_facts(core: Core, group_id: str, *, at: datetime, known_at: datetime | None = None,
                claims: str = DEFAULT_CLAIMS, limit: int = BROAD_FACTS) -> list[Fact]:
    """The ``limit`` weightiest facts holding at ``at`` (as believed at ``known_at``) about the
    people of the group."""
    read: list[Fact] = []
    seen: set[str] = set()
    for entity in people(core, group_id, at):
        if entity.id in seen or len(seen) >= PEOPLE:
            continue
        seen.add(entity.id)
        rows = core.store.facts(FactQuery(group_id, subject_id=entity.id, valid_time=at, known_at=known_at,
                                          limit=PER_PERSON))
        read += rows
        if len(seen) < PEOPLE:  # those their facts name come next (a sister, a partner)
            for f in rows:
                if f.object_id not in seen and len(seen) < PEOPLE:
                    seen.add(f.object_id)
                    read += core.store.facts(FactQuery(group_id, subject_id=f.object_id, valid_time=at,
                                                       known_at=known_at, limit=PER_PERSON))
    if not read:
        read = core.store.facts(FactQuery(group_id, valid_time=at, known_at=known_at, limit=GROUP_PAGE))
    shown = apply_claims(core, group_id, read, claims, at=at, known_at=known_at)
    return weightiest(shown)[:limit]


def people(core: Core, group_id: str, at: datetime) -> list[Entity]:
    """The speakers of the latest messages (told by ``at``), the most frequent first."""
    recent = core.store.recent_episodes(group_id, at + timedelta(microseconds=1), RECENT_MESSAGES)
    counts: dict[str, int] = {}
    for e in recent:
        if e.speaker and not is_assistant(e.speaker):
            counts[e.speaker] = counts.get(e.speaker, 0) + 1
    out = []
    for speaker in sorted(counts, key=lambda s: (-counts[s], s)):
        entity = speaker_entity(core.store, group_id, speaker)
        if entity is not None:
            out.append(entity)
    return out
