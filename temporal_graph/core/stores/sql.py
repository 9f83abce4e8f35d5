"""Every SQL string the embedded store runs, and the few functions that compose them.

Why one module and not ``.sql`` files beside the Cypher: the SQLite statements are composed at
run time (the as-of planner picks a B-tree or the R*Tree per query, ``IN`` lists vary in length,
a few statements take the table of a record kind), so files would need a second template
language, while a module keeps each statement next to the lines that compose it. The Cypher is
different: whole statements with validated identifier slots, linted by Neo4j's own parser.
Here ``tests/test_sql.py`` has SQLite compile every statement against the schema.

"Valid at T" is :func:`valid_at` and "believed at K" is :func:`believed_at`, each written once.
Times are integer microseconds since the epoch; the caller converts them.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal

from ..model import DEFAULT_IMPORTANCE, RecordKind
from ..time import to_micros
from .protocol import AssertionQuery, FactQuery, RowQuery

Query = tuple[str, list[Any]]  # a statement and its parameters

# -- schema --------------------------------------------------------------------------------------
SCHEMA = """
CREATE TABLE IF NOT EXISTS groups (gid INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE);
CREATE TABLE IF NOT EXISTS entities (
    id TEXT PRIMARY KEY, group_id TEXT NOT NULL, name TEXT NOT NULL, type TEXT NOT NULL,
    aliases TEXT NOT NULL, summary TEXT NOT NULL, created_at INTEGER NOT NULL, embedding BLOB);
CREATE INDEX IF NOT EXISTS entities_group ON entities (group_id);
-- Entities of a group in id order: refresh_summaries pages through them.
CREATE INDEX IF NOT EXISTS entities_group_id ON entities (group_id, id);
CREATE TABLE IF NOT EXISTS entity_keys (
    group_id TEXT NOT NULL, key TEXT NOT NULL, entity_id TEXT NOT NULL, PRIMARY KEY (group_id, key));
CREATE TABLE IF NOT EXISTS episodes (
    id TEXT PRIMARY KEY, group_id TEXT NOT NULL, speaker TEXT, content TEXT NOT NULL,
    source TEXT NOT NULL, source_id TEXT, reference_time INTEGER NOT NULL,
    created_at INTEGER NOT NULL, embedding BLOB);
CREATE INDEX IF NOT EXISTS episodes_group ON episodes (group_id, reference_time);
CREATE UNIQUE INDEX IF NOT EXISTS episodes_source ON episodes (group_id, source_id)
    WHERE source_id IS NOT NULL;
-- What a person said, for erasing them with their messages.
CREATE INDEX IF NOT EXISTS episodes_speaker ON episodes (group_id, speaker) WHERE speaker IS NOT NULL;
CREATE TABLE IF NOT EXISTS assertions (
    id TEXT PRIMARY KEY, group_id TEXT NOT NULL, subject_id TEXT NOT NULL, relation TEXT NOT NULL,
    object_id TEXT, kind TEXT NOT NULL, at INTEGER, until INTEGER, created_at INTEGER NOT NULL,
    seq INTEGER NOT NULL, episode_id TEXT, text TEXT NOT NULL, confidence REAL NOT NULL,
    attributes TEXT NOT NULL);
-- What one message told (retract_episode, erase_episode): only the assertions a message told, since
-- most structured facts come from none and a bulk load would add each of them for nothing.
CREATE INDEX IF NOT EXISTS assertions_told ON assertions (group_id, episode_id)
    WHERE episode_id IS NOT NULL;
CREATE TABLE IF NOT EXISTS facts (
    id TEXT NOT NULL UNIQUE, fact_id TEXT NOT NULL, group_id TEXT NOT NULL,
    subject_id TEXT NOT NULL, relation TEXT NOT NULL, object_id TEXT NOT NULL, text TEXT NOT NULL,
    valid_at INTEGER, invalid_at INTEGER, created_at INTEGER NOT NULL, expired_at INTEGER,
    confidence REAL NOT NULL, attributes TEXT NOT NULL, embedding BLOB);
