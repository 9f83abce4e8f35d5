"""The embedded store: one SQLite file (WAL, one transaction per write), zero setup.

Times are stored as integer microseconds since the epoch (exact and orderable). ``as_of`` over a
whole group goes through an R*Tree over (group, transaction time, valid time) boxes at minute
granularity, rounded outwards, then the exact half-open predicates are applied to the candidates;
a subject-scoped read goes through the B-tree on (group, subject, relation).
"""

from __future__ import annotations

import json
import os
import sqlite3
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from datetime import datetime
from pathlib import Path
from typing import Any, TypeVar

import numpy as np

from ..errors import ConstraintViolation, InvalidInput, StoreClosed, StoreError, StoreLocked
from ..model import DEFAULT_IMPORTANCE, Assertion, Entity, EntitySummary, Episode, Fact, RecordKind
from ..names import name_key, quoted_terms
from ..time import from_micros, to_micros
from .edge import MapErrors
from .protocol import ChangeSet, FactQuery
from .vector_index import VectorIndex

T = TypeVar("T")

_I32_MIN, _I32_MAX = -(2**31) + 1, 2**31 - 1
_MICROS_PER_MINUTE = 60_000_000
_SEP = "\x1f"

_SCHEMA = """
CREATE TABLE IF NOT EXISTS groups (gid INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE);
CREATE TABLE IF NOT EXISTS entities (
    id TEXT PRIMARY KEY, group_id TEXT NOT NULL, name TEXT NOT NULL, type TEXT NOT NULL,
    aliases TEXT NOT NULL, summary TEXT NOT NULL, created_at INTEGER NOT NULL, embedding BLOB);
CREATE INDEX IF NOT EXISTS entities_group ON entities (group_id);
CREATE TABLE IF NOT EXISTS entity_keys (
    group_id TEXT NOT NULL, key TEXT NOT NULL, entity_id TEXT NOT NULL, PRIMARY KEY (group_id, key));
CREATE TABLE IF NOT EXISTS episodes (
    id TEXT PRIMARY KEY, group_id TEXT NOT NULL, speaker TEXT, content TEXT NOT NULL,
    source TEXT NOT NULL, source_id TEXT, reference_time INTEGER NOT NULL,
    created_at INTEGER NOT NULL, embedding BLOB);
CREATE INDEX IF NOT EXISTS episodes_group ON episodes (group_id, reference_time);
CREATE UNIQUE INDEX IF NOT EXISTS episodes_source ON episodes (group_id, source_id)
    WHERE source_id IS NOT NULL;
CREATE TABLE IF NOT EXISTS assertions (
    id TEXT PRIMARY KEY, group_id TEXT NOT NULL, subject_id TEXT NOT NULL, relation TEXT NOT NULL,
    object_id TEXT, kind TEXT NOT NULL, at INTEGER, until INTEGER, created_at INTEGER NOT NULL,
    seq INTEGER NOT NULL, episode_id TEXT, text TEXT NOT NULL, confidence REAL NOT NULL,
    attributes TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS assertions_key ON assertions (group_id, subject_id, relation);
CREATE TABLE IF NOT EXISTS facts (
    id TEXT NOT NULL UNIQUE, fact_id TEXT NOT NULL, group_id TEXT NOT NULL,
    subject_id TEXT NOT NULL, relation TEXT NOT NULL, object_id TEXT NOT NULL, text TEXT NOT NULL,
    valid_at INTEGER, invalid_at INTEGER, created_at INTEGER NOT NULL, expired_at INTEGER,
    confidence REAL NOT NULL, attributes TEXT NOT NULL, embedding BLOB);
CREATE INDEX IF NOT EXISTS facts_key ON facts (group_id, subject_id, relation, expired_at);
CREATE INDEX IF NOT EXISTS facts_fact_id ON facts (group_id, fact_id);
CREATE INDEX IF NOT EXISTS facts_object ON facts (group_id, object_id);
CREATE INDEX IF NOT EXISTS facts_current ON facts (group_id, created_at, valid_at, invalid_at, expired_at)
    WHERE expired_at IS NULL;
-- Expired versions only: (group, transaction time, valid time) boxes in whole minutes, rounded
-- outwards; exact predicates are applied to the candidates.
CREATE VIRTUAL TABLE IF NOT EXISTS facts_rtree USING rtree_i32 (id, g0, g1, tx0, tx1, v0, v1);
-- What search still has to embed, found without scanning the group.
CREATE INDEX IF NOT EXISTS facts_unembedded ON facts (group_id)
    WHERE embedding IS NULL AND expired_at IS NULL;
CREATE INDEX IF NOT EXISTS entities_unembedded ON entities (group_id) WHERE embedding IS NULL;
CREATE INDEX IF NOT EXISTS episodes_unembedded ON episodes (group_id) WHERE embedding IS NULL;
CREATE TABLE IF NOT EXISTS fact_episodes (
    fact_row TEXT NOT NULL, seq INTEGER NOT NULL, episode_id TEXT NOT NULL,
    PRIMARY KEY (fact_row, episode_id));
-- Versions of each entity's summary, in transaction time (current: expired_at IS NULL).
CREATE TABLE IF NOT EXISTS summaries (
    id TEXT PRIMARY KEY, group_id TEXT NOT NULL, entity_id TEXT NOT NULL, entity TEXT NOT NULL,
    text TEXT NOT NULL, method TEXT NOT NULL, fact_ids TEXT NOT NULL, created_at INTEGER NOT NULL,
    expired_at INTEGER);
CREATE INDEX IF NOT EXISTS summaries_entity ON summaries (group_id, entity_id, created_at);
CREATE INDEX IF NOT EXISTS summaries_current ON summaries (group_id, entity_id) WHERE expired_at IS NULL;
-- Full-text indexes keyed by the rowid of their table; the fact index holds current rows only.
CREATE VIRTUAL TABLE IF NOT EXISTS facts_fts USING fts5 (text);
CREATE VIRTUAL TABLE IF NOT EXISTS entities_fts USING fts5 (names);
CREATE VIRTUAL TABLE IF NOT EXISTS episodes_fts USING fts5 (content);
"""

