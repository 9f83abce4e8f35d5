"""The narrow protocol every store implements (embedded SQLite, Neo4j).

Stores persist and answer; they hold no temporal rules. A write is one call to
:meth:`Store.write` with a function that reads what it needs through the :class:`StoreTx` it is
given and returns a :class:`ChangeSet`; the store runs both in one transaction (retried as a whole
on transient errors where the backend has them), so concurrent writers never interleave.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Protocol, TypeVar

from ..model import Assertion, AssertionKind, Entity, EntitySummary, Episode, Fact, Insight
from ..receipts import ErasureReceipt, ErasureRequest

T = TypeVar("T")


@dataclass(frozen=True)
class FactQuery:
    """Which rows to read. ``known_at=None`` means the current belief (rows not expired)."""

    group_id: str
    subject_id: str | None = None
    relation: str | None = None
    object_id: str | None = None
    fact_id: str | None = None
    valid_time: datetime | None = None  # None: any valid time
    known_at: datetime | None = None
    all_versions: bool = False  # every version across transaction time (audit, diff)
    ids: tuple[str, ...] | None = None  # only these row ids (search candidates)
    limit: int | None = None  # at most this many rows, in no particular order
    # Only rows expired after this moment: with known_at=K, what was believed at K and no longer
    # is (a search as known at K adds them to the indexes of current rows), read without the rest.
    expired_after: datetime | None = None

    def __post_init__(self) -> None:
        if self.ids is not None and not isinstance(self.ids, tuple):
            object.__setattr__(self, "ids", tuple(self.ids))


@dataclass(frozen=True)
class RowQuery:
    """Current rows of one (group, subject, relation), by where they start in valid time, read
    through an index (a write reads only the stretch of a timeline it can change).

    An unknown start counts as the earliest: ``since=None`` includes those rows, ``since=t``
    does not. Rows come in start order (latest first with ``latest_first``), at most ``limit``.
    """

    group_id: str
    subject_id: str
    relation: str
    object_id: str | None = None  # only the rows of this object
    since: datetime | None = None  # valid_at >= since
    before: datetime | None = None  # valid_at < before (None: no bound)
    ending_after: datetime | None = None  # only rows still holding after this: invalid_at open or later
    latest_first: bool = False
    limit: int | None = None


@dataclass(frozen=True)
class AssertionQuery:
    """Assertions of one (group, subject, relation) read through an index: of every object, of one
    (``object_id``), or only the endings of whatever held (``endings_of_all``: object None); of
    some kinds; told for a moment ``at`` in [since, through]. An undated one (a start since forever,
    a retraction) counts as the earliest: ``since=None`` includes it, ``since=t`` does not."""

    group_id: str
    subject_id: str
    relation: str
    kinds: tuple[AssertionKind, ...] = ("start", "end", "retract")
    object_id: str | None = None
    endings_of_all: bool = False
    since: datetime | None = None
    through: datetime | None = None  # None: no bound


@dataclass
class Erasure:
    """Records of one group removed for good (``erase_episode``, ``erase_entity``), before the
    timelines they touched are derived again from what remains. Nothing of them stays in history."""

    group_id: str
    episodes: list[str] = field(default_factory=list)  # episode ids: row, text, vector, full-text entry
    assertions: list[str] = field(default_factory=list)  # assertion ids
    rows: list[str] = field(default_factory=list)  # fact row ids, any version
    uncited: list[str] = field(default_factory=list)  # episode ids the remaining rows stop citing
    summaries: list[str] = field(default_factory=list)  # entity summary version ids
    entities: list[str] = field(default_factory=list)  # entity ids: node, names, keys, vector

    def __bool__(self) -> bool:
        return any((self.episodes, self.assertions, self.rows, self.uncited, self.summaries, self.entities))


@dataclass
class ChangeSet:
    """Everything one write changes, applied atomically. Rows are only ever expired or added."""

    entities: list[Entity] = field(default_factory=list)  # new entities, or new aliases of old ones
    episodes: list[Episode] = field(default_factory=list)
    assertions: list[Assertion] = field(default_factory=list)
    expire: list[tuple[str, datetime]] = field(default_factory=list)  # (row id, expired_at)
    insert: list[Fact] = field(default_factory=list)
    # row id -> episodes it cites from now on, appended in order; those it already cites are skipped
    provenance: dict[str, tuple[str, ...]] = field(default_factory=dict)
    fact_embeddings: dict[str, list[float]] = field(default_factory=dict)  # row id -> vector
    entity_embeddings: dict[str, list[float]] = field(default_factory=dict)  # entity id -> vector
    episode_embeddings: dict[str, list[float]] = field(default_factory=dict)  # episode id -> vector
    # Entity summary versions: each supersedes its entity's current version (which expires at the
    # new one's created_at); each (group_id, entity_id, at) of ``summaries_ended`` expires that
    # entity's current version at ``at`` with no successor.
    summaries: list[EntitySummary] = field(default_factory=list)
    summaries_ended: list[tuple[str, str, datetime]] = field(default_factory=list)
    # (group_id, entity_id, due): whether the entity's summary waits for refresh_summaries (a write
    # without summaries changed its facts) or no longer does.
    summary_due: list[tuple[str, str, bool]] = field(default_factory=list)
    # (group_id, episode id, at): the episode was withdrawn (retract_episode); set once.
    episodes_retracted: list[tuple[str, str, datetime]] = field(default_factory=list)
    # (group_id, episode id, at): the episode's text and vector go, the episode stays marked erased
    # (what retention does to old messages; a copy levels its target so).
    episode_texts_erased: list[tuple[str, str, datetime]] = field(default_factory=list)
    # Physical removals, applied before everything else in the set.
    erasures: list[Erasure] = field(default_factory=list)
    # Insights: new versions (stored as given, expired ones too); (group_id, insight id, at): that
    # insight expires at ``at``; (group_id, cited id, at): every current insight citing that fact
    # version or episode expires at ``at`` (applied after ``insights``). Deletions leave no
    # version behind (erase): (group_id, insight id), and (group_id, cited id) for every version
    # citing that record.
    insights: list[Insight] = field(default_factory=list)
    insights_expired: list[tuple[str, str, datetime]] = field(default_factory=list)
    insights_expire_citing: list[tuple[str, str, datetime]] = field(default_factory=list)
    insights_deleted: list[tuple[str, str]] = field(default_factory=list)
    insights_deleted_citing: list[tuple[str, str]] = field(default_factory=list)
    # Receipts appended to the erasure log (of the erasure this change set makes, or copied).
    erasure_receipts: list[ErasureReceipt] = field(default_factory=list)

    def __bool__(self) -> bool:
        return any(
            (self.entities, self.episodes, self.assertions, self.expire, self.insert, self.provenance,
             self.summaries, self.summaries_ended, self.summary_due, self.episodes_retracted,
             self.episode_texts_erased, self.erasures, self.insights, self.insights_expired,
             self.insights_expire_citing, self.insights_deleted, self.insights_deleted_citing,
             self.erasure_receipts)
        )


class StoreTx(Protocol):
    """Reads available inside a write transaction."""

    def facts(self, query: FactQuery) -> list[Fact]:
        """As :meth:`Store.facts`, as this transaction sees them."""
        ...

    def entity_by_key(self, group_id: str, key: str) -> Entity | None: ...

    def assertions(self, group_id: str, subject_id: str, relation: str) -> list[Assertion]: ...

    def current_rows(self, group_id: str, subject_id: str, relation: str) -> list[Fact]: ...

    def key_rows(self, query: RowQuery) -> list[Fact]:
        """The current rows ``query`` asks for, *without their provenance* (``episode_ids`` is
        empty whatever the row cites): a write needs their intervals and objects, and what it adds
        to a row's provenance goes in ``ChangeSet.provenance``, which skips the episodes the row
        already cites. So a fact confirmed N times is not read with N episode ids on every
        confirmation. Never hand these rows out; read them with :meth:`facts` for that."""
        ...

    def key_assertions(self, query: AssertionQuery) -> list[Assertion]: ...

    def latest_assertion(self, group_id: str, subject_id: str, relation: str) -> Assertion | None:
        """The assertion about (subject, relation) that arrived last (latest ``created_at``, then ``seq``)."""
        ...

    def episode_by_source(self, group_id: str, source_id: str) -> Episode | None: ...

    def entities(self, group_id: str, *, ids: Sequence[str] | None = None) -> list[Entity]: ...

    def episodes(self, group_id: str, *, ids: Sequence[str] | None = None) -> list[Episode]: ...

    def episode_assertions(self, group_id: str, episode_id: str) -> list[Assertion]:
        """Every assertion citing the episode (its statements, and withdrawals of it)."""
        ...

    def entity_assertions(self, group_id: str, entity_id: str) -> list[Assertion]:
        """Every assertion with the entity as subject or object."""
        ...

    def rows_citing(self, group_id: str, episode_id: str) -> list[Fact]:
        """Every fact version (current or expired) whose provenance names the episode."""
        ...

    def newest_facts(
        self, group_id: str, entity_id: str, *, at: datetime, limit: int, offset: int = 0
    ) -> list[Fact]:
        """The entity's current rows (as subject or object) not ended at ``at`` (``invalid_at`` is
        None or later), newest first: latest start (an unknown start counts from ``created_at``),
        then latest ``created_at``, then by relation, subject id, object id and row id (entity ids
        are stable, so ties do not fall to random row ids); ``limit`` of them after
        ``offset``. Read through an index in that order, so a summary reads only what it states."""
        ...

    def fact_vectors(self, group_id: str, fact_ids: Sequence[str]) -> dict[str, list[float]]:
        """The vectors stored on versions of these facts, by the version's text (a new version of
        a fact with the same text re-uses its vector instead of encoding it again)."""
        ...

    def summaries(
        self, group_id: str, entity_id: str | None = None, *, known_at: datetime | None = None,
        all_versions: bool = False,
    ) -> list[EntitySummary]:
        """Entity summary versions of the group (one entity's when ``entity_id`` is given): the
        current ones, those believed at ``known_at``, or every version; in any order."""
        ...

    def insights(
        self, group_id: str, *, subject_id: str | None = None, known_at: datetime | None = None,
        all_versions: bool = False,
    ) -> list[Insight]:
        """Insight versions of the group (those about ``subject_id`` when given): the current ones,
        those believed at ``known_at``, or every version; in any order."""
        ...

    def apply(self, changes: ChangeSet) -> None: ...

    def read_ahead(
        self, group_id: str, *, names: Sequence[str] = (), keys: Sequence[tuple[str, str]] = (),
        pairs: Sequence[tuple[str, str, str]] = (), episodes: Sequence[str] = (),
        summaries_of: Sequence[str] = (), at: datetime | None = None,
        whole_keys: Sequence[tuple[str, str]] = (),
    ) -> None:
        """A hint, changing no answer: the write is about to look up the entities ``names`` answer
        to, read the timelines of ``keys`` ((subject name, relation)) and of ``pairs`` ((subject
        name, relation, object name), with every row and assertion of that object, as a write to
        a many-valued relation reads them) and ask whether it holds ``episodes`` (with ``at``:
        and to refresh the summaries of the entities ``names`` answer to, as ``summaries_of``
        reads them); or (``summaries_of`` and ``at``) to refresh the summaries of these entities
        after what it changed so far, reading each one, its current summary and its newest facts
        not ended at ``at``; or that it will read every assertion and current row of the keys ``whole_keys``
        ((subject id, relation): a bulk load's keys with a history). A store with round trips to a
        server reads them in one go (Neo4j); the embedded store reads as asked
        and ignores it."""
        ...


#: The kinds :meth:`Store.record_counts` counts, in order.
RECORD_COUNTS = ("entities", "episodes", "assertions", "fact versions", "summary versions",
                 "insight versions", "facts without a vector", "entities without a vector",
                 "episodes without a vector")


class Store(Protocol):
    """A durable home for one or many groups."""

    #: The most facts one transaction of a bulk load should hold (a server's transaction memory
    #: bounds it); None when the store sets no limit of its own.
    load_batch_limit: int | None

    def write(self, fn: Callable[[StoreTx], T]) -> T: ...

    def bulk_loading(self, group_id: str, facts: int) -> AbstractContextManager[None]:
        """Around the writes of a load of about ``facts`` rows into ``group_id`` that writes each
        (subject, relation) key once: the store may stop keeping up to date the indexes such writes
        do not read, and build them once when the load ends, however it ends. Answers stay the same."""
        ...

    def facts(self, query: FactQuery) -> list[Fact]:
        """Rows matching ``query``, in any order (the client sorts)."""
        ...

    def entities(self, group_id: str, *, ids: Sequence[str] | None = None) -> list[Entity]: ...

    def entity_by_key(self, group_id: str, key: str) -> Entity | None: ...

    def entities_by_keys(self, group_id: str, keys: Sequence[str]) -> dict[str, Entity]:
        """:meth:`entity_by_key` for many keys at once: the entity each key answers to, by key
        (keys no entity answers to are left out)."""
        ...

    def entity_fact_presence(
        self, group_id: str, entity_ids: Sequence[str], *, valid_time: datetime | None,
        known_at: datetime | None,
    ) -> dict[str, tuple[bool, bool]]:
        """For each entity (of those that exist): (whether a fact row naming it, as subject or
        object, is valid at ``valid_time`` as believed at ``known_at``, as :meth:`count_facts`
        counts them; whether any version naming it was recorded by ``known_at``, any at all
        when None)."""
        ...

    def facts_around(
        self, group_id: str, entity_ids: Sequence[str], *, valid_time: datetime | None,
        known_at: datetime | None, limit: int,
    ) -> dict[str, tuple[int, list[Fact]]]:
        """For each entity: how many fact rows name it (valid at ``valid_time``, believed at
        ``known_at``), as subject plus as object (:meth:`count_facts` of each side), and the rows
        ``facts`` reads for each side with ``limit`` (a row naming it on both sides twice)."""
        ...

    def episodes(self, group_id: str, *, ids: Sequence[str] | None = None) -> list[Episode]: ...

    def episode_by_source(self, group_id: str, source_id: str) -> Episode | None: ...

    def recent_episodes(self, group_id: str, before: datetime, limit: int) -> list[Episode]:
        """Up to ``limit`` episodes with reference_time < ``before``, oldest first."""
        ...

    def withdrawn_episodes(self, group_id: str, after: datetime) -> list[Episode]:
        """The group's episodes withdrawn (``retract_episode``) after ``after``, in the order they
        were told: what a read as known at ``after`` may still see that the indexes of current
        messages no longer hold. Read through an index of the withdrawn ones, never the group."""
        ...

    def episodes_spoken_by(self, group_id: str, speakers: Sequence[str]) -> list[str]:
        """The ids of the group's episodes whose speaker is exactly one of ``speakers``, in the
        order they were told (withdrawn and erased-text ones included)."""
        ...

    def assertions_about(self, group_id: str, subject_ids: Sequence[str], relation: str) -> list[Assertion]:
        """Every assertion about (subject, ``relation``) for each of ``subject_ids``, in any order,
        through an index: the timelines of message keys and the topics of messages, read for many
        messages at once (:mod:`temporal_graph.core.message_links`)."""
        ...

    def statements_of(self, group_id: str, episode_ids: Sequence[str]) -> list[Assertion]:
        """Every assertion the episodes made (their statements, and withdrawals of them), in any
        order, through an index."""
        ...

    def facts_citing(self, group_id: str, episode_ids: Sequence[str]) -> list[Fact]:
        """Every fact version (current or expired) whose provenance names one of ``episode_ids``,
        in any order: what those messages told the memory, as it stands (through an index)."""
        ...

    def count_facts(self, query: FactQuery) -> int:
        """``len(facts(query))``, without reading the rows where the backend can."""
        ...

    def relations(self, group_id: str) -> list[str]: ...

    def groups(self) -> list[str]:
        """Every group that holds anything."""
        ...

    def at_once(self, reads: Sequence[Callable[[], Any]]) -> list[Any]:
        """The answers of ``reads``, in their order: independent reads of this store (never a write;
        a read that calls ``at_once`` itself gets its reads one after another). A server store runs
        them concurrently, each in a session of its own, so a search waits for its slowest index
        rather than for each in turn; the embedded store runs them one after another (they cost it
        no round trip)."""
        ...

    def text_search(self, group_id: str, kind: str, query: str, limit: int) -> list[tuple[str, float]]:
        """Full-text search over ``kind`` in ("fact", "entity", "episode"): (id, score), best first.
        Fact ids are row ids of current rows."""
        ...

    def vector_search(
        self, group_id: str, kind: str, vector: Sequence[float], limit: int, *, exact: bool = False
    ) -> list[tuple[str, float]]:
        """Nearest neighbours by cosine similarity over stored embeddings of ``kind`` (facts:
        current rows only), best first. ``exact``: the read is over history (as_of, known_at), whose
        answers must be the exact nearest; a store with an approximate path of its own skips it."""
        ...

    def newest_facts(
        self, group_id: str, entity_id: str, *, at: datetime, limit: int, offset: int = 0
    ) -> list[Fact]:
        """As :meth:`StoreTx.newest_facts`, outside a write."""
        ...

    def stale_summaries(self, group_id: str, *, at: datetime, after: str = "", limit: int) -> list[str]:
        """Up to ``limit`` ids (greater than ``after``, ascending) of entities whose summary may be
        out of date: marked due (``ChangeSet.summary_due``), or with a current row not ended at
        ``at`` and no current summary, or with a row created (not ended at ``at``) or expired after
        its current summary was made. For :meth:`TemporalGraph.refresh_summaries` after a load
        without summaries, or a file an older version wrote."""
        ...

    def missing_embeddings(self, group_id: str, kind: str, limit: int) -> list[str]:
        """Up to ``limit`` ids of ``kind`` records with no embedding yet (facts: current rows), for
        :meth:`TemporalGraph.reindex`; found through an index, not a scan."""
        ...

    def vectors(self, group_id: str, kind: str, ids: Sequence[str]) -> dict[str, list[float]]:
        """The stored vectors of these ``kind`` records (facts: row ids, any version, expired
        too), by id; records without one are left out. For copying a memory between stores."""
        ...

    def group_assertions(self, group_id: str) -> list[Assertion]:
        """Every assertion of the group (the input of the rules), in any order."""
        ...

    def record_counts(self, group_id: str) -> dict[str, int]:
        """How many records of each kind of :data:`RECORD_COUNTS` the group holds: what
        :meth:`entities`, :meth:`episodes`, :meth:`group_assertions`, :meth:`count_facts` of every
        version, :meth:`summaries` and :meth:`insights` of every version return, and how many ids
        :meth:`missing_embeddings` lists of each kind (:func:`composed.record_counts`), counted
        without reading the records where the backend can (a copy's final comparison)."""
        ...

    def key_assertions(self, query: AssertionQuery) -> list[Assertion]:
        """As :meth:`StoreTx.key_assertions`, outside a write."""
        ...

    def summaries(
        self, group_id: str, entity_id: str | None = None, *, known_at: datetime | None = None,
        all_versions: bool = False,
    ) -> list[EntitySummary]:
        """Entity summary versions of the group (one entity's when ``entity_id`` is given): the
        current ones, those believed at ``known_at``, or every version; in any order."""
        ...

    def apply_summaries(
        self, group_id: str, versions: Sequence[EntitySummary], ended: Sequence[tuple[str, datetime]] = ()
    ) -> None:
        """In one transaction: each of ``versions`` supersedes its entity's current summary (which
        expires at the new version's ``created_at``); each ``(entity_id, at)`` of ``ended`` expires
        that entity's current summary at ``at`` with no successor (a write's summaries go in its
        :class:`ChangeSet` instead)."""
        ...

    def insights(
        self, group_id: str, *, subject_id: str | None = None, known_at: datetime | None = None,
        all_versions: bool = False,
    ) -> list[Insight]:
        """As :meth:`StoreTx.insights`, outside a write."""
        ...


    def forget(self, group_id: str, *, request: ErasureRequest | None = None) -> int:
        """Delete one group entirely, its name included, and :meth:`scrub`; returns rows removed.
        With ``request``, its receipt (of the ids removed) goes into the erasure log in the same
        transaction; the group's erasure log itself stays."""
        ...

    def erasures(self, group_id: str, since: datetime | None = None) -> list[ErasureReceipt]:
        """The group's erasure log (receipts at or after ``since``), in the order they were written."""
        ...

    def prune_history(self, group_id: str, before: datetime, *, request: ErasureRequest | None = None) -> int:
        """Delete the fact and summary versions that stopped being believed before ``before``
        (``expired_at < before``); current ones stay. Returns how many versions went. With
        ``request``, its receipt goes into the erasure log in the same transaction."""
        ...

    def erase_episode_texts(
        self, group_id: str, before: datetime, at: datetime, *, request: ErasureRequest | None = None
    ) -> int:
        """Erase the text, vector and full-text entry of the episodes told before ``before``
        (``reference_time``) and not erased yet; they stay as ids marked erased at ``at`` (the
        facts they supported still cite them). Returns how many. With ``request``, its receipt
        goes into the erasure log in the same transaction."""
        ...

    def scrub(self) -> None:
        """Make what was deleted unrecoverable from the store's own files where the backend allows
        (the embedded file: full-text segments merged, free pages dropped, WAL emptied)."""
        ...

    def close(self) -> None: ...