CREATE INDEX IF NOT EXISTS facts_key ON facts (group_id, subject_id, relation, expired_at);
-- An entity's current rows newest first, as subject and as object (its summary reads a few of them):
-- those with no end in order, and those with an end by their end, so the rows that ended before
-- a time (most of a long 'one' key's versions) are never walked.
CREATE INDEX IF NOT EXISTS facts_subject_open ON facts
    (group_id, subject_id, coalesce(valid_at, created_at) DESC, created_at DESC, relation, object_id, id)
    WHERE expired_at IS NULL AND invalid_at IS NULL;
CREATE INDEX IF NOT EXISTS facts_object_open ON facts
    (group_id, object_id, coalesce(valid_at, created_at) DESC, created_at DESC, relation, subject_id, id)
    WHERE expired_at IS NULL AND invalid_at IS NULL;
CREATE INDEX IF NOT EXISTS facts_subject_ending ON facts (group_id, subject_id, invalid_at)
    WHERE expired_at IS NULL AND invalid_at IS NOT NULL;
CREATE INDEX IF NOT EXISTS facts_object_ending ON facts (group_id, object_id, invalid_at)
    WHERE expired_at IS NULL AND invalid_at IS NOT NULL;
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
-- A row's provenance in order, and the next place in it, without walking every episode it cites
-- (a fact told N times gains its N+1st in a seek).
CREATE INDEX IF NOT EXISTS fact_episodes_order ON fact_episodes (fact_row, seq, episode_id);
-- Versions of each entity's summary, in transaction time (current: expired_at IS NULL).
CREATE TABLE IF NOT EXISTS summaries (
    id TEXT PRIMARY KEY, group_id TEXT NOT NULL, entity_id TEXT NOT NULL, entity TEXT NOT NULL,
    text TEXT NOT NULL, method TEXT NOT NULL, fact_ids TEXT NOT NULL, created_at INTEGER NOT NULL,
    expired_at INTEGER);
CREATE INDEX IF NOT EXISTS summaries_entity ON summaries (group_id, entity_id, created_at);
CREATE INDEX IF NOT EXISTS summaries_current ON summaries (group_id, entity_id) WHERE expired_at IS NULL;
-- Insight versions, in transaction time (current: expired_at IS NULL), with what each cites (fact
-- version ids, episode ids) and is about, so a write expires the insights of the rows it expires
-- through an index.
CREATE TABLE IF NOT EXISTS insights (
    id TEXT PRIMARY KEY, group_id TEXT NOT NULL, text TEXT NOT NULL, subject_ids TEXT NOT NULL,
    subjects TEXT NOT NULL, derived_from TEXT NOT NULL, importance INTEGER NOT NULL,
    valid_at INTEGER, invalid_at INTEGER, created_at INTEGER NOT NULL, expired_at INTEGER,
    replaces TEXT, producer TEXT NOT NULL, pattern TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS insights_group ON insights (group_id, created_at);
CREATE INDEX IF NOT EXISTS insights_current ON insights (group_id) WHERE expired_at IS NULL;
CREATE TABLE IF NOT EXISTS insight_evidence (
    group_id TEXT NOT NULL, cited_id TEXT NOT NULL, insight_id TEXT NOT NULL,
    PRIMARY KEY (group_id, cited_id, insight_id)) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS insight_subjects (
    group_id TEXT NOT NULL, subject_id TEXT NOT NULL, insight_id TEXT NOT NULL,
    PRIMARY KEY (group_id, subject_id, insight_id)) WITHOUT ROWID;
-- Full-text indexes keyed by the rowid of their table; the fact index holds current rows only.
CREATE VIRTUAL TABLE IF NOT EXISTS facts_fts USING fts5 (text);
CREATE VIRTUAL TABLE IF NOT EXISTS entities_fts USING fts5 (names);
CREATE VIRTUAL TABLE IF NOT EXISTS episodes_fts USING fts5 (content);
-- Per (group, kind of record): a token replaced by every write that adds or removes a searchable
-- vector, so a matrix saved beside the database is used only while it is current (vector_file.py).
CREATE TABLE IF NOT EXISTS vector_marks (
    group_id TEXT NOT NULL, kind TEXT NOT NULL, mark TEXT NOT NULL, PRIMARY KEY (group_id, kind));
-- The records each such write changed, under the mark it left (the last writes only: see
-- SQLiteStore): a matrix saved a few writes ago is brought up to date by reading their vectors alone.
CREATE TABLE IF NOT EXISTS vector_changes (
    seq INTEGER PRIMARY KEY, group_id TEXT NOT NULL, kind TEXT NOT NULL, mark TEXT NOT NULL,
    item_id TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS vector_changes_key ON vector_changes (group_id, kind);
CREATE INDEX IF NOT EXISTS vector_changes_mark ON vector_changes (mark);
-- The rows citing one message (retract_episode, erase_episode).
CREATE INDEX IF NOT EXISTS fact_episodes_episode ON fact_episodes (episode_id);
-- Per group: a token replaced by every write that changes anything of the group (a write, erase,
-- retraction, prune), and under the name '' one replaced when a group is forgotten, so a reader
-- holding a copy of a group (the Cypher console's loaded graph) knows when to read it again.
CREATE TABLE IF NOT EXISTS change_marks (group_id TEXT PRIMARY KEY, mark TEXT NOT NULL) WITHOUT ROWID;
-- The erasure log: one receipt per erasure (erase, prune, forget), written in its transaction and
-- never removed with the group (forget leaves it). Counts and a digest of ids, no content; the
-- group by its key (receipts.group_key), so a forgotten group's name is not kept here either.
CREATE TABLE IF NOT EXISTS erasure_log (
    seq INTEGER PRIMARY KEY AUTOINCREMENT, group_key TEXT NOT NULL, request_id TEXT NOT NULL,
    at INTEGER NOT NULL, operation TEXT NOT NULL, counts TEXT NOT NULL, digest TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS erasure_log_group ON erasure_log (group_key, seq);
"""

# Indexes a large load may build at its end (SQLiteStore.bulk_loading) instead of keeping them up
# to date row by row: sorting a million keys once costs seconds, inserting them at random pages of
# a growing index cost a 1M-fact load far more (figures in the README).
#
# Read only by queries, never by a write: a fact's versions by fact id, rows by object, the group's
# current rows by time, the assertions naming an entity as object (erase_entity).
QUERY_INDEXES = {
    "facts_fact_id": "facts (group_id, fact_id)",
    "facts_object": "facts (group_id, object_id)",
    "facts_current": ("facts (group_id, created_at, valid_at, invalid_at, expired_at) "
                      "WHERE expired_at IS NULL"),
    "assertions_of_object": "assertions (group_id, object_id)",
}
# Read by a write of a key that has assertions (core/affected.py): its assertions by kind and time,
# or of one object, and the last to arrive; its current rows (of one object) by start. Never the
# whole key. A load into a group with no entity yet writes only keys that have none.
KEY_INDEXES = {
    "assertions_kind": "assertions (group_id, subject_id, relation, kind, at)",
    "assertions_object": "assertions (group_id, subject_id, relation, object_id, kind, at)",
    "assertions_arrival": "assertions (group_id, subject_id, relation, created_at, seq)",
    "facts_key_start": "facts (group_id, subject_id, relation, valid_at) WHERE expired_at IS NULL",
    "facts_key_object": ("facts (group_id, subject_id, relation, object_id, valid_at) "
                         "WHERE expired_at IS NULL"),
}


def create_index(name: str) -> str:
    """The statement that builds the index ``name`` of QUERY_INDEXES or KEY_INDEXES (none when it
    is there)."""
    return f"CREATE INDEX IF NOT EXISTS {name} ON {QUERY_INDEXES.get(name) or KEY_INDEXES[name]}"


DEFERRABLE_INDEXES = (*QUERY_INDEXES, *KEY_INDEXES)  # built when a file is opened without them
INDEX_NAMES = "SELECT name FROM sqlite_master WHERE type = 'index'"

# Columns added since the first files were written, added to older files (and new ones) when opened:
# (table, column, declaration with the value old rows get).
ADDED_COLUMNS = (
    ("assertions", "importance", f"INTEGER NOT NULL DEFAULT {DEFAULT_IMPORTANCE}"),
    ("facts", "importance", f"INTEGER NOT NULL DEFAULT {DEFAULT_IMPORTANCE}"),
    # 1: a write changed the entity's facts without refreshing its summary (summaries=False).
    ("entities", "summary_due", "INTEGER NOT NULL DEFAULT 0"),
    # When retract_episode withdrew the episode / retention erased its text (None: never).
    ("episodes", "retracted_at", "INTEGER"),
    ("episodes", "erased_at", "INTEGER"),
)

# Indexes on columns added since (built once they are there). A group's searchable messages by row
# id: a full-text cutoff (text_cutoff) checks thousands of hits against it without reading their
# rows (each holds its vector): 3 ms a common word at 1M messages, not 9-23.
ADDED_INDEXES = (
    "CREATE INDEX IF NOT EXISTS episodes_searchable ON episodes (group_id) "
    "WHERE retracted_at IS NULL AND erased_at IS NULL",
    # A search as known at K reads the messages withdrawn since K (few), not the group.
    "CREATE INDEX IF NOT EXISTS episodes_withdrawn ON episodes (group_id, retracted_at) "
    "WHERE retracted_at IS NOT NULL",
)

# Indexes older files have that the schema replaced (dropped when such a file is opened).
RETIRED_INDEXES = ("assertions_key", "facts_subject_newest", "facts_object_newest", "assertions_episode")


def drop_index(name: str) -> str:
    return f"DROP INDEX IF EXISTS {name}"


def table_columns(table: str) -> str:
    return f"PRAGMA table_info({table})"


def add_column(table: str, column: str, declaration: str) -> str:
    return f"ALTER TABLE {table} ADD COLUMN {column} {declaration}"


JOURNAL_WAL = "PRAGMA journal_mode=WAL"
FOREIGN_KEYS = "PRAGMA foreign_keys=ON"
# Deleted content is overwritten with zeros, not left in free pages (erase, forget, prune).
SECURE_DELETE = "PRAGMA secure_delete=ON"
CACHE_SIZE = "PRAGMA cache_size=-65536"  # 64 MiB of pages: the indexes of large groups stay hot
# Reads map the file instead of copying pages into the cache: a bulk load of 300k facts updates
# ~15 indexes at random places, and took 15% less CPU with it (the OS shares and evicts the pages).
MMAP_SIZE = "PRAGMA mmap_size=4294967296"
DATA_VERSION = "PRAGMA data_version"
SYNCHRONOUS_MODES = ("OFF", "NORMAL", "FULL", "EXTRA")


def busy_timeout(seconds: float) -> str:
    return f"PRAGMA busy_timeout={int(seconds * 1000)}"


def synchronous(mode: str) -> str:
    """``mode``: one of SYNCHRONOUS_MODES (checked by the caller)."""
    return f"PRAGMA synchronous={mode.upper()}"


BEGIN = "BEGIN IMMEDIATE"
COMMIT = "COMMIT"
ROLLBACK = "ROLLBACK"

# -- the bi-temporal predicate -------------------------------------------------------------------
BeliefPart = Literal["all", "current", "expired"]


def valid_at(t: int, alias: str = "") -> Query:
    """Rows true at ``t`` over half-open [valid_at, invalid_at); a missing valid_at means
    "since forever", a missing invalid_at "still". ``alias``: the table's prefix, e.g. ``"f."``."""
    a = alias
    return (f"({a}valid_at IS NULL OR {a}valid_at <= ?) AND ({a}invalid_at IS NULL OR {a}invalid_at > ?)",
            [t, t])


def believed_at(k: int | None, alias: str = "", part: BeliefPart = "all") -> Query:
    """Rows the memory believed at ``k``: written by then and not yet expired then; with no
    ``k``, the current rows (never expired).

    ``part`` splits the believed rows in two disjoint halves, so each can use its own index:
    ``"current"`` (still current today) and ``"expired"`` (expired since ``k``).
    """
    a = alias
    if k is None:
        return f"{a}expired_at IS NULL", []
    if part == "current":
        return f"{a}expired_at IS NULL AND {a}created_at <= ?", [k]
    if part == "expired":
        return f"{a}expired_at > ? AND {a}created_at <= ?", [k, k]
    return f"{a}created_at <= ? AND ({a}expired_at IS NULL OR {a}expired_at > ?)", [k, k]


def _where(*clauses: Query) -> Query:
    return " AND ".join(text for text, _ in clauses), [p for _, params in clauses for p in params]


# -- the R*Tree of expired versions ----------------------------------------------------------------
_I32_MIN, _I32_MAX = -(2**31) + 1, 2**31 - 1
_MICROS_PER_MINUTE = 60_000_000


def _minute_floor(micros: int | None, default: int = _I32_MIN) -> int:
    return default if micros is None else max(_I32_MIN, micros // _MICROS_PER_MINUTE)


def _minute_ceil(micros: int | None, default: int = _I32_MAX) -> int:
    return default if micros is None else min(_I32_MAX, -(-micros // _MICROS_PER_MINUTE))


def expired_box(
    rowid: int, gid: int, created: int, expired: int, valid: int | None, invalid: int | None
) -> tuple[int, ...]:
    """The R*Tree entry of an expired version (``INSERT_EXPIRED_BOX``): its (group, transaction
    time, valid time) box in whole minutes, rounded outwards; open valid ends reach the limits."""
    return (rowid, gid, gid, _minute_floor(created), _minute_ceil(expired),
            _minute_floor(valid), _minute_ceil(invalid))


INSERT_EXPIRED_BOX = "INSERT INTO facts_rtree VALUES (?, ?, ?, ?, ?, ?, ?)"

# -- fact reads ----------------------------------------------------------------------------------
_ROW_COLUMNS = """f.id, f.fact_id, f.group_id, f.subject_id, f.relation, f.object_id, f.text,
    f.valid_at, f.invalid_at, f.created_at, f.expired_at, f.confidence, f.importance, f.attributes,
    s.name AS subject, o.name AS object"""
FACT_COLUMNS = f"""{_ROW_COLUMNS},
    (SELECT json_group_array(episode_id) FROM
        (SELECT episode_id FROM fact_episodes WHERE fact_row = f.id ORDER BY seq)) AS episode_ids"""
# A write's reads of a key (key_rows) leave provenance out: a fact confirmed N times would hand N
# episode ids back on every confirmation (StoreTx.key_rows).
_BARE_FACT_COLUMNS = f"{_ROW_COLUMNS}, '[]' AS episode_ids"
_NAMES_JOIN = "JOIN entities s ON s.id = f.subject_id JOIN entities o ON o.id = f.object_id"


@dataclass(frozen=True)
class Part:
    """The FROM and WHERE of one SELECT; the union of a plan's parts answers a fact query."""

    source: str
    where: str
    params: list[Any]


def fact_plan(query: FactQuery, group_number: Callable[[str], int]) -> list[Part]:
    """The parts whose union answers ``query``, each on a fitting index (``group_number``: the
    R*Tree's number of a group, -1 for one never written).

    Whole-group time travel is split in two: current rows (not expired) through the partial
    index on (group, created_at, valid_at, invalid_at); expired versions through an R*Tree of
    their (transaction, valid) boxes. Expired versions have closed, usually short transaction
    intervals, so the tree prunes them well; open-ended boxes would defeat it, which is why
    current rows are not in it.
    """
    # By ids: "+group_id" keeps SQLite on the ids' unique index instead of scanning the group.
    group = "+f.group_id = ?" if query.ids is not None else "f.group_id = ?"
    filters: list[Query] = [(group, [query.group_id])]
    if query.ids is not None:
        ids = list(query.ids)
        filters.append((f"f.id IN ({','.join('?' * len(ids))})" if ids else "0", ids))
    for column, value in (
        ("subject_id", query.subject_id),
        ("relation", query.relation),
        ("object_id", query.object_id),
        ("fact_id", query.fact_id),
    ):
        if value is not None:
            filters.append((f"f.{column} = ?", [value]))
    t = None if query.valid_time is None else to_micros(query.valid_time)
    if t is not None:
        filters.append(valid_at(t, "f."))
    if query.expired_after is not None:
        filters.append(("f.expired_at > ?", [to_micros(query.expired_after)]))
    # The planner would sometimes prefer the group-wide indexes; a subject read must not.
    base = "facts f INDEXED BY facts_key" if query.subject_id else "facts f"
    if query.all_versions:
        return [Part(base, *_where(*filters))]
    k = None if query.known_at is None else to_micros(query.known_at)
    if k is None:
        return [Part(base, *_where(*filters, believed_at(None, "f.")))]
    # Rows expired after a moment are never among the current ones.
    current = ([] if query.expired_after is not None
               else [Part(base, *_where(*filters, believed_at(k, "f.", "current")))])
    expired = _where(*filters, believed_at(k, "f.", "expired"))
    if query.subject_id or query.object_id or query.fact_id or query.ids is not None:
        return [*current, Part(base, *expired)]
    gid = group_number(query.group_id)
    box: list[Query] = [("r.g0 <= ? AND r.g1 >= ? AND r.tx0 <= ? AND r.tx1 >= ?",
                         [gid, gid, _minute_ceil(k), _minute_floor(k)])]
    if t is not None:
        box.append(("r.v0 <= ? AND r.v1 >= ?", [_minute_ceil(t), _minute_floor(t)]))
    # CROSS JOIN keeps the tree as the outer loop: candidates first, then their rows.
    source = "facts_rtree r CROSS JOIN facts f ON f.rowid = r.id"
    return [*current, Part(source, *_where(*box, expired))]


def select_facts(part: Part, limit: int | None = None) -> Query:
    """The fact rows of ``part`` with the names of their subject and object (``FACT_COLUMNS``)."""
    text = f"SELECT {FACT_COLUMNS} FROM {part.source} {_NAMES_JOIN} WHERE {part.where}"
    if limit is None:
        return text, list(part.params)
    return f"{text} LIMIT ?", [*part.params, limit]


def count_facts(part: Part) -> Query:
    return f"SELECT count(*) FROM {part.source} WHERE {part.where}", list(part.params)


def count_facts_scan(group_id: str, t: int, k: int, subject_id: str | None = None) -> Query:
    """The as-of count by a scan of every row, ignoring all indexes (a benchmark baseline)."""
    believed, valid = believed_at(k), valid_at(t)
    return (f"SELECT count(*) FROM facts NOT INDEXED WHERE group_id = ? AND {believed[0]} AND {valid[0]} "
            "AND (? IS NULL OR subject_id = ?)", [group_id, *believed[1], *valid[1], subject_id, subject_id])


def _undated_first(column: str, since: int | None, bound: Query | None) -> list[Query]:
    """The two halves of a stretch of ``column`` from ``since`` (None: from the earliest, undated
    rows included) up to ``bound``: the undated rows, then the dated ones (each on its index, which
    an ``IS NULL OR`` would lose)."""
    dated: list[Query] = [(f"{column} IS NOT NULL", [])]
    if since is not None:
        dated.append((f"{column} >= ?", [since]))
    if bound is not None:
        dated.append(bound)
    return ([(f"{column} IS NULL", [])] if since is None else []) + [_where(*dated)]


def key_rows(query: RowQuery) -> list[Query]:
    """The statements whose results, concatenated and cut to ``query.limit``, answer ``query``
    (undated rows count as the earliest, so they come first, or last when latest first); rows
    without their provenance (``_BARE_FACT_COLUMNS``)."""
    key = "f.group_id = ? AND f.subject_id = ? AND f.relation = ? AND f.expired_at IS NULL"
    filters: list[Query] = [(key, [query.group_id, query.subject_id, query.relation])]
    if query.object_id is not None:
        filters.append(("f.object_id = ?", [query.object_id]))
    if query.ending_after is not None:
        filters.append(("(f.invalid_at IS NULL OR f.invalid_at > ?)", [to_micros(query.ending_after)]))
    since = None if query.since is None else to_micros(query.since)
    bound = None if query.before is None else ("f.valid_at < ?", [to_micros(query.before)])
    halves = _undated_first("f.valid_at", since, bound)
    order = "ORDER BY f.valid_at DESC" if query.latest_first else "ORDER BY f.valid_at"
    limit = "" if query.limit is None else " LIMIT ?"
    out: list[Query] = []
    for half in reversed(halves) if query.latest_first else halves:
        where, params = _where(*filters, half)
        out.append((f"SELECT {_BARE_FACT_COLUMNS} FROM facts f {_NAMES_JOIN} WHERE {where} {order}{limit}",
                    params + ([] if query.limit is None else [query.limit])))
    return out


def key_assertions(query: AssertionQuery) -> list[Query]:
    """The statements whose results, concatenated, answer ``query``."""
    filters: list[Query] = [("group_id = ? AND subject_id = ? AND relation = ?",
                             [query.group_id, query.subject_id, query.relation])]
    if query.endings_of_all:
        filters.append(("object_id IS NULL AND kind = 'end'", []))
    else:
        if query.object_id is not None:
            filters.append(("object_id = ?", [query.object_id]))
        kinds = list(query.kinds)
        filters.append((f"kind IN ({','.join('?' * len(kinds))})" if kinds else "0", kinds))
    since = None if query.since is None else to_micros(query.since)
    bound = None if query.through is None else ("at <= ?", [to_micros(query.through)])
    out: list[Query] = []
    for half in _undated_first("at", since, bound):
        where, params = _where(*filters, half)
        out.append((f"SELECT * FROM assertions WHERE {where}", params))
    return out


RELATIONS = "SELECT DISTINCT relation FROM facts WHERE group_id = ? ORDER BY relation"

# An entity's current rows not ended at a time, newest first (params: :func:`newest_facts_params`).
# Each side reads its rows with no end, walking their index in order and stopping after ``depth``
# (= limit + offset) rows, and its rows ending after the time, found by their end; a row about the
# entity itself on both sides is counted once. Rows of the same times are ordered by relation and
# entity ids (stable ids, made from the names), so an offline summary does not depend on random
# row ids.
def _newest_order(a: str = "") -> str:
    return (f"coalesce({a}valid_at, {a}created_at) DESC, {a}created_at DESC, {a}relation, {a}subject_id, "
            f"{a}object_id, {a}id")


def _newest_side(column: str) -> str:
    """One side's newest facts: its open rows in newest order, and those ending after ``at``
    (partial indexes each, so a key's ended versions are never walked)."""
    side = f"FROM facts INDEXED BY facts_{column.removesuffix('_id')}"
    where = f"WHERE group_id = ? AND {column} = ? AND expired_at IS NULL AND"
    return (f"SELECT id FROM (SELECT id {side}_open {where} invalid_at IS NULL "
            f"ORDER BY {_newest_order()} LIMIT ?) "
            f"UNION SELECT id FROM (SELECT id {side}_ending {where} invalid_at > ? "
            f"ORDER BY {_newest_order()} LIMIT ?)")


NEWEST_FACTS = (
    f"WITH newest(id) AS ({_newest_side('subject_id')} UNION {_newest_side('object_id')}) "
    f"SELECT {FACT_COLUMNS} FROM newest JOIN facts f ON f.id = newest.id {_NAMES_JOIN} "
    f"ORDER BY {_newest_order('f.')} LIMIT ? OFFSET ?"
)
def newest_facts_params(group_id: str, entity_id: str, at: int, limit: int, offset: int) -> list[Any]:
    """The parameters of :data:`NEWEST_FACTS` (``at`` in microseconds)."""
    depth = limit + offset
    side = [group_id, entity_id, depth, group_id, entity_id, at, depth]
    return [*side, *side, limit, offset]


# -- other reads ---------------------------------------------------------------------------------
ENTITY_BY_KEY = ("SELECT e.* FROM entity_keys k JOIN entities e ON e.id = k.entity_id "
                 "WHERE k.group_id = ? AND k.key = ?")
ENTITIES = "SELECT * FROM entities WHERE group_id = ? ORDER BY rowid"
EPISODES = "SELECT * FROM episodes WHERE group_id = ? ORDER BY reference_time, rowid"
EPISODE_BY_SOURCE = "SELECT * FROM episodes WHERE group_id = ? AND source_id = ?"
EPISODES_BY_SPEAKER = ("SELECT id FROM episodes WHERE group_id = ? AND speaker = ? "
                       "ORDER BY reference_time, rowid")
WITHDRAWN_EPISODES = ("SELECT * FROM episodes INDEXED BY episodes_withdrawn WHERE group_id = ? "
                      "AND retracted_at > ? ORDER BY reference_time, rowid")
RECENT_EPISODES = ("SELECT * FROM episodes WHERE group_id = ? AND reference_time < ? "
                   "AND retracted_at IS NULL AND erased_at IS NULL "
                   "ORDER BY reference_time DESC, rowid DESC LIMIT ?")
ASSERTIONS = "SELECT * FROM assertions WHERE group_id = ? AND subject_id = ? AND relation = ?"
LATEST_ASSERTION = ("SELECT * FROM assertions WHERE group_id = ? AND subject_id = ? AND relation = ? "
                    "ORDER BY created_at DESC, seq DESC LIMIT 1")
GROUP_ASSERTIONS = "SELECT * FROM assertions WHERE group_id = ?"
GROUP_HAS_ENTITIES = "SELECT 1 FROM entities WHERE group_id = ? LIMIT 1"
GROUPS = "SELECT group_id FROM episodes UNION SELECT group_id FROM entities ORDER BY 1"
GROUP_NUMBER = "SELECT gid FROM groups WHERE name = ?"
ADD_GROUP = "INSERT OR IGNORE INTO groups (name) VALUES (?)"


def by_ids(table: str, count: int) -> str:
    """The rows of ``table`` (entities, episodes) of a group with one of ``count`` ids."""
    # "+group_id": look the ids up by primary key; on the group's index SQLite would scan the group.
    return f"SELECT * FROM {table} WHERE +group_id = ? AND id IN ({','.join('?' * count)})"


def recorded_at(count: int) -> str:
    """Ids and transaction times of ``count`` episodes of a group (params: group, ids)."""
    return f"SELECT id, created_at FROM episodes WHERE +group_id = ? AND id IN ({','.join('?' * count)})"


# -- search --------------------------------------------------------------------------------------
# Table of each searchable kind, and whether search covers its current rows only (facts).
EMBEDDED = {
    RecordKind.FACT: ("facts", True),
    RecordKind.ENTITY: ("entities", False),
    RecordKind.EPISODE: ("episodes", False),
}
# Records search never offers: expired fact versions, withdrawn or erased messages.
_UNSEARCHABLE = {
    RecordKind.FACT: "AND {a}expired_at IS NULL",
    RecordKind.ENTITY: "",
    RecordKind.EPISODE: "AND {a}retracted_at IS NULL AND {a}erased_at IS NULL",
}
_FULL_TEXT = {
    RecordKind.FACT: ("facts", "facts_fts"),
    RecordKind.ENTITY: ("entities", "entities_fts"),
    RecordKind.EPISODE: ("episodes", "episodes_fts"),
}


def _current_only(kind: str, alias: str = "") -> str:
    return _UNSEARCHABLE[kind].format(a=alias)


def text_search(kind: str, *, since: bool = False) -> str:
    """The best ``window`` BM25 hits of a kind over every group, best first, each with its id when it
    is a searchable record of the group, else NULL (params: match, [since,] window, group_id); bm25()
    is lower-is-better. Ranking the full-text hits before joining their records reads the table for
    ``window`` hits, not for every hit of a common word; the caller widens the window when too few
    of them are the group's. ``since``: only hits from that rowid on are ranked (the newest ones)."""
    table, fts = _FULL_TEXT[kind]
    newest = "AND rowid >= ? " if since else ""
    return (f"WITH hits AS (SELECT rowid, bm25({fts}) AS score FROM {fts} WHERE {fts} MATCH ? {newest}"
            f"ORDER BY score LIMIT ?) "
            f"SELECT t.id, hits.score FROM hits LEFT JOIN {table} t ON t.rowid = hits.rowid "
            f"AND t.group_id = ? {_current_only(kind, 't.')} ORDER BY hits.score")


def text_cutoff(kind: str) -> str:
    """The rowid of the (offset + 1)-th newest full-text hit among the group's searchable records of
    a kind (params: match, group_id, offset); none when there are not that many. Walks the hits
    newest first and never scores them, so it costs the offset (and other groups' hits in between),
    not the number of hits. Counted in the group: other tenants' messages never push its own out."""
    table, fts = _FULL_TEXT[kind]
    hint = f"INDEXED BY {_SEARCHABLE[kind]} " if kind in _SEARCHABLE else ""
    return (f"SELECT {fts}.rowid FROM {fts} JOIN {table} t {hint}ON t.rowid = {fts}.rowid AND t.group_id = ? "
            f"{_current_only(kind, 't.')} WHERE {fts} MATCH ? ORDER BY {fts}.rowid DESC LIMIT 1 OFFSET ?")


# The index that says, without reading its row, whether a row id is a searchable record of a group.
_SEARCHABLE = {RecordKind.EPISODE: "episodes_searchable"}


def text_bound(kind: str) -> str:
    """As :func:`text_cutoff`, counted in every group (params: match, offset): none when the whole
    file holds no more hits, so no group does. It reads the full-text index alone (0.3 ms for a
    word of 56,000 hits at 1M messages), where the group's count reads a row per hit."""
    _, fts = _FULL_TEXT[kind]
    return f"SELECT rowid FROM {fts} WHERE {fts} MATCH ? ORDER BY rowid DESC LIMIT 1 OFFSET ?"


def counted(query: str) -> str:
    """How many rows ``query`` returns (its params)."""
    return f"SELECT count(*) FROM ({query})"


def missing_embeddings(kind: str) -> str:
    return (f"SELECT id FROM {EMBEDDED[kind][0]} WHERE group_id = ? AND embedding IS NULL "
            f"{_current_only(kind)} LIMIT ?")


VECTOR_MARK = "SELECT mark FROM vector_marks WHERE group_id = ? AND kind = ?"
BUMP_VECTOR_MARK = ("INSERT INTO vector_marks (group_id, kind, mark) VALUES (?, ?, ?) "
                    "ON CONFLICT (group_id, kind) DO UPDATE SET mark = excluded.mark")


def counted_vectors(kind: str) -> str:
    """How many searchable records of ``kind`` the group has vectors for, counted up to a limit
    (params: group, limit)."""
    return (f"SELECT count(*) FROM (SELECT 1 FROM {EMBEDDED[kind][0]} WHERE group_id = ? "
            f"AND embedding IS NOT NULL {_current_only(kind)} LIMIT ?)")


def stored_vectors(kind: str, *, among: bool = False) -> str:
    """Ids and vectors of the group's searchable records of ``kind`` (params: group), or of those
    ``among`` the ids of a JSON array (params: group, the array)."""
    # Among a few ids, found by id: the group's index would walk every record of the group.
    group, ids = ("+group_id", "AND id IN (SELECT value FROM json_each(?))") if among else ("group_id", "")
    return (f"SELECT id, embedding FROM {EMBEDDED[kind][0]} WHERE {group} = ? AND embedding IS NOT NULL "
            f"{_current_only(kind)} {ids}")


ADD_VECTOR_CHANGE = "INSERT INTO vector_changes (group_id, kind, mark, item_id) VALUES (?, ?, ?, ?)"
# The changes older than the last ``?`` of the whole file go (a matrix older than them is loaded whole).
PRUNE_VECTOR_CHANGES = ("DELETE FROM vector_changes WHERE group_id = ? AND kind = ? "
                        "AND seq <= (SELECT max(seq) FROM vector_changes) - ?")
# Where the write that left a mark is in the log (NULL: pruned since, or never this file's mark).
VECTOR_MARK_SEQ = "SELECT max(seq) FROM vector_changes WHERE mark = ? AND +group_id = ? AND +kind = ?"
VECTOR_CHANGES_AFTER = ("SELECT DISTINCT item_id FROM vector_changes "
                        "WHERE group_id = ? AND kind = ? AND seq > ?")
# The whole log of one (group, kind), after an erase or a prune: no id of a removed record stays in
# it, and no matrix saved before can be brought up to date from it (it is loaded whole).
FORGET_VECTOR_CHANGES_OF_KIND = "DELETE FROM vector_changes WHERE group_id = ? AND kind = ?"
# The change marks (params: group, or '' for the whole file; then a new token).
CHANGE_MARKS = "SELECT group_id, mark FROM change_marks WHERE group_id IN ('', ?)"
BUMP_CHANGE_MARK = ("INSERT INTO change_marks (group_id, mark) VALUES (?, ?) "
                    "ON CONFLICT (group_id) DO UPDATE SET mark = excluded.mark")
FORGET_CHANGE_MARK = "DELETE FROM change_marks WHERE group_id = ?"
FACT_GROUP = "SELECT group_id FROM facts WHERE id = ?"


def vectors_by_ids(kind: str, count: int) -> str:
    """Ids and vectors of ``count`` records of ``kind`` (params: group, ids), expired fact rows too."""
    return (f"SELECT id, embedding FROM {EMBEDDED[kind][0]} WHERE group_id = ? "
            f"AND id IN ({','.join('?' * count)}) AND embedding IS NOT NULL")


def fact_vectors(count: int) -> str:
    """Texts and vectors of the embedded versions of ``count`` facts (params: group, fact ids)."""
    return (f"SELECT text, embedding FROM facts WHERE group_id = ? AND fact_id IN ({','.join('?' * count)}) "
            "AND embedding IS NOT NULL")


def set_embedding(kind: str) -> str:
    """Store a vector; returns the row's group and, for facts, its expired_at (only current rows
    are searchable)."""
    table, current_only = EMBEDDED[kind]
    return (f"UPDATE {table} SET embedding = ? WHERE id = ? RETURNING group_id, "
            f"{'expired_at' if current_only else 'NULL'}")


# -- writes --------------------------------------------------------------------------------------
ENTITY_ROWID = "SELECT rowid FROM entities WHERE id = ?"
INSERT_ENTITY = ("INSERT INTO entities (id, group_id, name, type, aliases, summary, created_at) "
                 "VALUES (?, ?, ?, ?, ?, ?, ?)")
UPDATE_ENTITY = "UPDATE entities SET type = ?, aliases = ?, summary = ? WHERE id = ?"
DELETE_ENTITY_NAMES = "DELETE FROM entities_fts WHERE rowid = ?"
INSERT_ENTITY_NAMES = "INSERT INTO entities_fts (rowid, names) VALUES (?, ?)"
INSERT_ENTITY_NAMES_OF = "INSERT INTO entities_fts (rowid, names) SELECT rowid, ? FROM entities WHERE id = ?"


# Which of the entity ids of a JSON array (the one param) are stored.
ENTITIES_PRESENT = "SELECT id FROM entities WHERE id IN (SELECT value FROM json_each(?))"


ADD_ENTITY_KEY = "INSERT OR IGNORE INTO entity_keys (group_id, key, entity_id) VALUES (?, ?, ?)"

INSERT_EPISODE = ("INSERT INTO episodes (id, group_id, speaker, content, source, source_id, "
                  "reference_time, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)")
EPISODE_ROWID = "SELECT rowid FROM episodes WHERE id = ?"
INSERT_EPISODE_TEXT = "INSERT INTO episodes_fts (rowid, content) VALUES (?, ?)"

INSERT_ASSERTION = (
    "INSERT INTO assertions (id, group_id, subject_id, relation, object_id, kind, at, "
    "until, created_at, seq, episode_id, text, confidence, importance, attributes) "
    "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
)

CURRENT_ROW = ("SELECT rowid, group_id, created_at, valid_at, invalid_at FROM facts "
               "WHERE id = ? AND expired_at IS NULL")
EXPIRE_ROW = "UPDATE facts SET expired_at = ? WHERE id = ?"
DELETE_FACT_TEXT = "DELETE FROM facts_fts WHERE rowid = ?"
INSERT_FACT = (
    "INSERT INTO facts (id, fact_id, group_id, subject_id, relation, object_id, text, "
    "valid_at, invalid_at, created_at, expired_at, confidence, importance, attributes) "
    "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
)
LAST_FACT_ROWID = "SELECT coalesce(max(rowid), 0) FROM facts"
# The current rows inserted after the row with rowid ?, made searchable in one statement.
INSERT_FACT_TEXTS_AFTER = ("INSERT INTO facts_fts (rowid, text) "
                           "SELECT rowid, text FROM facts WHERE rowid > ? AND expired_at IS NULL")
NEXT_PROVENANCE_SEQ = "SELECT coalesce(max(seq), -1) + 1 FROM fact_episodes WHERE fact_row = ?"
# An episode the row already cites is skipped: a write hands over what it may lack (StoreTx.key_rows).
ADD_PROVENANCE = "INSERT OR IGNORE INTO fact_episodes (fact_row, seq, episode_id) VALUES (?, ?, ?)"


# -- many rows in one statement ----------------------------------------------------------------
# A statement run for many parameter rows, as one statement taking them all as a JSON array of
# arrays (SQLiteStore runs a bulk load's inserts so, on a second thread: see background.py). Each
# array is read out of the JSON once (MATERIALIZED): read through json_each for every column, it
# was rendered and parsed again per column, and the insert took twice as long.
_JSON_ROWS = "WITH r(v) AS MATERIALIZED (SELECT value FROM json_each(?)) "
_JSON_FORMS = {
    INSERT_ENTITY_NAMES_OF: (f"{_JSON_ROWS}INSERT INTO entities_fts (rowid, names) "
                             "SELECT e.rowid, r.v ->> 0 FROM r JOIN entities AS e ON e.id = r.v ->> 1"),
}


def from_json(statement: str) -> str:
    """``statement``, an ``INSERT ... VALUES (...)`` (or one of ``_JSON_FORMS``), as one statement
    inserting a row per element of a JSON array of parameter rows (its only param)."""
    if statement in _JSON_FORMS:
        return _JSON_FORMS[statement]
    head, values, tail = statement.partition(" VALUES (")
    if not values or not tail.endswith(")"):
        raise ValueError(f"not an INSERT ... VALUES statement: {statement}")
    slots = iter(range(statement.count("?")))
    columns = [f"v ->> {next(slots)}" if v.strip() == "?" else v.strip() for v in tail[:-1].split(",")]
    return f"{_JSON_ROWS}{head} SELECT {', '.join(columns)} FROM r"


# -- entity summaries ------------------------------------------------------------------------------
def read_summaries(group_id: str, entity_id: str | None, known_at: int | None, all_versions: bool) -> Query:
    """Summary versions of a group (one entity's, or all): current, believed at ``known_at``, or all."""
    clauses: list[Query] = [("group_id = ?", [group_id])]
    if entity_id is not None:
        clauses.append(("entity_id = ?", [entity_id]))
    if not all_versions:
        clauses.append(believed_at(known_at))
    where, params = _where(*clauses)
    return f"SELECT * FROM summaries WHERE {where}", params


# -- insights ----------------------------------------------------------------------------------------
def read_insights(group_id: str, subject_id: str | None, known_at: int | None, all_versions: bool) -> Query:
    """Insight versions of a group (those about one subject, or all): current, believed at
    ``known_at``, or all."""
    clauses: list[Query] = [("group_id = ?", [group_id])]
    if subject_id is not None:
        about = "id IN (SELECT insight_id FROM insight_subjects WHERE group_id = ? AND subject_id = ?)"
        clauses.append((about, [group_id, subject_id]))
    if not all_versions:
        clauses.append(believed_at(known_at))
    where, params = _where(*clauses)
    return f"SELECT * FROM insights WHERE {where} ORDER BY created_at, id", params


INSERT_INSIGHT = ("INSERT INTO insights (id, group_id, text, subject_ids, subjects, derived_from, "
                  "importance, valid_at, invalid_at, created_at, expired_at, replaces, producer, pattern) "
                  "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")
INSERT_INSIGHT_EVIDENCE = ("INSERT OR IGNORE INTO insight_evidence (group_id, cited_id, insight_id) "
                           "VALUES (?, ?, ?)")
INSERT_INSIGHT_SUBJECT = ("INSERT OR IGNORE INTO insight_subjects (group_id, subject_id, insight_id) "
                          "VALUES (?, ?, ?)")
EXPIRE_INSIGHT = "UPDATE insights SET expired_at = ? WHERE group_id = ? AND id = ? AND expired_at IS NULL"
EXPIRE_INSIGHTS_CITING = (
    "UPDATE insights SET expired_at = ? WHERE expired_at IS NULL AND id IN "
    "(SELECT insight_id FROM insight_evidence WHERE group_id = ? AND cited_id = ?)")
INSIGHTS_CITING = "SELECT insight_id FROM insight_evidence WHERE group_id = ? AND cited_id = ?"
DELETE_INSIGHT = ("DELETE FROM insights WHERE group_id = ? AND id = ?",
                  "DELETE FROM insight_evidence WHERE group_id = ? AND insight_id = ?",
                  "DELETE FROM insight_subjects WHERE group_id = ? AND insight_id = ?")

SET_SUMMARY_DUE = "UPDATE entities SET summary_due = ? WHERE group_id = ? AND id = ? AND summary_due != ?"
END_SUMMARY = ("UPDATE summaries SET expired_at = ? "
               "WHERE group_id = ? AND entity_id = ? AND expired_at IS NULL")
INSERT_SUMMARY = ("INSERT INTO summaries (id, group_id, entity_id, entity, text, method, fact_ids, "
                  "created_at, expired_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, NULL)")
# A row changed since the entity's current summary ``s`` was made (or, with none, a row it should
# state); params: the time rows must not have ended by.
_CHANGED_SINCE_SUMMARY = (
    "((f.expired_at IS NULL AND (f.invalid_at IS NULL OR f.invalid_at > ?) "
    "AND (s.id IS NULL OR f.created_at > s.created_at)) OR f.expired_at > s.created_at)"
)
# Entities whose summary may be out of date (params: group, after id, at, at, limit): marked due,
# or with rows changed since it was made (files of older versions).
STALE_SUMMARIES = (
    "SELECT e.id FROM entities e LEFT JOIN summaries s ON s.group_id = e.group_id "
    "AND s.entity_id = e.id AND s.expired_at IS NULL "
    "WHERE e.group_id = ? AND e.id > ? AND (e.summary_due = 1 OR "
    f"EXISTS (SELECT 1 FROM facts f WHERE f.group_id = e.group_id AND f.subject_id = e.id "
    f"AND {_CHANGED_SINCE_SUMMARY}) OR EXISTS (SELECT 1 FROM facts f WHERE f.group_id = e.group_id "
    f"AND f.object_id = e.id AND {_CHANGED_SINCE_SUMMARY})) ORDER BY e.id LIMIT ?"
)

# -- forgetting a group ----------------------------------------------------------------------------
# Search entries and provenance of the group's rows first (they are found through the rows).
FORGET_INDEXES = (
    *(f"DELETE FROM {fts} WHERE rowid IN (SELECT rowid FROM {table} WHERE group_id = ?)"
      for fts, table in (("facts_fts", "facts"), ("entities_fts", "entities"), ("episodes_fts", "episodes"))),
    "DELETE FROM facts_rtree WHERE id IN (SELECT rowid FROM facts WHERE group_id = ?)",
    "DELETE FROM fact_episodes WHERE fact_row IN (SELECT id FROM facts WHERE group_id = ?)",
    "DELETE FROM insight_evidence WHERE group_id = ?",
    "DELETE FROM insight_subjects WHERE group_id = ?",
    "DELETE FROM entity_keys WHERE group_id = ?",  # an entity's name keys: part of the entity
)
# Then the records themselves: their count is what ``forget`` reports removed, the total of its
# receipt's counts (one table per kind of record the receipt counts).
FORGET_ROWS = tuple(
    f"DELETE FROM {table} WHERE group_id = ?"
    for table in ("facts", "assertions", "episodes", "entities", "summaries", "insights")
)


# -- retracting and erasing ------------------------------------------------------------------------
EPISODE_ASSERTIONS = "SELECT * FROM assertions WHERE group_id = ? AND episode_id = ?"
ENTITY_ASSERTIONS = ("SELECT * FROM assertions WHERE group_id = ? AND subject_id = ? "
                     "UNION SELECT * FROM assertions WHERE group_id = ? AND object_id = ?")
ROWS_CITING = (f"SELECT {FACT_COLUMNS} FROM fact_episodes p JOIN facts f ON f.id = p.fact_row "
               f"{_NAMES_JOIN} WHERE p.episode_id = ? AND f.group_id = ?")
RETRACT_EPISODE = ("UPDATE episodes SET retracted_at = ? WHERE group_id = ? AND id = ? "
                   "AND retracted_at IS NULL")
FACT_ROWID = "SELECT rowid FROM facts WHERE group_id = ? AND id = ?"
EPISODE_ROWID_IN_GROUP = "SELECT rowid FROM episodes WHERE group_id = ? AND id = ?"
ENTITY_ROWID_IN_GROUP = "SELECT rowid FROM entities WHERE group_id = ? AND id = ?"
# A fact row by rowid with its full-text entry and R*Tree box (by rowid) and provenance (by id).
DELETE_FACT_BOX = "DELETE FROM facts_rtree WHERE id = ?"
DELETE_FACT_PROVENANCE = "DELETE FROM fact_episodes WHERE fact_row = ?"
DELETE_FACT = "DELETE FROM facts WHERE rowid = ?"
# An episode or entity by rowid with its full-text entry (and, for an entity, its name keys).
DELETE_EPISODE_TEXT = "DELETE FROM episodes_fts WHERE rowid = ?"
DELETE_EPISODE = "DELETE FROM episodes WHERE rowid = ?"
DELETE_ENTITY_KEYS = "DELETE FROM entity_keys WHERE group_id = ? AND entity_id = ?"
DELETE_ENTITY = "DELETE FROM entities WHERE rowid = ?"
DELETE_ASSERTION = "DELETE FROM assertions WHERE group_id = ? AND id = ?"
DELETE_SUMMARY = "DELETE FROM summaries WHERE group_id = ? AND id = ?"
UNCITE_EPISODE = ("DELETE FROM fact_episodes WHERE episode_id = ? "
                  "AND fact_row IN (SELECT id FROM facts WHERE group_id = ?)")

# -- retention ------------------------------------------------------------------------------------
# Versions no longer believed since before a time (params: group, before): search entries (none:
# expired rows leave the full-text index), R*Tree boxes and provenance first, then the rows.
PRUNE_FACTS = (
    "DELETE FROM facts_rtree WHERE id IN (SELECT rowid FROM facts WHERE group_id = ? AND expired_at < ?)",
    "DELETE FROM fact_episodes WHERE fact_row IN "
    "(SELECT id FROM facts WHERE group_id = ? AND expired_at < ?)",
)
PRUNE_ROWS = (
    "DELETE FROM facts WHERE group_id = ? AND expired_at < ?",
    "DELETE FROM summaries WHERE group_id = ? AND expired_at < ?",
)
# Insight versions retention drops (params: group, before, group, before), found before the rows go:
# those no longer believed since before the time, and every version citing a fact version that
# goes (an insight never cites a record that no longer exists). Deleted by DELETE_INSIGHT.
PRUNED_INSIGHTS = (
    "SELECT id FROM insights WHERE group_id = ? AND expired_at < ? "
    "UNION SELECT e.insight_id FROM facts f JOIN insight_evidence e "
    "ON e.group_id = f.group_id AND e.cited_id = f.id WHERE f.group_id = ? AND f.expired_at < ?"
)
# Episodes told before a time whose text goes (params: group, before); then blanked, marked erased.
OLD_EPISODE_TEXTS = ("DELETE FROM episodes_fts WHERE rowid IN (SELECT rowid FROM episodes "
                     "WHERE group_id = ? AND reference_time < ? AND erased_at IS NULL)")
ERASE_EPISODE_TEXTS = ("UPDATE episodes SET content = '', embedding = NULL, erased_at = ? "
                       "WHERE group_id = ? AND reference_time < ? AND erased_at IS NULL RETURNING id")
# The same for one episode (params: group, id; then at, group, id).
EPISODE_TEXT = ("DELETE FROM episodes_fts WHERE rowid IN (SELECT rowid FROM episodes "
                "WHERE group_id = ? AND id = ? AND erased_at IS NULL)")
ERASE_EPISODE_TEXT = ("UPDATE episodes SET content = '', embedding = NULL, erased_at = ? "
                      "WHERE group_id = ? AND id = ? AND erased_at IS NULL")

# -- making deleted bytes unrecoverable ------------------------------------------------------------
FULL_TEXT_TABLES = ("facts_fts", "entities_fts", "episodes_fts")


def merge_segments(fts: str) -> str:
    """Rewrite a full-text index as one segment: deleted entries (kept as delete markers beside the
    old segments until a merge) are gone. ``fts``: one of FULL_TEXT_TABLES."""
    return f"INSERT INTO {fts}({fts}) VALUES ('optimize')"


CHECKPOINT_TRUNCATE = "PRAGMA wal_checkpoint(TRUNCATE)"
VACUUM = "VACUUM"
FORGET_GROUP_NAME = "DELETE FROM groups WHERE name = ?"
FORGET_VECTOR_MARKS = "DELETE FROM vector_marks WHERE group_id = ?"
FORGET_VECTOR_CHANGES = "DELETE FROM vector_changes WHERE group_id = ?"


# -- the erasure log (receipts; see core/receipts.py) ----------------------------------------------
LOG_ERASURE = ("INSERT INTO erasure_log (group_key, request_id, at, operation, counts, digest) "
               "VALUES (?, ?, ?, ?, ?, ?)")
ERASURES = ("SELECT request_id, at, operation, counts, digest FROM erasure_log "
            "WHERE group_key = ? AND at >= ? ORDER BY seq")
# The ids a prune removes (params: group, before), before it removes them.
PRUNABLE_IDS = (
    ("fact_versions", "SELECT id FROM facts WHERE group_id = ? AND expired_at < ?"),
    ("summary_versions", "SELECT id FROM summaries WHERE group_id = ? AND expired_at < ?"),
)
# The ids forget removes (params: group), by kind.
GROUP_IDS = (
    ("episodes", "SELECT id FROM episodes WHERE group_id = ?"),
    ("entities", "SELECT id FROM entities WHERE group_id = ?"),
    ("assertions", "SELECT id FROM assertions WHERE group_id = ?"),
    ("fact_versions", "SELECT id FROM facts WHERE group_id = ?"),
    ("summary_versions", "SELECT id FROM summaries WHERE group_id = ?"),
    ("insight_versions", "SELECT id FROM insights WHERE group_id = ?"),
)
