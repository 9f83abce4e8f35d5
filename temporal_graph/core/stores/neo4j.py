"""The Neo4j store: the same protocol as the embedded store, on Neo4j 5.26+ (the LTS line) over Bolt.

Graph shape, for exploring by hand with Cypher:

- ``(:Entity:<Type> {id, group_id, name, key, type, aliases, summary, created_at, embedding})``
  (the type label is added when the type is a safe identifier and not one of our own labels);
- ``(:Episode {id, group_id, content, speaker, source, source_id, reference_time, created_at})``
  and ``(:Episode)-[:MENTIONS]->(:Entity)`` for the entities of the facts an episode supports;
- each fact version is a relationship typed by its relation,
  ``(s:Entity)-[r:LIVES_IN {id, fact_id, group_id, relation, valid_at, invalid_at, created_at,
  expired_at, text, episode_ids, confidence, importance, attributes_json, embedding}]->(o:Entity)``;
- ``(:Assertion {...})``: the append-only input of the temporal rules (by ids, not linked, so
  exploring ``MATCH (a)-[r]->(b)`` meets facts and mentions only);
- ``(:EntityKey {group_id, key, entity_id})``: the name keys an entity answers to (first wins);
- ``(:MemoryGroup {group_id, relations})``: a per-group write lock, so writers of one group never
  interleave (the embedded store has one writer), an insertion-order counter, and the relation
  types the group has written;
- ``(:CurrentFact {group_id, row_id, rel, relation, subject_id, object_id, key_start, newest,
  ends, embedding})``: one per current fact row, made with it and deleted when it expires: the
  index entry through which a write reads a key's timeline or an entity's newest facts (``rel``
  is the row's element id), so the expired versions that pile up behind them are never walked,
  and the holder of the row's vector under the one vector index of facts (every relation type);
- ``(:MemoryLayout {version})``: the version of this layout; an older database is upgraded on
  connect.

Times are native ``DATETIME`` values. Every statement is a file under ``cypher/``; values go
as parameters, and relation types and labels are validated before they are placed in a template.
Schema that depends on a relation type (constraint on ``r.id``, range indexes on group_id,
fact_id and the four times) is created before the first row of that relation is
written (schema and data cannot share a transaction: the write is rolled back, the schema made,
the write run again), and the single fact full-text index is widened to cover it. The store holds
no temporal rules.

Round trips: a write holds its changes back and sends them in one statement, and reads ahead
what it will read (:class:`Neo4jTx`), its BEGIN sent with its first statement; a read outside a
write is one auto-commit statement, one round trip (:class:`_QueryRunner`); every transaction of
the store is causally chained to the ones it committed before by one bookmark manager, so a read
routed to another cluster member sees them.
"""

from __future__ import annotations

import hashlib
import json
import logging
import re
import threading
import time
from collections import defaultdict
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from contextlib import AbstractContextManager, contextmanager, nullcontext
from dataclasses import replace
from datetime import datetime
from typing import Any, Protocol, Self, TypeVar

from ..citations import cited_as_known_at, citing
from ..errors import (
    ConnectionLost,
    ConstraintViolation,
    InvalidIdentifier,
    InvalidInput,
    StoreClosed,
    StoreError,
    StoreLocked,
)
from ..extras import missing
from ..model import Assertion, Entity, EntitySummary, Episode, Fact, Insight, RecordKind
from ..names import (
    check_identifier,
    clean_name,
    entity_keys,
    exact_key,
    name_key,
    normalize_relation,
    quoted_terms,
)
from ..receipts import ERASED_KINDS, ErasureReceipt, ErasureRequest, group_key
from ..time import UTC, from_micros, to_micros
from . import records
from .edge import MapErrors
from .neo4j_ahead import LATEST, UNDATED, KeyWindow, PairWindow, ReadAhead
from .neo4j_pending import PendingWrites, group_of, holdable
from .protocol import RECORD_COUNTS, AssertionQuery, ChangeSet, Erasure, FactQuery, RowQuery
from .records import NEO4J
from .statements import load, render, split_statements, statement

T = TypeVar("T")
log = logging.getLogger(__name__)

# Labels the store itself uses; an entity type with one of these names gets no extra label.
OWN_LABELS = frozenset({"Entity", "Episode", "Assertion", "EntityKey", "MemoryGroup", "EntitySummary",
                        "Insight", "InsightEvidence", "CurrentFact"})
_NO_LIMIT = 2**62
_INDEX_WAIT_SECONDS = 300
# The version of the data layout (raised when the stored properties change; an older database
# is upgraded on connect): 2 added :CurrentFact nodes, assertion keys and group relation lists;
# 3 put fact vectors on :CurrentFact nodes too, under one vector index for every relation type;
# 4 gave entities, messages in recall and current rows their group's full-text token (search_group);
# 5 keeps each group's counts of current rows on its node (current_rows, current_ended);
# 6 has the full-text indexes refresh in the background, awaited by the reads that ask them.
LAYOUT_VERSION = 6
_UPGRADE_BATCH = 10_000
# A write reads ahead the end of each timeline it writes: the rows starting latest (and any
# starting with the last of them), and the statements told for moments there, at most so many.
ROWS_AHEAD = 8
EVENTS_AHEAD = 256
# A summary refresh reads each entity's newest facts, 16 at a time (50 for an LLM summary), as
# far as its text goes: so many are read with the write's changes.
NEWEST_AHEAD = 64
# Statement names spell the kinds in the plural: facts_missing_embedding, text_search_entities, ...
_PLURAL = {RecordKind.FACT: "facts", RecordKind.ENTITY: "entities", RecordKind.EPISODE: "episodes"}
# The property each kind's full-text index holds its text in (beside search_group).
_TEXT_FIELD = {RecordKind.FACT: "text", RecordKind.ENTITY: "name_text", RecordKind.EPISODE: "content"}
# Reads of one search run at once (its indexes, then its records by id): at most this many.
_READERS = 8
_READER_THREADS = "neo4j-read"
# A group holding at most so many records of a kind is scanned exactly for its nearest when the
# kind's vector index, shared by every group, answers with too few of them.
SCAN_AT_MOST = 2_000
_VECTOR_INDEXES = {RecordKind.ENTITY: "entity_embedding", RecordKind.EPISODE: "episode_embedding"}
# A read that fails on an error the driver marks retryable is run again so many times at most,
# waiting 0.1 s, 0.2 s, 0.4 s ... between tries.
_READ_TRIES = 5
_READ_BACKOFF_SECONDS = 0.1


def search_group(group_id: str) -> str:
    """The group's token in the full-text indexes: one word whatever the group id holds (the
    indexes' analyzer would split an id at its punctuation and fold its case), so a search asks
    the index for one group's records alone (``+search_group:<token>^0``, no weight in a score)."""
    return "g" + hashlib.blake2b(group_id.encode("utf-8", "surrogatepass"), digest_size=12).hexdigest()


def entity_label(entity_type: str) -> str | None:
    """The second label of an entity of ``entity_type`` ("sports team" -> SportsTeam), or None."""
    words = re.findall(r"[A-Za-z0-9]+", entity_type or "")
    candidate = "".join(w[:1].upper() + w[1:] for w in words)
    if not candidate or candidate in OWN_LABELS:
        return None
    try:
        return check_identifier(candidate)
    except InvalidIdentifier:
        return None


def _utc(moment: datetime | None) -> datetime | None:
    return None if moment is None else moment.astimezone(UTC)


# -- the keys of current rows -----------------------------------------------------------------
# A write reads the stretch of a key's timeline it can change and an entity's newest facts. The
# versions behind them pile up with every revision, and a relationship index covers one type
# only, so each current row has a :CurrentFact node (created with it, deleted when it expires)
# holding the keys those reads seek: one label, one set of indexes for every relation.
_SPAN = 10**18  # microseconds from year 1 to 9999, shifted by _SHIFT, fit below it
_SHIFT = 10**17


def _moment_key(moment: datetime | None) -> int:
    return UNDATED if moment is None else to_micros(moment)


def _descending(moment: datetime) -> str:
    """A fixed-width string that sorts later moments first."""
    return f"{_SPAN - (to_micros(moment) + _SHIFT):019d}"


def newest_key(f: Fact) -> str:
    """A string that sorts an entity's open rows as its summary reads them: latest start (an
    unknown start counts from created_at), latest created_at, then relation, subject id, object
    id and row id (``\x1f`` sorts below every character they use)."""
    start = f.valid_at or f.created_at
    return (_descending(start) + _descending(f.created_at)
            + "\x1f".join((f.relation, f.subject_id, f.object_id, f.id)))


def current_keys(f: Fact) -> dict[str, Any] | None:
    """The keys of the :CurrentFact node of row ``f``; None for a row written already expired."""
    if f.expired_at is not None:
        return None
    return {"key_start": _moment_key(f.valid_at),
            "newest": newest_key(f) if f.invalid_at is None else None,
            "ends": None if f.invalid_at is None else to_micros(f.invalid_at)}


# -- driver exceptions -> StoreError ----------------------------------------------------------
def store_error(exc: Exception, uri: str, *, closed: bool) -> StoreError | None:
    """The :mod:`temporal_graph.core.errors` error for a ``neo4j`` driver failure, or None when
    ``exc`` is not the driver's (``closed``: the store's ``close()`` has run)."""
    from neo4j import exceptions as neo  # the driver is imported only where Neo4j is used

    if isinstance(exc, (neo.ServiceUnavailable, neo.SessionExpired, neo.DatabaseUnavailable)):
        return ConnectionLost(f"{uri}: the connection to Neo4j is lost or cannot be made ({exc})")
    if isinstance(exc, neo.ConstraintError):
        return ConstraintViolation(f"{uri}: a write broke a constraint ({exc}); nothing was written")
    code = getattr(exc, "code", None) or ""
    if isinstance(exc, neo.TransientError) and ("Lock" in code or "Deadlock" in code):
        return StoreLocked(f"{uri}: other writers held the locks after every retry; try again ({exc})")
    if isinstance(exc, neo.DriverError) and closed:
        return StoreClosed(f"{uri}: the store is closed")
    if isinstance(exc, (neo.Neo4jError, neo.DriverError)):
        return StoreError(f"{uri}: {exc}")
    return None


@contextmanager
def _neo4j_errors(store: Neo4jStore) -> Iterator[None]:
    """The store's edge: every driver failure leaves as a :class:`StoreError` naming the server."""
    try:
        yield
    except Exception as exc:
        mapped = store_error(exc, store.uri, closed=store.closed)
        if mapped is None:
            raise
        raise mapped from exc


_edge: MapErrors[Neo4jStore] = MapErrors(_neo4j_errors)


class _NeedsSchema(Exception):
    """A write met relation types with no schema yet (:meth:`Neo4jStore.write` makes it, then runs
    the write again)."""

    def __init__(self, relations: set[str]) -> None:
        super().__init__(sorted(relations))
        self.relations = relations


# -- statements ---------------------------------------------------------------------------------
class _Runner:
    """Runs named statements in one transaction, checking each gets exactly its declared parameters.
    ``before`` runs before each statement (a write sends what it holds back first)."""

    def __init__(self, tx: Any, before: Callable[[], None] | None = None) -> None:
        self.tx = tx
        self.before = before

    def run(self, name: str, params: Mapping[str, Any], **identifiers: str | Sequence[str]) -> list[dict]:
        if self.before is not None:
            self.before()
        return self.run_now(name, params, **identifiers)

    def run_now(self, name: str, params: Mapping[str, Any], **identifiers: str | Sequence[str]) -> list[dict]:
        text = _text(name, params, identifiers)
        return [row_data(record) for record in self.tx.run(text, dict(params))]


_SCALARS = frozenset({str, int, float, bool, type(None), bytes})


