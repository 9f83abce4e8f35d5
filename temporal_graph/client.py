"""``TemporalGraph``: the client users hold. Thin: each method forwards to one function of the core
(:mod:`~temporal_graph.core.reads`, :mod:`~temporal_graph.core.writes`,
:mod:`~temporal_graph.core.bulk`) or of a layer, handing it the memory's
:class:`~temporal_graph.core.Core`.

Ingestion (``add_episode``, ``import_file``, ``import_facts``) and the query layer (``paths``,
``search``, ``context``, ``ask``, ``summary``) live in the ``ingestion`` and ``queries`` packages.
This facade is the one module that imports them (they import only the core), so every public
method can be followed to its code by reading imports.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from datetime import datetime, tzinfo
from functools import partial
from pathlib import Path as FilePath
from typing import Any

import networkx as nx

import ingestion.fact_files
import ingestion.readers
import queries.ask
import queries.context
import queries.paths
import queries.reflection
import queries.search
import queries.summaries
from ingestion.ingest import Ingestion
from ingestion.superseding import SUPERSEDE_MATCHES
from queries.reflection.reflecting import ReflectSchedule
from queries.search import RELEVANCE_FLOOR

from .core import (
    DEFAULT_GROUP,
    MAX_MESSAGE_CHARS,
    SUMMARY_CHARS,
    SUMMARY_LLM_EVERY,
    Core,
    backtest,
    bulk,
    forgetting,
    reads,
    writes,
)
from .core.backtest import LearnedAfter
from .core.copy import COPY_BATCH, COPY_SAMPLES, CopyReport, copy_store
from .core.embeddings import Embedder
from .core.errors import InvalidInput
from .core.extraction import Extractor
from .core.limits import query_text
from .core.mask_policy import MaskingPolicy, masking_policy
from .core.model import (
    DEFAULT_CLAIMS,
    DEFAULT_HALF_LIFE_DAYS,
    DEFAULT_IMPORTANCE,
    DEFAULT_RANK,
    DEFAULT_STALE,
    RECORD_KINDS,
    SEARCH_METHODS,
    Answer,
    BulkReport,
    Diff,
    Entity,
    EntityRetraction,
    EntitySummary,
    EpisodeRetraction,
    ErasureReport,
    Fact,
    FactFileReport,
    FactInput,
    ImportReport,
    IngestResult,
    Insight,
    Path,
    PruneReport,
    Reflection,
    SearchResults,
    Supersession,
)
from .core.ontology import Ontology
from .core.receipts import ErasureReceipt, Forgotten
from .core.stores.protocol import Store
from .core.time import UTC, Clock, TimeLike, system_clock
from .llm import LLMClient

# The chat-log formats and field names ``import_file`` reads (``tgraph import --help`` shows them).
IMPORT_FILE_HELP = ingestion.readers.file_help()
IMPORT_FORMATS = ingestion.readers.FORMATS


class TemporalGraph:
    """A bi-temporal memory over one store. Use :meth:`open` or :meth:`connect` to make one.

    ``core`` (a :class:`~temporal_graph.core.Core`) holds the plumbing the methods forward to: the
    store, the clock, time parsing and write transactions, for tests, benchmarks and extensions."""

    def __init__(
        self,
        store: Store,
        *,
        clock: Clock | None = None,
        ontology: Ontology | None = None,
        extractor: Extractor | None = None,
        embedder: Embedder | None = None,
        llm: LLMClient | None = None,
        zone: tzinfo = UTC,
        embed: bool = True,
        max_message_chars: int = MAX_MESSAGE_CHARS,
        trust: str = "speaker",
        summary_chars: int = SUMMARY_CHARS,
        summary_llm_every: int = SUMMARY_LLM_EVERY,
        summaries: bool = True,
        mask: bool | MaskingPolicy = True,
        reflect_every: int | None = None,
    ) -> None:
        self._reflect_schedule = ReflectSchedule(reflect_every)
        self.core = Core(
            store, clock=clock or system_clock, ontology=ontology or Ontology.default_personal(), llm=llm,
            zone=zone, embed=embed, max_message_chars=max_message_chars, trust=trust,
            embedder_override=embedder, summary_chars=summary_chars, summary_llm_every=summary_llm_every,
            summaries=summaries, mask=masking_policy(mask),
        )
        # Entity summaries are refreshed inside each write's transaction, by the query layer's rules.
        self.core.summarizer = partial(queries.summaries.refresh_in_write, self.core)
        # The ingestion layer of this memory, made on first use: it keeps the extractor and the
        # entity resolver, so nothing of ingestion's is stored on the memory itself.
        self._ingestion: Ingestion | None = None
        if extractor is not None:
            self.extractor = extractor

    # -- construction ----------------------------------------------------------------------------
    @classmethod
    def open(cls, path: str | FilePath = "memory.db", **options: Any) -> TemporalGraph:
        """The embedded store in one SQLite file (``":memory:"`` for a throw-away one)."""
        from .core.stores.sqlite import SQLiteStore

        return cls._over(SQLiteStore(path), options)

    @classmethod
    def _over(cls, store: Store, options: dict[str, Any]) -> TemporalGraph:
        try:
            return cls(store, **options)
        except BaseException:  # bad options: release the store we opened for them
            store.close()
            raise

    @classmethod
    def connect(
        cls, uri: str, *, auth: tuple[str, str] | None = None, database: str | None = None, **options: Any
    ) -> TemporalGraph:
        """A Neo4j 5 database over Bolt."""
        from .core.stores.neo4j import Neo4jStore

        return cls._over(Neo4jStore(uri, auth=auth, database=database), options)

    def close(self) -> None:
        """Release the store (the context manager calls it); the memory is unusable afterwards."""
        self.core.store.close()

    def __enter__(self) -> TemporalGraph:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- the memory's settings (the plumbing is ``core``: store, clock, time parsing, writes) ----------
    @property
    def ontology(self) -> Ontology:
        """Relation cardinalities and entity types: how contradictions are settled."""
        return self.core.ontology

    @property
    def zone(self) -> tzinfo:
        """The time zone naive times are read in (UTC unless given)."""
        return self.core.zone

    @property
    def llm(self) -> LLMClient | None:
        """The LLM extraction and question planning use; None works offline, by rules."""
        return self.core.llm

    @llm.setter
    def llm(self, value: LLMClient | None) -> None:
        self.core.llm = value

    @property
    def extractor(self) -> Extractor:
        """What reads facts out of messages: the one given, else the LLM extractor while ``llm`` is
        set, else the offline rules. Assign one to use it from now on (None: back to that choice)."""
        return self._ingest().extractor

    @extractor.setter
    def extractor(self, value: Extractor | None) -> None:
        self._ingest().extractor = value

    @property
    def embed(self) -> bool:
        """Whether each write embeds what it adds (False: leave it to :meth:`reindex`)."""
        return self.core.embed

    @property
    def summaries(self) -> bool:
        """Whether each write refreshes the summaries of the entities it changed (False, for bulk
        loads: leave it to :meth:`refresh_summaries`)."""
        return self.core.summaries

    @property
    def max_message_chars(self) -> int:
        """The longest message ``add_episode`` and imports accept, in characters."""
        return self.core.max_message_chars

    @property
    def trust(self) -> str:
        """``"speaker"``: what someone says about another person is their claim; ``"all"``: a fact."""
        return self.core.trust

    @property
    def mask(self) -> MaskingPolicy:
        """What is masked in messages before they are kept (``mask=False`` at open: nothing)."""
        return self.core.mask

    @property
    def embedder(self) -> Embedder:
        """The embedding model; loaded on first use (the offline all-MiniLM-L6-v2 by default)."""
        return self.core.embedder

    def moment(self, value: TimeLike | None = None, *, name: str = "time") -> datetime:
        """The instant ``value`` names, read as every time argument is (naive ones in :attr:`zone`),
        as an aware UTC datetime; without one, now by the memory's clock (the transaction time a
        write would get). ``name`` is the argument an error names when ``value`` is not a time."""
        return self.core.time_or_now(value, name)

    def find_entity(self, name: str, group_id: str = DEFAULT_GROUP) -> Entity | None:
        """The entity of the group known by ``name`` (any of its spellings), or None."""
        return self.core.find_entity(name, group_id)

    def groups(self) -> list[str]:
        """Every group this memory holds anything in, sorted."""
        return reads.groups(self.core)

    def similar_names(self, name: str, group_id: str = DEFAULT_GROUP, *, limit: int = 3) -> list[str]:
        """Entity names of the group that look like ``name`` (for "did you mean ...?"), closest first."""
        return reads.similar_names(self.core, name, group_id, limit=limit)

    # -- writing (the verbs live in ``core.writes`` and ``core.bulk``) -----------------------------------
    def add_fact(
        self,
        subject: str,
        relation: str,
        object: str,
        *,
        valid_at: TimeLike | None = None,
        invalid_at: TimeLike | None = None,
        group_id: str = DEFAULT_GROUP,
        text: str | None = None,
        episode_id: str | None = None,
        confidence: float = 1.0,
        attributes: dict[str, Any] | None = None,
        subject_type: str | None = None,
        object_type: str | None = None,
        importance: int = DEFAULT_IMPORTANCE,
    ) -> Fact:
        """Record that ``subject relation object`` holds over ``[valid_at, invalid_at)``.
        ``importance``: how much it matters, 1 (trivia) to 10 (life-changing), for ranked search.
        The arguments are checked as the fields of :class:`FactInput` are.

        Contradictions follow the relation's cardinality (see DESIGN.md); returns the row written,
        or the existing row the statement merged into.
        """
        return writes.add_fact(self.core, dict(
            subject=subject, relation=relation, object=object, valid_at=valid_at, invalid_at=invalid_at,
            text=text, episode_id=episode_id, confidence=confidence, attributes=attributes,
            subject_type=subject_type, object_type=object_type, importance=importance,
        ), group_id=group_id)

    def add_facts(
        self,
        facts: Iterable[FactInput | Mapping[str, Any] | Sequence[Any]],
        *,
        group_id: str = DEFAULT_GROUP,
        strict: bool = False,
        embed: bool | None = None,
        progress: bool = False,
        batch_size: int | None = None,
        summaries: bool | None = None,
    ) -> BulkReport:
        """Load many structured facts at once: the same rows as calling :meth:`add_fact` for each,
        in order, but each (subject, relation) timeline is derived once and only final rows are
        written (no intermediate versions), in transactions of about ``batch_size`` facts (default
        100,000 without embeddings, 20,000 with them).

        Items are :class:`FactInput`, mappings with its fields, or tuples ``(subject, relation,
        object[, valid_at[, invalid_at]])``. A bad item is reported in the result and skipped;
        with ``strict=True`` the first one raises :class:`InvalidInput` before anything is written.
        Each batch commits with its vectors (``embed=False``: none, :meth:`reindex` later) and
        entity summaries (``summaries=False``: none, :meth:`refresh_summaries` later); a load
        stopped part way is completed by running it again.
        """
        return bulk.add_facts(self.core, facts, group_id=group_id, strict=strict, embed=embed,
                              summaries=summaries, progress=progress, batch_size=batch_size)

    def end_fact(
        self,
        subject: str,
        relation: str,
        object: str | None = None,
        *,
        at: TimeLike,
        group_id: str = DEFAULT_GROUP,
        create_names: bool = False,
    ) -> list[Fact]:
        """Close the fact(s) holding at ``at`` (every object when ``object`` is None).

        A subject or object the memory does not know raises :class:`NotFound` naming it (a typo
        must not become a new entity). An ending between known entities is recorded even when no
        fact holds yet, so a start told later still ends there; ``create_names=True`` records it
        for unknown names too (creating them), e.g. when replaying statements out of order."""
        return writes.end_fact(self.core, subject, relation, object, at=at, group_id=group_id,
                               create_names=create_names)

    def retract_fact(
        self, subject: str, relation: str, object: str, *, group_id: str = DEFAULT_GROUP
    ) -> list[Fact]:
        """Everything believed about ``subject relation object`` was wrong: expire it, no successor.
        A subject or object the memory does not know raises :class:`NotFound` naming it."""
        return writes.retract_fact(self.core, subject, relation, object, group_id=group_id)

    def alias_speaker(self, alias: str, speaker: str, *, group_id: str = DEFAULT_GROUP) -> Entity:
        """Declare that speaker id ``alias`` ("bob") is the person ``speaker`` ("Bob"): stored, so
        every later message and import of ``alias`` speaks as them. Speaker ids are exact; without
        this, lookalikes are different people. Returns the person's entity. Raises InvalidInput
        when ``alias`` already has an entity of its own (declare aliases before its messages)."""
        return writes.alias_speakers(self.core, {alias: speaker}, group_id=group_id)[0]

    def reindex(self, group_id: str | None = None, *, progress: bool = False, batch_size: int = 256,
                messages: bool = False) -> int:
        """Repair derived data: embed every record that has no vector yet (after an import with
        ``embed=False``, or from a version that embedded lazily), then rebuild missing or stale
        entity summaries (:meth:`refresh_summaries`). Idempotent; returns how many records it
        embedded or summarized. ``group_id=None`` covers every group. ``messages=True`` also embeds
        again every message of several sentences, as this version embeds them (by its sentences);
        a memory written before 2026-12-07 holds their whole text's vector."""
        return writes.reindex(self.core, group_id, progress=progress, batch_size=batch_size,
                              messages=messages)

    def refresh_summaries(self, group_id: str | None = None, *, progress: bool = False) -> int:
        """Bring every entity summary up to date with the entity's facts: those a load with
        ``summaries=False`` left out, or a file from an older version lacks. Idempotent; returns
        how many summaries it wrote or ended. ``group_id=None`` covers every group."""
        return writes.refresh_summaries(self.core, group_id, progress=progress)

    def forget(self, group_id: str, *, request_id: str | None = None) -> Forgotten:
        """Delete one group entirely (right to be forgotten); returns the number of records removed
        (an int) carrying the erasure's ``receipt``, which the erasure log keeps under
        ``request_id`` (a reference of yours; generated when None) after the group is gone."""
        return forgetting.forget(self.core, group_id, request_id=request_id)

    # -- un-learning (``core.forgetting``) -----------------------------------------------------------
    def retract_episode(self, episode_id: str, *, group_id: str = DEFAULT_GROUP) -> EpisodeRetraction:
        """"I never said that": withdraw everything the message ``episode_id`` told, as of now in
        transaction time. Facts only it supported expire, facts it had ended or superseded hold
        again, surviving facts stop citing it, summaries are rebuilt and the message no longer
        feeds search, context or ask; ``audit`` and ``as_of(known_at=before)`` still show what was
        believed before. Raises NotFound for an unknown id; a second call changes nothing."""
        return forgetting.retract_episode(self.core, episode_id, group_id=group_id)

    def retract_entity(self, name: str, *, group_id: str = DEFAULT_GROUP) -> EntityRetraction:
        """The soft counterpart of :meth:`erase_entity`: withdraw, as of now in transaction time,
        every fact naming the entity and every message about it (those citing it or naming it).
        Reads leave them out from then on; ``audit`` and ``known_at`` before it still show them;
        :meth:`restore_entity` brings them back. Raises NotFound for an unknown name."""
        return forgetting.retract_entity(self.core, name, group_id=group_id)

    def restore_entity(self, name: str, *, group_id: str = DEFAULT_GROUP) -> EntityRetraction:
        """Undo :meth:`retract_entity` as of now: its facts and messages are believed again."""
        return forgetting.restore_entity(self.core, name, group_id=group_id)

    def erase_episode(
        self, episode_id: str, *, group_id: str = DEFAULT_GROUP, request_id: str | None = None
    ) -> ErasureReport:
        """Remove a message for good (privacy law): its text, vector and full-text entry, what it
        told, the fact and summary versions only it supported, and its id everywhere in history;
        timelines are derived again from what remains and the store's files scrubbed. The report's
        ``receipt`` (request id, time, counts by kind, digest of the ids; no content) is kept in
        the erasure log (:meth:`erasures`) under ``request_id``, generated when None."""
        return forgetting.erase_episode(self.core, episode_id, group_id=group_id, request_id=request_id)

    def erase_entity(
        self, name: str, *, group_id: str = DEFAULT_GROUP, include_episodes: bool = False,
        request_id: str | None = None,
    ) -> ErasureReport:
        """Remove a person (or any entity) of the group for good: the node, every version of a fact
        with it as subject or object, its summaries and the summaries mentioning it. The report
        lists the messages that still name it (``naming_episodes``); ``include_episodes=True``
        erases those too. Its ``receipt`` goes into the erasure log, as for :meth:`erase_episode`."""
        return forgetting.erase_entity(self.core, name, group_id=group_id, include_episodes=include_episodes,
                                       request_id=request_id)

    def prune(
        self, *, history_before: TimeLike | None = None, episodes_before: TimeLike | None = None,
        group_id: str = DEFAULT_GROUP, request_id: str | None = None,
    ) -> PruneReport:
        """Retention: drop the fact and summary versions no longer believed since before
        ``history_before`` (current beliefs and their provenance stay), and erase the text of the
        messages told before ``episodes_before`` (their facts stay, the source marked erased).
        Each part writes a receipt into the erasure log under ``request_id`` (``report.receipts``)."""
        return forgetting.prune(self.core, group_id=group_id, history_before=history_before,
                                episodes_before=episodes_before, request_id=request_id)

    def erasures(
        self, *, group_id: str = DEFAULT_GROUP, since: TimeLike | None = None
    ) -> list[ErasureReceipt]:
        """The erasure log of a group, oldest first (those at or after ``since``): one receipt per
        erasure, forget and prune part, kept after what they erased is gone (a forgotten group's
        too). Receipts hold request ids, times, counts and digests, never erased content."""
        return forgetting.erasures(self.core, group_id=group_id, since=since)

    def learned_after(self, known_at: TimeLike, *, group_id: str = DEFAULT_GROUP) -> LearnedAfter:
        """Backtest guard: every record the memory learned after transaction time ``known_at``
        (fact versions written or expired after it, messages, entities, insight and summary
        versions), with counts, and ``clean`` when the store's reads as known at ``known_at`` see
        none of it (see :mod:`temporal_graph.core.backtest`)."""
        return backtest.learned_after(self.core, known_at, group_id=group_id)

    def scrub(self) -> None:
        """Finish removing deleted data from the store's files (erasures and prunes do it
        themselves): raises ``StoreLocked`` while another connection's read keeps old pages of an
        embedded file in use; a no-op on Neo4j, which keeps deleted records its own way."""
        self.core.store.scrub()

    # -- reading (plain temporal reads live in ``core.reads``; one implementation for every layer) ----
    def now(
        self,
        subject: str | None = None,
        relation: str | None = None,
        object: str | None = None,
        *,
        group_id: str = DEFAULT_GROUP,
        claims: str = DEFAULT_CLAIMS,
    ) -> list[Fact]:
        """What is true now, as believed now. ``claims``: "all" (default: own facts, and others'
        claims where no own fact covers that time), "own" or "only" (see
        :mod:`temporal_graph.core.claims`)."""
        return reads.now(self.core, subject, relation, object, group_id=group_id, claims=claims)

    def as_of(
        self,
        valid_time: TimeLike,
        *,
        known_at: TimeLike | None = None,
        subject: str | None = None,
        relation: str | None = None,
        object: str | None = None,
        group_id: str = DEFAULT_GROUP,
        claims: str = DEFAULT_CLAIMS,
    ) -> list[Fact]:
        """What was true at ``valid_time``, as the memory believed it at ``known_at`` (default now);
        ``claims`` as in :meth:`now`."""
        return reads.as_of(self.core, valid_time, known_at=known_at, subject=subject, relation=relation,
                           object=object, group_id=group_id, claims=claims)

    def history(
        self, subject: str, relation: str | None = None, *, known_at: TimeLike | None = None,
        group_id: str = DEFAULT_GROUP,
    ) -> list[Fact]:
        """The valid-time timeline of a subject (optionally one relation), as currently believed, or
        as the memory believed it at ``known_at``."""
        return reads.history(self.core, subject, relation, known_at=known_at, group_id=group_id)

    def audit(self, fact_id: str, *, group_id: str = DEFAULT_GROUP) -> list[Fact]:
        """Every version of a fact across transaction time, oldest first.

        ``fact_id`` is the full id or, when it names one fact of the group, a prefix of it (the
        8 characters tables show). Raises NotFound when no fact of the group has that id."""
        return reads.audit(self.core, fact_id, group_id=group_id)

    def diff(
        self, start: TimeLike, end: TimeLike, *, subject: str | None = None, group_id: str = DEFAULT_GROUP
    ) -> Diff:
        """Facts that started, ended (valid time) or were revised (transaction time) in [start, end)."""
        return reads.diff(self.core, start, end, subject=subject, group_id=group_id)

    def snapshot(
        self,
        as_of: TimeLike | None = None,
        known_at: TimeLike | None = None,
        *,
        group_id: str = DEFAULT_GROUP,
    ) -> nx.MultiDiGraph:
        """The graph of facts valid at ``as_of`` as known at ``known_at`` (both default now)."""
        return reads.snapshot(self.core, as_of, known_at, group_id=group_id)

    def export(self, group_id: str = DEFAULT_GROUP) -> dict[str, Any]:
        """Everything of one group (entities, episodes, assertions, every fact version), as JSON data."""
        return reads.export(self.core, group_id)

    def copy_to(
        self,
        target: TemporalGraph | Store | str | FilePath,
        *,
        group_id: str | None = None,
        batch_size: int = COPY_BATCH,
        samples: int = COPY_SAMPLES,
        merge: bool = False,
    ) -> CopyReport:
        """Copy this memory (one group, or every group) into another store (a memory, a store, or
        the path of an embedded file, created when missing), records as they are: entities,
        episodes, assertions, every fact and summary version, vectors. Resumable and idempotent (a
        re-run writes only what the target lacks, and removes what this memory erased or pruned
        since). A group the target holds with a history of its own is refused unless ``merge``.
        Returns the comparison of both sides (counts per kind, every fact version, messages, a
        sample of as_of answers about one subject each); ``report.ok`` when they agree."""
        return copy_store(self.core.store, target.core.store if isinstance(target, TemporalGraph) else target,
                          group_id, at=self.core.now(), batch_size=batch_size, samples=samples, merge=merge)

    # -- ingestion -------------------------------------------------------------------------------
    def _ingest(self) -> Ingestion:
        if self._ingestion is None:
            self._ingestion = Ingestion(self.core)
        return self._ingestion

    def add_episode(
        self,
        content: str,
        *,
        reference_time: TimeLike,
        speaker: str | None = None,
        group_id: str = DEFAULT_GROUP,
        source: str = "message",
        source_id: str | None = None,
        key: str | None = None,
        keys: Sequence[str] | None = None,
    ) -> IngestResult:
        """Extract facts from one message told at ``reference_time`` and apply them in one
        transaction. ``speaker`` says who wrote it (what they say about someone else is their claim
        under ``trust="speaker"``); ``source_id`` makes a re-sent message a no-op (without it, the
        same text at the same time is). E-mail addresses, phone numbers, ids, cards, keys and
        passwords are masked first (:attr:`mask`); ``result.masked`` counts them by kind.

        ``key`` (or several, ``keys``) says what the message is the record of
        (``"Globex/payment_terms"``): the messages of one key in a group form a timeline with one
        at a time, so a later reference time supersedes the earlier message from then on (the
        same content again confirms it; a late message about the past lands in the past), and the
        facts only the superseded message told end there. ``result.superseded`` names the messages
        it replaced; retracting it undoes that."""
        return self._reflect_schedule.after(self.core, group_id, self._ingest().add_episode(
            content, reference_time=reference_time, speaker=speaker, group_id=group_id,
            source=source, source_id=source_id, key=key, keys=keys,
        ))

    def supersede(
        self,
        old: str | Sequence[str],
        content: str,
        *,
        reference_time: TimeLike,
        speaker: str | None = None,
        group_id: str = DEFAULT_GROUP,
        source: str = "message",
        source_id: str | None = None,
        dry_run: bool = False,
        limit: int = SUPERSEDE_MATCHES,
    ) -> Supersession:
        """Add ``content`` as a message that replaces the messages ``old`` names from its
        ``reference_time``: an episode id, a list of ids, or any other text as a query, whose best
        ``limit`` current matches are replaced (``dry_run=True`` only lists them, for the caller
        to confirm). The facts only the old messages told end then; those the new one tells again
        go on. Recorded in transaction time (``audit``, ``known_at`` before it see the old
        belief) and undone by ``retract_episode`` of the new message."""
        return self._ingest().supersede(
            old, content, reference_time=reference_time, speaker=speaker, group_id=group_id, source=source,
            source_id=source_id, dry_run=dry_run, limit=limit,
            find=partial(queries.search.matching_messages, self.core),
        )

    def import_file(
        self, path: str | FilePath, *, format: str = "auto", group_id: str | None = None,
        progress: bool = True, strict: bool = False, replay: bool = False, embed: bool | None = None,
        summaries: bool | None = None,
        speaker_aliases: Mapping[str, str] | None = None,
        tz: str | tzinfo | None = None, identities: str | FilePath | None = None, date_order: str = "auto",
    ) -> ImportReport:
        """Import a chat log or export (JSONL, CSV, LoCoMo JSON, ChatGPT, WhatsApp, Slack, Telegram,
        Discord, Messenger, Claude), a file or a folder or zip of them: ordered, idempotent, resumable.

        ``group_id`` puts every message in one group (default: each conversation's id);
        ``strict`` stops at the first bad line with nothing written; ``replay`` uses each message's
        time as its transaction time (a replayed history) instead of the clock; ``embed=False``
        leaves embedding to :meth:`reindex`, ``summaries=False`` entity summaries to
        :meth:`refresh_summaries`. Each batch of messages commits with its vectors and summaries.
        ``speaker_aliases`` ({alias: speaker}) declares speaker ids one person before anything is
        imported, as :meth:`alias_speaker` does, in each group written; ``identities``, a file
        naming each person's ids, in each group where one of them speaks. ``tz`` is the zone of
        times an export gives without one (WhatsApp; default: this machine's), ``date_order``
        ("day-first", "month-first") the order of WhatsApp dates a file cannot settle. The report
        counts each file (``files``), lists refused files and each group's speakers, and the
        lookalike speaker ids it kept apart (``lookalike_speakers``).
        """
        return self._ingest().import_file(
            _file_path(path), format=format, group_id=group_id, progress=progress, strict=strict,
            replay=replay, embed=embed, summaries=summaries, speaker_aliases=speaker_aliases,
            tz=tz, identities=None if identities is None else _file_path(identities), date_order=date_order,
        )

    def import_facts(
        self, path: str | FilePath, *, group_id: str = DEFAULT_GROUP, strict: bool = False,
        embed: bool | None = None, progress: bool = False, summaries: bool | None = None,
    ) -> FactFileReport:
        """Bulk-load structured facts from a CSV file (with a header) or JSON Lines, one fact per
        row with the fields of :class:`FactInput`, through :meth:`add_facts`. Bad lines are reported
        with file and line and skipped; ``strict`` stops at the first one with nothing written
        (see :mod:`ingestion.fact_files`)."""
        return ingestion.fact_files.import_facts(
            self.core, _file_path(path), group_id=group_id, strict=strict, embed=embed, progress=progress,
            summaries=summaries,
        )

    # -- reflection ------------------------------------------------------------------------------
    def reflect(
        self, *, group_id: str = DEFAULT_GROUP, subject: str | None = None, since: TimeLike | None = None,
        producer: str = "offline",
    ) -> Reflection:
        """Derive insights from the group's facts (about ``subject`` only; speaking of valid times
        after ``since``) with the ``producer`` ("offline" rules or the "llm"), and store them: new
        ones, revisions (``replaces``) of those that changed; see :mod:`queries.reflection`."""
        return queries.reflection.reflect(self.core, group_id=group_id, subject=subject, since=since,
                                          producer=producer)

    def insights(
        self, subject: str | None = None, *, known_at: TimeLike | None = None, group_id: str = DEFAULT_GROUP
    ) -> list[Insight]:
        """The insights believed now (or at ``known_at``), about ``subject`` when given, weightiest
        first. An insight stops being believed when any fact version it cites expires."""
        return queries.reflection.insights(self.core, group_id=group_id, subject=subject, known_at=known_at)

    # -- queries ---------------------------------------------------------------------------------
    def summary(
        self, entity: str, *, known_at: TimeLike | None = None, group_id: str = DEFAULT_GROUP,
        derive: bool = False,
    ) -> EntitySummary | None:
        """The summary of ``entity`` derived from its facts as believed at ``known_at`` (default
        now), or None when there was none then (see :mod:`queries.summaries`). With ``derive``,
        when none was stored then, the one its facts believed then give, made now and not stored
        (``id`` empty, ``created_at`` the moment asked). Raises NotFound for an unknown entity."""
        return queries.summaries.summary(
            self.core, entity, known_at=self.core.optional_time(known_at, "known_at"), group_id=group_id,
            derive=derive,
        )

    def paths(
        self,
        start: str,
        *,
        end: str | None = None,
        relations: Iterable[str] | None = None,
        max_hops: int = 3,
        as_of: TimeLike | None = None,
        group_id: str = DEFAULT_GROUP,
        direction: str = "out",
        overlapping: bool = False,
        during: tuple[TimeLike, TimeLike] | None = None,
        limit: int = 100,
        known_at: TimeLike | None = None,
    ) -> list[Path]:
        """Chains of facts from ``start`` (to ``end`` when given), shortest first, at most
        ``max_hops`` long and ``limit`` many (see :mod:`queries.paths`).

        Every hop is valid at ``as_of`` (default now), as currently believed. ``relations`` keeps
        hops of those relations only; ``direction="any"`` also walks facts from object to subject.
        ``overlapping=True`` (or ``during=(t1, t2)``) asks instead for chains whose hops all held
        at one common moment (within ``[t1, t2)``): "who managed Alice while she lived in Berlin".
        ``known_at``: every hop as the memory believed it then (default now).
        """
        return queries.paths.paths(
            self.core, start, end=end, relations=relations, max_hops=max_hops, as_of=as_of,
            group_id=group_id, direction=direction, overlapping=overlapping, during=during, limit=limit,
            known_at=known_at,
        )

    def search(
        self,
        query: str,
        *,
        as_of: TimeLike | None = None,
        limit: int = 10,
        group_id: str = DEFAULT_GROUP,
        include_history: bool = False,
        kinds: Sequence[str] = RECORD_KINDS,
        methods: Sequence[str] = SEARCH_METHODS,
        pool: int | None = None,
        rank: str = DEFAULT_RANK,
        half_life_days: float = DEFAULT_HALF_LIFE_DAYS,
        claims: str = DEFAULT_CLAIMS,
        relevance_floor: float = RELEVANCE_FLOOR,
        known_at: TimeLike | None = None,
        stale: str = DEFAULT_STALE,
    ) -> SearchResults:
        """The ``limit`` best facts, entities and episodes for ``query``, each saying why it matched
        (hybrid: BM25, embeddings and the named entities' neighbourhood, fused by reciprocal rank;
        see :mod:`queries.search`).

        Facts are those valid at ``as_of`` (default now), as currently believed; with
        ``include_history=True``, those of any valid time. ``kinds`` and ``methods`` pick a subset
        of ``("fact", "entity", "episode")`` and ``("bm25", "embedding", "graph")``; ``pool`` is how
        deep each ranking reads before fusion (default ``max(30, 3 * limit)``).

        ``rank`` orders the hits: "relevance" (default), "recency" (the most recently told first,
        counting half as recent every ``half_life_days``), "importance" (``Fact.importance``) or
        "blend" of the three (see :mod:`queries.ranking`). ``claims`` as in :meth:`now`.
        ``relevance_floor``: a hit only the embedding ranks (no keyword or named entity behind it)
        is dropped below this cosine (default calibrated on LoCoMo; 0 keeps every hit).

        ``known_at``: search the memory as it stood then (facts believed then, no record added
        later). Each message hit carries its ``standing`` ("current", "superseded" with
        ``replaced_by``, "unparsed"); ``stale`` says what happens to superseded ones: "hide"
        (counted in ``stale_left_out`` of the returned list), "label" (kept below every current
        hit) or "show" (ranked as any hit); "auto" (default) hides them for a question about now
        and shows them, labelled, for one about the past or a change.
        """
        return queries.search.search(
            self.core, query_text(query, "query"), as_of=as_of, limit=limit, group_id=group_id,
            include_history=include_history, kinds=kinds, methods=methods, pool=pool, rank=rank,
            half_life_days=half_life_days, claims=claims, relevance_floor=relevance_floor, known_at=known_at,
            stale=stale,
        )

    def context(
        self,
        query: str,
        *,
        budget_tokens: int = 1000,
        as_of: TimeLike | None = None,
        group_id: str = DEFAULT_GROUP,
        known_at: TimeLike | None = None,
        claims: str = DEFAULT_CLAIMS,
        stale: str = DEFAULT_STALE,
    ) -> str:
        """A memory block for a prompt: the facts most relevant to ``query`` with their dates, then
        the messages supporting them, never more than ``budget_tokens`` tokens ("" when nothing
        fits; see :mod:`queries.context`). With ``as_of`` (``known_at``) no message told (recorded)
        after it appears; ``claims`` as in :meth:`now`; ``stale`` as in :meth:`search` (a superseded
        message is left out, or listed last with what replaced it)."""
        return queries.context.context(self.core, query_text(query, "query"), budget_tokens=budget_tokens,
                                       as_of=as_of, known_at=known_at, group_id=group_id, claims=claims,
                                       stale=stale)

    def ask(
        self, question: str, *, reference_time: TimeLike | None = None, speaker: str | None = None,
        group_id: str = DEFAULT_GROUP, claims: str = DEFAULT_CLAIMS,
    ) -> Answer:
        """Answer a question in plain language from the memory's facts, citing them, or say "I don't
        know" (``known=False``); never invented. ``reference_time`` (default now) is when the
        question is asked: "now", "last year" and "since 2023" are read from it (see
        :mod:`queries.ask`). Yes/no questions ("Has X ever…", "Is X still…") answer ``verdict``
        "yes" or "no" from the memory's own record; ``claims`` as in :meth:`now` (a claim the
        answer leans on is named with who made it). ``speaker``: who asks ("I", "my" in the
        question); default the group's one human speaker, which the answer then says."""
        return queries.ask.ask(self.core, query_text(question, "question"), reference_time=reference_time,
                               speaker=speaker, group_id=group_id, claims=claims)


def _file_path(path: object) -> str | FilePath:
    if not isinstance(path, (str, FilePath)):
        raise InvalidInput(f"path: expected a file path, got {type(path).__name__} {path!r}"[:200])
    return path