# Columns added since the first files were written, added to older files (and new ones) when opened:
# (table, column, declaration with the value old rows get).
_ADDED_COLUMNS = (
    ("assertions", "importance", f"INTEGER NOT NULL DEFAULT {DEFAULT_IMPORTANCE}"),
    ("facts", "importance", f"INTEGER NOT NULL DEFAULT {DEFAULT_IMPORTANCE}"),
)

_FACT_COLUMNS = """f.id, f.fact_id, f.group_id, f.subject_id, f.relation, f.object_id, f.text,
    f.valid_at, f.invalid_at, f.created_at, f.expired_at, f.confidence, f.importance, f.attributes,
    s.name AS subject, o.name AS object,
    (SELECT group_concat(episode_id, char(31)) FROM
        (SELECT episode_id FROM fact_episodes WHERE fact_row = f.id ORDER BY seq)) AS episode_ids"""
_NAMES_JOIN = "JOIN entities s ON s.id = f.subject_id JOIN entities o ON o.id = f.object_id"


# Table of each searchable kind, and which of its rows search covers (facts: current rows only).
_EMBEDDED = {
    RecordKind.FACT: ("facts", True),
    RecordKind.ENTITY: ("entities", False),
    RecordKind.EPISODE: ("episodes", False),
}


def _us(moment: datetime | None) -> int | None:
    return None if moment is None else to_micros(moment)


def _dt(micros: int | None) -> datetime | None:
    return None if micros is None else from_micros(micros)