def row_data(record: Any) -> dict[str, Any]:
    """``record.data()`` for what our statements return (maps, lists, scalars, moments): the
    driver's version tests every value against the collection ABCs (4.8 ms of a search's client
    time at 20,000 facts; this, 1.5). A node comes back as its properties, as there; no statement
    returns a relationship or a path (their properties instead), so one is refused, not guessed at."""
    return {key: _plain(value) for key, value in zip(record.keys(), record, strict=True)}


def _plain(value: Any) -> Any:
    kind = type(value)
    if kind in _SCALARS:
        return value
    if kind is list:
        return [_plain(v) for v in value]
    if kind is dict:
        return {k: _plain(v) for k, v in value.items()}
    from neo4j.graph import Node, Path, Relationship

    if isinstance(value, Node):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, (Relationship, Path)):
        raise StoreError("a statement returned a relationship or a path; return its properties")
    return value  # moments, durations and points, as the driver reads them


def _begin_with_first_statement(session: Any) -> AbstractContextManager[Any]:
    """Within it, a transaction of ``session`` sends BEGIN with its first statement instead of
    waiting for BEGIN's own answer, as the driver's ``execute_query`` does: a round trip less per
    write (a failed BEGIN fails that statement, and the driver retries the transaction all the
    same). The driver's switch for it is private; a driver without it costs the round trip."""
    switch = getattr(session, "_pipelined_begin", None)
    return nullcontext() if switch is None else switch  # type: ignore[no-any-return]


def _text(name: str, params: Mapping[str, Any], identifiers: Mapping[str, str | Sequence[str]]) -> str:
    """The text of statement ``name``, checking it gets exactly its declared parameters."""
    found = statement(name)
    if set(params) != found.params:
        raise StoreError(f"{name}.cypher takes parameters {sorted(found.params)}, got {sorted(params)}")
    return render(name, **identifiers) if found.is_template else found.text


class _QueryRunner:
    """Runs each named statement as an auto-commit read of a session of its own: RUN and PULL go
    together, one round trip (a transaction function's BEGIN and COMMIT would be two more, for a
    read that writes nothing). The session routes it to a reader and waits for the store's
    bookmarks, so it sees every write the store committed before. A read changes nothing, so one
    that fails on an error the driver marks retryable (a leader switch, a member gone) is simply
    run again, as the driver's transaction functions would be."""

    def __init__(self, store: Neo4jStore) -> None:
        self.store = store

    def run(self, name: str, params: Mapping[str, Any], **identifiers: str | Sequence[str]) -> list[dict]:
        import neo4j.exceptions

        text = _text(name, params, identifiers)
        for attempt in range(_READ_TRIES):
            try:
                with self.store._session(read=True) as session:
                    return [row_data(record) for record in session.run(text, dict(params))]
            except (neo4j.exceptions.Neo4jError, neo4j.exceptions.DriverError) as exc:
                if attempt + 1 == _READ_TRIES or not exc.is_retryable():
                    raise
                time.sleep(_READ_BACKOFF_SECONDS * 2**attempt)
        raise AssertionError("unreachable")  # the loop returns or raises


class _Runs(Protocol):
    def run(self, name: str, params: Mapping[str, Any], **identifiers: str | Sequence[str]) -> list[dict]: ...


class _Reads:
    """Every read, over whichever transaction the runner holds (read or write)."""

    def __init__(self, runner: _Runs) -> None:
        self._r = runner
        # fact row id -> relation and group, of the rows read or written here (typed writes by id)
        self.relation_of: dict[str, str] = {}
        self.row_group: dict[str, str] = {}

    def _seen(self, facts: list[Fact]) -> list[Fact]:
        for f in facts:
            self.relation_of[f.id] = f.relation
            self.row_group[f.id] = f.group_id
        return facts

    def entity_by_key(self, group_id: str, key: str) -> Entity | None:
        rows = self._r.run("entity_by_key", {"group_id": group_id, "key": key})
        return records.entity(rows[0], NEO4J) if rows else None

    def entities(self, group_id: str, *, ids: Sequence[str] | None = None) -> list[Entity]:
        if ids is not None and not ids:
            return []
        if ids is None:
            rows = self._r.run("entities_all", {"group_id": group_id})
        else:
            rows = self._r.run("entities_by_ids", {"group_id": group_id, "ids": list(dict.fromkeys(ids))})
        return [records.entity(r, NEO4J) for r in rows]

    def episodes(self, group_id: str, *, ids: Sequence[str] | None = None) -> list[Episode]:
        if ids is not None and not ids:
            return []
        if ids is None:
            rows = self._r.run("episodes_all", {"group_id": group_id})
        else:
            rows = self._r.run("episodes_by_ids", {"group_id": group_id, "ids": list(dict.fromkeys(ids))})
        return [records.episode(r, NEO4J) for r in rows]

    def episode_by_source(self, group_id: str, source_id: str) -> Episode | None:
        rows = self._r.run("episode_by_source", {"group_id": group_id, "source_id": source_id})
        return records.episode(rows[0], NEO4J) if rows else None

    def assertions(self, group_id: str, subject_id: str, relation: str) -> list[Assertion]:
        rows = self._r.run(
            "assertions_for", {"group_id": group_id, "subject_id": subject_id, "relation": relation}
        )
        return [records.assertion(r, NEO4J) for r in rows]

    def current_rows(self, group_id: str, subject_id: str, relation: str) -> list[Fact]:
        return self.facts(FactQuery(group_id, subject_id=subject_id, relation=relation))

    def key_rows(self, query: RowQuery) -> list[Fact]:
        if not _safe(query.relation):
            return []  # no fact row can have a relation that is not a safe identifier
        params: dict[str, Any] = {
            "group_id": query.group_id, "subject_id": query.subject_id, "relation": query.relation,
            # an unknown start is the earliest: in without `since`, out with it; always before `before`
            "start_from": UNDATED if query.since is None else to_micros(query.since),
            "start_before": LATEST if query.before is None else to_micros(query.before),
            "ending_after": None if query.ending_after is None else to_micros(query.ending_after),
            "limit": _NO_LIMIT if query.limit is None else max(0, int(query.limit)),
        }
        name = "rows_of_key"
        if query.object_id is not None:
            name, params["object_id"] = "rows_of_pair", query.object_id
        if query.latest_first:
            name += "_latest_first"
        return self._seen([records.fact(r, NEO4J) for r in self._r.run(name, params)])

    def key_assertions(self, query: AssertionQuery) -> list[Assertion]:
        params: dict[str, Any] = {
            "group_id": query.group_id, "subject_id": query.subject_id, "relation": query.relation,
            "kinds": ["end"] if query.endings_of_all else list(query.kinds),
            # an undated one is the earliest: in without `since`, always in up to `through`
            "at_from": UNDATED if query.since is None else to_micros(query.since),
            "at_through": LATEST if query.through is None else to_micros(query.through),
        }
        name = "assertions_of_key"
        if query.endings_of_all or query.object_id is not None:
            name = "assertions_of_pair"
            params["object_key"] = "" if query.endings_of_all else query.object_id
        return [records.assertion(r, NEO4J) for r in self._r.run(name, params)]

    def latest_assertion(self, group_id: str, subject_id: str, relation: str) -> Assertion | None:
        params = {"group_id": group_id, "subject_id": subject_id, "relation": relation}
        rows = self._r.run("assertion_latest", params)
        return records.assertion(rows[0], NEO4J) if rows else None

    def facts(self, query: FactQuery) -> list[Fact]:
        if query.relation is not None and not _safe(query.relation):
            return []  # no fact row can have a relation that is not a safe identifier
        if query.ids is not None and query == FactQuery(query.group_id, ids=query.ids, limit=query.limit,
                                                        valid_time=query.valid_time):
            # Current rows by id (search candidates): through their :CurrentFact nodes, one statement.
            if not query.ids:
                return []
            params = {"group_id": query.group_id, "ids": list(query.ids),
                      "valid_time": _utc(query.valid_time),
                      "limit": _NO_LIMIT if query.limit is None else max(0, int(query.limit))}
            return self._seen([records.fact(r, NEO4J) for r in self._r.run("current_facts_by_ids", params)])
        relations: list[str] | None = None  # the types to read, for the statements that name them
        if query.ids is not None:
            relations = self._relations_of_rows(query.group_id, query.ids) if query.ids else []
        elif query.expired_after is not None:
            relations = self.listed_relations(query.group_id)
        if relations is not None and not relations:
            return []  # no row can match
        name, identifiers = fact_statement(query, relations or [])
        rows = self._r.run(name, fact_params(query), **identifiers)
        facts = self._seen([records.fact(r, NEO4J) for r in rows])
        if query.known_at is None:
            return facts
        return self.cited_as_known_at(query.group_id, facts, query.known_at)

    def cited_as_known_at(self, group_id: str, facts: list[Fact], known_at: datetime) -> list[Fact]:
        """``facts`` citing only the messages recorded by ``known_at`` (:mod:`..citations`)."""
        ids = citing(facts)
        if not ids:
            return facts
        rows = self._r.run("episodes_recorded", {"group_id": group_id, "ids": ids})
        return cited_as_known_at(facts, {r["id"]: from_micros(r["created_at"]) for r in rows}, known_at)

    def _relations_of_rows(self, group_id: str, ids: Sequence[str]) -> list[str]:
        """The relation types to look rows ``ids`` up in: theirs, when this reader has seen them."""
        seen = {self.relation_of.get(i) for i in ids}
        if None in seen:
            return self.listed_relations(group_id)
        return sorted(r for r in seen if r is not None)

    def listed_relations(self, group_id: str) -> list[str]:
        """The relation types the group has written (some may have no row left): where to look
        for its rows type by type."""
        rows = self._r.run("group_relations", {"group_id": group_id})
        listed = rows[0]["relations"] if rows else []
        if listed is None:  # a group written before the list was kept: find them the slow way
            listed = [r["relation"] for r in self._r.run("relations_in_group", {"group_id": group_id})]
        return sorted(r for r in listed if _safe(r))

    def relations(self, group_id: str) -> list[str]:
        """The relations the group has fact rows of (any version)."""
        return [rel for rel in self.listed_relations(group_id)
                if self._r.run("relations_present", {"group_id": group_id}, rel=rel)]

    def episode_assertions(self, group_id: str, episode_id: str) -> list[Assertion]:
        rows = self._r.run("assertions_of_episode", {"group_id": group_id, "episode_id": episode_id})
        return [records.assertion(r, NEO4J) for r in rows]

    def entity_assertions(self, group_id: str, entity_id: str) -> list[Assertion]:
        rows = self._r.run("assertions_of_entity", {"group_id": group_id, "entity_id": entity_id})
        return [records.assertion(r, NEO4J) for r in rows]

    def rows_citing(self, group_id: str, episode_id: str) -> list[Fact]:
        rows = self._r.run("rows_citing", {"group_id": group_id, "episode_id": episode_id})
        return self._seen([records.fact(r, NEO4J) for r in rows])

    def assertions_all(self, group_id: str) -> list[Assertion]:
        return [records.assertion(r, NEO4J) for r in self._r.run("assertions_all", {"group_id": group_id})]

    def newest_facts(
        self, group_id: str, entity_id: str, *, at: datetime, limit: int, offset: int = 0
    ) -> list[Fact]:
        params = {"group_id": group_id, "entity_id": entity_id, "at_micros": to_micros(at),
                  "skip": max(0, int(offset)), "limit": max(0, int(limit))}
        return self._seen([records.fact(r, NEO4J) for r in self._r.run("facts_newest", params)])

    def fact_vectors(
        self, group_id: str, fact_ids: Sequence[str], relations: Sequence[str] | None = None
    ) -> dict[str, list[float]]:
        """``relations``: the types of those facts, when known (else the group's, read first)."""
        relations = self.listed_relations(group_id) if relations is None else sorted(set(relations))
        if not fact_ids or not relations:
            return {}
        rows = self._r.run("fact_vectors", {"group_id": group_id, "fact_ids": list(dict.fromkeys(fact_ids))},
                           types=relations)
        return {row["text"]: [float(x) for x in row["vector"]] for row in rows}

    def summaries(
        self, group_id: str, entity_id: str | None = None, *, known_at: datetime | None = None,
        all_versions: bool = False,
    ) -> list[EntitySummary]:
        params = {"group_id": group_id, "known_at": _utc(known_at), "all_versions": bool(all_versions)}
        if entity_id is None:
            rows = self._r.run("summaries_read", params)
        else:
            rows = self._r.run("summaries_of_entity", {**params, "entity_id": entity_id})
        return [records.summary(row, NEO4J) for row in rows]

    def insights(
        self, group_id: str, *, subject_id: str | None = None, known_at: datetime | None = None,
        all_versions: bool = False,
    ) -> list[Insight]:
        params = {"group_id": group_id, "subject_id": subject_id, "known_at": _utc(known_at),
                  "all_versions": bool(all_versions)}
        return [records.insight(row, NEO4J) for row in self._r.run("insights_read", params)]


