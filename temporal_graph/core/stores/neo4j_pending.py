"""A Neo4j write's changes held back, sent as one statement (``cypher/changes_write.cypher``).

:class:`Neo4jTx` holds each :class:`ChangeSet` of the common kinds (entities, episodes,
assertions, fact rows expired, inserted, cited and embedded, vectors, mentions, summaries) until
the write reads the server again or ends, then sends them all in one statement: one round trip
where the kinds of change were a statement each. Change sets are kept in the order applied; the
statement applies each kind in a fixed order, which gives the same result because a write only
ever expires a row after inserting it, and cites or embeds a row while it is current. Rarer kinds
(erasures, insights, withdrawals of messages, receipts) go the step-by-step way, after what is
held has been sent.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from ..model import Entity, Fact
from ..names import check_identifier, entity_keys, name_key
from ..time import to_micros
from .protocol import ChangeSet

UNDATED = -(2**62)


def _utc(moment: datetime | None) -> str | None:
    """A moment as changes_write takes it: ISO 8601 text in UTC, which the statement makes a
    datetime (text packs in C; the driver packs a datetime in Python, 30 µs each)."""
    return None if moment is None else moment.astimezone(UTC).isoformat()


def group_of(changes: ChangeSet) -> set[str]:
    """Every group a change set names."""
    return {
        *(e.group_id for e in changes.entities), *(e.group_id for e in changes.episodes),
        *(a.group_id for a in changes.assertions), *(f.group_id for f in changes.insert),
        *(v.group_id for v in changes.summaries), *(g for g, _, _ in changes.summaries_ended),
        *(g for g, _, _ in changes.summary_due), *(g for g, _, _ in changes.insights_expire_citing),
    }


def holdable(changes: ChangeSet) -> bool:
    """Whether the change set is of the kinds :class:`PendingWrites` holds."""
    return not (changes.erasures or changes.erasure_receipts or changes.insights
                or changes.insights_expired or changes.insights_deleted or changes.insights_deleted_citing
                or changes.episodes_retracted or changes.episode_texts_erased)


def _summarised(changes: ChangeSet) -> set[str]:
    """The entities whose summaries (or their wait for a refresh) ``changes`` changes."""
    return {*(v.entity_id for v in changes.summaries), *(e for _, e, _ in changes.summaries_ended),
            *(e for _, e, _ in changes.summary_due)}


@dataclass
class PendingWrites:
    """The held change sets of one group, as the parameters of ``changes_write``."""

    group_id: str
    sets: list[ChangeSet] = field(default_factory=list)
    # The entities whose summaries the held sets change, kept as they are added: a copy holds
    # thousands of summary steps, and asking every held set again was quadratic (10M set unions
    # for a 20,000-fact copy, most of its time).
    summarised: set[str] = field(default_factory=set)

    def __bool__(self) -> bool:
        return bool(self.sets)  # not any(): a change set of vectors alone is falsy

    def accepts(self, changes: ChangeSet) -> bool:
        """Whether ``changes`` can join what is held without changing the result: summaries are
        ended before new versions are made, so a second change to one entity's summary waits."""
        return self.summarised.isdisjoint(_summarised(changes))

    def add(self, changes: ChangeSet) -> None:
        self.sets.append(changes)
        self.summarised |= _summarised(changes)

    def inserted(self) -> list[Fact]:
        return [f for s in self.sets for f in s.insert]

    def params(self, label_of: Any, current_keys: Any) -> dict[str, Any]:
        """The statement's parameters, its lists in one map (see changes_write.cypher).
        ``label_of(type)``: an entity type's label or None; ``current_keys(fact)``: a row's
        :CurrentFact keys or None."""
        g = self.group_id
        seq = 0
        entities: list[dict] = []
        keys: list[dict] = []
        episodes: list[dict] = []
        assertions: list[dict] = []
        insert: list[dict] = []
        relations: list[str] = []
        provenance: dict[str, list[str]] = {}
        fact_vectors: dict[str, list[float]] = {}
        entity_vectors: dict[str, list[float]] = {}
        episode_vectors: dict[str, list[float]] = {}
        expire: list[dict] = []
        mentions: dict[tuple[str, str], None] = {}
        expire_citing: list[dict] = []
        ended: list[dict] = []
        summaries: list[dict] = []
        due: list[dict] = []
        for cs in self.sets:
            for e in cs.entities:
                entities.append(_entity_row(e, seq, label_of))
                keys += [{"key": k, "entity_id": e.id} for k in entity_keys((e.name, *e.aliases))]
                seq += 1
            for ep in cs.episodes:
                episodes.append({"id": ep.id, "content": ep.content, "speaker": ep.speaker,
                                 "source": ep.source, "source_id": ep.source_id,
                                 "reference_time": _utc(ep.reference_time),
                                 "created_at": _utc(ep.created_at), "seq": seq})
                seq += 1
            assertions += [_assertion_row(a) for a in cs.assertions]
            for f in cs.insert:
                insert.append(_fact_row(f, current_keys(f)))
                if f.relation not in relations:
                    relations.append(f.relation)
                for ep_id in f.episode_ids:
                    mentions[(ep_id, f.subject_id)] = None
                    mentions[(ep_id, f.object_id)] = None
            for row_id, eps in cs.provenance.items():
                cited = provenance.setdefault(row_id, [])
                cited += [e for e in eps if e not in cited]
            fact_vectors.update(cs.fact_embeddings)
            entity_vectors.update(cs.entity_embeddings)
            episode_vectors.update(cs.episode_embeddings)
            expire += [{"id": row_id, "expired_at": _utc(at)} for row_id, at in cs.expire]
            expire_citing += [{"cited_id": c, "at": _utc(at)} for gid, c, at in cs.insights_expire_citing
                              if gid == g]
            ended += [{"entity_id": e, "at": _utc(at)} for gid, e, at in cs.summaries_ended if gid == g]
            summaries += [{"id": v.id, "entity_id": v.entity_id, "entity": v.entity, "text": v.text,
                           "method": v.method, "fact_ids": list(v.fact_ids), "created_at": _utc(v.created_at)}
                          for v in cs.summaries if v.group_id == g]
            due += [{"id": e, "due": d} for gid, e, d in cs.summary_due if gid == g]
        changes = {
            "relations": relations, "entities": entities, "keys": keys,
            "episodes": episodes, "assertions": assertions, "insert": insert,
            "provenance": [{"id": i, "episode_ids": eps} for i, eps in provenance.items()],
            "fact_vectors": _vectors(fact_vectors), "entity_vectors": _vectors(entity_vectors),
            "episode_vectors": _vectors(episode_vectors),
            "expire": expire,
            "mentions": [{"episode_id": ep, "entity_id": ent} for ep, ent in sorted(mentions)],
            "expire_citing": expire_citing, "summaries_ended": ended, "summaries": summaries,
            "summary_due": due,
        }
        return {"group_id": g, "seq_count": seq, "changes": changes}