def _minute_floor(micros: int | None, default: int) -> int:
    return default if micros is None else max(_I32_MIN, micros // _MICROS_PER_MINUTE)


def _minute_ceil(micros: int | None, default: int) -> int:
    return default if micros is None else min(_I32_MAX, -(-micros // _MICROS_PER_MINUTE))


def _vector_blob(vector: Sequence[float]) -> bytes:
    return np.asarray(vector, dtype=np.float32).tobytes()


BUSY_TIMEOUT = 5.0  # seconds SQLite itself waits for another writer's lock (TGRAPH_LOCK_TIMEOUT overrides)
LOCK_RETRIES = 5  # after that wait, retry "database is locked" this often
LOCK_BACKOFF = 0.05  # seconds before the first retry; doubled each time, up to 1 s


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


class _RetryingConnection:
    """A sqlite3 connection that retries a statement refused with "database is locked", with
    backoff, a bounded number of times (on top of SQLite's own busy wait); the last failure is
    raised as is, for the store's edge to translate."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        self._conn = conn

    def _run(self, method: str, *args: Any) -> Any:
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

    def close(self) -> None:
        self._conn.close()


class SQLiteStore:
    """The embedded store. ``path`` is a file, or ``":memory:"`` for a throw-away store."""

    def __init__(self, path: str | Path = "memory.db", *, synchronous: str = "FULL") -> None:
        self.path = str(path)
        try:
            conn = sqlite3.connect(
                self.path, isolation_level=None, check_same_thread=False, timeout=_busy_timeout()
            )
        except sqlite3.Error as exc:
            raise StoreError(f"cannot open {self.path}: {exc}") from None
        conn.row_factory = sqlite3.Row
        self._conn = _RetryingConnection(conn)
        self._lock = threading.RLock()
        if synchronous.upper() not in ("OFF", "NORMAL", "FULL", "EXTRA"):
            conn.close()
            raise StoreError(f"synchronous: {synchronous!r} is not OFF, NORMAL, FULL or EXTRA")
        try:
            with _sqlite_errors(self):
                if self.path != ":memory:":
                    self._conn.execute("PRAGMA journal_mode=WAL")
                self._conn.execute(f"PRAGMA synchronous={synchronous.upper()}")
                self._conn.execute("PRAGMA foreign_keys=ON")
                # 64 MiB of pages: the indexes of large groups stay hot.
                self._conn.execute("PRAGMA cache_size=-65536")
                self._conn.executescript(_SCHEMA)
                self._migrate()
        except StoreError:
            conn.close()  # a store that failed to open keeps no handle on the file
            raise
        self._gids: dict[str, int] = {}
        # Vector indexes per (group, kind), loaded on first search and then kept current by the
        # writes of this connection; changes of a transaction reach them only once it commits.
        self._indexes: dict[tuple[str, str], VectorIndex] = {}
        self._staged: list[tuple[str, str, str, np.ndarray | None]] = []  # (group, kind, id, vector|None)
        self._data_version: int | None = None

    def _migrate(self) -> None:
        """Bring a file written by an older version up to this schema (columns added since)."""
        for table, column, declaration in _ADDED_COLUMNS:
            present = {r["name"] for r in self._conn.execute(f"PRAGMA table_info({table})")}
            if column not in present:
                self._conn.execute(f"ALTER TABLE {table} ADD COLUMN {column} {declaration}")

    # -- lifecycle -------------------------------------------------------------------------
    @_edge
    def close(self) -> None:
        with self._lock:
            self._conn.close()

    @_edge
    def write(self, fn: Callable[[SQLiteStore], T]) -> T:
        """Run ``fn`` (reads + one ``apply``) in one IMMEDIATE transaction: all or nothing."""
        with self._lock:
            self._conn.execute("BEGIN IMMEDIATE")
            self._staged = []
            try:
                result = fn(self)
            except BaseException:
                self._conn.execute("ROLLBACK")
                self._staged = []
                raise
            self._conn.execute("COMMIT")
            self._publish_vectors()
            return result

    def _rows(self, sql: str, params: Iterable[Any] = ()) -> list[sqlite3.Row]:
        with self._lock:
            return self._conn.execute(sql, tuple(params)).fetchall()

    # -- StoreTx reads -----------------------------------------------------------------------
    @_edge
    def entity_by_key(self, group_id: str, key: str) -> Entity | None:
        rows = self._rows(
            "SELECT e.* FROM entity_keys k JOIN entities e ON e.id = k.entity_id "
            "WHERE k.group_id = ? AND k.key = ?",
            (group_id, key),
        )
        return _entity(rows[0]) if rows else None

    @_edge
    def assertions(self, group_id: str, subject_id: str, relation: str) -> list[Assertion]:
        rows = self._rows(
            "SELECT * FROM assertions WHERE group_id = ? AND subject_id = ? AND relation = ?",
            (group_id, subject_id, relation),
        )
        return [_assertion(r) for r in rows]

    @_edge
    def current_rows(self, group_id: str, subject_id: str, relation: str) -> list[Fact]:
        return self.facts(FactQuery(group_id, subject_id=subject_id, relation=relation))

    @_edge
    def episode_by_source(self, group_id: str, source_id: str) -> Episode | None:
        rows = self._rows(
            "SELECT * FROM episodes WHERE group_id = ? AND source_id = ?", (group_id, source_id)
        )
        return _episode(rows[0]) if rows else None

    # -- writes ------------------------------------------------------------------------------
    def _gid(self, group_id: str) -> int:
        if group_id not in self._gids:
            self._conn.execute("INSERT OR IGNORE INTO groups (name) VALUES (?)", (group_id,))
            (gid,) = self._conn.execute("SELECT gid FROM groups WHERE name = ?", (group_id,)).fetchone()
            self._gids[group_id] = gid
        return self._gids[group_id]

    @_edge
    def apply(self, changes: ChangeSet) -> None:
        """Write a change set; callers run it inside :meth:`write` (it does not commit).

        One private step per kind of change, in the order the Neo4j store follows too: entities,
        episodes and assertions; then fact rows expired, inserted, given provenance; embeddings
        last, since they may belong to rows inserted by this change set.
        """
        for entity in changes.entities:
            self._upsert_entity(entity)
        for episode in changes.episodes:
            self._insert_episode(episode)
        for assertion in changes.assertions:
            self._insert_assertion(assertion)
        for row_id, expired_at in changes.expire:
            self._expire_row(row_id, expired_at)
        for fact in changes.insert:
            self._insert_row(fact)
        for row_id, episode_ids in changes.provenance.items():
            self._add_provenance(row_id, episode_ids)
        for kind, vectors in (
            (RecordKind.FACT, changes.fact_embeddings),
            (RecordKind.ENTITY, changes.entity_embeddings),
            (RecordKind.EPISODE, changes.episode_embeddings),
        ):
            for item_id, vector in vectors.items():
                self._set_embedding(kind, item_id, vector)

    def _upsert_entity(self, e: Entity) -> None:
        """A new entity, or new aliases/type/summary of a known one; its names stay searchable."""
        c = self._conn
        old = c.execute("SELECT rowid FROM entities WHERE id = ?", (e.id,)).fetchone()
        if old is None:
            cur = c.execute(
                "INSERT INTO entities (id, group_id, name, type, aliases, summary, created_at) "
                "VALUES (?, ?, ?, ?, ?, ?, ?)",
                (e.id, e.group_id, e.name, e.type, json.dumps(list(e.aliases)), e.summary,
                 to_micros(e.created_at)),
            )
            rowid = cur.lastrowid
        else:
            rowid = old["rowid"]
            c.execute("DELETE FROM entities_fts WHERE rowid = ?", (rowid,))
            c.execute(
                "UPDATE entities SET type = ?, aliases = ?, summary = ? WHERE id = ?",
                (e.type, json.dumps(list(e.aliases)), e.summary, e.id),
            )
        names = " ".join((e.name, *e.aliases))
        c.execute("INSERT INTO entities_fts (rowid, names) VALUES (?, ?)", (rowid, names))
        for n in (e.name, *e.aliases):
            c.execute(
                "INSERT OR IGNORE INTO entity_keys (group_id, key, entity_id) VALUES (?, ?, ?)",
                (e.group_id, name_key(n), e.id),
            )

    def _insert_episode(self, ep: Episode) -> None:
        c = self._conn
        c.execute(
            "INSERT INTO episodes (id, group_id, speaker, content, source, source_id, "
            "reference_time, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            (ep.id, ep.group_id, ep.speaker, ep.content, ep.source, ep.source_id,
             to_micros(ep.reference_time), to_micros(ep.created_at)),
        )
        (rowid,) = c.execute("SELECT rowid FROM episodes WHERE id = ?", (ep.id,)).fetchone()
        c.execute("INSERT INTO episodes_fts (rowid, content) VALUES (?, ?)", (rowid, ep.content))

    def _insert_assertion(self, a: Assertion) -> None:
        self._conn.execute(
            "INSERT INTO assertions (id, group_id, subject_id, relation, object_id, kind, at, "
            "until, created_at, seq, episode_id, text, confidence, importance, attributes) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (a.id, a.group_id, a.subject_id, a.relation, a.object_id, a.kind, _us(a.at),
             _us(a.until), to_micros(a.created_at), a.seq, a.episode_id, a.text, a.confidence,
             a.importance, json.dumps(a.attributes)),
        )

    def _expire_row(self, row_id: str, expired_at: datetime) -> None:
        """End a current row's transaction time: it moves into the R*Tree of expired versions
        and out of the search indexes (which serve current facts only)."""
        c = self._conn
        found = c.execute(
            "SELECT rowid, group_id, created_at, valid_at, invalid_at FROM facts "
            "WHERE id = ? AND expired_at IS NULL", (row_id,)
        ).fetchone()
        if found is None:
            raise StoreError(f"fact row {row_id} is not current; it cannot be expired again")
        rowid, group_id, created, valid, invalid = found
        micros = to_micros(expired_at)
        c.execute("UPDATE facts SET expired_at = ? WHERE id = ?", (micros, row_id))
        gid = self._gid(group_id)
        c.execute(
            "INSERT INTO facts_rtree VALUES (?, ?, ?, ?, ?, ?, ?)",
            (rowid, gid, gid, _minute_floor(created, _I32_MIN), _minute_ceil(micros, _I32_MAX),
             _minute_floor(valid, _I32_MIN), _minute_ceil(invalid, _I32_MAX)),
        )
        c.execute("DELETE FROM facts_fts WHERE rowid = ?", (rowid,))
        self._staged.append((group_id, RecordKind.FACT, row_id, None))

    def _insert_row(self, f: Fact) -> None:
        cur = self._conn.execute(
            "INSERT INTO facts (id, fact_id, group_id, subject_id, relation, object_id, text, "
            "valid_at, invalid_at, created_at, expired_at, confidence, importance, attributes) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (f.id, f.fact_id, f.group_id, f.subject_id, f.relation, f.object_id, f.text,
             _us(f.valid_at), _us(f.invalid_at), to_micros(f.created_at), _us(f.expired_at),
             f.confidence, f.importance, json.dumps(f.attributes)),
        )
        self._conn.execute("INSERT INTO facts_fts (rowid, text) VALUES (?, ?)", (cur.lastrowid, f.text))
        self._add_provenance(f.id, f.episode_ids, start=0)

    def _set_embedding(self, kind: str, item_id: str, vector: Sequence[float]) -> None:
        """Store a vector; it reaches the loaded vector index when the transaction commits."""
        table, current_only = _EMBEDDED[kind]
        blob = _vector_blob(vector)
        found = self._conn.execute(
            f"UPDATE {table} SET embedding = ? WHERE id = ? RETURNING group_id, "
            f"{'expired_at' if current_only else 'NULL'}",
            (blob, item_id),
        ).fetchall()
        if found and found[0][1] is None:  # facts: only current rows are searchable
            self._staged.append((found[0][0], kind, item_id, np.frombuffer(blob, dtype=np.float32)))

    def _add_provenance(self, row_id: str, episode_ids: Iterable[str], start: int | None = None) -> None:
        if start is None:  # appending to a kept row: after what it has
            (start,) = self._conn.execute(
                "SELECT coalesce(max(seq), -1) + 1 FROM fact_episodes WHERE fact_row = ?", (row_id,)
            ).fetchone()
        for i, episode_id in enumerate(episode_ids):
            self._conn.execute(
                "INSERT OR IGNORE INTO fact_episodes (fact_row, seq, episode_id) VALUES (?, ?, ?)",
                (row_id, start + i, episode_id),
            )

    # -- reads -------------------------------------------------------------------------------
    def _plan(self, query: FactQuery) -> list[tuple[str, str, list[Any]]]:
        """The (FROM, WHERE, params) parts whose union answers ``query``, each on a fitting index.

        Whole-group time travel is split in two: current rows (not expired) through the partial
        index on (group, created_at, valid_at, invalid_at); expired versions through an R*Tree of
        their (transaction, valid) boxes. Expired versions have closed, usually short transaction
        intervals, so the tree prunes them well; open-ended boxes would defeat it, which is why
        current rows are not in it.
        """
        where = ["f.group_id = ?"]
        params: list[Any] = [query.group_id]
        if query.ids is not None:
            where.append(f"f.id IN ({','.join('?' * len(query.ids))})" if query.ids else "0")
            params += query.ids
        for column, value in (
            ("subject_id", query.subject_id),
            ("relation", query.relation),
            ("object_id", query.object_id),
            ("fact_id", query.fact_id),
        ):
            if value is not None:
                where.append(f"f.{column} = ?")
                params.append(value)
        if query.valid_time is not None:
            t = to_micros(query.valid_time)
            where.append(
                "(f.valid_at IS NULL OR f.valid_at <= ?) AND (f.invalid_at IS NULL OR f.invalid_at > ?)"
            )
            params += [t, t]
        # The planner would sometimes prefer the group-wide indexes; a subject read must not.
        base = "facts f INDEXED BY facts_key" if query.subject_id else "facts f"
        if query.all_versions:
            return [(base, " AND ".join(where), params)]
        if query.known_at is None:
            return [(base, " AND ".join([*where, "f.expired_at IS NULL"]), params)]
        k = to_micros(query.known_at)
        current = (base, " AND ".join([*where, "f.expired_at IS NULL AND f.created_at <= ?"]), [*params, k])
        expired = [*where, "f.expired_at > ? AND f.created_at <= ?"]
        expired_params = [*params, k, k]
        if query.subject_id or query.object_id or query.fact_id or query.ids is not None:
            return [current, (base, " AND ".join(expired), expired_params)]
        gid = self._gids.get(query.group_id) or self._lookup_gid(query.group_id) or -1
        box = ["r.g0 <= ? AND r.g1 >= ? AND r.tx0 <= ? AND r.tx1 >= ?"]
        box_params: list[Any] = [gid, gid, _minute_ceil(k, _I32_MAX), _minute_floor(k, _I32_MIN)]
        if query.valid_time is not None:
            t = to_micros(query.valid_time)
            box.append("r.v0 <= ? AND r.v1 >= ?")
            box_params += [_minute_ceil(t, _I32_MAX), _minute_floor(t, _I32_MIN)]
        # CROSS JOIN keeps the tree as the outer loop: candidates first, then their rows.
        source = "facts_rtree r CROSS JOIN facts f ON f.rowid = r.id"
        return [current, (source, " AND ".join([*box, *expired]), box_params + expired_params)]

    @_edge
    def facts(self, query: FactQuery) -> list[Fact]:
        out: list[Fact] = []
        for source, where, params in self._plan(query):
            if query.limit is not None:
                where, params = f"{where} LIMIT ?", [*params, max(0, query.limit - len(out))]
            sql = f"SELECT {_FACT_COLUMNS} FROM {source} {_NAMES_JOIN} WHERE {where}"
            out += [_fact(r) for r in self._rows(sql, params)]
        return out

    @_edge
    def count_facts(self, query: FactQuery) -> int:
        """``len(facts(query))`` without building the rows."""
        return sum(
            self._rows(f"SELECT count(*) FROM {source} WHERE {where}", params)[0][0]
            for source, where, params in self._plan(query)
        )

    @_edge
    def count_facts_brute_force(
        self, group_id: str, valid_time: datetime, known_at: datetime, subject_id: str | None = None
    ) -> int:
        """The as-of count by a full scan of every row, ignoring all indexes: a benchmark baseline."""
        t, k = to_micros(valid_time), to_micros(known_at)
        (n,) = self._rows(
            "SELECT count(*) FROM facts NOT INDEXED WHERE group_id = ? AND created_at <= ? AND "
            "(expired_at IS NULL OR expired_at > ?) AND (valid_at IS NULL OR valid_at <= ?) AND "
            "(invalid_at IS NULL OR invalid_at > ?) AND (? IS NULL OR subject_id = ?)",
            (group_id, k, k, t, t, subject_id, subject_id),
        )[0]
        return n

    def _lookup_gid(self, group_id: str) -> int | None:
        row = self._rows("SELECT gid FROM groups WHERE name = ?", (group_id,))
        if row:
            self._gids[group_id] = row[0][0]
            return row[0][0]
        return None

    @_edge
    def entities(self, group_id: str, *, ids: Sequence[str] | None = None) -> list[Entity]:
        if ids is None:
            rows = self._rows("SELECT * FROM entities WHERE group_id = ? ORDER BY rowid", (group_id,))
        else:
            rows = self._in_chunks(
                "SELECT * FROM entities WHERE group_id = ? AND id IN ({})", group_id, ids
            )
        return [_entity(r) for r in rows]

    @_edge
    def episodes(self, group_id: str, *, ids: Sequence[str] | None = None) -> list[Episode]:
        if ids is None:
            rows = self._rows(
                "SELECT * FROM episodes WHERE group_id = ? ORDER BY reference_time, rowid", (group_id,)
            )
        else:
            rows = self._in_chunks(
                "SELECT * FROM episodes WHERE group_id = ? AND id IN ({})", group_id, ids
            )
        return [_episode(r) for r in rows]

    @_edge
    def recent_episodes(self, group_id: str, before: datetime, limit: int) -> list[Episode]:
        rows = self._rows(
            "SELECT * FROM episodes WHERE group_id = ? AND reference_time < ? "
            "ORDER BY reference_time DESC, rowid DESC LIMIT ?",
            (group_id, to_micros(before), limit),
        )
        return [_episode(r) for r in reversed(rows)]

    def _in_chunks(self, sql: str, group_id: str, ids: Sequence[str]) -> list[sqlite3.Row]:
        out: list[sqlite3.Row] = []
        ids = list(dict.fromkeys(ids))
        for i in range(0, len(ids), 500):
            chunk = ids[i : i + 500]
            out += self._rows(sql.format(",".join("?" * len(chunk))), [group_id, *chunk])
        return out

    @_edge
    def groups(self) -> list[str]:
        return [r[0] for r in self._rows(
            "SELECT group_id FROM episodes UNION SELECT group_id FROM entities ORDER BY 1"
        )]

    @_edge
    def relations(self, group_id: str) -> list[str]:
        return [r[0] for r in self._rows(
            "SELECT DISTINCT relation FROM facts WHERE group_id = ? ORDER BY relation", (group_id,)
        )]

    @_edge
    def text_search(self, group_id: str, kind: str, query: str, limit: int) -> list[tuple[str, float]]:
        match = quoted_terms(query)
        if match is None:
            return []
        table, fts, extra = {
            RecordKind.FACT: ("facts", "facts_fts", "AND t.expired_at IS NULL"),
            RecordKind.ENTITY: ("entities", "entities_fts", ""),
            RecordKind.EPISODE: ("episodes", "episodes_fts", ""),
        }[kind]
        rows = self._rows(
            f"SELECT t.id, bm25({fts}) AS score FROM {fts} JOIN {table} t ON t.rowid = {fts}.rowid "
            f"WHERE {fts} MATCH ? AND t.group_id = ? {extra} ORDER BY score LIMIT ?",
            (match, group_id, limit),
        )
        return [(r["id"], -r["score"]) for r in rows]  # bm25() is lower-is-better

    @_edge
    def missing_embeddings(self, group_id: str, kind: str, limit: int) -> list[str]:
        table, current_only = _EMBEDDED[kind]
        extra = "AND expired_at IS NULL" if current_only else ""
        rows = self._rows(
            f"SELECT id FROM {table} WHERE group_id = ? AND embedding IS NULL {extra} LIMIT ?",
            (group_id, limit),
        )
        return [r[0] for r in rows]

    @_edge
    def vector_search(
        self, group_id: str, kind: str, vector: Sequence[float], limit: int
    ) -> list[tuple[str, float]]:
        """Exact cosine nearest neighbours over the group's vectors of ``kind`` (see
        :mod:`temporal_graph.core.stores.vector_index`): loaded from the file once, then kept current
        by writes."""
        with self._lock:
            return self._index(group_id, kind).search(vector, limit)

    def _index(self, group_id: str, kind: str) -> VectorIndex:
        version = self._conn.execute("PRAGMA data_version").fetchone()[0]
        if version != self._data_version:  # another connection committed: trust nothing cached
            self._indexes.clear()
            self._data_version = version
        index = self._indexes.get((group_id, kind))
        if index is None:
            table, current_only = _EMBEDDED[kind]
            extra = "AND expired_at IS NULL" if current_only else ""
            index = VectorIndex()
            cursor = self._conn.execute(
                f"SELECT id, embedding FROM {table} WHERE group_id = ? AND embedding IS NOT NULL {extra}",
                (group_id,),
            )
            while rows := cursor.fetchmany(10_000):
                index.add((r[0], np.frombuffer(r[1], dtype=np.float32)) for r in rows)
            self._indexes[(group_id, kind)] = index
        return index

    def _publish_vectors(self) -> None:
        """After a commit: apply its vector changes to the indexes already loaded."""
        staged, self._staged = self._staged, []
        for group_id, kind, item_id, vector in staged:
            index = self._indexes.get((group_id, kind))
            if index is None:
                continue  # not loaded yet: it will read the committed rows when first searched
            if vector is None:
                index.remove([item_id])
            else:
                index.add([(item_id, vector)])
        # Our own commit moved data_version only for other connections; nothing to reload.

    # -- entity summaries --------------------------------------------------------------------
    @_edge
    def summaries(
        self, group_id: str, entity_id: str | None = None, *, known_at: datetime | None = None,
        all_versions: bool = False,
    ) -> list[EntitySummary]:
        where: list[str] = ["group_id = ?"]
        params: list[Any] = [group_id]
        if entity_id is not None:
            where.append("entity_id = ?")
            params.append(entity_id)
        if known_at is not None and not all_versions:
            k = to_micros(known_at)
            where.append("created_at <= ? AND (expired_at IS NULL OR expired_at > ?)")
            params += [k, k]
        elif not all_versions:
            where.append("expired_at IS NULL")
        rows = self._rows(f"SELECT * FROM summaries WHERE {' AND '.join(where)}", params)
        return [_summary(r) for r in rows]

    @_edge
    def apply_summaries(
        self, group_id: str, versions: Sequence[EntitySummary], ended: Sequence[tuple[str, datetime]] = ()
    ) -> None:
        def run(_: SQLiteStore) -> None:
            c = self._conn
            closing = [(v.entity_id, v.created_at) for v in versions] + list(ended)
            c.executemany(
                "UPDATE summaries SET expired_at = ? "
                "WHERE group_id = ? AND entity_id = ? AND expired_at IS NULL",
                [(to_micros(at), group_id, entity_id) for entity_id, at in closing],
            )
            c.executemany(
                "INSERT INTO summaries (id, group_id, entity_id, entity, text, method, fact_ids, created_at, "
                "expired_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, NULL)",
                [(v.id, group_id, v.entity_id, v.entity, v.text, v.method, json.dumps(list(v.fact_ids)),
                  to_micros(v.created_at)) for v in versions],
            )

        self.write(run)

    # -- whole groups ------------------------------------------------------------------------
    @_edge
    def group_assertions(self, group_id: str) -> list[Assertion]:
        return [_assertion(r) for r in self._rows("SELECT * FROM assertions WHERE group_id = ?", (group_id,))]

    @_edge
    def forget(self, group_id: str) -> int:
        def delete(_: SQLiteStore) -> int:
            c = self._conn
            removed = 0
            for fts, table in (("facts_fts", "facts"), ("entities_fts", "entities"),
                               ("episodes_fts", "episodes")):
                c.execute(f"DELETE FROM {fts} WHERE rowid IN (SELECT rowid FROM {table} WHERE group_id = ?)",
                          (group_id,))
            c.execute("DELETE FROM facts_rtree WHERE id IN (SELECT rowid FROM facts WHERE group_id = ?)",
                      (group_id,))
            c.execute("DELETE FROM fact_episodes WHERE fact_row IN (SELECT id FROM facts WHERE group_id = ?)",
                      (group_id,))
            for table in ("facts", "assertions", "episodes", "entity_keys", "entities", "summaries"):
                removed += c.execute(f"DELETE FROM {table} WHERE group_id = ?", (group_id,)).rowcount
            for key in [k for k in self._indexes if k[0] == group_id]:
                del self._indexes[key]
            return removed

        return self.write(delete)


def _attributes(text: str) -> dict[str, Any]:
    return {} if text == "{}" else json.loads(text)  # most rows have none: skip the parser


def _entity(r: sqlite3.Row) -> Entity:
    return Entity(
        id=r["id"], group_id=r["group_id"], name=r["name"], type=r["type"],
        aliases=tuple(json.loads(r["aliases"])), summary=r["summary"],
        created_at=from_micros(r["created_at"]),
    )


def _episode(r: sqlite3.Row) -> Episode:
    return Episode(
        id=r["id"], group_id=r["group_id"], speaker=r["speaker"], content=r["content"],
        source=r["source"], source_id=r["source_id"], reference_time=from_micros(r["reference_time"]),
        created_at=from_micros(r["created_at"]),
    )


def _summary(r: sqlite3.Row) -> EntitySummary:
    return EntitySummary(
        id=r["id"], group_id=r["group_id"], entity_id=r["entity_id"], entity=r["entity"], text=r["text"],
        method=r["method"], fact_ids=tuple(json.loads(r["fact_ids"])),
        created_at=from_micros(r["created_at"]), expired_at=_dt(r["expired_at"]),
    )


def _assertion(r: sqlite3.Row) -> Assertion:
    return Assertion(
        id=r["id"], group_id=r["group_id"], subject_id=r["subject_id"], relation=r["relation"],
        object_id=r["object_id"], kind=r["kind"], at=_dt(r["at"]), until=_dt(r["until"]),
        created_at=from_micros(r["created_at"]), seq=r["seq"], episode_id=r["episode_id"],
        text=r["text"], confidence=r["confidence"], importance=r["importance"],
        attributes=_attributes(r["attributes"]),
    )


def _fact(r: sqlite3.Row) -> Fact:
    return Fact(
        id=r["id"], fact_id=r["fact_id"], group_id=r["group_id"], subject=r["subject"],
        relation=r["relation"], object=r["object"], subject_id=r["subject_id"],
        object_id=r["object_id"], text=r["text"], valid_at=_dt(r["valid_at"]),
        invalid_at=_dt(r["invalid_at"]), created_at=from_micros(r["created_at"]),
        expired_at=_dt(r["expired_at"]),
        episode_ids=tuple(r["episode_ids"].split(_SEP)) if r["episode_ids"] else (),
        confidence=r["confidence"], importance=r["importance"], attributes=_attributes(r["attributes"]),
    )
