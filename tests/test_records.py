"""Both stores decode rows with one decoder (``stores/records.py``): the same record reads the
same from either driver's shapes, and rows written by older versions get the same defaults."""

from __future__ import annotations

import json
from datetime import datetime, timedelta, timezone

from temporal_graph.core.model import DEFAULT_IMPORTANCE
from temporal_graph.core.stores import records
from temporal_graph.core.stores.records import NEO4J, SQLITE
from temporal_graph.core.time import UTC, to_micros

CREATED = datetime(2024, 5, 1, 12, 30, tzinfo=UTC)
VALID = datetime(2020, 3, 1, tzinfo=UTC)


class DriverTime:
    """What the Neo4j driver returns for a DATETIME: an object with ``to_native()``."""

    def __init__(self, moment: datetime) -> None:
        self.moment = moment

    def to_native(self) -> datetime:
        return self.moment


def _fact_row(**changes: object) -> dict[str, object]:
    row: dict[str, object] = {
        "id": "row-1", "fact_id": "fact-1", "group_id": "g", "subject": "Alice", "subject_id": "e-a",
        "relation": "LIVES_IN", "object": "Paris", "object_id": "e-p", "text": "Alice lives in Paris",
        "valid_at": None, "invalid_at": None, "created_at": None, "expired_at": None,
        "episode_ids": None, "confidence": 0.9, "importance": 7, "attributes": '{"source": "cv"}',
    }
    row.update(changes)
    return row


def test_a_fact_reads_the_same_from_either_store() -> None:
    from_sqlite = records.fact(_fact_row(valid_at=to_micros(VALID), created_at=to_micros(CREATED),
                                         episode_ids=json.dumps(["ep-1", "ep-2"])), SQLITE)
    paris = timezone(timedelta(hours=2))
    from_neo4j = records.fact(_fact_row(valid_at=DriverTime(VALID.astimezone(paris)),
                                        created_at=DriverTime(CREATED.replace(tzinfo=None)),
                                        episode_ids=["ep-1", "ep-2"]), NEO4J)
    assert from_sqlite == from_neo4j
    assert from_neo4j.valid_at == VALID and from_neo4j.valid_at.tzinfo == UTC
    assert from_neo4j.created_at == CREATED  # a zone-less time is read as UTC
    assert from_neo4j.episode_ids == ("ep-1", "ep-2") and from_neo4j.attributes == {"source": "cv"}


def test_rows_from_older_versions_get_the_defaults_in_both_stores() -> None:
    for codec, created in ((SQLITE, to_micros(CREATED)), (NEO4J, DriverTime(CREATED))):
        fact = records.fact(_fact_row(created_at=created, importance=None, text=None, attributes=None), codec)
        assert fact.importance == DEFAULT_IMPORTANCE
        assert (fact.text, fact.attributes, fact.episode_ids) == ("", {}, ())
        entity = records.entity({"id": "e", "group_id": "g", "name": "Alice", "type": None, "aliases": None,
                                 "summary": None, "created_at": created}, codec)
        assert (entity.type, entity.aliases, entity.summary) == ("Entity", (), "")
        assertion = records.assertion({
            "id": "a", "group_id": "g", "subject_id": "e", "relation": "LIVES_IN", "object_id": "p",
            "kind": "start", "at": None, "until": None, "created_at": created, "seq": None,
            "episode_id": None, "text": None, "confidence": 1.0, "importance": None, "attributes": None,
        }, codec)
        assert (assertion.seq, assertion.text, assertion.importance) == (0, "", DEFAULT_IMPORTANCE)
        summary = records.summary({"id": "s", "group_id": "g", "entity_id": "e", "entity": "Alice",
                                   "text": None, "method": None, "fact_ids": None, "created_at": created,
                                   "expired_at": None}, codec)
        assert (summary.text, summary.method, summary.fact_ids) == ("", "offline", ())
