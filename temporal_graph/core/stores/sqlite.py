"""The embedded store: one SQLite file (WAL, one transaction per write), zero setup.

Times are stored as integer microseconds since the epoch (exact and orderable). ``as_of`` over a
whole group goes through an R*Tree over (group, transaction time, valid time) boxes at minute
granularity, rounded outwards, then the exact half-open predicates are applied to the candidates;
a subject-scoped read goes through the B-tree on (group, subject, relation).

Every SQL string it runs is in :mod:`temporal_graph.core.stores.sql`; rows become records through
:mod:`temporal_graph.core.stores.records`, the decoder the Neo4j store shares.
"""

from __future__ import annotations

import json
import os
import sqlite3
import threading
import time
import uuid
from collections import defaultdict
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import replace
from datetime import datetime
from itertools import groupby
from pathlib import Path
from typing import Any, TypeVar

import numpy as np

from ..citations import cited_as_known_at, citing
from ..errors import ConstraintViolation, InvalidInput, StoreClosed, StoreError, StoreLocked
from ..model import Assertion, Entity, EntitySummary, Episode, Fact, Insight, RecordKind
from ..names import entity_keys, query_words, quoted_terms
from ..receipts import ErasureReceipt, ErasureRequest, group_key
from ..time import from_micros, to_micros
from . import composed, records, sql, vector_file
from .background import Background
from .edge import MapErrors
from .protocol import RECORD_COUNTS, AssertionQuery, ChangeSet, Erasure, FactQuery, RowQuery
from .records import SQLITE
from .vector_index import VectorIndex

T = TypeVar("T")
R = TypeVar("R", Fact, Assertion)


def _us(moment: datetime | None) -> int | None:
    return None if moment is None else to_micros(moment)


def _attributes_json(attributes: dict[str, Any]) -> str:
    """``json.dumps(attributes)``; most records have none, spelled without the encoder."""
    return json.dumps(attributes) if attributes else "{}"


def _vector_blob(vector: Sequence[float]) -> bytes:
    return np.asarray(vector, dtype=np.float32).tobytes()


def _vectors(rows: Iterable[sqlite3.Row]) -> Iterator[tuple[str, np.ndarray]]:
    """(id, vector) of rows of :func:`sql.stored_vectors`."""
    return ((r[0], np.frombuffer(r[1], dtype=np.float32)) for r in rows)


BUSY_TIMEOUT = 5.0  # seconds SQLite itself waits for another writer's lock (TGRAPH_LOCK_TIMEOUT overrides)
LOCK_RETRIES = 5  # after that wait, retry "database is locked" this often
LOCK_BACKOFF = 0.05  # seconds before the first retry; doubled each time, up to 1 s
# Fact rows from which a load builds the indexes its writes do not read at its end instead of
# keeping them up to date (and only when the file holds fewer): below, it gains too little.
BULK_INDEXES_AT = 200_000
# Vector changes kept in the log (of the whole file): a saved matrix older than the last this many
# is loaded whole. Saved again once 1/RESAVE_SHARE of its records changed since it was written,
# so a fresh process re-reads at most that share, and the file is rewritten that rarely.
VECTOR_CHANGES_KEPT = 100_000
# Full-text hits BM25 ranks per query at most (text_search): more are bounded, see _bounded_match.
TEXT_RANKED = 5_000
RESAVE_SHARE = 20


def _busy_timeout() -> float:
    """Seconds to wait for another writer's lock: ``TGRAPH_LOCK_TIMEOUT`` if set, else BUSY_TIMEOUT."""
    value = os.environ.get("TGRAPH_LOCK_TIMEOUT", "").strip()
    if not value:
        return BUSY_TIMEOUT
    try:
        seconds = float(value)
    except ValueError:
        seconds = -1.0
    if not 0 <= seconds < 86_400:
        raise InvalidInput(f"TGRAPH_LOCK_TIMEOUT: {value!r} is not a number of seconds from 0 to 86400")
    return seconds


def _is_locked(exc: sqlite3.Error) -> bool:
    return isinstance(exc, sqlite3.OperationalError) and ("locked" in str(exc) or "busy" in str(exc))


def store_error(exc: sqlite3.Error, path: str) -> StoreError:
    """The :mod:`temporal_graph.core.errors` error for a ``sqlite3`` failure on the file ``path``."""
    if _is_locked(exc):
        return StoreLocked(f"{path}: the database is locked by another writer (waited, then retried "
                           f"{LOCK_RETRIES} times); try again when it is done")
    if isinstance(exc, sqlite3.ProgrammingError) and "closed" in str(exc):
        return StoreClosed(f"{path}: the store is closed")
    if isinstance(exc, sqlite3.IntegrityError):
        return ConstraintViolation(f"{path}: a write broke a constraint ({exc}); nothing was written")
    return StoreError(f"{path}: {exc}")


@contextmanager
def _sqlite_errors(store: SQLiteStore) -> Iterator[None]:
    """The store's edge: every ``sqlite3`` failure leaves as a :class:`StoreError` naming the file."""
    try:
        yield
    except sqlite3.Error as exc:
        raise store_error(exc, store.path) from exc


_edge: MapErrors[SQLiteStore] = MapErrors(_sqlite_errors)


def _in_key_order(records: Sequence[R]) -> Sequence[R]:
    """Many rows or assertions in the order of the indexes most of them lead with (group, subject,
    relation, object): consecutive inserts then land on the same index pages, where in arrival
    order each lands on a random page of a large index (a 1M-fact load spent most of its time
    there). Nothing reads these tables in insertion order."""
    if len(records) < 2:
        return records
    return sorted(records, key=lambda r: (r.group_id, r.subject_id, r.relation, r.object_id or ""))


# Rows of statement parameters, or the JSON array of them (:func:`_json_params`).
Params = list[tuple[Any, ...]] | str


def _json_params(rows: list[tuple[Any, ...]]) -> str | None:
    """``rows`` as one JSON array, for :func:`sql.from_json`. JSON keeps every value as it is
    (text, integers, floats exactly, None) but NUL characters, where SQLite's JSON reader cuts a
    text: None then."""
    text = json.dumps(rows, ensure_ascii=False, allow_nan=False)
    return None if "\\u0000" in text else text


def _assertion_params(assertions: Sequence[Assertion]) -> list[tuple[Any, ...]]:
    return [(a.id, a.group_id, a.subject_id, a.relation, a.object_id, a.kind, _us(a.at), _us(a.until),
             to_micros(a.created_at), a.seq, a.episode_id, a.text, a.confidence, a.importance,
             _attributes_json(a.attributes)) for a in _in_key_order(assertions)]


def _fact_params(facts: Sequence[Fact]) -> list[tuple[Any, ...]]:
    return [(f.id, f.fact_id, f.group_id, f.subject_id, f.relation, f.object_id, f.text, _us(f.valid_at),
             _us(f.invalid_at), to_micros(f.created_at), _us(f.expired_at), f.confidence, f.importance,
             _attributes_json(f.attributes)) for f in facts]


def _provenance_params(facts: Sequence[Fact]) -> list[tuple[Any, ...]]:
    return [(f.id, i, e) for f in facts for i, e in enumerate(f.episode_ids)]


def _groups_of(changes: ChangeSet) -> set[str]:
    """The groups of the records ``changes`` names with their group (rows expired or given
    provenance and vectors are named by id: the steps writing them add their groups)."""
    records: Iterable[Any] = (*changes.entities, *changes.episodes, *changes.assertions, *changes.insert,
                              *changes.summaries, *changes.insights, *changes.erasures)
    named = (*changes.summaries_ended, *changes.summary_due, *changes.episodes_retracted,
             *changes.episode_texts_erased, *changes.insights_expired, *changes.insights_expire_citing,
             *changes.insights_deleted, *changes.insights_deleted_citing)
    return {str(r.group_id) for r in records} | {str(t[0]) for t in named}