def _cited(f: Fact, episode_ids: Sequence[str]) -> Fact:
    """Row ``f`` citing ``episode_ids`` too (those it cites are skipped, as the store does)."""
    more = tuple(i for i in dict.fromkeys(episode_ids) if i not in f.episode_ids)
    return f.model_copy(update={"episode_ids": (*f.episode_ids, *more)}) if more else f


def _assertions_held(found: list[Mapping[str, Any]]) -> list[Assertion] | None:
    """The assertions a read-ahead list found, or None when it was cut (there were too many)."""
    return None if len(found) > EVENTS_AHEAD else [records.assertion(a, NEO4J) for a in found]


def _name_keys(name: str) -> list[str]:
    """The keys a name is looked up by (identity.entity_named): its name key and exact key; none
    for what is no name (a hint never fails a write: the lookup itself says what is wrong)."""
    try:
        display = clean_name(name)
    except (InvalidInput, TypeError):
        return []
    return [name_key(display), exact_key(display)]


def _relation_or_none(relation: str) -> str | None:
    try:
        return normalize_relation(relation)
    except (InvalidInput, TypeError):
        return None


def _safe(identifier: str) -> bool:
    try:
        check_identifier(identifier)
    except InvalidIdentifier:
        return False
    return True


def fact_statement(query: FactQuery, relations: Sequence[str] = ()) -> tuple[str, dict[str, Any]]:
    """Which facts statement answers ``query``: anchored on the most selective thing it names
    (``relations``: the group's relation types, needed to look rows up by id or expiry)."""
    if query.expired_after is not None:
        return "facts_expired_after", {"types": [check_identifier(r) for r in relations]}
    if query.ids is not None:
        return "facts_by_ids", {"types": [check_identifier(r) for r in relations]}
    if query.subject_id is not None:
        return "facts_by_subject", {}
    if query.object_id is not None:
        return "facts_by_object", {}
    if query.relation is not None:
        return "facts_by_relation", {"rel": check_identifier(query.relation)}
    return "facts_in_group", {}


def fact_params(query: FactQuery) -> dict[str, Any]:
    return {
        "group_id": query.group_id,
        "relation": query.relation,
        "subject_id": query.subject_id,
        "object_id": query.object_id,
        "fact_id": query.fact_id,
        "valid_time": _utc(query.valid_time),
        "known_at": _utc(query.known_at),
        "all_versions": bool(query.all_versions),
        "limit": _NO_LIMIT if query.limit is None else max(0, int(query.limit)),
        "ids": None if query.ids is None else list(query.ids),
        # only facts_expired_after takes it (the other statements never read an expiry bound)
        **({} if query.expired_after is None else {"expired_after": _utc(query.expired_after)}),
    }


# A forget deletes a group in transactions of at most this many records, step by step: (statement,
# whether its deletions are records a forget counts). Insights before the facts they cite, facts
# before their entities, the index-only :CurrentFact nodes, insight evidence and entity name keys
# uncounted (what is counted is what the receipt counts).
FORGET_BATCH = 10_000
FORGET_STEPS = (("forget_current_facts", False), ("forget_insight_evidence", False),
                ("forget_insights", True), ("forget_summaries", True), ("forget_facts", True),
                ("forget_assertions", True), ("forget_episodes", True), ("forget_entity_keys", False),
                ("forget_entities", True))


def _log_erasures(runner: _Runs, receipts: Iterable[ErasureReceipt]) -> None:
    """Append ``receipts`` to the erasure log, in the runner's transaction."""
    for r in receipts:
        runner.run("erasure_log_write", {
            "group_key": group_key(r.group_id), "request_id": r.request_id, "at": _utc(r.at),
            "operation": r.operation, "counts": json.dumps(r.counts), "digest": r.digest})


def _record_ids(runner: _Runs, group_id: str) -> dict[str, set[str]]:
    """The ids of every record of the group, by kind (as receipts count them)."""
    ids: dict[str, set[str]] = {kind: set() for kind in ERASED_KINDS}
    for row in runner.run("group_record_ids", {"group_id": group_id}):
        ids[row["kind"]].add(row["id"])
    return ids