def _vectors(by_id: dict[str, list[float]]) -> list[dict[str, Any]]:
    return [{"id": i, "vector": [float(x) for x in v]} for i, v in by_id.items()]


def _entity_row(e: Entity, seq: int, label_of: Any) -> dict[str, Any]:
    return {"id": e.id, "name": e.name, "key": name_key(e.name), "type": e.type, "label": label_of(e.type),
            "aliases": list(e.aliases), "summary": e.summary, "created_at": _utc(e.created_at),
            "name_text": " ".join((e.name, *e.aliases)), "seq": seq}


def _assertion_row(a: Any) -> dict[str, Any]:
    return {"id": a.id, "subject_id": a.subject_id, "relation": check_identifier(a.relation),
            "object_id": a.object_id, "kind": a.kind, "at": _utc(a.at), "until": _utc(a.until),
            "created_at": _utc(a.created_at), "seq": a.seq, "episode_id": a.episode_id,
            "text": a.text, "confidence": a.confidence, "importance": a.importance,
            "attributes_json": json.dumps(a.attributes, sort_keys=True),
            "at_key": UNDATED if a.at is None else to_micros(a.at), "object_key": a.object_id or ""}


def _fact_row(f: Fact, current: dict[str, Any] | None) -> dict[str, Any]:
    return {"id": f.id, "fact_id": f.fact_id, "subject_id": f.subject_id, "object_id": f.object_id,
            "relation": check_identifier(f.relation), "text": f.text, "valid_at": _utc(f.valid_at),
            "invalid_at": _utc(f.invalid_at), "created_at": _utc(f.created_at),
            "expired_at": _utc(f.expired_at),
            "episode_ids": list(dict.fromkeys(f.episode_ids)), "confidence": f.confidence,
            "importance": f.importance, "attributes_json": json.dumps(f.attributes, sort_keys=True),
            "current": current}