def _new_rows_only(changes: ChangeSet) -> bool:
    """Whether ``changes`` only adds entities, assertions and rows that are current."""
    rest = replace(changes, entities=[], assertions=[], insert=[])
    return rest == ChangeSet() and all(f.expired_at is None for f in changes.insert)


def _build_missing_indexes(conn: sqlite3.Connection) -> None:
    """Build the indexes a large load drops (``SQLiteStore.bulk_loading``) when they are missing: in
    a new file, or one a load killed midway left. Not while another connection writes (it may be a
    load still running, which builds them at its end): the file answers the same without them, only
    more slowly, and the next open tries again."""
    present = {name for (name,) in conn.execute(sql.INDEX_NAMES)}
    missing = [name for name in sql.DEFERRABLE_INDEXES if name not in present]
    if not missing:
        return
    conn.execute(sql.busy_timeout(0))
    try:
        conn.execute(sql.BEGIN)
    except sqlite3.OperationalError as exc:
        if not _is_locked(exc):
            raise
        return
    finally:
        conn.execute(sql.busy_timeout(_busy_timeout()))
    _commit(conn, [sql.create_index(name) for name in missing])


def _commit(conn: sqlite3.Connection | _RetryingConnection, statements: list[str]) -> None:
    """Run ``statements`` in the transaction just begun on ``conn`` and commit it; on any failure
    roll it back and raise."""
    try:
        for statement in statements:
            conn.execute(statement)
    except BaseException:
        conn.execute(sql.ROLLBACK)
        raise
    conn.execute(sql.COMMIT)


