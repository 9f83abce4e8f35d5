"""One group of the memory as the property graph the Cypher console explores, read through the
store protocol, so any store can be explored the way the Neo4j store lays out its data
(``temporal_graph/core/stores/neo4j.py``):

- ``(:Entity:<Type> {id, group_id, key, name, type, aliases, summary, created_at})``;
- ``(:Episode {id, group_id, content, speaker, source, source_id, reference_time, created_at})``;
- one relationship per fact version, typed by its relation, every version across transaction
  time (expired rows included): ``(s:Entity)-[:LIVES_IN {id, fact_id, ...}]->(o:Entity)``;
- ``(:Episode)-[:MENTIONS]->(:Entity)`` for the subject and object of each fact an episode supports.

Nothing here knows an engine: the engines load a :class:`GroupGraph` and answer with the values
of this module (:class:`GraphNode`, :class:`GraphRelationship`), which the console prints.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from ...core.model import Entity, Episode, Fact
from ...core.names import name_key
from ...core.stores.neo4j import entity_label
from ...core.stores.protocol import FactQuery, Store

ENTITY, EPISODE, MENTIONS = "Entity", "Episode", "MENTIONS"
NODE_LABELS = (ENTITY, EPISODE)

# The kind of every property, so an engine can declare typed tables. Kinds: "string", "strings"
# (a list of strings), "time" (an aware UTC datetime), "float", "int".
ENTITY_PROPERTIES: dict[str, str] = {
    "id": "string", "group_id": "string", "key": "string", "name": "string", "type": "string",
    "aliases": "strings", "summary": "string", "created_at": "time",
}
EPISODE_PROPERTIES: dict[str, str] = {
    "id": "string", "group_id": "string", "content": "string", "speaker": "string", "source": "string",
    "source_id": "string", "reference_time": "time", "created_at": "time",
}
FACT_PROPERTIES: dict[str, str] = {
    "id": "string", "fact_id": "string", "group_id": "string", "relation": "string", "text": "string",
    "valid_at": "time", "invalid_at": "time", "created_at": "time", "expired_at": "time",
    "episode_ids": "strings", "confidence": "float", "importance": "int", "claimed_by": "string",
    "attributes_json": "string",
}


@dataclass(frozen=True)
class GraphNode:
    """A node in a result: its labels and properties (absent properties are left out)."""

    labels: tuple[str, ...]
    properties: Mapping[str, Any]


@dataclass(frozen=True)
class GraphRelationship:
    """A relationship in a result: its type and properties."""

    type: str
    properties: Mapping[str, Any]


@dataclass(frozen=True)
class GraphPath:
    """A path in a result: its nodes and the relationships between them, in order."""

    nodes: tuple[GraphNode, ...]
    relationships: tuple[GraphRelationship, ...]


@dataclass
class FactEdge:
    """One fact row as a relationship: ``start`` and ``end`` are entity ids."""

    start: str
    end: str
    properties: dict[str, Any]


@dataclass
class GroupGraph:
    """Everything of one group as nodes and relationships, ready for an engine to load."""

    group_id: str
    entities: list[dict[str, Any]] = field(default_factory=list)
    entity_labels: list[tuple[str, ...]] = field(default_factory=list)  # parallel to ``entities``
    episodes: list[dict[str, Any]] = field(default_factory=list)
    facts: dict[str, list[FactEdge]] = field(default_factory=dict)  # by relationship type
    mentions: list[tuple[str, str]] = field(default_factory=list)  # (episode id, entity id)

    @property
    def fact_rows(self) -> int:
        return sum(len(rows) for rows in self.facts.values())


def labels_of(entity: Entity) -> tuple[str, ...]:
    """``("Entity", "Person")``: the table label and, when the type makes one, the type label."""
    label = entity_label(entity.type)
    return (ENTITY, label) if label else (ENTITY,)


def entity_properties(entity: Entity) -> dict[str, Any]:
    return {"id": entity.id, "group_id": entity.group_id, "key": name_key(entity.name), "name": entity.name,
            "type": entity.type, "aliases": list(entity.aliases), "summary": entity.summary,
            "created_at": entity.created_at}


def episode_properties(episode: Episode) -> dict[str, Any]:
    return {"id": episode.id, "group_id": episode.group_id, "content": episode.content,
            "speaker": episode.speaker, "source": episode.source, "source_id": episode.source_id,
            "reference_time": episode.reference_time, "created_at": episode.created_at}


def fact_properties(fact: Fact) -> dict[str, Any]:
    return {"id": fact.id, "fact_id": fact.fact_id, "group_id": fact.group_id, "relation": fact.relation,
            "text": fact.text, "valid_at": fact.valid_at, "invalid_at": fact.invalid_at,
            "created_at": fact.created_at, "expired_at": fact.expired_at,
            "episode_ids": list(dict.fromkeys(fact.episode_ids)), "confidence": fact.confidence,
            "importance": fact.importance, "claimed_by": fact.claimed_by,
            "attributes_json": json.dumps(fact.attributes, sort_keys=True) if fact.attributes else "{}"}


def read_group(store: Store, group_id: str) -> GroupGraph:
    """The whole group, every fact version included, as a :class:`GroupGraph`."""
    graph = GroupGraph(group_id)
    entities = store.entities(group_id)
    graph.entities = [entity_properties(e) for e in entities]
    graph.entity_labels = [labels_of(e) for e in entities]
    episodes = store.episodes(group_id)
    graph.episodes = [episode_properties(e) for e in episodes]
    known_episodes = {e.id for e in episodes}
    known_entities = {e.id for e in entities}
    mentions: set[tuple[str, str]] = set()
    for fact in store.facts(FactQuery(group_id, all_versions=True)):
        if fact.subject_id not in known_entities or fact.object_id not in known_entities:
            continue  # cannot happen in a consistent store; a dangling edge would break the load
        edge = FactEdge(fact.subject_id, fact.object_id, fact_properties(fact))
        graph.facts.setdefault(fact.relation, []).append(edge)
        for episode_id in fact.episode_ids:
            if episode_id in known_episodes:
                mentions |= {(episode_id, fact.subject_id), (episode_id, fact.object_id)}
    graph.mentions = sorted(mentions)
    return graph


def change_stamp(store: Store, group_id: str) -> object:
    """What changes whenever anything of the group does (any write, erase, retraction or prune,
    from any process): the store's change mark (one look-up by key), or None for a store that
    keeps none (the group is then read again every time)."""
    mark = getattr(store, "change_mark", None)
    return None if mark is None else mark(group_id)
