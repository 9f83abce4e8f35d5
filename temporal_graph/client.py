"""``TemporalGraph``: the client users hold. Thin: it validates, resolves names and times, runs
statements through :class:`~temporal_graph.core.writer.FactWriter` and reads through the store.

Ingestion (``add_episode``, ``import_file``) and the query layer (``paths``, ``search``,
``context``, ``ask``) live in the ``ingestion`` and ``queries`` packages. This facade is the one
module that imports them (they import only the core, :class:`~temporal_graph.core.Core`), so every
public method can be followed to its code by reading imports.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from datetime import datetime, tzinfo
from pathlib import Path as FilePath
from typing import TYPE_CHECKING, Any, TypeVar

import networkx as nx

from .core import DEFAULT_GROUP, MAX_MESSAGE_CHARS, SUMMARY_CHARS, SUMMARY_LLM_EVERY, Core, bulk, reads
from .core.embeddings import Embedder
from .core.errors import InvalidInput
from .core.extraction import Extractor
from .core.model import (
    DEFAULT_IMPORTANCE,
    RECORD_KINDS,
    SEARCH_METHODS,
    Answer,
    BulkReport,
    Diff,
    Entity,
    EntitySummary,
    Episode,
    Fact,
    FactInput,
    ImportReport,
    IngestResult,
    Path,
    RecordKind,
    SearchHit,
)
from .core.names import check_group, clean_name, normalize_relation
from .core.ontology import Ontology, check_importance
from .core.progress import progress_bar
from .core.stores.protocol import FactQuery, Store
from .core.time import UTC, Clock, TimeLike, system_clock
from .core.writer import FactWriter
from .llm import LLMClient

if TYPE_CHECKING:
    from ingestion.ingest import Ingestion

T = TypeVar("T")


class TemporalGraph:
    """A bi-temporal memory over one store. Use :meth:`open` or :meth:`connect` to make one."""

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
    ) -> None:
        self.core = Core(
            store, clock=clock or system_clock, ontology=ontology or Ontology.default_personal(), llm=llm,
            zone=zone, embed=embed, max_message_chars=max_message_chars, trust=trust,
            embedder_override=embedder, summary_chars=summary_chars, summary_llm_every=summary_llm_every,
        )
        self.core.after_write.append(self._refresh_summaries)
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
        self.store.close()

    def __enter__(self) -> TemporalGraph:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- the core's parts, as attributes of the memory --------------------------------------------
    @property
    def store(self) -> Store:
        """The store the memory reads and writes (embedded SQLite or Neo4j)."""
        return self.core.store

    @property
    def clock(self) -> Clock:
        """Where "now" comes from (the system clock unless one was given)."""
        return self.core.clock

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
    def max_message_chars(self) -> int:
        """The longest message ``add_episode`` and imports accept, in characters."""
        return self.core.max_message_chars

    @property
    def trust(self) -> str:
        """``"speaker"``: what someone says about another person is their claim; ``"all"``: a fact."""
        return self.core.trust

    @property
    def embedder(self) -> Embedder:
        """The embedding model; loaded on first use (the offline all-MiniLM-L6-v2 by default)."""
        return self.core.embedder

    def time(self, value: TimeLike, name: str = "time") -> datetime:
        """``value`` (a datetime, date or ISO text) as an aware UTC datetime, naive ones read in
        :attr:`zone`; ``name`` is the argument named in the error when it is not a time."""
        return self.core.time(value, name)

    def optional_time(self, value: TimeLike | None, name: str = "time") -> datetime | None:
        """:meth:`time`, or None for None."""
        return self.core.optional_time(value, name)

    def write(self, group_id: str, fn: Callable[[FactWriter], T], *, embed: bool | None = None) -> T:
        """Run ``fn`` with a writer in one transaction (see :meth:`Core.write`)."""
        return self.core.write(group_id, fn, embed=embed)

    def embed_records(
        self, records: Sequence[Fact | Entity | Episode], known: Mapping[str, Sequence[float]] | None = None
    ) -> int:
        """Embed ``records`` in one batch and store their vectors; returns how many."""
        return self.core.embed_records(records, known)

    def reindex(self, group_id: str | None = None, *, progress: bool = False, batch_size: int = 256) -> int:
        """Embed every record that has no vector yet (after an import with ``embed=False``, or
        from a version that embedded lazily). Idempotent; returns how many were embedded.
        ``group_id=None`` covers every group."""
        groups = [check_group(group_id)] if group_id is not None else self.store.groups()
        loaders: dict[str, Callable[[str, list[str]], Sequence[Fact | Entity | Episode]]] = {
            RecordKind.ENTITY: lambda g, ids: self.store.entities(g, ids=ids),
            RecordKind.EPISODE: lambda g, ids: self.store.episodes(g, ids=ids),
            RecordKind.FACT: lambda g, ids: self.store.facts(FactQuery(g, ids=tuple(ids))),
        }
        done = 0
        with progress_bar(progress, "embedding", total=None) as advance:
            for group in groups:
                for kind, load in loaders.items():
                    while ids := self.store.missing_embeddings(group, kind, batch_size):
                        records = load(group, ids)
                        if not records:  # listed but unreadable: never loop forever
                            break
                        done += self.embed_records(records)
                        advance(len(records))
        return done

    def find_entity(self, name: str, group_id: str = DEFAULT_GROUP) -> Entity | None:
        """The entity of the group known by ``name`` (any of its spellings), or None."""
        return self.core.find_entity(name, group_id)

    # -- writing ---------------------------------------------------------------------------------
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

        Contradictions follow the relation's cardinality (see DESIGN.md); returns the row written,
        or the existing row the statement merged into.
        """
        relation = normalize_relation(relation)
        start = self.optional_time(valid_at, "valid_at")
        end = self.optional_time(invalid_at, "invalid_at")
        clean_name(subject, "subject"), clean_name(object, "object")
        number = isinstance(confidence, (int, float)) and not isinstance(confidence, bool)
        if not number or not 0.0 <= confidence <= 1.0:
            raise InvalidInput(f"confidence: {confidence!r} is not a number between 0 and 1")
        check_importance(importance)
        if text is not None:
            _text(text, "text")
        if episode_id is not None:
            _text(episode_id, "episode_id")
        if attributes is not None and not isinstance(attributes, dict):
            got = f"{type(attributes).__name__} {attributes!r}"
            raise InvalidInput(f"attributes: expected a dict, got {got}"[:200])

        def run(w: FactWriter) -> Fact:
            s = w.entity(subject, type=subject_type, what="subject")
            o = w.entity(object, type=object_type or self.ontology.object_type(relation), what="object")
            outcome = w.start(
                s, relation, o, valid_at=start, invalid_at=end, default_start=w.now, text=text,
                episode_id=episode_id, confidence=confidence, importance=importance, attributes=attributes,
            )
            if outcome.fact is None:  # lost a same-instant tie to a later statement
                raise InvalidInput(f"{subject} {relation} {object}: another fact starts at the same instant")
            return outcome.fact

        return self.write(group_id, run)

    def add_facts(
        self,
        facts: Iterable[FactInput | Mapping[str, Any] | Sequence[Any]],
        *,
        group_id: str = DEFAULT_GROUP,
        strict: bool = False,
        embed: bool | None = None,
        progress: bool = False,
        batch_size: int = bulk.BATCH_FACTS,
    ) -> BulkReport:
        """Load many structured facts at once: the same rows as calling :meth:`add_fact` for each,
        in order, but each (subject, relation) timeline is derived once and only final rows are
        written (no intermediate versions), in transactions of about ``batch_size`` facts.

        Items are :class:`FactInput`, mappings with its fields, or tuples ``(subject, relation,
        object[, valid_at[, invalid_at]])``. A bad item is reported in the result and skipped;
        with ``strict=True`` the first one raises :class:`InvalidInput` before anything is written.
        """
        return bulk.add_facts(self.core, facts, group_id=group_id, strict=strict, embed=embed,
                              progress=progress, batch_size=batch_size)

    def end_fact(
        self,
        subject: str,
        relation: str,
        object: str | None = None,
        *,
        at: TimeLike,
        group_id: str = DEFAULT_GROUP,
    ) -> list[Fact]:
        """Close the fact(s) holding at ``at`` (every object when ``object`` is None)."""
        relation = normalize_relation(relation)
        moment = self.time(at, "at")
        if object is not None:
            clean_name(object, "object")

        def run(w: FactWriter) -> list[Fact]:
            # The ending is recorded even when nothing is known yet about the fact: a start
            # learned later must still end here, or the belief would depend on arrival order.
            s = w.entity(subject, what="subject")
            o = None
            if object is not None:
                o = w.entity(object, type=self.ontology.object_type(relation), what="object")
            return w.end(s, relation, o, at=moment).ended

        return self.write(group_id, run)

    def retract_fact(
        self, subject: str, relation: str, object: str, *, group_id: str = DEFAULT_GROUP
    ) -> list[Fact]:
        """Everything believed about ``subject relation object`` was wrong: expire it, no successor."""
        relation = normalize_relation(relation)
        clean_name(object, "object")

        def run(w: FactWriter) -> list[Fact]:
            s, o = w.existing(subject), w.existing(object)
            if s is None or o is None:
                return []
            return w.retract(s, relation, o).retracted

        return self.write(group_id, run)

    # -- reading (plain temporal reads live in ``reads``; one implementation for every layer) ----------
    def now(
        self,
        subject: str | None = None,
        relation: str | None = None,
        object: str | None = None,
        *,
        group_id: str = DEFAULT_GROUP,
    ) -> list[Fact]:
        """What is true now, as believed now."""
        return reads.now(self.core, subject, relation, object, group_id=group_id)

    def as_of(
        self,
        valid_time: TimeLike,
        *,
        known_at: TimeLike | None = None,
        subject: str | None = None,
        relation: str | None = None,
        object: str | None = None,
        group_id: str = DEFAULT_GROUP,
    ) -> list[Fact]:
        """What was true at ``valid_time``, as the memory believed it at ``known_at`` (default now)."""
        return reads.as_of(self.core, valid_time, known_at=known_at, subject=subject, relation=relation,
                           object=object, group_id=group_id)

    def history(
        self, subject: str, relation: str | None = None, *, group_id: str = DEFAULT_GROUP
    ) -> list[Fact]:
        """The valid-time timeline of a subject (optionally one relation), as currently believed."""
        return reads.history(self.core, subject, relation, group_id=group_id)

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
        facts = self.as_of(self.core.time_or_now(as_of, "as_of"), known_at=known_at, group_id=group_id)
        return facts_to_graph(facts, self.store.entities(group_id, ids=_entity_ids(facts)))

    def export(self, group_id: str = DEFAULT_GROUP) -> dict[str, Any]:
        """Everything of one group (entities, episodes, assertions, every fact version), as JSON data."""
        check_group(group_id)
        assertions = sorted(self.store.group_assertions(group_id), key=lambda a: (a.created_at, a.seq, a.id))
        every = self.store.facts(FactQuery(group_id, all_versions=True))
        facts = sorted(every, key=lambda f: (f.created_at, f.id))
        summaries_in_order = sorted(self.store.summaries(group_id, all_versions=True),
                                    key=lambda s: (s.created_at, s.entity_id))
        return {
            "group_id": group_id,
            "entities": [e.model_dump(mode="json") for e in self.store.entities(group_id)],
            "episodes": [e.model_dump(mode="json") for e in self.store.episodes(group_id)],
            "assertions": [a.model_dump(mode="json") for a in assertions],
            "facts": [f.model_dump(mode="json") for f in facts],
            "summaries": [s.model_dump(mode="json") for s in summaries_in_order],
        }

    def forget(self, group_id: str) -> int:
        """Delete one group entirely (right to be forgotten); returns the number of records removed."""
        return self.store.forget(check_group(group_id))

    # -- the layers: ``ingestion`` and ``queries`` import only the core, and are imported here, in
    # the methods, so that importing a layer first (``import queries.search``) finds the package
    # whole: ``temporal_graph`` loads the facade, which must not need the layer half-loaded.

    # -- ingestion -------------------------------------------------------------------------------
    def _ingest(self) -> Ingestion:
        """The ingestion layer of this memory (made on first use; it keeps the extractor and the
        entity resolver, so nothing of ingestion's is stored on the memory itself)."""
        if self._ingestion is None:
            from ingestion.ingest import Ingestion

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
    ) -> IngestResult:
        """Extract facts from one message told at ``reference_time`` and apply them in one
        transaction. ``speaker`` says who wrote it (what they say about someone else is their claim
        under ``trust="speaker"``); ``source_id`` makes a re-sent message a no-op (without it, the
        same text at the same time is)."""
        return self._ingest().add_episode(
            content, reference_time=reference_time, speaker=speaker, group_id=group_id,
            source=source, source_id=source_id,
        )

    def import_file(
        self, path: str | FilePath, *, format: str = "auto", group_id: str | None = None,
        progress: bool = True, strict: bool = False, replay: bool = False, embed: bool | None = None,
    ) -> ImportReport:
        """Import a chat log (JSONL, CSV, LoCoMo JSON, ChatGPT export): ordered, idempotent, resumable.

        ``group_id`` puts every message in one group (default: each conversation's id);
        ``strict`` stops at the first bad line with nothing written; ``replay`` uses each message's
        time as its transaction time (a replayed history) instead of the clock; ``embed=False``
        leaves embedding to :meth:`reindex`.
        """
        if not isinstance(path, (str, FilePath)):
            raise InvalidInput(f"path: expected a file path, got {type(path).__name__} {path!r}"[:200])
        return self._ingest().import_file(
            path, format=format, group_id=group_id, progress=progress, strict=strict, replay=replay,
            embed=embed,
        )

    # -- queries ---------------------------------------------------------------------------------
    def summary(
        self, entity: str, *, known_at: TimeLike | None = None, group_id: str = DEFAULT_GROUP
    ) -> EntitySummary | None:
        """The summary of ``entity`` derived from its facts as believed at ``known_at`` (default
        now), or None when there was none then (see :mod:`queries.summaries`). Raises NotFound for
        an unknown entity."""
        from queries.summaries import summary

        known = self.optional_time(known_at, "known_at")
        return summary(self.core, entity, known_at=known, group_id=group_id)

    def _refresh_summaries(self, group_id: str, writer: FactWriter) -> None:
        """After each write (``Core.after_write``): the summaries of the entities it changed."""
        from queries.summaries import refresh_summaries

        refresh_summaries(self.core, group_id, writer.touched, writer.now)

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
    ) -> list[Path]:
        """Chains of facts from ``start`` (to ``end`` when given), shortest first, at most
        ``max_hops`` long and ``limit`` many (see :mod:`queries.paths`).

        Every hop is valid at ``as_of`` (default now), as currently believed. ``relations`` keeps
        hops of those relations only; ``direction="any"`` also walks facts from object to subject.
        ``overlapping=True`` (or ``during=(t1, t2)``) asks instead for chains whose hops all held
        at one common moment (within ``[t1, t2)``): "who managed Alice while she lived in Berlin".
        """
        from queries.paths import paths

        return paths(
            self.core, start, end=end, relations=relations, max_hops=max_hops, as_of=as_of,
            group_id=group_id, direction=direction, overlapping=overlapping, during=during, limit=limit,
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
        rank: str = "relevance",
        half_life_days: float = 30.0,
    ) -> list[SearchHit]:
        """The ``limit`` best facts, entities and episodes for ``query``, each saying why it matched
        (hybrid: BM25, embeddings and the named entities' neighbourhood, fused by reciprocal rank;
        see :mod:`queries.search`).

        Facts are those valid at ``as_of`` (default now), as currently believed; with
        ``include_history=True``, those of any valid time. ``kinds`` and ``methods`` pick a subset
        of ``("fact", "entity", "episode")`` and ``("bm25", "embedding", "graph")``; ``pool`` is how
        deep each ranking reads before fusion (default ``max(30, 3 * limit)``).

        ``rank`` orders the hits: "relevance" (default), "recency" (the most recently told first,
        counting half as recent every ``half_life_days``), "importance" (``Fact.importance``) or
        "blend" of the three (see :mod:`queries.ranking`).
        """
        from queries.search import search

        _text(query, "query")
        return search(
            self.core, query, as_of=as_of, limit=limit, group_id=group_id, include_history=include_history,
            kinds=kinds, methods=methods, pool=pool, rank=rank, half_life_days=half_life_days,
        )

    def context(
        self,
        query: str,
        *,
        budget_tokens: int = 1000,
        as_of: TimeLike | None = None,
        group_id: str = DEFAULT_GROUP,
    ) -> str:
        """A memory block for a prompt: the facts most relevant to ``query`` with their dates, then
        the messages supporting them, never more than ``budget_tokens`` tokens ("" when nothing
        fits; see :mod:`queries.context`)."""
        from queries.context import context

        _text(query, "query")
        return context(self.core, query, budget_tokens=budget_tokens, as_of=as_of, group_id=group_id)

    def ask(
        self, question: str, *, reference_time: TimeLike | None = None, group_id: str = DEFAULT_GROUP
    ) -> Answer:
        """Answer a question in plain language from the memory's facts, citing them, or say "I don't
        know" (``known=False``); never invented. ``reference_time`` (default now) is when the
        question is asked: "now", "last year" and "since 2023" are read from it (see
        :mod:`queries.ask`)."""
        from queries.ask import ask

        _text(question, "question")
        return ask(self.core, question, reference_time=reference_time, group_id=group_id)


def _text(value: object, what: str) -> str:
    """Free text an argument must be (a query, a question, a fact's text)."""
    if not isinstance(value, str):
        raise InvalidInput(f"{what}: expected text, got {type(value).__name__} {value!r}"[:200])
    return value


def _entity_ids(facts: Iterable[Fact]) -> list[str]:
    return list(dict.fromkeys(i for f in facts for i in (f.subject_id, f.object_id)))


def facts_to_graph(facts: Iterable[Fact], entities: Iterable[Entity]) -> nx.MultiDiGraph:
    """Entities as nodes (by id), facts as edges keyed by row id, attributes as plain values."""
    graph: nx.MultiDiGraph = nx.MultiDiGraph()
    for e in entities:
        graph.add_node(e.id, name=e.name, type=e.type)
    for f in facts:
        graph.add_edge(
            f.subject_id, f.object_id, key=f.id, relation=f.relation, fact=f, fact_id=f.fact_id,
            valid_at=f.valid_at, invalid_at=f.invalid_at, text=f.text,
        )
    return graph