class _RetryingConnection:
    """A sqlite3 connection that retries a statement refused with "database is locked", with
    backoff, a bounded number of times (on top of SQLite's own busy wait); the last failure is
    raised as is, for the store's edge to translate."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        self._conn = conn
        # Jobs of the current transaction on a second thread (a bulk load's inserts): a statement
        # of any other thread waits for them first, and fails with their failure (but a rollback).
        self.background: Background | None = None

    def settle(self, *, rolling_back: bool = False) -> None:
        """Wait for the jobs on the second thread; raise the first failure among them, unless the
        transaction is being rolled back anyway."""
        if self.background is not None and not self.background.on_worker():
            failed = self.background.wait()
            if failed is not None and not rolling_back:
                raise failed

    def _run(self, method: str, *args: Any) -> Any:
        if self.background is not None:
            self.settle(rolling_back=args[:1] == (sql.ROLLBACK,))
        delay = LOCK_BACKOFF
        for attempt in range(LOCK_RETRIES + 1):
            try:
                return getattr(self._conn, method)(*args)
            except sqlite3.OperationalError as exc:
                if not _is_locked(exc) or attempt == LOCK_RETRIES:
                    raise
                time.sleep(delay)
                delay = min(delay * 2, 1.0)
        raise AssertionError("unreachable")

    def execute(self, *args: Any) -> sqlite3.Cursor:
        return self._run("execute", *args)

    def executemany(self, *args: Any) -> sqlite3.Cursor:
        return self._run("executemany", *args)

    def executescript(self, *args: Any) -> sqlite3.Cursor:
        return self._run("executescript", *args)

    @property
    def in_transaction(self) -> bool:
        return self._conn.in_transaction

    def close(self) -> None:
        self._conn.close()


class SQLiteStore:
    """The embedded store. ``path`` is a file, or ``":memory:"`` for a throw-away store."""

    load_batch_limit: int | None = None  # a transaction may be as large as the file can grow

    def __init__(self, path: str | Path = "memory.db", *, synchronous: str = "FULL") -> None:
        self.path = str(path)
        if not self.path.strip():  # SQLite would open a temporary database, gone on close
            raise InvalidInput("the database path is empty; name a file, or ':memory:' for a throw-away one")
        try:
            conn = sqlite3.connect(
                self.path, isolation_level=None, check_same_thread=False, timeout=_busy_timeout()
            )
        except sqlite3.Error as exc:
            raise StoreError(f"cannot open {self.path}: {exc}") from None
        conn.row_factory = sqlite3.Row
        self._conn = _RetryingConnection(conn)
        self._lock = threading.RLock()
        if synchronous.upper() not in sql.SYNCHRONOUS_MODES:
            conn.close()
            raise StoreError(f"synchronous: {synchronous!r} is not OFF, NORMAL, FULL or EXTRA")
        try:
            with _sqlite_errors(self):
                if self.path != ":memory:":
                    self._conn.execute(sql.JOURNAL_WAL)
                    self._conn.execute(sql.MMAP_SIZE)
                self._conn.execute(sql.synchronous(synchronous))
                self._conn.execute(sql.FOREIGN_KEYS)
                self._conn.execute(sql.SECURE_DELETE)
                self._conn.execute(sql.CACHE_SIZE)
                self._conn.executescript(sql.SCHEMA)
                self._migrate()
                _build_missing_indexes(conn)
        except StoreError:
            conn.close()  # a store that failed to open keeps no handle on the file
            raise
        self._gids: dict[str, int] = {}
        # Vector indexes per (group, kind), loaded on first search and then kept current by the
        # writes of this connection; changes of a transaction reach them only once it commits.
        self._indexes: dict[tuple[str, str], VectorIndex] = {}
        # The vector mark each loaded index is at least as new as (a graph built later is saved
        # under it), and the marks the write under way leaves.
        self._index_marks: dict[tuple[str, str], str] = {}
        self._new_marks: dict[tuple[str, str], str] = {}
        # The (group, kind)s whose first vectors the write under way stores: their index starts
        # with them and is kept from then on (an import into a new group never loads it back).
        self._first_vectors: set[tuple[str, str]] = set()
        self._staged: list[tuple[str, str, str, np.ndarray | None]] = []  # (group, kind, id, vector|None)
        # Of the write under way: the groups it changes (their change marks are replaced as it
        # commits), and the records it removes for good by (group, kind), whose ids leave the
        # vector change log with every older entry of that (group, kind).
        self._changed: set[str] = set()
        self._purged: dict[tuple[str, str], set[str]] = {}
        self._data_version: int | None = None
        # Per (group, kind): words known to be held by more than TEXT_RANKED searchable records
        # (_bounded_match). Only a removal makes a word rarer, so an entry lives until the group's
        # next write from here or any write from another connection.
        self._common_words: dict[tuple[str, str], set[str]] = {}

    def _migrate(self) -> None:
        """Bring a file written by an older version up to this schema (columns added since)."""
        for table, column, declaration in sql.ADDED_COLUMNS:
            present = {r["name"] for r in self._conn.execute(sql.table_columns(table))}
            if column not in present:
                self._conn.execute(sql.add_column(table, column, declaration))
        for index in sql.RETIRED_INDEXES:
            self._conn.execute(sql.drop_index(index))
        for statement in sql.ADDED_INDEXES:
            self._conn.execute(statement)

    # -- lifecycle -------------------------------------------------------------------------
    @_edge
    def close(self) -> None:
        with self._lock:
            self._end_graph_builds(save=True)
            self._save_changed_indexes()
            self._conn.close()

    def _save_changed_indexes(self) -> None:
        """Save the indexes 1/RESAVE_SHARE of whose records changed since they were read or saved
        (all of them, for one this process wrote from the first vector): the next process reads a
        file instead of every vector (17 s at 1M). Then they go: the store is closing."""
        if not self._indexes or self.path == ":memory:":
            return
        self._drop_stale_caches()  # another connection wrote since: what is loaded is not saved
        for (group_id, kind), index in self._indexes.items():
            mark = self._index_marks.get((group_id, kind))
            if mark and index.unsaved and index.unsaved * RESAVE_SHARE >= len(index):
                with index.lock:
                    vector_file.write(self.path, group_id, kind, mark, index)
        self._indexes.clear()

    def _end_graph_builds(self, *, save: bool = False) -> None:
        """Stop the graph builds under way (nothing half-built is ever saved: the next process
        builds again); with ``save``, a graph already built is taken over and saved first."""
        for key, index in self._indexes.items():
            with index.lock:
                if save and index.building and index.wait_for_graph(timeout=0):
                    self._save_graph(key, index)
                index.stop_build()

    @_edge
    def write(self, fn: Callable[[SQLiteStore], T]) -> T:
        """Run ``fn`` (reads + one ``apply``) in one IMMEDIATE transaction: all or nothing."""
        with self._lock:
            self._conn.execute(sql.BEGIN)
            self._staged, self._changed, self._purged = [], set(), {}
            try:
                result = fn(self)
                self._conn.settle()  # here, so a failure of the jobs rolls the write back
                self._log_vector_changes(self._staged)
                self._bump_change_marks()
            except BaseException:
                self._conn.execute(sql.ROLLBACK)
                self._staged, self._changed, self._purged, self._new_marks = [], set(), {}, {}
                self._first_vectors = set()
                raise
            self._conn.execute(sql.COMMIT)
            self._publish_vectors()
            for key in [k for k in self._common_words if k[0] in self._changed]:
                del self._common_words[key]
            return result

    @contextmanager
    def bulk_loading(self, group_id: str, facts: int) -> Iterator[None]:
        """Around a load of about ``facts`` rows into ``group_id``. When the load is large and larger
        than the file, the indexes only queries read (``sql.QUERY_INDEXES``) are dropped, and the
        ones a write reads a key through (``sql.KEY_INDEXES``) too if the group has no entity yet
        (no key the load writes has assertions then); they are built again when it ends, however it
        ends. Meanwhile other connections' reads take other indexes (slower, same answers), and a
        load killed midway leaves them to the next open of the file (:func:`_build_missing_indexes`)."""
        deferred: list[str] = []
        with _sqlite_errors(self):
            # Rows ever inserted (near enough), read only for a load large enough to matter.
            if facts >= BULK_INDEXES_AT and facts >= self._rows(sql.LAST_FACT_ROWID)[0][0]:
                deferred += sql.QUERY_INDEXES
                if not self._rows(sql.GROUP_HAS_ENTITIES, (group_id,)):
                    deferred += sql.KEY_INDEXES
        if deferred:
            self._in_transaction([sql.drop_index(name) for name in deferred])
        self._conn.background = Background()
        try:
            yield
        finally:
            background, self._conn.background = self._conn.background, None
            background.close()
            if deferred:
                self._in_transaction([sql.create_index(name) for name in deferred])

    def _in_transaction(self, statements: list[str]) -> None:
        with self._lock, _sqlite_errors(self):
            self._conn.execute(sql.BEGIN)
            _commit(self._conn, statements)

    def _rows(self, statement: str, params: Iterable[Any] = ()) -> list[sqlite3.Row]:
        with self._lock:
            return self._conn.execute(statement, tuple(params)).fetchall()

    # -- StoreTx reads -----------------------------------------------------------------------
    def read_ahead(
        self, group_id: str, *, names: Sequence[str] = (), keys: Sequence[tuple[str, str]] = (),
        pairs: Sequence[tuple[str, str, str]] = (), episodes: Sequence[str] = (),
        summaries_of: Sequence[str] = (), at: datetime | None = None,
        whole_keys: Sequence[tuple[str, str]] = (),
    ) -> None:
        """A hint for stores behind a network (:meth:`StoreTx.read_ahead`): each read of the file
        costs microseconds, so nothing is read ahead."""

    @_edge
    def entity_by_key(self, group_id: str, key: str) -> Entity | None:
        rows = self._rows(sql.ENTITY_BY_KEY, (group_id, key))
        return records.entity(rows[0], SQLITE) if rows else None

    def entities_by_keys(self, group_id: str, keys: Sequence[str]) -> dict[str, Entity]:
        return composed.entities_by_keys(self, group_id, keys)

    def entity_fact_presence(
        self, group_id: str, entity_ids: Sequence[str], *, valid_time: datetime | None,
        known_at: datetime | None,
    ) -> dict[str, tuple[bool, bool]]:
        return composed.entity_fact_presence(self, group_id, entity_ids, valid_time=valid_time,
                                             known_at=known_at)

    def facts_around(
        self, group_id: str, entity_ids: Sequence[str], *, valid_time: datetime | None,
        known_at: datetime | None, limit: int,
    ) -> dict[str, tuple[int, list[Fact]]]:
        return composed.facts_around(self, group_id, entity_ids, valid_time=valid_time, known_at=known_at,
                                     limit=limit)

    @_edge
    def assertions(self, group_id: str, subject_id: str, relation: str) -> list[Assertion]:
        rows = self._rows(sql.ASSERTIONS, (group_id, subject_id, relation))
        return [records.assertion(r, SQLITE) for r in rows]

    @_edge
    def assertions_about(self, group_id: str, subject_ids: Sequence[str], relation: str) -> list[Assertion]:
        return [records.assertion(r, SQLITE) for subject_id in dict.fromkeys(subject_ids)
                for r in self._rows(sql.ASSERTIONS, (group_id, subject_id, relation))]

    @_edge
    def current_rows(self, group_id: str, subject_id: str, relation: str) -> list[Fact]:
        return self.facts(FactQuery(group_id, subject_id=subject_id, relation=relation))

    @_edge
    def key_rows(self, query: RowQuery) -> list[Fact]:
        out: list[Fact] = []
        for statement, params in sql.key_rows(query):
            if query.limit is not None and len(out) >= query.limit:
                break
            out += [records.fact(r, SQLITE) for r in self._rows(statement, params)]
        return out if query.limit is None else out[: query.limit]

    @_edge
    def key_assertions(self, query: AssertionQuery) -> list[Assertion]:
        return [records.assertion(r, SQLITE) for part in sql.key_assertions(query) for r in self._rows(*part)]

    @_edge
    def latest_assertion(self, group_id: str, subject_id: str, relation: str) -> Assertion | None:
        rows = self._rows(sql.LATEST_ASSERTION, (group_id, subject_id, relation))
        return records.assertion(rows[0], SQLITE) if rows else None

    @_edge
    def episode_by_source(self, group_id: str, source_id: str) -> Episode | None:
        rows = self._rows(sql.EPISODE_BY_SOURCE, (group_id, source_id))
        return records.episode(rows[0], SQLITE) if rows else None

    @_edge
    def episodes_spoken_by(self, group_id: str, speakers: Sequence[str]) -> list[str]:
        ids = (row[0] for speaker in dict.fromkeys(speakers)
               for row in self._rows(sql.EPISODES_BY_SPEAKER, (group_id, speaker)))
        return list(dict.fromkeys(ids))

    @_edge
    def statements_of(self, group_id: str, episode_ids: Sequence[str]) -> list[Assertion]:
        return [records.assertion(r, SQLITE) for episode_id in dict.fromkeys(episode_ids)
                for r in self._rows(sql.EPISODE_ASSERTIONS, (group_id, episode_id))]

    @_edge
    def facts_citing(self, group_id: str, episode_ids: Sequence[str]) -> list[Fact]:
        rows = (r for episode_id in dict.fromkeys(episode_ids)
                for r in self._rows(sql.ROWS_CITING, (episode_id, group_id)))
        return list({f.id: f for f in (records.fact(r, SQLITE) for r in rows)}.values())

    @_edge
    def episode_assertions(self, group_id: str, episode_id: str) -> list[Assertion]:
        rows = self._rows(sql.EPISODE_ASSERTIONS, (group_id, episode_id))
        return [records.assertion(r, SQLITE) for r in rows]

    @_edge
    def entity_assertions(self, group_id: str, entity_id: str) -> list[Assertion]:
        rows = self._rows(sql.ENTITY_ASSERTIONS, (group_id, entity_id, group_id, entity_id))
        return [records.assertion(r, SQLITE) for r in rows]

    @_edge
    def rows_citing(self, group_id: str, episode_id: str) -> list[Fact]:
        return [records.fact(r, SQLITE) for r in self._rows(sql.ROWS_CITING, (episode_id, group_id))]

    # -- writes ------------------------------------------------------------------------------
    def _gid(self, group_id: str) -> int:
        if group_id not in self._gids:
            self._conn.execute(sql.ADD_GROUP, (group_id,))
            (gid,) = self._conn.execute(sql.GROUP_NUMBER, (group_id,)).fetchone()
            self._gids[group_id] = gid
        return self._gids[group_id]

    @_edge
    def apply(self, changes: ChangeSet) -> None:
        """Write a change set; callers run it inside :meth:`write` (it does not commit).

        One private step per kind of change, in the order the Neo4j store follows too: entities,
        episodes and assertions; then fact rows expired, inserted, given provenance; embeddings
        last, since they may belong to rows inserted by this change set.
        """
        self._changed.update(_groups_of(changes))
        background = self._conn.background
        if background is not None and _new_rows_only(changes):
            # New entities, assertions and current rows, nothing else: inserted on the second
            # thread while the caller goes on (its next statement waits for them).
            job = self._insert_job(changes)
            if job is not None:
                background.submit(job)
                return
        for erasure in changes.erasures:
            self._erase(erasure)
        self._log_erasures(changes.erasure_receipts)
        self._upsert_entities(changes.entities)
        for episode in changes.episodes:
            self._insert_episode(episode)
        self._insert_assertions(_assertion_params(changes.assertions))
        for row_id, expired_at in changes.expire:
            self._expire_row(row_id, expired_at)
        facts = _in_key_order(changes.insert)
        self._insert_rows(facts, _fact_params(facts), _provenance_params(facts))
        for row_id, episode_ids in changes.provenance.items():
            self._add_provenance(row_id, episode_ids)
        for kind, vectors in (
            (RecordKind.FACT, changes.fact_embeddings),
            (RecordKind.ENTITY, changes.entity_embeddings),
            (RecordKind.EPISODE, changes.episode_embeddings),
        ):
            for item_id, vector in vectors.items():
                self._set_embedding(kind, item_id, vector)
        for group_id, episode_id, at in changes.episodes_retracted:
            self._retract_episode(group_id, episode_id, at)
        for group_id, episode_id, at in changes.episode_texts_erased:
            self._erase_episode_text(group_id, episode_id, at)
        self._write_summaries(changes.summaries, changes.summaries_ended)
        self._conn.executemany(sql.SET_SUMMARY_DUE, [(int(due), group_id, entity_id, int(due))
                                                     for group_id, entity_id, due in changes.summary_due])
        self._write_insights(changes)

    def _insert_job(self, changes: ChangeSet) -> Callable[[], None] | None:
        """The steps of :meth:`apply` for a change set of ``_new_rows_only``, in the same order, as a
        job for the second thread. The parameters of its rows are made here, as JSON, so the job
        mostly runs inside SQLite (None when a text holds a NUL: see :func:`_json_params`)."""
        facts = _in_key_order(changes.insert)
        assertions = _json_params(_assertion_params(changes.assertions))
        rows = _json_params(_fact_params(facts))
        provenance = _json_params(_provenance_params(facts))
        if assertions is None or rows is None or provenance is None:
            return None

        def job() -> None:
            self._upsert_entities(changes.entities)
            self._insert_assertions(assertions)
            self._insert_rows(facts, rows, provenance)

        return job

    def _many(self, statement: str, params: Params) -> None:
        """Run ``statement`` for each row of ``params``: one statement for a JSON array of them (and
        for a list on the second thread, whose ``executemany`` would wait for the GIL at every row)."""
        if not params or params == "[]":
            return
        background = self._conn.background
        if isinstance(params, list) and background is not None and background.on_worker():
            params = _json_params(params) or params
        if isinstance(params, str):
            self._conn.execute(sql.from_json(statement), (params,))
        else:
            self._conn.executemany(statement, params)

    def _write_insights(self, changes: ChangeSet) -> None:
        """New insight versions, then those that expire (by id, by what they cite), then deletions."""
        c = self._conn
        for i in changes.insights:
            c.execute(sql.INSERT_INSIGHT, (
                i.id, i.group_id, i.text, json.dumps(list(i.subject_ids)), json.dumps(list(i.subjects)),
                json.dumps(list(i.derived_from)), i.importance, _us(i.valid_at), _us(i.invalid_at),
                to_micros(i.created_at), _us(i.expired_at), i.replaces, i.producer, i.pattern))
            c.executemany(sql.INSERT_INSIGHT_EVIDENCE, [(i.group_id, d, i.id) for d in i.derived_from])
            c.executemany(sql.INSERT_INSIGHT_SUBJECT, [(i.group_id, e, i.id) for e in i.subject_ids])
        c.executemany(sql.EXPIRE_INSIGHT, [(to_micros(at), g, i) for g, i, at in changes.insights_expired])
        c.executemany(sql.EXPIRE_INSIGHTS_CITING,
                      [(to_micros(at), g, cited) for g, cited, at in changes.insights_expire_citing])
        doomed = list(changes.insights_deleted)
        for group_id, cited in changes.insights_deleted_citing:
            doomed += [(group_id, r[0]) for r in c.execute(sql.INSIGHTS_CITING, (group_id, cited))]
        for statement in sql.DELETE_INSIGHT:
            c.executemany(statement, doomed)

    def _upsert_entities(self, entities: Sequence[Entity]) -> None:
        """New entities one statement per table for all (a bulk load creates thousands); known
        ones, or an entity listed twice, one by one."""
        if len({e.id for e in entities}) < len(entities):
            for entity in entities:
                self._upsert_entity(entity)
            return
        if not entities:
            return
        present = self._conn.execute(sql.ENTITIES_PRESENT, (json.dumps([e.id for e in entities]),))
        known = {r[0] for r in present}
        new = [e for e in entities if e.id not in known]
        self._many(sql.INSERT_ENTITY, [(e.id, e.group_id, e.name, e.type, json.dumps(list(e.aliases)),
                                        e.summary, to_micros(e.created_at)) for e in new])
        self._many(sql.INSERT_ENTITY_NAMES_OF, [(" ".join((e.name, *e.aliases)), e.id) for e in new])
        self._many(sql.ADD_ENTITY_KEY, sorted((e.group_id, key, e.id) for e in new  # in index order
                                              for key in entity_keys((e.name, *e.aliases))))
        for entity in entities:
            if entity.id in known:
                self._upsert_entity(entity)

    def _upsert_entity(self, e: Entity) -> None:
        """A new entity, or new aliases/type/summary of a known one; its names stay searchable."""
        c = self._conn
        old = c.execute(sql.ENTITY_ROWID, (e.id,)).fetchone()
        if old is None:
            cur = c.execute(
                sql.INSERT_ENTITY,
                (e.id, e.group_id, e.name, e.type, json.dumps(list(e.aliases)), e.summary,
                 to_micros(e.created_at)),
            )
            rowid = cur.lastrowid
        else:
            rowid = old["rowid"]
            c.execute(sql.DELETE_ENTITY_NAMES, (rowid,))
            c.execute(
                sql.UPDATE_ENTITY,
                (e.type, json.dumps(list(e.aliases)), e.summary, e.id),
            )
        names = " ".join((e.name, *e.aliases))
        c.execute(sql.INSERT_ENTITY_NAMES, (rowid, names))
        for key in entity_keys((e.name, *e.aliases)):
            c.execute(sql.ADD_ENTITY_KEY, (e.group_id, key, e.id))

    def _insert_episode(self, ep: Episode) -> None:
        c = self._conn
        c.execute(
            sql.INSERT_EPISODE,
            (ep.id, ep.group_id, ep.speaker, ep.content, ep.source, ep.source_id,
             to_micros(ep.reference_time), to_micros(ep.created_at)),
        )
        (rowid,) = c.execute(sql.EPISODE_ROWID, (ep.id,)).fetchone()
        c.execute(sql.INSERT_EPISODE_TEXT, (rowid, ep.content))

    def _retract_episode(self, group_id: str, episode_id: str, at: datetime) -> None:
        """Mark a message withdrawn: search and context stop offering it (its row stays, for audit)."""
        self._conn.execute(sql.RETRACT_EPISODE, (to_micros(at), group_id, episode_id))
        self._staged.append((group_id, RecordKind.EPISODE, episode_id, None))

    def _erase_episode_text(self, group_id: str, episode_id: str, at: datetime) -> None:
        """Blank one message's text and vector, marked erased (scrub the file after)."""
        self._conn.execute(sql.EPISODE_TEXT, (group_id, episode_id))
        self._conn.execute(sql.ERASE_EPISODE_TEXT, (to_micros(at), group_id, episode_id))
        self._remove_vector(group_id, RecordKind.EPISODE, episode_id)

    def _erase(self, e: Erasure) -> None:
        """Delete the records of ``e`` with their search entries, boxes and provenance."""
        c, g = self._conn, e.group_id
        for row_id in e.rows:
            for (rowid,) in c.execute(sql.FACT_ROWID, (g, row_id)).fetchall():
                c.execute(sql.DELETE_FACT_TEXT, (rowid,))
                c.execute(sql.DELETE_FACT_BOX, (rowid,))
                c.execute(sql.DELETE_FACT_PROVENANCE, (row_id,))
                c.execute(sql.DELETE_FACT, (rowid,))
            self._remove_vector(g, RecordKind.FACT, row_id)
        for episode_id in e.uncited:
            c.execute(sql.UNCITE_EPISODE, (episode_id, g))
        c.executemany(sql.DELETE_ASSERTION, [(g, a) for a in e.assertions])
        c.executemany(sql.DELETE_SUMMARY, [(g, s) for s in e.summaries])
        for episode_id in e.episodes:
            for (rowid,) in c.execute(sql.EPISODE_ROWID_IN_GROUP, (g, episode_id)).fetchall():
                c.execute(sql.DELETE_EPISODE_TEXT, (rowid,))
                c.execute(sql.DELETE_EPISODE, (rowid,))
            self._remove_vector(g, RecordKind.EPISODE, episode_id)
        for entity_id in e.entities:
            for (rowid,) in c.execute(sql.ENTITY_ROWID_IN_GROUP, (g, entity_id)).fetchall():
                c.execute(sql.DELETE_ENTITY_NAMES, (rowid,))
                c.execute(sql.DELETE_ENTITY_KEYS, (g, entity_id))
                c.execute(sql.DELETE_ENTITY, (rowid,))
            self._remove_vector(g, RecordKind.ENTITY, entity_id)

    def _remove_vector(self, group_id: str, kind: str, item_id: str) -> None:
        """A record removed for good (erased, or its text erased): out of the loaded vector index
        when the write commits, and its id out of the vector change log."""
        self._staged.append((group_id, kind, item_id, None))
        self._purged.setdefault((group_id, kind), set()).add(item_id)

    def _insert_assertions(self, params: Params) -> None:
        self._many(sql.INSERT_ASSERTION, params)

    def _expire_row(self, row_id: str, expired_at: datetime) -> None:
        """End a current row's transaction time: it moves into the R*Tree of expired versions
        and out of the search indexes (which serve current facts only)."""
        c = self._conn
        found = c.execute(sql.CURRENT_ROW, (row_id,)).fetchone()
        if found is None:
            raise StoreError(f"fact row {row_id} is not current; it cannot be expired again")
        rowid, group_id, created, valid, invalid = found
        micros = to_micros(expired_at)
        c.execute(sql.EXPIRE_ROW, (micros, row_id))
        box = sql.expired_box(rowid, self._gid(group_id), created, micros, valid, invalid)
        c.execute(sql.INSERT_EXPIRED_BOX, box)
        c.execute(sql.DELETE_FACT_TEXT, (rowid,))
        self._staged.append((group_id, RecordKind.FACT, row_id, None))
        self._changed.add(group_id)

    def _insert_rows(self, facts: Sequence[Fact], params: Params, provenance: Params) -> None:
        """New rows (``params``: :func:`_fact_params` of ``facts``), their text searchable, their
        episodes in order (``provenance``): one statement each for the whole change set (a bulk
        load inserts thousands). A row that arrives already expired (a copied version) goes where
        expiring puts rows: into the R*Tree of expired versions, not into full-text search."""
        if not facts:
            return
        c = self._conn
        (last,) = c.execute(sql.LAST_FACT_ROWID).fetchone()
        self._many(sql.INSERT_FACT, params)
        # Rows get rowids above the largest one (SQLite's rule while it is below 2**63 - 1), so
        # the new rows are found by rowid, not looked up one by one by their random ids.
        searchable = c.execute(sql.INSERT_FACT_TEXTS_AFTER, (last,)).rowcount
        if searchable != sum(f.expired_at is None for f in facts):
            raise StoreError(f"{self.path}: new fact rows did not get the rowids expected")
        for f in facts:
            if f.expired_at is not None:
                (rowid,) = c.execute(sql.FACT_ROWID, (f.group_id, f.id)).fetchone()
                c.execute(sql.INSERT_EXPIRED_BOX, sql.expired_box(
                    rowid, self._gid(f.group_id), to_micros(f.created_at), to_micros(f.expired_at),
                    _us(f.valid_at), _us(f.invalid_at)))
        self._many(sql.ADD_PROVENANCE, provenance)

    def _set_embedding(self, kind: str, item_id: str, vector: Sequence[float]) -> None:
        """Store a vector; it reaches the loaded vector index when the transaction commits."""
        blob = _vector_blob(vector)
        found = self._conn.execute(sql.set_embedding(kind), (blob, item_id)).fetchall()
        self._changed.update(r[0] for r in found)
        if found and found[0][1] is None:  # facts: only current rows are searchable
            self._staged.append((found[0][0], kind, item_id, np.frombuffer(blob, dtype=np.float32)))

    def _write_summaries(
        self, versions: Sequence[EntitySummary], ended: Sequence[tuple[str, str, datetime]]
    ) -> None:
        """Expire each entity's current summary (at the new version's time, or at ``at``), then add
        the new versions as current."""
        if not versions and not ended:
            return
        closing = [(to_micros(v.created_at), v.group_id, v.entity_id) for v in versions]
        closing += [(to_micros(at), group_id, entity_id) for group_id, entity_id, at in ended]
        self._conn.executemany(sql.END_SUMMARY, closing)
        self._conn.executemany(
            sql.INSERT_SUMMARY,
            [(v.id, v.group_id, v.entity_id, v.entity, v.text, v.method, json.dumps(list(v.fact_ids)),
              to_micros(v.created_at)) for v in versions],
        )

    def _add_provenance(self, row_id: str, episode_ids: Iterable[str], start: int | None = None) -> None:
        if start is None:  # appending to a kept row: after what it has
            (start,) = self._conn.execute(sql.NEXT_PROVENANCE_SEQ, (row_id,)).fetchone()
        self._changed.update(r[0] for r in self._conn.execute(sql.FACT_GROUP, (row_id,)))
        for i, episode_id in enumerate(episode_ids):
            self._conn.execute(sql.ADD_PROVENANCE, (row_id, start + i, episode_id))

    # -- reads -------------------------------------------------------------------------------
    def _group_number(self, group_id: str) -> int:
        """The R*Tree's number of a group (-1 for a group never written)."""
        return self._gids.get(group_id) or self._lookup_gid(group_id) or -1

    @_edge
    def facts(self, query: FactQuery) -> list[Fact]:
        out: list[Fact] = []
        for part in sql.fact_plan(query, self._group_number):
            limit = None if query.limit is None else max(0, query.limit - len(out))
            out += [records.fact(r, SQLITE) for r in self._rows(*sql.select_facts(part, limit))]
        return out if query.known_at is None else self._cited_as_known_at(query.group_id, out, query.known_at)

    def _cited_as_known_at(self, group_id: str, facts: list[Fact], known_at: datetime) -> list[Fact]:
        """``facts`` citing only the messages recorded by ``known_at`` (:mod:`..citations`)."""
        ids, recorded = citing(facts), {}
        for i in range(0, len(ids), 500):
            chunk = ids[i : i + 500]
            for episode_id, micros in self._rows(sql.recorded_at(len(chunk)), [group_id, *chunk]):
                recorded[episode_id] = from_micros(micros)
        return cited_as_known_at(facts, recorded, known_at)

    @_edge
    def newest_facts(
        self, group_id: str, entity_id: str, *, at: datetime, limit: int, offset: int = 0
    ) -> list[Fact]:
        params = sql.newest_facts_params(group_id, entity_id, to_micros(at), max(0, limit), max(0, offset))
        rows = self._rows(sql.NEWEST_FACTS, params)
        return [records.fact(r, SQLITE) for r in rows]

    @_edge
    def fact_vectors(self, group_id: str, fact_ids: Sequence[str]) -> dict[str, list[float]]:
        out: dict[str, list[float]] = {}
        ids = list(dict.fromkeys(fact_ids))
        for i in range(0, len(ids), 500):
            chunk = ids[i : i + 500]
            for text, blob in self._rows(sql.fact_vectors(len(chunk)), [group_id, *chunk]):
                out[text] = np.frombuffer(blob, dtype=np.float32).tolist()
        return out

    @_edge
    def vectors(self, group_id: str, kind: str, ids: Sequence[str]) -> dict[str, list[float]]:
        out: dict[str, list[float]] = {}
        unique = list(dict.fromkeys(ids))
        for i in range(0, len(unique), 500):
            chunk = unique[i : i + 500]
            for item_id, blob in self._rows(sql.vectors_by_ids(kind, len(chunk)), [group_id, *chunk]):
                out[item_id] = np.frombuffer(blob, dtype=np.float32).tolist()
        return out

    @_edge
    def count_facts(self, query: FactQuery) -> int:
        """``len(facts(query))`` without building the rows."""
        parts = sql.fact_plan(query, self._group_number)
        return sum(self._rows(*sql.count_facts(part))[0][0] for part in parts)

    def _lookup_gid(self, group_id: str) -> int | None:
        row = self._rows(sql.GROUP_NUMBER, (group_id,))
        if row:
            self._gids[group_id] = row[0][0]
            return row[0][0]
        return None

    @_edge
    def entities(self, group_id: str, *, ids: Sequence[str] | None = None) -> list[Entity]:
        if ids is not None:
            rows = self._by_ids("entities", group_id, ids)
        else:
            rows = self._rows(sql.ENTITIES, (group_id,))
        return [records.entity(r, SQLITE) for r in rows]

    @_edge
    def episodes(self, group_id: str, *, ids: Sequence[str] | None = None) -> list[Episode]:
        if ids is not None:
            rows = self._by_ids("episodes", group_id, ids)
        else:
            rows = self._rows(sql.EPISODES, (group_id,))
        return [records.episode(r, SQLITE) for r in rows]

    @_edge
    def withdrawn_episodes(self, group_id: str, after: datetime) -> list[Episode]:
        rows = self._rows(sql.WITHDRAWN_EPISODES, (group_id, to_micros(after)))
        return [records.episode(r, SQLITE) for r in rows]

    @_edge
    def recent_episodes(self, group_id: str, before: datetime, limit: int) -> list[Episode]:
        rows = self._rows(sql.RECENT_EPISODES, (group_id, to_micros(before), limit))
        return [records.episode(r, SQLITE) for r in reversed(rows)]

    def _by_ids(self, table: str, group_id: str, ids: Sequence[str]) -> list[sqlite3.Row]:
        """The rows of ``table`` with these ids, 500 ids per statement."""
        out: list[sqlite3.Row] = []
        ids = list(dict.fromkeys(ids))
        for i in range(0, len(ids), 500):
            chunk = ids[i : i + 500]
            out += self._rows(sql.by_ids(table, len(chunk)), [group_id, *chunk])
        return out

    @_edge
    def groups(self) -> list[str]:
        return [r[0] for r in self._rows(sql.GROUPS)]

    @_edge
    def relations(self, group_id: str) -> list[str]:
        return [r[0] for r in self._rows(sql.RELATIONS, (group_id,))]

    def at_once(self, reads: Sequence[Callable[[], Any]]) -> list[Any]:
        return composed.at_once(reads)

    @_edge
    def text_search(self, group_id: str, kind: str, query: str, limit: int) -> list[tuple[str, float]]:
        match = quoted_terms(query)
        if match is None:
            return []
        match, since = self._bounded_match(group_id, kind, query, match)
        window = max(1, 2 * limit)
        while True:
            params = (match, since, window, group_id) if since is not None else (match, window, group_id)
            rows = self._rows(sql.text_search(kind, since=since is not None), params)
            found = [(r["id"], -r["score"]) for r in rows if r["id"] is not None]  # bm25(): lower is better
            if len(found) >= limit or len(rows) < window:  # enough, or every hit was seen
                return found[: max(0, limit)]
            window *= 4

    def _bounded_match(self, group_id: str, kind: str, query: str, match: str) -> tuple[str, int | None]:
        """At most TEXT_RANKED full-text hits are ranked per query, so a common word costs no more
        at 1M messages than at 20k. Up to that many hits: every one, as ever. More: the words held
        by more than TEXT_RANKED rows are left out (their BM25 weight is the least of any word of
        the query), unless the query has no other; and if the hits still number more, only the
        TEXT_RANKED written last are ranked (the rowid they start from is returned)."""
        with self._lock:
            def cutoff(words: str) -> int | None:  # costs TEXT_RANKED hits at most, never scores them
                if self._conn.execute(sql.text_bound(kind), (words, TEXT_RANKED)).fetchone() is None:
                    return None  # not that many hits in the whole file
                found = self._conn.execute(sql.text_cutoff(kind), (group_id, words, TEXT_RANKED)).fetchone()
                return None if found is None else int(found[0])

            self._drop_stale_caches()
            known = self._common_words.setdefault((group_id, kind), set())
            words = query_words(query)
            whole = None
            if not known.intersection(words):  # else the query has more hits than that: a word does
                whole = cutoff(match)
                if whole is None:
                    return match, None
            for word in words:
                if word not in known and cutoff(quoted_terms(word) or match) is not None:
                    known.add(word)
            rare = [w for w in words if w not in known]
            if rare and len(rare) < len(words):
                match = quoted_terms(" ".join(rare)) or match
                return match, cutoff(match)
            return match, whole if whole is not None else cutoff(match)

    @_edge
    def missing_embeddings(self, group_id: str, kind: str, limit: int) -> list[str]:
        return [r[0] for r in self._rows(sql.missing_embeddings(kind), (group_id, limit))]

    @_edge
    def vector_search(
        self, group_id: str, kind: str, vector: Sequence[float], limit: int, *, exact: bool = False
    ) -> list[tuple[str, float]]:
        """Cosine nearest neighbours over the group's vectors of ``kind`` (see
        :mod:`temporal_graph.core.stores.vector_index`): loaded from the file once, then kept current
        by writes; past the crossover through an HNSW graph with an exact re-rank, unless ``exact``."""
        # The search holds only the index's lock, so another thread's reads of the file (a text
        # search) run meanwhile; taken before the store's lock is let go: no write comes between.
        with self._lock:
            index = self._index(group_id, kind)
            index.lock.acquire()
        try:
            found = index.search(vector, limit, exact=exact)
        finally:
            index.lock.release()
        if index.graph_unsaved:
            with self._lock:
                self._save_graph((group_id, kind), index)
        return found

    def _save_graph(self, key: tuple[str, str], index: VectorIndex) -> None:
        """Save a graph built since the index was read (with the matrix its keys refer to)."""
        mark = self._index_marks.get(key)
        if index.graph_unsaved and mark and not self._conn.in_transaction and self._indexes.get(key) is index:
            with index.lock:
                vector_file.write(self.path, key[0], key[1], mark, index)

    def wait_for_graph(self, group_id: str, kind: str, timeout: float | None = None) -> bool:
        """Wait for the HNSW graph of (``group_id``, ``kind``) to be built, take it over and save
        it; whether its searches of current records now go through it (False below the crossover).
        For tests and benchmarks: searches never wait, they take the exact path meanwhile."""
        with self._lock:
            index = self._index(group_id, kind)
            with index.lock:
                ready = index.wait_for_graph(timeout)
            self._save_graph((group_id, kind), index)
            return ready

    def _drop_stale_caches(self) -> None:
        version = self._conn.execute(sql.DATA_VERSION).fetchone()[0]
        if version != self._data_version:  # another connection committed: trust nothing cached
            self._end_graph_builds()
            self._indexes.clear()
            self._index_marks.clear()
            self._common_words.clear()
            self._data_version = version

    def _index(self, group_id: str, kind: str) -> VectorIndex:
        self._drop_stale_caches()
        index = self._indexes.get((group_id, kind))
        if index is None:
            index = self._indexes[(group_id, kind)] = self._load_index(group_id, kind)
        return index

    def _load_index(self, group_id: str, kind: str) -> VectorIndex:
        """The saved matrix (see :mod:`vector_file`): as it is when its mark is the database's, with
        the vectors of the records changed since when it is a few writes old; else every stored
        vector. Saved for the next process when it was loaded whole or many records changed. Read
        inside an open write, the rows may still roll back: nothing is saved then."""
        found = self._conn.execute(sql.VECTOR_MARK, (group_id, kind)).fetchone()
        # No mark yet (a file from before marks, or no vector written): no file is trusted or
        # written, since an unmarked file could be another database's left at the same path.
        mark = found[0] if found else ""
        self._index_marks[(group_id, kind)] = mark
        saved = vector_file.read(self.path, group_id, kind) if mark else None
        # The mark is read before the vectors: a commit in between leaves a file whose label is
        # older than its content, which the next reader brings up to date again (never the other
        # way round).
        folder = vector_file.directory(self.path)
        if saved is not None:
            label, index = saved
            index.build_folder = folder
            if label == mark:
                return index
            changed = self._changed_since(group_id, kind, label)
            if changed is not None:
                self._reread_vectors(index, group_id, kind, changed)
                if len(changed) * RESAVE_SHARE >= len(index) and not self._conn.in_transaction:
                    vector_file.write(self.path, group_id, kind, mark, index)
                return index
        index = VectorIndex()
        index.build_folder = folder
        cursor = self._conn.execute(sql.stored_vectors(kind), (group_id,))
        while rows := cursor.fetchmany(10_000):
            index.add(_vectors(rows))
        index.approximate()  # past the crossover, its graph starts building (saved once taken over)
        if mark and not self._conn.in_transaction:
            vector_file.write(self.path, group_id, kind, mark, index)
        return index

    def _changed_since(self, group_id: str, kind: str, label: str) -> list[str] | None:
        """The records whose vectors writes changed after the one that left the mark ``label``;
        None when the log no longer reaches back to it (or it is no mark of this database)."""
        (seq,) = self._conn.execute(sql.VECTOR_MARK_SEQ, (label, group_id, kind)).fetchone()
        if seq is None:
            return None
        return [r[0] for r in self._conn.execute(sql.VECTOR_CHANGES_AFTER, (group_id, kind, seq))]

    def _reread_vectors(self, index: VectorIndex, group_id: str, kind: str, item_ids: list[str]) -> None:
        """Give ``index`` the stored vectors of ``item_ids`` as they are now: added or replaced,
        and removed when the record is gone or no longer searchable."""
        rows = self._conn.execute(sql.stored_vectors(kind, among=True), (group_id, json.dumps(item_ids)))
        found = list(_vectors(rows))
        index.remove(item_ids)
        index.add(found)

    def _log_vector_changes(self, staged: Sequence[tuple[str, str, str, np.ndarray | None]]) -> None:
        """In the write's transaction: a new mark for each (group, kind) whose vectors changed (a
        matrix saved under an older one is stale), and the records changed under it."""
        if not staged and not self._purged:
            return
        # An erase or a prune empties the log of each (group, kind) it removed records of: their
        # ids leave it, and a matrix saved before (which may hold their vectors) is loaded whole.
        self._conn.executemany(sql.FORGET_VECTOR_CHANGES_OF_KIND, sorted(self._purged))
        keys = {(g, k) for g, k, _, _ in staged} | set(self._purged)
        self._first_vectors = {key for key in keys - self._indexes.keys() if self._first_of(key, staged)}
        marks = {key: uuid.uuid4().hex for key in sorted(keys)}
        changes = dict.fromkeys((g, k, marks[(g, k)], item_id) for g, k, item_id, _ in staged
                                if item_id not in self._purged.get((g, k), ()))
        self._conn.executemany(sql.BUMP_VECTOR_MARK, [(g, k, mark) for (g, k), mark in marks.items()])
        self._new_marks = marks
        self._conn.executemany(sql.ADD_VECTOR_CHANGE, list(changes))
        self._conn.executemany(sql.PRUNE_VECTOR_CHANGES, [(g, k, VECTOR_CHANGES_KEPT) for g, k in marks])

    def _first_of(self, key: tuple[str, str], staged: Sequence[tuple[str, str, str, np.ndarray | None]],
                  ) -> bool:
        """The write under way stores the first vectors of ``key``: it adds some, there is no mark
        yet, and the group's stored vectors are the ones it adds (a file from before marks may
        hold others). Costs a look-up by key, and once per key the count of those vectors."""
        added = {item_id for g, k, item_id, vector in staged if (g, k) == key and vector is not None}
        if not added or self._conn.execute(sql.VECTOR_MARK, key).fetchone() is not None:
            return False
        (stored,) = self._conn.execute(sql.counted_vectors(key[1]), (key[0], len(added) + 1)).fetchone()
        return bool(stored == len(added))

    def _bump_change_marks(self) -> None:
        """In the write's transaction: a new change mark for each group it changed."""
        self._conn.executemany(sql.BUMP_CHANGE_MARK, [(g, uuid.uuid4().hex) for g in sorted(self._changed)])

    @_edge
    def change_mark(self, group_id: str) -> tuple[str | None, str | None]:
        """A token of the group's state: it changes with every committed write that changes the
        group (its records, their vectors, summaries, insights; an erase, a retraction, a prune),
        from this connection or any other process, and with every ``forget`` of any group (the
        first item). Costs one look-up by key. (None, None) for a file no write has changed since
        it was opened by a version with marks."""
        marks: dict[str, str] = {r[0]: r[1] for r in self._rows(sql.CHANGE_MARKS, (group_id,))}
        return marks.get(""), marks.get(group_id)

    def _publish_vectors(self) -> None:
        """After a commit: apply its vector changes to the indexes already loaded."""
        staged, self._staged = self._staged, []
        marks, self._new_marks = self._new_marks, {}
        first, self._first_vectors = self._first_vectors, set()
        if first:
            self._drop_stale_caches()  # first, so a later check does not drop the indexes begun here
        for key in first:  # the vectors below are all it holds
            self._indexes[key] = VectorIndex()
            self._indexes[key].build_folder = vector_file.directory(self.path)
        for key, mark in marks.items():
            if key in self._indexes:
                self._index_marks[key] = mark
        by_index: dict[tuple[str, str], list[tuple[str, np.ndarray | None]]] = defaultdict(list)
        for group_id, kind, item_id, vector in staged:
            by_index[(group_id, kind)].append((item_id, vector))
        for key, changes in by_index.items():
            index = self._indexes.get(key)
            if index is None:
                continue  # not loaded yet: it will read the committed rows when first searched
            # Once per index and per run of adds or removes, in order, not per vector: an import's
            # batch holds hundreds, and each call on mapped ids scans them (see VectorIndex.add).
            with index.lock:
                for removing, run in groupby(changes, key=lambda change: change[1] is None):
                    if removing:
                        index.remove([item_id for item_id, _ in run])
                    else:
                        index.add([(item_id, vector) for item_id, vector in run if vector is not None])
        # Our own commit moved data_version only for other connections; nothing to reload.

    # -- entity summaries --------------------------------------------------------------------
    @_edge
    def summaries(
        self, group_id: str, entity_id: str | None = None, *, known_at: datetime | None = None,
        all_versions: bool = False,
    ) -> list[EntitySummary]:
        k = None if known_at is None else to_micros(known_at)
        rows = self._rows(*sql.read_summaries(group_id, entity_id, k, all_versions))
        return [records.summary(r, SQLITE) for r in rows]

    @_edge
    def apply_summaries(
        self, group_id: str, versions: Sequence[EntitySummary], ended: Sequence[tuple[str, datetime]] = ()
    ) -> None:
        changes = ChangeSet(summaries=[v.model_copy(update={"group_id": group_id}) for v in versions],
                            summaries_ended=[(group_id, entity_id, at) for entity_id, at in ended])
        self.write(lambda tx: tx.apply(changes))

    @_edge
    def stale_summaries(self, group_id: str, *, at: datetime, after: str = "", limit: int) -> list[str]:
        micros = to_micros(at)
        rows = self._rows(sql.STALE_SUMMARIES, (group_id, after, micros, micros, max(0, limit)))
        return [r[0] for r in rows]

    # -- insights --------------------------------------------------------------------------------
    @_edge
    def insights(
        self, group_id: str, *, subject_id: str | None = None, known_at: datetime | None = None,
        all_versions: bool = False,
    ) -> list[Insight]:
        k = None if known_at is None else to_micros(known_at)
        rows = self._rows(*sql.read_insights(group_id, subject_id, k, all_versions))
        return [records.insight(r, SQLITE) for r in rows]

    # -- whole groups ------------------------------------------------------------------------
    @_edge
    def group_assertions(self, group_id: str) -> list[Assertion]:
        return [records.assertion(r, SQLITE) for r in self._rows(sql.GROUP_ASSERTIONS, (group_id,))]

    @_edge
    def record_counts(self, group_id: str) -> dict[str, int]:
        """Each listing read counted by SQLite (:func:`composed.record_counts` reads them: the
        reference, for the tests)."""
        def count(text: str, params: Sequence[Any]) -> int:
            return int(self._rows(sql.counted(text), params)[0][0])

        unembedded = [count(sql.missing_embeddings(kind), (group_id, -1))  # LIMIT -1: none
                      for kind in (RecordKind.FACT, RecordKind.ENTITY, RecordKind.EPISODE)]
        found = [count(sql.ENTITIES, (group_id,)), count(sql.EPISODES, (group_id,)),
                 count(sql.GROUP_ASSERTIONS, (group_id,)),
                 self.count_facts(FactQuery(group_id, all_versions=True)),
                 count(*sql.read_summaries(group_id, None, None, True)),
                 count(*sql.read_insights(group_id, None, None, True)), *unembedded]
        return dict(zip(RECORD_COUNTS, found, strict=True))

    @_edge
    def forget(self, group_id: str, *, request: ErasureRequest | None = None) -> int:
        def delete(_: SQLiteStore) -> int:
            c = self._conn
            if request is not None:  # the receipt first, of every id about to go (the log stays)
                self._log_erasures([request.receipt(self._ids(sql.GROUP_IDS, (group_id,)))])
            for statement in sql.FORGET_INDEXES:
                c.execute(statement, (group_id,))
            removed = sum(c.execute(statement, (group_id,)).rowcount for statement in sql.FORGET_ROWS)
            c.execute(sql.FORGET_GROUP_NAME, (group_id,))
            c.execute(sql.FORGET_VECTOR_MARKS, (group_id,))  # the saved matrices go with scrub() below
            c.execute(sql.FORGET_VECTOR_CHANGES, (group_id,))
            c.execute(sql.FORGET_CHANGE_MARK, (group_id,))  # its name goes; the file's mark moves
            self._changed.add("")
            for key in [k for k in self._indexes if k[0] == group_id]:
                index = self._indexes.pop(key)
                with index.lock:
                    index.stop_build()
            self._gids.pop(group_id, None)
            return removed

        removed = self.write(delete)
        self.scrub()
        return removed

    @_edge
    def prune_history(self, group_id: str, before: datetime, *, request: ErasureRequest | None = None) -> int:
        params = (group_id, to_micros(before))

        def delete(_: SQLiteStore) -> int:
            c = self._conn
            insights = [(group_id, i) for (i,) in c.execute(sql.PRUNED_INSIGHTS, params * 2).fetchall()]
            if request is not None:
                ids = self._ids(sql.PRUNABLE_IDS, params)
                self._log_erasures([request.receipt({**ids, "insight_versions": [i for _, i in insights]})])
            for statement in sql.DELETE_INSIGHT:
                c.executemany(statement, insights)
            for statement in sql.PRUNE_FACTS:
                c.execute(statement, params)
            removed = len(insights) + sum(c.execute(step, params).rowcount for step in sql.PRUNE_ROWS)
            if removed:
                self._changed.add(group_id)
                self._purged.setdefault((group_id, RecordKind.FACT), set())  # expired: none searchable
            return removed

        removed = self.write(delete)
        self.scrub()
        return removed

    @_edge
    def erase_episode_texts(
        self, group_id: str, before: datetime, at: datetime, *, request: ErasureRequest | None = None
    ) -> int:
        def erase(_: SQLiteStore) -> int:
            self._conn.execute(sql.OLD_EPISODE_TEXTS, (group_id, to_micros(before)))
            ids = self._conn.execute(sql.ERASE_EPISODE_TEXTS,
                                     (to_micros(at), group_id, to_micros(before))).fetchall()
            if request is not None:
                self._log_erasures([request.receipt({"episode_texts": [i for (i,) in ids]})])
            for (episode_id,) in ids:
                self._remove_vector(group_id, RecordKind.EPISODE, episode_id)
            if ids:
                self._changed.add(group_id)
            return len(ids)

        erased = self.write(erase)
        self.scrub()
        return erased

    # -- the erasure log ----------------------------------------------------------------------------
    def _ids(self, statements: Iterable[tuple[str, str]], params: tuple[Any, ...]) -> dict[str, list[str]]:
        """The ids each ``(kind, statement)`` selects, by kind (inside the caller's transaction)."""
        return {kind: [r[0] for r in self._conn.execute(statement, params).fetchall()]
                for kind, statement in statements}

    def _log_erasures(self, receipts: Sequence[ErasureReceipt]) -> None:
        self._conn.executemany(sql.LOG_ERASURE, [
            (group_key(r.group_id), r.request_id, to_micros(r.at), r.operation, json.dumps(r.counts),
             r.digest) for r in receipts])

    @_edge
    def erasures(self, group_id: str, since: datetime | None = None) -> list[ErasureReceipt]:
        start = -(2**63) if since is None else to_micros(since)
        rows = self._rows(sql.ERASURES, (group_key(group_id), start))
        return [records.erasure_receipt(r, group_id, SQLITE) for r in rows]

    @_edge
    def scrub(self) -> None:
        """Merge each full-text index into one segment (old segments keep deleted words), rebuild
        the file without free pages (VACUUM) and empty the WAL, so deleted text is in neither file.
        Raises :class:`StoreLocked` when another connection's read transaction, open since before,
        keeps the old pages in use past the lock timeout: the WAL cannot be emptied while it lasts
        (what was deleted is in no answer, but its bytes are still in the files; scrub again once
        it ends)."""
        if self.path == ":memory:":
            return
        with self._lock:
            self._end_graph_builds()  # their snapshots hold vectors too
            vector_file.remove_all(self.path)
            for fts in sql.FULL_TEXT_TABLES:
                self._conn.execute(sql.merge_segments(fts))
            self._conn.execute(sql.CHECKPOINT_TRUNCATE)
            self._conn.execute(sql.VACUUM)
            busy = self._conn.execute(sql.CHECKPOINT_TRUNCATE).fetchone()[0]
        if busy:
            raise StoreLocked(
                f"{self.path}: deleted for good from every answer, but another connection's open read "
                "still holds the file's old pages, so the deleted bytes remain in it and its -wal; end "
                "that reader (another process or console on this file) and scrub again (tg.scrub())")