class Neo4jTx(_Reads):
    """What a write function sees: the reads of :class:`StoreTx` plus :meth:`apply`, all in one
    managed transaction. The first touch of a group takes that group's write lock.

    Round trips are what a write costs on a server, so a write holds its changes back and sends
    them in one statement (:mod:`.neo4j_pending`) when it next reads the server or ends, and
    answers what it can from what it read ahead (:mod:`.neo4j_ahead`): the entities of the names
    it was told it would look up (:meth:`read_ahead`), and the end of each timeline it writes, read
    with the key's first read. The summaries and newest facts of the entities it changed are read
    together, on the first such read."""

    def __init__(self, runner: _Runner, relations_ready: set[str]) -> None:
        super().__init__(runner)
        runner.before = self.flush
        self._w = runner
        self._locked: set[str] = set()
        self._relations_ready = relations_ready
        self._ahead = ReadAhead()
        self._pending: PendingWrites | None = None
        # Entities whose rows this write changed, by group (their summaries are read together).
        self._row_entities: dict[str, tuple[str, str]] = {}  # row id -> (subject id, object id)
        self._fact_relation: dict[str, str] = {}  # fact id -> relation, of the rows read or written
        self._episodes: dict[tuple[str, str], Episode | None] = {}  # (group, id): read or written here
        self._entity_rows: dict[tuple[str, str], tuple[int, Entity]] = {}  # (group, id): (seq, entity)
        # What a summary refresh reads, read with the changes it follows (read_ahead summaries_of):
        # (group, entity id) -> (at, its newest rows, whether that is all of them), current summaries.
        # The rows are all of them up to the floor (the newest_key of the last one read; None: all
        # of them were read): rows the write added beyond it may have unread ones before them.
        self._newest: dict[tuple[str, str], tuple[int, list[Fact], str | None]] = {}
        self._current_summaries: dict[tuple[str, str], list[EntitySummary]] = {}
        # Keys read whole (a bulk load's keys with a history): (group, subject, relation) -> (every
        # assertion in arrival order, the current rows), and the key of each of those rows.
        self._whole: dict[tuple[str, str, str], tuple[list[Assertion], list[Fact]]] = {}
        self._whole_rows: dict[str, tuple[str, str, str]] = {}

    def _lock(self, group_id: str, count: int = 0) -> int:
        """Take the group's lock (once) and reserve ``count`` sequence numbers; returns the first."""
        if group_id in self._locked and count == 0:
            return 0
        rows = self._r.run("group_lock", {"group_id": group_id, "count": count})
        self._locked.add(group_id)
        return rows[0]["first_seq"]

    def _seen(self, facts: list[Fact]) -> list[Fact]:
        for f in facts:
            self._row_entities[f.id] = (f.subject_id, f.object_id)
            self._fact_relation[f.fact_id] = f.relation
        return super()._seen(facts)

    # -- reading ahead -----------------------------------------------------------------------
    def read_ahead(
        self, group_id: str, *, names: Sequence[str] = (), keys: Sequence[tuple[str, str]] = (),
        pairs: Sequence[tuple[str, str, str]] = (), episodes: Sequence[str] = (),
        summaries_of: Sequence[str] = (), at: datetime | None = None,
        whole_keys: Sequence[tuple[str, str]] = (),
    ) -> None:
        """See :meth:`StoreTx.read_ahead`. Names, keys, pairs and episodes are read in one
        statement that also takes the group's lock, with (``at``) what a summary refresh reads of
        the names' entities, kept as the write changes them (:meth:`_held`); ``summaries_of`` that
        were not, with the held changes, in the statement that sends them; ``whole_keys`` in one
        statement of their own."""
        if whole_keys:
            self._read_whole_keys(group_id, whole_keys)
        if summaries_of and at is not None:
            unread = [i for i in dict.fromkeys(summaries_of) if (group_id, i) not in self._newest]
            if unread:
                self.flush(group_id, unread, at)
            return
        wanted = [k for name in names for k in _name_keys(name) if (group_id, k) not in self._ahead.entities]
        objects: dict[tuple[str, str], list[str]] = {}  # (subject key, relation) -> object keys
        for subject, relation, object in (*((s, r, None) for s, r in keys), *pairs):
            rel = _relation_or_none(relation)
            if rel is None:
                continue
            for k in _name_keys(subject):
                objects.setdefault((k, rel), []).extend(_name_keys(object) if object is not None else ())
        windows = [{"subject_key": k, "subject_id": None, "relation": rel, "objects": list(dict.fromkeys(o))}
                   for (k, rel), o in objects.items()]
        episode_ids = [i for i in dict.fromkeys(episodes) if (group_id, i) not in self._episodes]
        if wanted or windows or episode_ids or group_id not in self._locked:
            self._read_windows(group_id, list(dict.fromkeys(wanted)), windows, episode_ids, at)

    def _read_windows(
        self, group_id: str, keys: list[str], windows: list[dict], episode_ids: Sequence[str] = (),
        at: datetime | None = None,
    ) -> None:
        reads = {"keys": keys, "windows": windows, "episode_ids": list(episode_ids)}
        at_micros = None if at is None else to_micros(at)
        params = {"group_id": group_id, "reads": reads, "rows_ahead": ROWS_AHEAD,
                  "events_ahead": EVENTS_AHEAD, "undated": UNDATED, "at_micros": at_micros,
                  "newest_limit": NEWEST_AHEAD}
        [found] = self._r.run("write_read_ahead", params)
        self._locked.add(group_id)
        for key in keys:
            self._ahead.entities.setdefault((group_id, key), None)
        for row in found["entities"]:
            self._ahead.hold(group_id, row["key"], self._entity_read(row))
        if at_micros is not None:
            self._summary_reads(group_id, found["summary_ids"], at_micros, found)
        for i in episode_ids:
            self._episodes[(group_id, i)] = None
        for row in found["episodes"]:
            self._episodes[(group_id, row["id"])] = records.episode(row, NEO4J)
        for w in found["windows"]:
            where = (group_id, w["subject_id"], w["relation"])
            window = self._ahead.windows.get(where)
            if window is None:
                rows = self._seen([records.fact(r, NEO4J) for r in w["rows"] if r is not None])
                window = self._ahead.windows[where] = KeyWindow(
                    latest=None if w["latest"] is None else records.assertion(w["latest"], NEO4J),
                    bound=w["bound"], rows={f.id: f for f in rows},
                    events=_assertions_held(w["events"]), voids=_assertions_held(w["voids"]),
                    pairs={"": PairWindow(rows=None, told=_assertions_held(w["unbound"]))},
                )
            for pair in w["pairs"]:  # a pair read after this write changed it was read with the change
                rows = self._seen([records.fact(r, NEO4J) for r in pair["rows"] if r is not None])
                window.pairs.setdefault(pair["object_id"], PairWindow(
                    rows=None if pair["nodes"] > ROWS_AHEAD else {f.id: f for f in rows},
                    told=_assertions_held(pair["told"])))

    def _read_whole_keys(self, group_id: str, keys: Sequence[tuple[str, str]]) -> None:
        wanted = [{"subject_id": s, "relation": r} for s, r in dict.fromkeys(keys)
                  if _safe(r) and (group_id, s, r) not in self._whole]
        if not wanted:
            return
        self._lock(group_id)
        params = {"group_id": group_id, "keys": wanted, "undated": UNDATED}
        for row in self._r.run("keys_read_ahead", params):
            key = (group_id, row["subject_id"], row["relation"])
            told = sorted((records.assertion(a, NEO4J) for a in row["assertions"]),
                          key=lambda a: (a.created_at, a.seq, a.id))  # as assertions_for orders them
            rows = self._seen([records.fact(f, NEO4J) for f in row["rows"] if f is not None])
            self._whole[key] = (told, rows)
            for f in rows:
                self._whole_rows[f.id] = key

    def _entity_read(self, row: Mapping[str, Any]) -> Entity:
        entity = records.entity(row, NEO4J)
        self._entity_rows[(entity.group_id, entity.id)] = (row["seq"] or 0, entity)
        return entity

    def entities(self, group_id: str, *, ids: Sequence[str] | None = None) -> list[Entity]:
        if ids is not None and all((group_id, i) in self._entity_rows for i in ids):
            found = sorted((self._entity_rows[(group_id, i)] for i in dict.fromkeys(ids)),
                           key=lambda held: (held[0], held[1].id))
            return [entity for _, entity in found]
        return super().entities(group_id, ids=ids)

    def episodes(self, group_id: str, *, ids: Sequence[str] | None = None) -> list[Episode]:
        if ids is not None and len(ids) == 1 and (group_id, ids[0]) in self._episodes:
            held = self._episodes[(group_id, ids[0])]
            return [] if held is None else [held]
        return super().episodes(group_id, ids=ids)

    def _window(self, group_id: str, subject_id: str, relation: str) -> KeyWindow | None:
        """The end of the key's timeline, read with its first read (None: not a fact relation)."""
        if not _safe(relation):
            return None
        at = (group_id, subject_id, relation)
        if at not in self._ahead.windows:
            self._read_windows(group_id, [], [{"subject_key": None, "subject_id": subject_id,
                                               "relation": relation, "objects": []}])
        return self._ahead.windows.get(at)

    # Reads lock first, so what a writer reads cannot change before it commits.
    def entity_by_key(self, group_id: str, key: str) -> Entity | None:
        held, found = self._ahead.entity_by_key(group_id, key)
        if held:
            return found
        self._lock(group_id)
        with self._unheld(lambda cs: bool(cs.entities)):
            found = super().entity_by_key(group_id, key)
        self._ahead.hold(group_id, key, found)
        return found

    @contextmanager
    def _unheld(self, affects: Callable[[ChangeSet], bool]) -> Iterator[None]:
        """Reads inside go to the server without sending the held changes first, unless one of
        them ``affects`` what is read."""
        pending = self._pending
        if pending is not None and any(affects(cs) for cs in pending.sets):
            yield
            return
        self._w.before = None
        try:
            yield
        finally:
            self._w.before = self.flush

    def assertions(self, group_id: str, subject_id: str, relation: str) -> list[Assertion]:
        whole = self._whole.get((group_id, subject_id, relation))
        if whole is not None:
            return list(whole[0])
        self._lock(group_id)
        return super().assertions(group_id, subject_id, relation)

    def current_rows(self, group_id: str, subject_id: str, relation: str) -> list[Fact]:
        whole = self._whole.get((group_id, subject_id, relation))
        if whole is not None:
            return list(whole[1])
        self._lock(group_id)

        def affects(cs: ChangeSet) -> bool:  # rows of the key inserted, expired or cited (unknown: maybe)
            rows = [*(i for i, _ in cs.expire), *cs.provenance]
            return (any((f.subject_id, f.relation) == (subject_id, relation) for f in cs.insert)
                    or any(self.relation_of.get(i, relation) == relation
                           and self._row_entities.get(i, (subject_id,))[0] == subject_id for i in rows))

        with self._unheld(affects):
            return super().current_rows(group_id, subject_id, relation)

    def key_rows(self, query: RowQuery) -> list[Fact]:
        window = self._window(query.group_id, query.subject_id, query.relation)
        found = None if window is None else window.key_rows(query)
        if found is not None:
            return found
        self._lock(query.group_id)
        return super().key_rows(query)

    def key_assertions(self, query: AssertionQuery) -> list[Assertion]:
        window = self._window(query.group_id, query.subject_id, query.relation)
        found = None if window is None else window.key_assertions(query)
        if found is not None:
            return found
        self._lock(query.group_id)
        return super().key_assertions(query)

    def latest_assertion(self, group_id: str, subject_id: str, relation: str) -> Assertion | None:
        whole = self._whole.get((group_id, subject_id, relation))
        if whole is not None:  # the one that arrived last (assertion_latest.cypher's order)
            return max(whole[0], key=lambda a: (a.created_at, a.seq), default=None)
        window = self._window(group_id, subject_id, relation)
        if window is not None:
            return window.latest
        self._lock(group_id)
        return super().latest_assertion(group_id, subject_id, relation)

    def episode_by_source(self, group_id: str, source_id: str) -> Episode | None:
        self._lock(group_id)
        return super().episode_by_source(group_id, source_id)

    def facts(self, query: FactQuery) -> list[Fact]:
        if query.ids is not None and query == FactQuery(query.group_id, ids=query.ids, all_versions=True):
            # Rows by id as they stand (a merged row handed back whole): the newest rows held for
            # a summary carry their citations too.
            held = {f.id: f for (group_id, _), (_, rows, _) in self._newest.items()
                    if group_id == query.group_id for f in rows}
            if all(i in held for i in query.ids):
                return [held[i] for i in dict.fromkeys(query.ids)]
        return super().facts(query)

    def newest_facts(
        self, group_id: str, entity_id: str, *, at: datetime, limit: int, offset: int = 0
    ) -> list[Fact]:
        held = self._newest.get((group_id, entity_id))
        if held is not None and held[0] == to_micros(at):
            _, rows, floor = held
            sure = rows if floor is None else [f for f in rows if newest_key(f) <= floor]
            if floor is None or offset + limit <= len(sure):
                return self._seen(sure[max(0, offset) : max(0, offset) + max(0, limit)])
        self._lock(group_id)
        return super().newest_facts(group_id, entity_id, at=at, limit=limit, offset=offset)

    def summaries(
        self, group_id: str, entity_id: str | None = None, *, known_at: datetime | None = None,
        all_versions: bool = False,
    ) -> list[EntitySummary]:
        if entity_id is not None and known_at is None and not all_versions:
            held = self._current_summaries.get((group_id, entity_id))
            if held is not None:
                return list(held)
        self._lock(group_id)
        return super().summaries(group_id, entity_id, known_at=known_at, all_versions=all_versions)

    def insights(
        self, group_id: str, *, subject_id: str | None = None, known_at: datetime | None = None,
        all_versions: bool = False,
    ) -> list[Insight]:
        self._lock(group_id)
        return super().insights(group_id, subject_id=subject_id, known_at=known_at, all_versions=all_versions)

    def fact_vectors(
        self, group_id: str, fact_ids: Sequence[str], relations: Sequence[str] | None = None
    ) -> dict[str, list[float]]:
        self._lock(group_id)
        known = [self._fact_relation.get(i) for i in fact_ids]
        if relations is None and all(known):  # facts this write read or wrote: their types are known
            relations = [r for r in known if r is not None]
        with self._unheld(lambda cs: bool(cs.fact_embeddings)):  # held rows have no vector yet
            return super().fact_vectors(group_id, fact_ids, relations)

    def episode_assertions(self, group_id: str, episode_id: str) -> list[Assertion]:
        self._lock(group_id)
        return super().episode_assertions(group_id, episode_id)

    def entity_assertions(self, group_id: str, entity_id: str) -> list[Assertion]:
        self._lock(group_id)
        return super().entity_assertions(group_id, entity_id)

    def rows_citing(self, group_id: str, episode_id: str) -> list[Fact]:
        self._lock(group_id)
        return super().rows_citing(group_id, episode_id)

    # -- writing -----------------------------------------------------------------------------
    def apply(self, changes: ChangeSet) -> None:
        """Hold ``changes`` back when they are of the kinds sent together (:meth:`flush` sends
        them); else send what is held, then apply them step by step (:meth:`_apply_now`)."""
        groups = group_of(changes)
        if not groups and len(self._locked) == 1:  # vectors only: of the group this write locked
            groups = set(self._locked)
        if holdable(changes) and len(groups) == 1:
            (group_id,) = groups
            new = {check_identifier(f.relation) for f in changes.insert} - self._relations_ready
            if new:
                raise _NeedsSchema(new)  # the store makes it and runs the write again
            for a in changes.assertions:
                check_identifier(a.relation)  # relation names must be safe before they become types
            pending = self._pending
            if pending is not None and (pending.group_id != group_id or not pending.accepts(changes)):
                self.flush()
            if self._pending is None:
                self._pending = PendingWrites(group_id)
            self._pending.add(changes)
            self._held(group_id, changes)
            return
        self.flush()
        self._apply_now(changes)
        self._forget_reads()  # rarer changes (erasures, withdrawals): read again what is read

    def _held(self, group_id: str, changes: ChangeSet) -> None:
        """What reads answered here see of held ``changes`` (of ``group_id``)."""
        ahead = self._ahead
        # Keys read whole are read again if they change (a bulk load writes each once, after reading it).
        for key in {*((a.group_id, a.subject_id, a.relation) for a in changes.assertions),
                    *((f.group_id, f.subject_id, f.relation) for f in changes.insert),
                    *(self._whole_rows[i] for i in (*(i for i, _ in changes.expire), *changes.provenance)
                      if i in self._whole_rows)}:
            self._whole.pop(key, None)
        for e in changes.entities:
            ahead.entity_written(e, entity_keys((e.name, *e.aliases)))
        for a in changes.assertions:
            ahead.told(a)
        for row_id, _ in changes.expire:
            ahead.expired(row_id)
        for f in changes.insert:
            ahead.inserted(f)
            self.relation_of[f.id] = f.relation
            self.row_group[f.id] = f.group_id
            self._row_entities[f.id] = (f.subject_id, f.object_id)
            self._fact_relation[f.fact_id] = f.relation
        for ep in changes.episodes:
            self._episodes[(ep.group_id, ep.id)] = ep
        for e in changes.entities:
            held_row = self._entity_rows.get((e.group_id, e.id))
            if held_row is not None:
                seq, old = held_row
                self._entity_rows[(e.group_id, e.id)] = (seq, old.model_copy(
                    update={"type": e.type, "aliases": e.aliases, "summary": e.summary}))
        self._newest_after(changes)
        for summary in changes.summaries:
            self._current_summaries.pop((summary.group_id, summary.entity_id), None)
        for group_id, entity_id, _ in changes.summaries_ended:
            self._current_summaries.pop((group_id, entity_id), None)

    def _newest_after(self, changes: ChangeSet) -> None:
        """The newest rows held of each entity (what a summary refresh reads), as ``changes``
        leave them: rows expired gone, rows inserted naming it and not ended at the time held
        added, citations appended (the floor stays: a row added below it may have unread ones
        before it, and one expired above it lets none of those up)."""
        if not self._newest:
            return
        added: dict[tuple[str, str], list[Fact]] = {}
        for f in changes.insert:
            for entity_id in {f.subject_id, f.object_id} if f.expired_at is None else ():
                if (f.group_id, entity_id) in self._newest:
                    added.setdefault((f.group_id, entity_id), []).append(f)
        expired = {row_id for row_id, _ in changes.expire}
        changed = expired | changes.provenance.keys()
        for key, (at, rows, floor) in list(self._newest.items()):
            new = [f for f in added.get(key, ()) if f.invalid_at is None or to_micros(f.invalid_at) > at]
            if not new and not (changed and any(f.id in changed for f in rows)):
                continue
            kept = [_cited(f, changes.provenance.get(f.id, ())) for f in (*rows, *new) if f.id not in expired]
            self._newest[key] = (at, sorted(kept, key=newest_key), floor)

    def _forget_reads(self) -> None:
        self._whole.clear()
        self._ahead = ReadAhead()
        self._episodes.clear()
        self._entity_rows.clear()
        self._newest.clear()
        self._current_summaries.clear()

    def flush(self, group_id: str | None = None, summaries_of: Sequence[str] = (),
              at: datetime | None = None) -> None:
        """Send the held changes, in one statement; then write by type what it could not reach
        through a current row (provenance or vectors of expired rows), and take an old type's
        label off an entity whose type changed. ``summaries_of`` (of ``group_id``): what a summary
        refresh reads of them is read in the same statement, after the changes (at ``at``)."""
        pending, self._pending = self._pending, None
        reads = bool(summaries_of) and group_id is not None and at is not None
        if not pending and not reads:
            return
        if reads and pending and pending.group_id != group_id:
            self._pending = pending
            self.flush()
            pending = None
        if not pending:
            assert group_id is not None
            pending = PendingWrites(group_id)
        params = pending.params(entity_label, current_keys)
        changes = params["changes"]
        changes["summaries_of"] = list(summaries_of) if reads else []
        params.update(at_micros=to_micros(at) if reads and at is not None else 0, newest_limit=NEWEST_AHEAD,
                      search_group=search_group(pending.group_id))
        [out] = self._w.run_now("changes_write", params)
        self._locked.add(pending.group_id)
        if reads:
            self._summary_reads(pending.group_id, changes["summaries_of"], params["at_micros"], out)
        if out["inserted"] != len(changes["insert"]):
            raise StoreError("a subject or object entity of a new fact row does not exist")
        if out["expired"] != len(changes["expire"]):
            raise StoreError("a fact row to expire is not current; nothing was written")
        cited = set(out["cited"])
        late = {r["id"]: tuple(r["episode_ids"]) for r in changes["provenance"] if r["id"] not in cited}
        known = {f.id: f.group_id for f in pending.inserted()}
        self._add_provenance(late, known)
        embedded = set(out["fact_vectors_set"])
        self._set_fact_embeddings(
            {r["id"]: r["vector"] for r in changes["fact_vectors"] if r["id"] not in embedded}, known)
        for kind, done, rows in (
            (RecordKind.ENTITY, out["entity_vectors_set"], changes["entity_vectors"]),
            (RecordKind.EPISODE, out["episode_vectors_set"], changes["episode_vectors"]),
        ):
            left = {r["id"]: r["vector"] for r in rows if r["id"] not in set(done)}
            self._node_embeddings(kind, left, ChangeSet())
        types = {e["id"]: e["type"] for e in changes["entities"]}
        for row in out["retyped"]:
            old, new = entity_label(row["old_type"] or ""), entity_label(types.get(row["id"], ""))
            if old and old != new:
                self._w.run_now("entity_remove_label", {"group_id": pending.group_id, "ids": [row["id"]]},
                                label=old)

    def _summary_reads(self, group_id: str, ids: list[str], at_micros: int, out: Mapping[str, Any]) -> None:
        for row in out["entities_read"]:
            self._entity_read(row)
        summaries: dict[str, list[EntitySummary]] = {i: [] for i in ids}
        for row in out["summaries_read"]:
            summaries[row["entity_id"]].append(records.summary(row, NEO4J))
        newest: dict[str, list[Fact]] = {i: [] for i in ids}
        for rows in out["newest_read"]:
            for row in rows:
                newest[row["for_entity"]].append(records.fact(row, NEO4J))
        for i in ids:
            self._current_summaries[(group_id, i)] = summaries[i]
            rows = newest[i]
            floor = newest_key(rows[-1]) if len(rows) >= NEWEST_AHEAD else None
            self._newest[(group_id, i)] = (at_micros, rows, floor)

    def _apply_now(self, changes: ChangeSet) -> None:
        """Write a change set inside the managed transaction, one private step per kind of change
        in the embedded store's order: entities, episodes and assertions (per group, under its
        lock); then fact rows expired, inserted, given provenance; embeddings; mentions; entity
        summaries last."""
        groups = {
            *(e.group_id for e in changes.entities), *(e.group_id for e in changes.episodes),
            *(a.group_id for a in changes.assertions), *(f.group_id for f in changes.insert),
            *(v.group_id for v in changes.summaries), *(g for g, _, _ in changes.summaries_ended),
            *(g for g, _, _ in changes.summary_due), *(e.group_id for e in changes.erasures),
            *(i.group_id for i in changes.insights),
            *(g for g, _, _ in changes.insights_expired), *(g for g, _, _ in changes.insights_expire_citing),
            *(g for g, _ in changes.insights_deleted), *(g for g, _ in changes.insights_deleted_citing),
            *(g for g, _, _ in changes.episode_texts_erased),
        }
        for erasure in changes.erasures:
            self._erase(erasure)
        _log_erasures(self._r, changes.erasure_receipts)
        for group_id in sorted(groups):
            self._apply_group(group_id, changes)
        self._retract_episodes(changes)
        new = {check_identifier(f.relation) for f in changes.insert} - self._relations_ready
        if new:
            raise _NeedsSchema(new)  # the store makes it and runs the write again
        for f in changes.insert:
            self.relation_of[f.id] = f.relation
        known_groups = {f.id: f.group_id for f in changes.insert}
        self._expire_rows(changes.expire, known_groups)
        self._insert_rows(changes.insert)
        self._add_provenance(changes.provenance, known_groups)
        self._set_fact_embeddings(changes.fact_embeddings, known_groups)
        for kind, vectors in ((RecordKind.ENTITY, changes.entity_embeddings),
                              (RecordKind.EPISODE, changes.episode_embeddings)):
            self._node_embeddings(kind, vectors, changes)
        self._link_mentions(changes.insert)
        for group_id in sorted(groups):
            self._write_summaries(group_id, changes)
            self._write_insights(group_id, changes)

    def _erase(self, e: Erasure) -> None:
        """Delete the records of ``e`` (under the group's lock), rows and provenance first."""
        self._lock(e.group_id)
        g = e.group_id
        if e.rows:
            self._r.run("erase_rows", {"group_id": g, "ids": list(e.rows)})
        if e.uncited:
            self._r.run("erase_uncite", {"group_id": g, "episode_ids": list(e.uncited)})
        for name, ids in (("erase_assertions", e.assertions), ("erase_summaries", e.summaries),
                          ("erase_episodes", e.episodes), ("erase_entities", e.entities)):
            if ids:
                self._r.run(name, {"group_id": g, "ids": list(ids)})

    def _retract_episodes(self, changes: ChangeSet) -> None:
        """Mark withdrawn messages (``retract_episode``): search and context stop offering them;
        blank the text of those whose text is erased."""
        for group_id, episode_id, at in changes.episodes_retracted:
            self._lock(group_id)
            self._r.run("episode_retract", {"group_id": group_id, "id": episode_id, "at": _utc(at)})
        for group_id, episode_id, at in changes.episode_texts_erased:
            self._lock(group_id)
            self._r.run("episode_erase_text", {"group_id": group_id, "id": episode_id, "at": _utc(at)})

    def _apply_group(self, group_id: str, changes: ChangeSet) -> None:
        entities = [e for e in changes.entities if e.group_id == group_id]
        episodes = [e for e in changes.episodes if e.group_id == group_id]
        seq = self._lock(group_id, len(entities) + len(episodes))
        if entities:
            self._write_entities(group_id, entities, seq)
            seq += len(entities)
        if episodes:
            rows = [{"id": e.id, "content": e.content, "speaker": e.speaker, "source": e.source,
                     "source_id": e.source_id, "reference_time": _utc(e.reference_time),
                     "created_at": _utc(e.created_at), "seq": seq + i} for i, e in enumerate(episodes)]
            self._r.run("episode_create", {"group_id": group_id, "search_group": search_group(group_id),
                                           "rows": rows})
        assertions = [a for a in changes.assertions if a.group_id == group_id]
        if assertions:
            check = check_identifier  # relation names must be safe before they become types
            self._r.run("assertion_create", {"group_id": group_id, "rows": [
                {"id": a.id, "subject_id": a.subject_id, "relation": check(a.relation),
                 "object_id": a.object_id, "kind": a.kind, "at": _utc(a.at), "until": _utc(a.until),
                 "created_at": _utc(a.created_at), "seq": a.seq, "episode_id": a.episode_id,
                 "text": a.text, "confidence": a.confidence, "importance": a.importance,
                 "attributes_json": json.dumps(a.attributes, sort_keys=True),
                 "at_key": _moment_key(a.at), "object_key": a.object_id or ""}
                for a in assertions
            ]})

    def _write_entities(self, group_id: str, entities: list[Entity], seq: int) -> None:
        rows = [
            {"id": e.id, "name": e.name, "key": name_key(e.name), "type": e.type,
             "aliases": list(e.aliases), "summary": e.summary, "created_at": _utc(e.created_at),
             "name_text": " ".join((e.name, *e.aliases)), "seq": seq + i}
            for i, e in enumerate(entities)
        ]
        upserted = self._r.run("entity_upsert", {"group_id": group_id, "search_group": search_group(group_id),
                                                 "rows": rows})
        old_types = {r["id"]: r["old_type"] for r in upserted}
        add: dict[str, list[str]] = defaultdict(list)
        remove: dict[str, list[str]] = defaultdict(list)
        for e in entities:
            new, old = entity_label(e.type), entity_label(old_types.get(e.id) or "")
            if old and old != new:
                remove[old].append(e.id)
            if new:
                add[new].append(e.id)
        for label, ids in sorted(remove.items()):
            self._r.run("entity_remove_label", {"group_id": group_id, "ids": ids}, label=label)
        for label, ids in sorted(add.items()):
            self._r.run("entity_add_label", {"group_id": group_id, "ids": ids}, label=label)
        keys = [{"key": key, "entity_id": e.id}
                for e in entities for key in entity_keys((e.name, *e.aliases))]
        self._r.run("entity_keys_add", {"group_id": group_id, "rows": keys})

    def _expire_rows(self, expire: list[tuple[str, datetime]], known_groups: dict[str, str]) -> None:
        self._typed_writes(
            "fact_expire",
            [(row_id, {"id": row_id, "expired_at": _utc(at)}) for row_id, at in expire],
            known_groups, require_all=True, what="expire (row is not current)",
        )

    def _add_provenance(self, provenance: dict[str, tuple[str, ...]], known_groups: dict[str, str]) -> None:
        self._typed_writes(
            "fact_add_provenance",
            [(row_id, {"id": row_id, "episode_ids": list(dict.fromkeys(eps))})
             for row_id, eps in provenance.items()],
            known_groups, require_all=False, what="provenance",
        )

    def _set_fact_embeddings(self, vectors: dict[str, list[float]], known_groups: dict[str, str]) -> None:
        self._typed_writes(
            "fact_embeddings_set",
            [(row_id, {"id": row_id, "vector": [float(x) for x in v]}) for row_id, v in vectors.items()],
            known_groups, require_all=False, what="embedding",
        )

    def _insert_rows(self, facts: list[Fact]) -> None:
        """New fact rows, one statement per (group, relation type)."""
        by_key: dict[tuple[str, str], list[dict]] = defaultdict(list)
        for f in facts:
            by_key[(f.group_id, f.relation)].append({
                "id": f.id, "fact_id": f.fact_id, "subject_id": f.subject_id, "object_id": f.object_id,
                "relation": f.relation, "text": f.text, "valid_at": _utc(f.valid_at),
                "invalid_at": _utc(f.invalid_at), "created_at": _utc(f.created_at),
                "expired_at": _utc(f.expired_at), "episode_ids": list(dict.fromkeys(f.episode_ids)),
                "confidence": f.confidence, "importance": f.importance,
                "attributes_json": json.dumps(f.attributes, sort_keys=True), "current": current_keys(f),
            })
        for (group_id, relation), rows in sorted(by_key.items()):
            self._lock(group_id)
            params = {"group_id": group_id, "search_group": search_group(group_id), "relation": relation,
                      "rows": rows}
            written = self._r.run("fact_insert", params, rel=relation)
            if written[0]["written"] != len(rows):
                raise StoreError(f"{relation}: a subject or object entity of a new fact row does not exist")

    def _link_mentions(self, facts: list[Fact]) -> None:
        """``(:Episode)-[:MENTIONS]->(:Entity)`` for the subject and object of each new row."""
        mentions: dict[str, set[tuple[str, str]]] = defaultdict(set)
        for f in facts:
            for ep in f.episode_ids:
                mentions[f.group_id] |= {(ep, f.subject_id), (ep, f.object_id)}
        for group_id, pairs in mentions.items():
            self._r.run("mentions_link", {"group_id": group_id, "rows": [
                {"episode_id": ep, "entity_id": ent} for ep, ent in sorted(pairs)
            ]})

    def _write_summaries(self, group_id: str, changes: ChangeSet) -> None:
        """End the summaries that end, then add the new versions (each supersedes its entity's)."""
        ends = [{"entity_id": entity_id, "at": _utc(at)} for g, entity_id, at in changes.summaries_ended
                if g == group_id]
        rows = [{"id": v.id, "entity_id": v.entity_id, "entity": v.entity, "text": v.text, "method": v.method,
                 "fact_ids": list(v.fact_ids), "created_at": _utc(v.created_at)}
                for v in changes.summaries if v.group_id == group_id]
        if ends:
            self._r.run("summaries_end", {"group_id": group_id, "rows": ends})
        if rows:
            self._r.run("summaries_supersede", {"group_id": group_id, "rows": rows})
        due = [{"id": entity_id, "due": due} for g, entity_id, due in changes.summary_due if g == group_id]
        if due:
            self._r.run("entity_summary_due", {"group_id": group_id, "rows": due})

    def _write_insights(self, group_id: str, changes: ChangeSet) -> None:
        """New insight versions, then those that expire (by id, by what they cite), then deletions."""
        rows = [{"id": i.id, "text": i.text, "subject_ids": list(i.subject_ids), "subjects": list(i.subjects),
                 "derived_from": list(i.derived_from), "importance": i.importance,
                 "valid_at": _utc(i.valid_at), "invalid_at": _utc(i.invalid_at),
                 "created_at": _utc(i.created_at), "expired_at": _utc(i.expired_at),
                 "replaces": i.replaces, "producer": i.producer, "pattern": i.pattern}
                for i in changes.insights if i.group_id == group_id]
        if rows:
            self._r.run("insights_create", {"group_id": group_id, "rows": rows})
        expired = [{"id": i, "at": _utc(at)} for g, i, at in changes.insights_expired if g == group_id]
        if expired:
            self._r.run("insights_expire", {"group_id": group_id, "rows": expired})
        citing = [{"cited_id": c, "at": _utc(at)}
                  for g, c, at in changes.insights_expire_citing if g == group_id]
        if citing:
            self._r.run("insights_expire_citing", {"group_id": group_id, "rows": citing})
        ids = [i for g, i in changes.insights_deleted if g == group_id]
        cited = [c for g, c in changes.insights_deleted_citing if g == group_id]
        if ids or cited:
            self._r.run("insights_delete", {"group_id": group_id, "ids": ids, "cited_ids": cited})

    def _typed_writes(
        self,
        name: str,
        items: list[tuple[str, dict]],
        known_groups: dict[str, str],
        *,
        require_all: bool,
        what: str,
    ) -> None:
        """Run a per-relation-type statement over rows known by id, grouped by (group, type)."""
        if not items:
            return
        groups = self._groups_of_rows([row_id for row_id, _ in items], known_groups)
        batches: dict[tuple[str, str], list[dict]] = defaultdict(list)
        for row_id, row in items:
            if row_id not in groups or row_id not in self.relation_of:
                if require_all:
                    raise StoreError(f"fact row {row_id}: cannot {what}; it does not exist")
                continue
            batches[(groups[row_id], self.relation_of[row_id])].append(row)
        for (group_id, relation), rows in sorted(batches.items()):
            self._lock(group_id)
            written = self._r.run(name, {"group_id": group_id, "rows": rows}, rel=relation)
            if require_all and written[0]["written"] != len(rows):
                raise StoreError(f"{relation}: cannot {what}")

    def _groups_of_rows(self, row_ids: list[str], known_groups: dict[str, str]) -> dict[str, str]:
        """Group of each row id: from rows inserted now or read in this transaction (facts carry
        it), else looked up by id."""
        groups = {**self.row_group, **known_groups}
        missing = [r for r in row_ids if r not in groups or r not in self.relation_of]
        if missing and self._relations_ready:
            types = sorted(self._relations_ready)
            for rec in self._r.run("fact_rows_by_id", {"ids": missing}, types=types):
                groups[rec["id"]] = rec["group_id"]
                self.relation_of[rec["id"]] = rec["relation"]
        return groups

    def _node_embeddings(self, kind: str, vectors: dict[str, list[float]], changes: ChangeSet) -> None:
        if not vectors:
            return
        # The group of an entity/episode comes from the same change set, else from the stored
        # record (ids are unique across groups): every statement stays scoped to one group.
        items = changes.entities if kind == RecordKind.ENTITY else changes.episodes
        known = {x.id: x.group_id for x in items}
        unknown = [i for i in vectors if i not in known]
        if unknown:
            label = "Entity" if kind == RecordKind.ENTITY else "Episode"
            found = self._r.run("node_groups", {"ids": unknown}, label=label)
            known.update((r["id"], r["group_id"]) for r in found)
        batches: dict[str, list[dict]] = defaultdict(list)
        for item_id, v in vectors.items():
            if item_id in known:  # a record erased since its vector was made has none to get (as on SQLite)
                batches[known[item_id]].append({"id": item_id, "vector": [float(x) for x in v]})
        for group_id, rows in sorted(batches.items()):
            self._lock(group_id)
            self._r.run(f"{kind}_embeddings_set", {"group_id": group_id, "rows": rows})


class Neo4jStore:
    """:class:`temporal_graph.core.stores.protocol.Store` on Neo4j 5.26+ through the official driver.

    ``Neo4jStore("neo4j://localhost:7687", auth=("neo4j", "secret"), database="neo4j")``.
    The schema (``cypher/schema.cypher``) is applied idempotently on connect.
    """

    # A transaction is held in the server's memory until it commits (1 GiB by default, the
    # launcher's too): a bulk load of 100,000 facts in one went over it.
    load_batch_limit: int | None = 10_000

    def __init__(
        self,
        uri: str,
        auth: tuple[str, str] | None = None,
        database: str | None = None,
        *,
        driver: Any = None,
        apply_schema: bool = True,
    ) -> None:
        try:
            import neo4j
        except ImportError as exc:
            raise missing("neo4j", "the Neo4j store", exc) from None

        self.uri = uri
        self.database = database
        self.closed = False
        try:
            # The server's notifications (a property key no row has yet, ...) are about our own
            # statements, checked by Neo4j's linter in the tests; a user's log is no place for them.
            self.driver = driver or neo4j.GraphDatabase.driver(
                uri, auth=auth, notifications_min_severity="OFF")
            self.driver.verify_connectivity()
        except Exception as exc:  # noqa: BLE001 - any driver failure is a store error for the user
            raise StoreError(f"cannot connect to Neo4j at {uri}: {exc}") from None
        # Every transaction of the store waits for the ones it committed before (on a cluster, a
        # read after a write sees it); the driver's own manager, so execute_query shares it.
        self.bookmarks = self.driver.execute_query_bookmark_manager
        self._schema_lock = threading.Lock()
        self._relations_ready: set[str] = set()  # relation types whose schema exists
        self._fact_text_types: set[str] = set()  # types the fact full-text index covers
        self._readers: ThreadPoolExecutor | None = None  # at_once's threads, made when first asked
        self._readers_lock = threading.Lock()
        if apply_schema:
            try:
                self.apply_schema()
            except BaseException:
                if driver is None:  # ours: closed with the store that could not open
                    self.driver.close()
                raise

    # -- sessions ----------------------------------------------------------------------------
    def _session(self, *, read: bool = False) -> Any:
        """A session whose transactions are causally chained with every other of this store's
        (its bookmark manager), routed to a reader (``read``) or the leader."""
        import neo4j

        mode = neo4j.READ_ACCESS if read else neo4j.WRITE_ACCESS
        return self.driver.session(database=self.database, default_access_mode=mode,
                                   bookmark_manager=self.bookmarks)

    def _read(self, fn: Callable[[_Reads], T]) -> T:
        """``fn``'s statements, each a read transaction of its own (:class:`_QueryRunner`)."""
        return fn(_Reads(_QueryRunner(self)))

    def _schema(self, text: str, params: Mapping[str, Any] | None = None) -> list[dict]:
        """One schema command in its own transaction (schema and data never share one)."""
        with self._session() as session:
            return session.execute_write(lambda tx: [r.data() for r in tx.run(text, dict(params or {}))])

    # -- schema ------------------------------------------------------------------------------
    @_edge
    def apply_schema(self) -> None:
        with self._schema_lock:
            for command in split_statements(load("schema")):
                self._schema(command)
            self._relations_ready = {
                r["relation"] for r in self._schema(load("schema_fact_relations")) if r["relation"]
            }
            self._fact_text_types = self._current_fact_text_types()
            self._upgrade_layout()
            if self._relations_ready - self._fact_text_types:
                self._cover_relations()

    def _upgrade_layout(self) -> None:
        """Bring data written by an earlier layout up to this one: the groups' relation lists,
        the assertions' index keys, the :CurrentFact nodes of current rows, the group tokens
        of full-text search, the groups' counts of current rows and full-text indexes refreshed
        in the background (idempotent, so two processes connecting at once do no harm)."""
        found = self._schema(load("layout_version"))[0]
        version = found["version"] or 0
        if version > LAYOUT_VERSION:
            # This version would write it without what the newer layout keeps (layout 5's counts).
            raise StoreError(
                f"{self.uri}: the database's data layout is version {version}, newer than this "
                f"temporal-graph's ({LAYOUT_VERSION}); upgrade temporal-graph to use this database")
        if version == LAYOUT_VERSION:
            return
        if found["written"]:
            log.warning("%s: upgrading the data layout to version %d", self.uri, LAYOUT_VERSION)
            if version < 2:
                self._upgrade_to_2()
            if version < 3:
                for relation in sorted(self._relations_ready):  # fact vectors on :CurrentFact nodes
                    while self._schema(render("layout_current_vectors", rel=relation),
                                       {"batch": _UPGRADE_BATCH})[0]["upgraded"]:
                        pass
            if version < 4:
                self._group_tokens()
            self._group_counts()
        if version < 6:
            self._text_indexes_made_again()  # an earlier layout's schema, even with no data
        self._schema(load("await_indexes"), {"timeout_seconds": _INDEX_WAIT_SECONDS})
        for row in self._schema(load("layout_fact_vector_indexes")):
            relation = row["name"].removeprefix("fact_embedding_")
            if _safe(relation):
                self._schema(render("layout_fact_vector_index_drop", rel=relation))
        self._schema(load("layout_set"), {"version": LAYOUT_VERSION})

    def _group_tokens(self) -> None:
        """Layout 4: every group's entities, messages in recall and current rows take its
        full-text token."""
        for row in self._schema(load("groups_all")):
            params = {"group_id": row["group_id"], "search_group": search_group(row["group_id"]),
                      "batch": _UPGRADE_BATCH}
            for step in ("layout_search_group_entities", "layout_search_group_episodes",
                         "layout_search_group_rows"):
                while self._schema(load(step), params)[0]["upgraded"]:
                    pass

    def _group_counts(self) -> None:
        """Layout 5: every group's counts of its current rows, kept by its writes from now on."""
        for row in self._schema(load("groups_all")):
            self._schema(load("layout_group_counts"), {"group_id": row["group_id"]})

    def _text_indexes_made_again(self) -> None:
        """The full-text indexes made again as this layout makes them: to hold the group token
        (layout 4), refreshed in the background (layout 6)."""
        for command in split_statements(load("layout_text_indexes_drop")):
            self._schema(command)
        for command in split_statements(load("schema")):
            self._schema(command)
        # Every relation with a schema: an upgrade killed between the drop and the create finds
        # no fact index to read the types from.
        if wanted := self._fact_text_types | self._relations_ready:
            self._schema(load("fact_text_drop"))
            self._schema(render("fact_text_create", types=sorted(wanted)))
            self._fact_text_types = wanted

    def _upgrade_to_2(self) -> None:
        """Layout 2: :CurrentFact nodes, assertion keys and group relation lists."""
        self._schema(load("layout_group_relations"))
        while self._schema(load("layout_assertion_keys"),
                           {"undated": UNDATED, "batch": _UPGRADE_BATCH})[0]["upgraded"]:
            pass
        for relation in sorted(self._relations_ready):
            while rows := self._schema(render("layout_rows_without_current", rel=relation),
                                       {"batch": _UPGRADE_BATCH}):
                by_group: dict[str, list[dict]] = defaultdict(list)
                for row in rows:
                    keys = current_keys(records.fact(row, NEO4J))
                    by_group[row["group_id"]].append({**row, "current": keys})
                for group_id, current in by_group.items():
                    params = {"group_id": group_id, "search_group": search_group(group_id), "rows": current}
                    self._schema(render("layout_current_create", rel=relation), params)

    def _current_fact_text_types(self) -> set[str]:
        rows = self._schema(load("fact_text_types"))
        return set(rows[0]["types"] or ()) if rows else set()

    @_edge
    def ensure_relations(self, relations: Iterable[str]) -> None:
        """Create the per-type schema of relations seen for the first time, and widen the
        fact full-text index to cover them."""
        new = {check_identifier(r) for r in relations} - self._relations_ready
        if not new:
            return
        with self._schema_lock:
            new -= self._relations_ready
            for relation in sorted(new):
                for command in split_statements(render("schema_relation", rel=relation)):
                    self._schema(command)
                self._relations_ready.add(relation)
            self._cover_relations()

    def _cover_relations(self) -> None:
        """Widen the fact full-text index to every relation with a schema (dropped and made
        again: a process killed between the two leaves none, which the next connect remakes)."""
        covered = self._current_fact_text_types()
        wanted = covered | self._relations_ready
        if wanted != covered:
            self._schema(load("fact_text_drop"))
            self._schema(render("fact_text_create", types=sorted(wanted)))
        self._schema(load("await_indexes"), {"timeout_seconds": _INDEX_WAIT_SECONDS})
        self._fact_text_types = wanted

    # -- writes ------------------------------------------------------------------------------
    @_edge
    def write(self, fn: Callable[[Neo4jTx], T]) -> T:
        """Run ``fn`` (reads + ``apply``) in one managed write transaction, retried as a whole
        on transient errors (deadlocks, leader switches). A write of a relation type the database
        has no schema for yet is rolled back, the schema made (schema and data never share a
        transaction) and the write run again, so no row is ever written without its indexes."""
        while True:
            try:
                with self._session() as session, _begin_with_first_statement(session):
                    return session.execute_write(self._write_work(fn))
            except _NeedsSchema as needed:
                self.ensure_relations(needed.relations)

    def _write_work(self, fn: Callable[[Neo4jTx], T]) -> Callable[[Any], T]:
        def work(tx: Any) -> T:
            writer = Neo4jTx(_Runner(tx), self._relations_ready)
            result = fn(writer)
            writer.flush()  # what the write held back, before the driver commits
            return result

        return work

    def bulk_loading(self, group_id: str, facts: int) -> AbstractContextManager[None]:
        """Neo4j keeps its indexes up to date through a load: nothing to change around one."""
        return nullcontext()

    # -- reads -------------------------------------------------------------------------------
    @_edge
    def facts(self, query: FactQuery) -> list[Fact]:
        return self._read(lambda r: r.facts(query))

    @_edge
    def entities(self, group_id: str, *, ids: Sequence[str] | None = None) -> list[Entity]:
        return self._read(lambda r: r.entities(group_id, ids=ids))

    @_edge
    def entity_by_key(self, group_id: str, key: str) -> Entity | None:
        return self._read(lambda r: r.entity_by_key(group_id, key))

    @_edge
    def entities_by_keys(self, group_id: str, keys: Sequence[str]) -> dict[str, Entity]:
        wanted = list(dict.fromkeys(keys))
        if not wanted:
            return {}
        rows = self._read(lambda r: r._r.run("entities_by_keys", {"group_id": group_id, "keys": wanted}))
        return {row["key"]: records.entity(row, NEO4J) for row in rows}

    @_edge
    def entity_fact_presence(
        self, group_id: str, entity_ids: Sequence[str], *, valid_time: datetime | None,
        known_at: datetime | None,
    ) -> dict[str, tuple[bool, bool]]:
        ids = list(dict.fromkeys(entity_ids))
        out = dict.fromkeys(ids, (False, False))
        if ids:
            params = {"group_id": group_id, "entity_ids": ids, "valid_time": _utc(valid_time),
                      "known_at": _utc(known_at), "all_versions": False}
            for row in self._read(lambda r: r._r.run("entities_fact_presence", params)):
                out[row["entity_id"]] = (bool(row["holds"]), bool(row["recorded"]))
        return out

    @_edge
    def facts_around(
        self, group_id: str, entity_ids: Sequence[str], *, valid_time: datetime | None,
        known_at: datetime | None, limit: int,
    ) -> dict[str, tuple[int, list[Fact]]]:
        ids = list(dict.fromkeys(entity_ids))
        out: dict[str, tuple[int, list[Fact]]] = {i: (0, []) for i in ids}
        if ids:
            params = {"group_id": group_id, "entity_ids": ids, "valid_time": _utc(valid_time),
                      "known_at": _utc(known_at), "all_versions": False, "limit": max(0, int(limit))}
            for row in self._read(lambda r: r._r.run("facts_around_entities", params)):
                out[row["entity_id"]] = (int(row["near"]), [records.fact(f, NEO4J) for f in row["rows"]])
        if known_at is not None:
            rows = [f for _, facts in out.values() for f in facts]
            cited = {f.id: f for f in self._read(lambda r: r.cited_as_known_at(group_id, rows, known_at))}
            out = {i: (near, [cited[f.id] for f in facts]) for i, (near, facts) in out.items()}
        return out

    @_edge
    def episodes(self, group_id: str, *, ids: Sequence[str] | None = None) -> list[Episode]:
        return self._read(lambda r: r.episodes(group_id, ids=ids))

    @_edge
    def episode_by_source(self, group_id: str, source_id: str) -> Episode | None:
        return self._read(lambda r: r.episode_by_source(group_id, source_id))

    @_edge
    def assertions(self, group_id: str, subject_id: str, relation: str) -> list[Assertion]:
        return self._read(lambda r: r.assertions(group_id, subject_id, relation))

    @_edge
    def assertions_about(self, group_id: str, subject_ids: Sequence[str], relation: str) -> list[Assertion]:
        params = {"group_id": group_id, "subject_ids": list(dict.fromkeys(subject_ids)), "relation": relation}
        if not params["subject_ids"]:
            return []
        rows = self._read(lambda r: r._r.run("assertions_about", params))
        return [records.assertion(row, NEO4J) for row in rows]

    @_edge
    def current_rows(self, group_id: str, subject_id: str, relation: str) -> list[Fact]:
        return self._read(lambda r: r.current_rows(group_id, subject_id, relation))

    @_edge
    def recent_episodes(self, group_id: str, before: datetime, limit: int) -> list[Episode]:
        """Up to ``limit`` episodes with reference_time < ``before``, oldest first."""
        if limit <= 0:
            return []
        params = {"group_id": group_id, "before": _utc(before), "limit": int(limit)}
        rows = self._read(lambda r: r._r.run("episodes_before", params))
        return [records.episode(row, NEO4J) for row in reversed(rows)]

    @_edge
    def withdrawn_episodes(self, group_id: str, after: datetime) -> list[Episode]:
        params = {"group_id": group_id, "after": _utc(after)}
        rows = self._read(lambda r: r._r.run("episodes_withdrawn", params))
        return [records.episode(row, NEO4J) for row in rows]

    @_edge
    def episodes_spoken_by(self, group_id: str, speakers: Sequence[str]) -> list[str]:
        params = {"group_id": group_id, "speakers": list(dict.fromkeys(speakers))}
        return [row["id"] for row in self._read(lambda r: r._r.run("episodes_by_speaker", params))]

    @_edge
    def statements_of(self, group_id: str, episode_ids: Sequence[str]) -> list[Assertion]:
        params = {"group_id": group_id, "episode_ids": list(dict.fromkeys(episode_ids))}
        if not params["episode_ids"]:
            return []
        rows = self._read(lambda r: r._r.run("assertions_of_episodes", params))
        return [records.assertion(row, NEO4J) for row in rows]

    @_edge
    def facts_citing(self, group_id: str, episode_ids: Sequence[str]) -> list[Fact]:
        params = {"group_id": group_id, "episode_ids": list(dict.fromkeys(episode_ids))}
        if not params["episode_ids"]:
            return []
        return self._read(lambda r: [records.fact(row, NEO4J) for row in r._r.run("facts_citing", params)])

    @_edge
    def missing_embeddings(self, group_id: str, kind: str, limit: int) -> list[str]:
        name = _PLURAL[kind] + "_missing_embedding"
        params = {"group_id": group_id, "limit": int(limit)}
        return [row["id"] for row in self._read(lambda r: r._r.run(name, params))]

    @_edge
    def vectors(self, group_id: str, kind: str, ids: Sequence[str]) -> dict[str, list[float]]:
        unique = list(dict.fromkeys(ids))
        if not unique:
            return {}
        params = {"group_id": group_id, "ids": unique}
        name = "vectors_of_" + _PLURAL[kind]
        if kind == RecordKind.FACT:
            def read(r: _Reads) -> list[dict]:
                relations = r.listed_relations(group_id)
                return r._r.run(name, params, types=relations) if relations else []

            rows = self._read(read)
        else:
            rows = self._read(lambda r: r._r.run(name, params))
        return {row["id"]: [float(x) for x in row["vector"]] for row in rows}

    @_edge
    def count_facts(self, query: FactQuery) -> int:
        """``len(facts(query))``, counted in the database (the limit is ignored)."""
        if query.relation is not None and not _safe(query.relation):
            return 0
        if query.expired_after is not None:  # few rows, read through their own statement
            return len(self.facts(replace(query, limit=None)))
        if query == FactQuery(query.group_id, valid_time=query.valid_time, known_at=query.known_at,
                              limit=query.limit):
            # the group's rows (what search weighs by): counted on their :CurrentFact nodes, and as
            # known at K, corrected by the rows changed since K
            at = None if query.valid_time is None else to_micros(query.valid_time)
            params: dict[str, Any] = {"group_id": query.group_id, "start_key": LATEST if at is None else at,
                                      "end_key": UNDATED if at is None else at}
            if query.known_at is None:
                return int(self._read(lambda r: r._r.run("facts_count_current", params))[0]["n"])
            params.update(valid_time=_utc(query.valid_time), known_at=_utc(query.known_at))

            def count(r: _Reads) -> int:
                if not (relations := r.listed_relations(query.group_id)):
                    return 0
                return int(r._r.run("facts_count_known_at", params, types=relations)[0]["n"])

            return self._read(count)
        params = {k: v for k, v in fact_params(query).items() if k != "limit"}
        # Anchored on an id when the query names one, as the fact reads are (search counts each
        # named entity's facts: the group-wide statement expanded every relationship each time).
        name = ("facts_count_by_subject" if query.subject_id is not None
                else "facts_count_by_object" if query.object_id is not None else "facts_count")
        return int(self._read(lambda r: r._r.run(name, params))[0]["n"])

    @_edge
    def relations(self, group_id: str) -> list[str]:
        return self._read(lambda r: r.relations(group_id))

    @_edge
    def count_rows(self, group_id: str) -> int:
        """Fact rows of a group, every version."""
        return self._read(lambda r: r._r.run("fact_rows_count", {"group_id": group_id}))[0]["rows"]

    def at_once(self, reads: Sequence[Callable[[], Any]]) -> list[Any]:
        """Each read in a thread of its own: each of the store's reads is a statement of a
        session of its own (the driver's pool lends each a connection), so a search's index reads
        overlap on the server and on the wire instead of waiting for each other. Called from one
        of those threads (a read that reads at once itself), the reads run one after another:
        waiting there for the pool's other threads could wait for ever once every thread waits."""
        if len(reads) < 2 or threading.current_thread().name.startswith(_READER_THREADS):
            return [read() for read in reads]
        with self._readers_lock:
            if self._readers is None:
                self._readers = ThreadPoolExecutor(_READERS, thread_name_prefix=_READER_THREADS)
            readers = self._readers
        return [future.result() for future in [readers.submit(read) for read in reads]]

    @_edge
    def text_search(self, group_id: str, kind: str, query: str, limit: int) -> list[tuple[str, float]]:
        name = "text_search_" + _PLURAL[kind]
        lucene = quoted_terms(query)
        if lucene is None or limit <= 0:
            return []
        if kind == RecordKind.FACT and not self._fact_text_types:
            self._fact_text_types = self._current_fact_text_types()
            if not self._fact_text_types:
                return []  # no fact was ever written: the index does not exist yet
        lucene = f"+search_group:{search_group(group_id)}^0 +{_TEXT_FIELD[kind]}:({lucene})"
        params = {"group_id": group_id, "query": lucene, "limit": int(limit)}
        rows = self._read(lambda r: r._r.run(name, params))
        return [(row["id"], float(row["score"])) for row in rows]

    @_edge
    def vector_search(
        self, group_id: str, kind: str, vector: Sequence[float], limit: int, *, exact: bool = False
    ) -> list[tuple[str, float]]:
        """Nearest neighbours from Neo4j's own vector indexes (HNSW: approximate). An index spans
        every group, so its nearest may hold too few of the group's: then a group of at most
        :data:`SCAN_AT_MOST` records is scanned exactly (one statement; asking the index ever
        deeper took up to seven, the last for 131,072 neighbours, for a small group beside large
        ones), and a larger one's are asked of the index deeper until enough belong to it.
        ``exact`` is not honoured yet: reads over history (as_of, known_at) are answered by the
        same indexes, so they may miss a neighbour the embedded store's exact path finds (it has
        not been measured at scale on this store)."""
        del exact
        if limit <= 0:
            return []
        vec = [float(x) for x in vector]
        params: dict[str, Any] = {"group_id": group_id, "k": max(limit * 4, 32), "vector": vec}
        if kind == RecordKind.FACT:  # one index over every relation type's current rows
            name = "vector_search_facts"
        else:
            name, params["index_name"] = "vector_search_nodes", _VECTOR_INDEXES[kind]
        row = self._read(lambda r: r._r.run(name, params))[0]

        def short() -> bool:  # too few of the group's, and the index holds more
            return len(row["hits"] or []) < limit and row["seen"] == params["k"] < 100_000

        if short():
            scan = {"group_id": group_id, "k": int(limit), "vector": vec, "most": SCAN_AT_MOST}
            scanned = self._read(lambda r: r._r.run("vector_scan_" + _PLURAL[kind], scan))[0]
            if scanned["scanned"]:
                row = scanned
            else:
                while short():
                    params["k"] *= 4
                    row = self._read(lambda r: r._r.run(name, params))[0]
        # Neo4j's cosine score is (1 + cos) / 2; report the cosine itself, like the embedded store.
        hits = {h["id"]: 2.0 * float(h["score"]) - 1.0 for h in row["hits"] or []}
        return sorted(hits.items(), key=lambda item: (-item[1], item[0]))[:limit]

    # -- entity summaries --------------------------------------------------------------------
    @_edge
    def summaries(
        self, group_id: str, entity_id: str | None = None, *, known_at: datetime | None = None,
        all_versions: bool = False,
    ) -> list[EntitySummary]:
        return self._read(
            lambda r: r.summaries(group_id, entity_id, known_at=known_at, all_versions=all_versions)
        )

    @_edge
    def apply_summaries(
        self, group_id: str, versions: Sequence[EntitySummary], ended: Sequence[tuple[str, datetime]] = ()
    ) -> None:
        changes = ChangeSet(summaries=[v.model_copy(update={"group_id": group_id}) for v in versions],
                            summaries_ended=[(group_id, entity_id, at) for entity_id, at in ended])
        self.write(lambda tx: tx.apply(changes))

    @_edge
    def insights(
        self, group_id: str, *, subject_id: str | None = None, known_at: datetime | None = None,
        all_versions: bool = False,
    ) -> list[Insight]:
        return self._read(
            lambda r: r.insights(group_id, subject_id=subject_id, known_at=known_at,
                                 all_versions=all_versions)
        )

    @_edge
    def newest_facts(
        self, group_id: str, entity_id: str, *, at: datetime, limit: int, offset: int = 0
    ) -> list[Fact]:
        return self._read(lambda r: r.newest_facts(group_id, entity_id, at=at, limit=limit, offset=offset))

    @_edge
    def key_assertions(self, query: AssertionQuery) -> list[Assertion]:
        return self._read(lambda r: r.key_assertions(query))

    @_edge
    def stale_summaries(self, group_id: str, *, at: datetime, after: str = "", limit: int) -> list[str]:
        params = {"group_id": group_id, "after": after, "at": _utc(at), "limit": max(0, int(limit))}
        return [row["id"] for row in self._read(lambda r: r._r.run("summaries_stale", params))]

    # -- whole groups ------------------------------------------------------------------------
    @_edge
    def group_assertions(self, group_id: str) -> list[Assertion]:
        return self._read(lambda r: r.assertions_all(group_id))

    @_edge
    def record_counts(self, group_id: str) -> dict[str, int]:
        [row] = self._read(lambda r: r._r.run("record_counts", {"group_id": group_id}))
        found = [row[k] for k in ("entities", "episodes", "assertions", "facts", "summaries", "insights",
                                  "facts_unembedded", "entities_unembedded", "episodes_unembedded")]
        return dict(zip(RECORD_COUNTS, found, strict=True))

    @_edge
    def forget(self, group_id: str, *, request: ErasureRequest | None = None) -> int:
        """Every record of the group, deleted in transactions of at most :data:`FORGET_BATCH`
        (one transaction for a whole group of 100,000 facts went over a 1 GB heap and ended the
        server); the receipt is written with the last, once nothing of the group is left. A forget
        stopped midway leaves part of the group, which a second forget removes."""
        held = self._read(lambda r: _record_ids(r._r, group_id)) if request is not None else None
        removed = 0
        with self._session() as session:
            for step, counted in FORGET_STEPS:
                while True:
                    deleted = session.execute_write(
                        lambda tx, step=step: _Runner(tx).run(step, {"group_id": group_id,
                                                                     "limit": FORGET_BATCH})[0]["removed"])
                    removed += deleted if counted else 0
                    if deleted < FORGET_BATCH:
                        break

            def finish(tx: Any) -> None:
                runner = _Runner(tx)
                runner.run("forget_group_node", {"group_id": group_id})
                if request is not None and held is not None:
                    _log_erasures(runner, [request.receipt(held)])

            session.execute_write(finish)
        return removed

    @_edge
    def prune_history(self, group_id: str, before: datetime, *, request: ErasureRequest | None = None) -> int:
        def delete(tx: Any) -> int:
            runner = _Runner(tx)
            runner.run("group_lock", {"group_id": group_id, "count": 0})
            params = {"group_id": group_id, "before": _utc(before)}
            held = _record_ids(runner, group_id) if request is not None else {}
            steps = ("prune_insights", "prune_facts", "prune_summaries")  # insights first: they cite facts
            removed = sum(runner.run(step, params)[0]["removed"] for step in steps)
            if request is not None:  # what went: the ids held before and not after
                left = _record_ids(runner, group_id)
                _log_erasures(runner, [request.receipt({k: held[k] - left[k] for k in held})])
            return removed

        with self._session() as session:
            return session.execute_write(delete)

    @_edge
    def erase_episode_texts(
        self, group_id: str, before: datetime, at: datetime, *, request: ErasureRequest | None = None
    ) -> int:
        def erase(tx: Any) -> int:
            runner = _Runner(tx)
            runner.run("group_lock", {"group_id": group_id, "count": 0})
            params = {"group_id": group_id, "before": _utc(before), "at": _utc(at)}
            [done] = runner.run("episodes_erase_text", params)
            if request is not None:
                _log_erasures(runner, [request.receipt({"episode_texts": done["ids"]})])
            return int(done["erased"])

        with self._session() as session:
            return session.execute_write(erase)

    @_edge
    def erasures(self, group_id: str, since: datetime | None = None) -> list[ErasureReceipt]:
        params = {"group_key": group_key(group_id), "since": _utc(since)}
        rows = self._read(lambda r: r._r.run("erasure_log_read", params))
        return [records.erasure_receipt(row, group_id, NEO4J) for row in rows]

    def scrub(self) -> None:
        """Nothing the driver can do: Neo4j reuses the space of deleted records and keeps its
        transaction logs by its own retention settings (see the README's note on Neo4j's files)."""

    @_edge
    def groups(self) -> list[str]:
        """Every group that has been written to (admin and test clean-up)."""
        return [r["group_id"] for r in self._read(lambda r: r._r.run("groups_all", {}))]

    @_edge
    def close(self) -> None:
        self.closed = True
        if self._readers is not None:
            self._readers.shutdown(cancel_futures=True)
        self.driver.close()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

