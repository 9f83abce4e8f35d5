"""Hybrid search over facts, entities and episodes, fused with reciprocal-rank fusion.

Three rankings are built for each kind of record, then fused (RRF: a record's score is the sum
of ``1 / (60 + rank)`` over the rankings that list it, so no ranking's raw scores need to be
comparable with another's):

- ``bm25``: the store's full-text index (SQLite FTS5 on the embedded store, fulltext indexes on
  Neo4j), one ranking per kind (scores of different indexes are not comparable);
- ``embedding``: cosine similarity of all-MiniLM-L6-v2 vectors (offline) from the store's vector
  index; records are embedded when written, so a search encodes only its query. One ranking
  across the three kinds, since similarities of one model are comparable (it also breaks ties of
  the fused score);
- ``graph``: the neighbourhood of entities the query names ("Zhang Wei", "Shanghai", matched
  case-insensitively against entity names and aliases): facts touching them, those entities
  themselves, and the episodes those facts were learned from. Its weight in the fusion falls
  as the neighbourhood grows (like IDF): when every fact is about Caroline, "names Caroline"
  tells no fact apart, and it weighs nothing.

Keyword queries leave out stop words and the names the graph ranking already covers, because
fusion sees only ranks: a fact that matches nothing but "the" or "Caroline" must not get one.

Cost: a search never reads a whole group. Fact candidates are the full-text top-k, the vector
top-k and (capped) the named entities' neighbourhood, read by row id; the graph weight needs two
counts, which the store answers from its indexes.

Time: facts are filtered to those valid at ``as_of`` (default: now), as currently believed, by the
store as it reads the candidates. The store's indexes hold every currently-believed row, whatever
its valid interval, so each ranking reads deeper than it keeps, to survive the filter. With
``include_history=True`` every currently-believed row counts (past and future ones too), which is
what "where has she ever lived" needs. Rows the memory no longer believes (expired, retracted)
are never returned. With ``known_at=K`` the search sees what a search run at K saw: rows believed
then (those expired since are read beside the indexes), no message, entity or insight recorded
after K. With ``as_of=T`` no message told after T comes back (as in ``context``).

Standing (see :mod:`queries.standing`): every message hit says whether one of its facts still
holds (``current``), all of them ended or were replaced (``superseded``, with the facts that
replaced it), or it gave none (``unparsed``). Superseded messages are left out by default and
counted (``SearchResults.stale_left_out``) for a question about now; a question about the past or a
change ("did", "ever", "before", "still", "when", a named period), or one with ``as_of``, keeps
them where they rank, labelled: they are its evidence (``stale="auto"``, the default). ``stale="hide"`` always
leaves them out, ``stale="label"`` always keeps them last, ``stale="show"`` where they rank. A
fact always ranks above the messages it was learned from. For a "now" search, an entity whose
facts have all ended is no hit. A broad question ("what do you know about Zhang Wei?") that no
ranking answers gets the weightiest current facts about what it names, each saying so.

Every hit says why it matched, e.g. ``["bm25 #1", "embedding #3 (0.62)", "neighbour of Zhang Wei"]``.
"""

from __future__ import annotations

import math
import re
from collections import defaultdict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime
from functools import partial
from typing import Any

import numpy as np

from temporal_graph.core import DEFAULT_GROUP, Core
from temporal_graph.core.claims import apply_claims, check_claims
from temporal_graph.core.embeddings import kind_of
from temporal_graph.core.errors import InvalidInput
from temporal_graph.core.limits import RESULTS, optional_whole_number, whole_number
from temporal_graph.core.model import (
    DEFAULT_CLAIMS,
    DEFAULT_HALF_LIFE_DAYS,
    DEFAULT_RANK,
    DEFAULT_STALE,
    RECORD_KINDS,
    SEARCH_KINDS,
    SEARCH_METHODS,
    STALE_MODES,
    Entity,
    Episode,
    Fact,
    Insight,
    RecordKind,
    SearchHit,
    SearchResults,
)
from temporal_graph.core.names import MAX_NAME_CHARS, check_group
from temporal_graph.core.stores.protocol import FactQuery
from temporal_graph.core.time import TimeLike

from . import broad, probable, ranking, staleness, time_cues
from .question import about_the_group

RRF_K = 60
# A hit only the embedding ranks (no keyword, no named entity behind it) is dropped below this
# cosine: calibrated on LoCoMo dev (benchmarks/relevance_floor.py; the figures are in the README).
RELEVANCE_FLOOR = 0.35
DEEPER = 3  # how much deeper than the fused depth each fact ranking reads, to survive the time filter
NEIGHBOURHOOD = 200  # facts read per named entity and side for the graph ranking
KINDS = RECORD_KINDS  # the default; insights come when asked for (SEARCH_KINDS)
METHODS = SEARCH_METHODS
_KIND_ORDER: dict[str, int] = {k: i for i, k in enumerate(SEARCH_KINDS)}
INSIGHT = "insight"

# Words that never name an entity on their own, so "I" or "the" in a query cannot pull in an
# entity that happens to be called that.
_STOP_WORDS = """a an the i me my mine we us our you your he him his she her hers it its they them their
who whom whose what which when where why how is are was were be been being do does did doing
have has had of in on at to for from by with about as into like and or not no yes than then
there here this that these those now ever still any some all much many per &"""
_STOP = frozenset(_STOP_WORDS.split())
# The "s" of "Leila's" (not a name the memory holds), the "m" of "I'm", a negated auxiliary: as a
# keyword, each matches nearly every message, and its hits crowd out those of the words that count.
_CLITICS = re.compile(r"(?i)\b\w+n['’]t\b|['’](?:s|d|m|ll|re|ve)\b")
_WORD = re.compile(r"[\w][\w'’.-]*|&")  # "&" inside a name: "Crumb & Co"
MAX_NAME_WORDS = 6


def named_entities(core: Core, text: str, group_id: str) -> list[Entity]:
    """Entities of the group whose name or alias appears in ``text``, longest match first.

    Scans word n-grams (up to six words, possessive "'s" dropped) against the store's name keys,
    every spelling looked up in one batch of indexed lookups, whatever the size of the graph.
    """
    tokens = [w for w in _WORD.findall(text) if w.removesuffix("'s").removesuffix("’s").rstrip(".")]
    raw = [w.removesuffix("'s").removesuffix("’s") for w in tokens]
    words = [w.rstrip(".") for w in raw]  # a sentence's full stop is no part of a name…
    grams: list[tuple[int, int, list[str]]] = []  # (n, i, the spellings of words[i : i + n])
    for n in range(min(MAX_NAME_WORDS, len(words)), 0, -1):
        for i in range(len(words) - n + 1):
            gram = words[i : i + n]
            if all(w.lower() in _STOP for w in gram):
                continue
            # …but a name may hold one: "John R. Pierce", "Sunderland A.F.C." at the end of a sentence;
            # and a possessive inside a name is part of it: "St. Michael's Hospital".
            head = slice(i, i + n - 1)
            spellings = (gram, [*raw[head], gram[-1]], raw[i : i + n], [*tokens[head], gram[-1]])
            names = [name for name in dict.fromkeys(" ".join(spelling) for spelling in spellings)
                     if len(name) <= MAX_NAME_CHARS]  # a longer "word" names nobody
            grams.append((n, i, names))
    # Every spelling looked up at once (one read, not one per word sequence), then matched longest first.
    known = core.find_entities((name for _, _, names in grams for name in names), group_id)
    found: list[Entity] = []
    taken = [False] * len(words)
    for n, i, names in grams:
        if any(taken[i : i + n]):
            continue
        entity = next((e for e in (known[name] for name in names) if e is not None), None)
        if entity is not None:
            for j in range(i, i + n):
                taken[j] = True
            if entity.id not in {e.id for e in found}:
                found.append(entity)
    return found


@dataclass
class _Fusion:
    """Accumulates rankings; each (kind, id) collects an RRF score and its reasons."""

    scores: dict[tuple[str, str], float] = field(default_factory=lambda: defaultdict(float))
    reasons: dict[tuple[str, str], list[str]] = field(default_factory=lambda: defaultdict(list))
    records: dict[tuple[str, str], Any] = field(default_factory=dict)
    cosine: dict[tuple[str, str], float] = field(default_factory=dict)  # breaks ties

    def add(self, ranked: Iterable[tuple[Any, str]], weight: float = 1.0) -> None:
        """``ranked``: (record, reason) best first; the reason gets the rank substituted for ``{rank}``."""
        if weight <= 0:
            return
        for rank, (record, reason) in enumerate(ranked, start=1):
            key = (INSIGHT if isinstance(record, Insight) else kind_of(record), record.id)
            self.records[key] = record
            self.scores[key] += weight / (RRF_K + rank)
            self.reasons[key].append(reason.format(rank=rank))

    def order(self, floor: float = 0.0) -> list[tuple[str, str]]:
        """Every (kind, id) not dropped by the relevance ``floor``, best first."""
        return sorted(
            (k for k in self.scores if not self._below(k, floor)),
            key=lambda k: (-round(self.scores[k], 12), -self.cosine.get(k, -1.0), _KIND_ORDER[k[0]], k[1]),
        )

    def hits(self, limit: int, floor: float = 0.0) -> list[SearchHit]:
        out = []
        for kind, item_id in self.order(floor)[:limit]:
            record = self.records[(kind, item_id)]
            out.append(
                SearchHit(
                    kind=kind,  # type: ignore[arg-type]
                    score=round(self.scores[(kind, item_id)], 6),
                    reasons=self.reasons[(kind, item_id)],
                    **{kind: record},
                )
            )
        return out

    def _below(self, key: tuple[str, str], floor: float) -> bool:
        """Only the embedding ranks it, and not closely enough to mean anything on its own."""
        only_embedding = all(r.startswith("embedding") for r in self.reasons[key])
        return only_embedding and self.cosine.get(key, 0.0) < floor


def search(
    core: Core,
    query: str,
    *,
    as_of: TimeLike | None = None,
    known_at: TimeLike | None = None,
    limit: int = 10,
    group_id: str = DEFAULT_GROUP,
    include_history: bool = False,
    kinds: Sequence[str] = KINDS,
    methods: Sequence[str] = METHODS,
    pool: int | None = None,
    rank: str = DEFAULT_RANK,
    half_life_days: float = DEFAULT_HALF_LIFE_DAYS,
    claims: str = DEFAULT_CLAIMS,
    relevance_floor: float = RELEVANCE_FLOOR,
    stale: str = DEFAULT_STALE,
) -> SearchResults:
    """The ``limit`` best facts, entities and episodes for ``query``, fused from several rankings.

    ``include_history``: facts of any valid time, as currently believed (instead of those valid
    at ``as_of``, default now). ``known_at``: as the memory knew it then (facts believed then,
    nothing recorded later). ``kinds``: a subset of ``("fact", "entity", "episode")``.
    ``methods``: a subset of ``("bm25", "embedding", "graph")``, e.g. to compare them. ``pool``:
    how deep each ranking goes before fusion, default ``max(30, 3 * limit)``. ``rank`` and
    ``half_life_days``: the order of the hits (see :mod:`queries.ranking`). ``claims``: which
    facts to show (see :mod:`temporal_graph.core.claims`). ``relevance_floor``: hits only the
    embedding ranks, below this cosine, are dropped (0 keeps them). ``stale``: what to do with
    messages whose facts all ended or were replaced (see :mod:`queries.standing`): "hide" them
    (counted in ``stale_left_out``), "label" them below every current hit, or "show" them ranked
    as any hit; "auto" (default) hides them for a question about now and shows them, labelled,
    for one about the past or a change, or with ``as_of``.
    """
    check_group(group_id)
    whole_number(limit, "limit", RESULTS)
    optional_whole_number(pool, "pool", RESULTS)
    bad = [k for k in kinds if k not in SEARCH_KINDS] + [m for m in methods if m not in METHODS]
    if bad:
        raise InvalidInput(f"search: unknown kind or method {bad[0]!r}")
    ranking.check_rank(rank)
    ranking.check_half_life(half_life_days)
    if stale not in STALE_MODES:
        raise InvalidInput(f"search: stale must be one of {', '.join(STALE_MODES)}, got {stale!r}"[:200])
    if include_history and as_of is not None:
        raise InvalidInput("search: give either as_of or include_history, not both")
    told_by = core.optional_time(as_of, "as_of")
    known = core.optional_time(known_at, "known_at")
    if not isinstance(query, str) or not query.strip():
        return SearchResults()
    check_claims(claims)
    moment = core.time_or_now(as_of, "as_of")
    asked = _read_query(core, query, group_id, methods)
    depth = pool or max(30, 3 * limit)
    valid_time = None if include_history else moment
    history = as_of is not None or known is not None or include_history
    when = _When(valid_time, known, told_by, history=history)
    fused = _score(_candidates(core, asked, group_id, kinds, when, depth))
    if RecordKind.EPISODE in kinds:
        _add_time_cues(fused, query, depth, relevance_floor)
    hits = _with_claims(core, group_id, fused.hits(depth, relevance_floor), claims, valid_time, known)
    hits = _visible(core, group_id, hits, when)
    if RecordKind.FACT in kinds and not any(h.fact is not None for h in hits):
        hits = [*hits, *_broad(core, group_id, query, asked, when, limit)]  # after what did match
    if rank != DEFAULT_RANK:
        hits = ranking.ranked(core.store, group_id, hits, rank=rank, now=moment,
                              half_life_days=half_life_days, limit=len(hits))
    if stale == "auto":
        stale = "show" if as_of is not None or time_cues.asks_past(query) else "hide"
    hits = _said_once(_facts_before_sources(staleness.label(
        core, group_id, hits, valid_time=when.valid_time, known_at=when.known, told_by=when.told_by,
        query=query)))
    return staleness.ordered(core, group_id, hits, stale=stale, limit=limit, valid_time=when.valid_time,
                             known_at=when.known, told_by=when.told_by)


@dataclass(frozen=True)
class _When:
    """The time of a search: facts valid at ``valid_time`` (None: any) and believed at ``known``
    (None: now); messages told by ``told_by`` and recorded by ``known`` (None: no bound)."""

    valid_time: datetime | None
    known: datetime | None
    told_by: datetime | None
    # A read over history (as_of, known_at, include_history): nearest vectors by the exact path,
    # never an approximate index's (a search of now may use one).
    history: bool = False

    def sees(self, record: Entity | Episode) -> bool:
        recorded = self.known is None or record.created_at <= self.known
        if isinstance(record, Episode):
            return recorded and (self.told_by is None or record.reference_time <= self.told_by)
        return recorded

    def facts(self, query: FactQuery) -> FactQuery:
        return replace(query, valid_time=self.valid_time, known_at=self.known)


def _visible(core: Core, group_id: str, hits: list[SearchHit], when: _When) -> list[SearchHit]:
    """Leave out messages told or recorded after the search's time, entities recorded after it,
    and (unless history is asked for) entities the memory holds facts about of which none holds
    at the asked time: an ended name is no answer to a "now" question."""
    seen = [h for h in hits if (record := h.episode or h.entity) is None or when.sees(record)]
    entities = [h.entity.id for h in seen if h.entity is not None]
    if when.valid_time is None or not entities:
        return seen
    # An entity the memory recorded facts about (by the asked time), none of which holds then;
    # any version counts as recorded: a name only a withdrawn message spoke of has ended too.
    presence = core.store.entity_fact_presence(group_id, entities, valid_time=when.valid_time,
                                               known_at=when.known)
    return [h for h in seen if h.entity is None or presence[h.entity.id] != (False, True)]


def _facts_before_sources(hits: list[SearchHit]) -> list[SearchHit]:
    """Lift each fact hit just above the best-ranked message it was learned from, when that
    message ranks above it: the fact says what the message told (and the message keeps its place,
    so no hit the fusion ranked high falls out of the first ``limit``)."""
    message_at = {h.episode.id: n for n, h in enumerate(hits) if h.episode is not None}

    def place(n: int, h: SearchHit) -> float:
        sources = [message_at[e] for e in h.fact.episode_ids if e in message_at] if h.fact is not None else []
        return min(n, min(sources) - 0.5) if sources else n

    return [h for _, _, h in sorted((place(n, h), n, h) for n, h in enumerate(hits))]


def _said_once(hits: list[SearchHit]) -> list[SearchHit]:
    """One hit per text a speaker said word for word more than once (spaces and case aside) with
    the same standing: in the best-ranked copy's place, the newest copy, listing the others in
    ``repeats``."""
    out: list[SearchHit] = []
    first: dict[tuple, int] = {}
    for h in hits:
        if h.episode is None:
            out.append(h)
            continue
        said = (h.episode.speaker, " ".join(h.episode.content.split()).casefold(), h.standing,
                h.replaced_by, h.superseded_by, h.stale_statements)
        at = first.setdefault(said, len(out))
        if at == len(out):
            out.append(h)
            continue
        kept = out[at]
        assert kept.episode is not None
        shown, other = ((h.episode, kept.episode) if h.episode.reference_time > kept.episode.reference_time
                        else (kept.episode, h.episode))
        out[at] = kept.model_copy(update={"episode": shown, "repeats": (*kept.repeats, other.id)})
    return out


BROAD = re.compile(
    r"(?i)\b(?:what\s+(?:do|does)\s+(?:you|the\s+memory)\s+(?:know|remember)|tell\s+me\s+(?:about|everything)"
    r"|everything\s+(?:you\s+know|about)|who\s+(?:am\s+i|is|are)|what\s+about)\b")
BROAD_FACTS = 10


def _broad(core: Core, group_id: str, query: str, asked: _Query, when: _When, limit: int) -> list[SearchHit]:
    """A broad question ("what do you know about Zhang Wei?") that no ranking answered: the
    weightiest current facts about the entities it names, labelled so; one about the group ("Tell
    me about people", "What do you know?") gets the group's (:mod:`queries.broad`)."""
    if not BROAD.search(query) or when.valid_time is None:
        return []
    if not asked.named:
        return [SearchHit(kind="fact", score=0.0, fact=f, reasons=[broad.LABEL.replace("facts", "fact", 1)])
                for f in broad.group_facts(core, group_id, at=when.valid_time, known_at=when.known,
                                           limit=min(limit, BROAD_FACTS))] if about_the_group(query) else []
    facts: dict[str, Fact] = {}
    for entity in asked.named:
        for side in ("subject_id", "object_id"):
            around = when.facts(FactQuery(group_id, **{side: entity.id}))  # type: ignore[arg-type]
            facts.update((f.id, f) for f in core.store.facts(replace(around, limit=NEIGHBOURHOOD)))
    best = sorted(facts.values(), key=lambda f: (-f.importance, -f.created_at.timestamp(), f.text, f.id))
    named = asked.named_ids
    return [SearchHit(kind="fact", score=0.0, fact=f,
                      reasons=[f"weightiest current fact about {_touching(f, named)} (a broad question)"])
            for f in best[: min(limit, BROAD_FACTS)]]


def _with_claims(core: Core, group_id: str, hits: list[SearchHit], claims: str,
                 at: datetime | None, known: datetime | None) -> list[SearchHit]:
    """The hits ``claims`` shows, claims labelled (entities and episodes are no one's claim)."""
    facts = [h.fact for h in hits if h.fact is not None]
    shown = {f.id: f for f in apply_claims(core, group_id, facts, claims, at=at, known_at=known)}
    return [h if h.fact is None else h.model_copy(update={"fact": shown[h.fact.id]})
            for h in hits if h.fact is None or h.fact.id in shown]


@dataclass
class _Query:
    """What a search reads from its query text before touching any index."""

    text: str  # as asked (entity names are matched against it whole)
    keywords: str | None  # for BM25 (None: the bm25 method is off)
    vector: list[float] | None  # the query's embedding (None: the embedding method is off)
    named: list[Entity]  # entities the query names (empty: the graph method is off)

    @property
    def named_ids(self) -> dict[str, Entity]:
        return {e.id: e for e in self.named}


def _read_query(core: Core, query: str, group_id: str, methods: Sequence[str]) -> _Query:
    named = named_entities(core, query, group_id) if "graph" in methods else []
    vector = list(core.embedder.encode([query])[0]) if "embedding" in methods else None
    if vector is not None:
        probable.remember_query(core.embedder, query, vector)
    # Names are the graph ranking's business; leaving them out of the keyword query keeps BM25
    # from counting the same evidence twice (every fact about Caroline matches "Caroline").
    keywords = _keywords(query, named) if "bm25" in methods else None
    return _Query(query, keywords, vector, named)


Ranked = Iterable[tuple[Any, str]]  # (record, reason) best first; "{rank}" in a reason becomes its rank


@dataclass
class _Rankings:
    """Every ranking a search fuses, in the order their reasons are listed on a hit."""

    ranked: list[tuple[Ranked, float]] = field(default_factory=list)  # (ranking, weight)
    # Cosine similarities of one model are comparable across kinds: one joint ranking, cut at depth.
    similar: list[tuple[float, Any, str]] = field(default_factory=list)
    depth: int = 0


def _candidates(
    core: Core, asked: _Query, group_id: str, kinds: Sequence[str], when: _When, depth: int
) -> _Rankings:
    """Read the candidates of each kind from the store's indexes and rank them, per method. The
    index reads of every kind go to the store at once, then the records they name, by id, at once
    (:meth:`Store.at_once`: a server store overlaps them instead of waiting for each in turn)."""
    out = _Rankings(depth=depth)
    named_ids = asked.named_ids
    read = [k for k in RECORD_KINDS if k in kinds or (k == RecordKind.FACT and RecordKind.EPISODE in kinds
                                                      and asked.named)]
    hits = _index_hits(core, group_id, asked, read, when, depth)
    records = _records_by_id(core, group_id, hits, when)
    graph_facts: list[Fact] = []
    graph_weight = 0.0
    if RecordKind.FACT in hits:
        found = _fact_candidates(hits[RecordKind.FACT], records[RecordKind.FACT], asked.named)
        graph_facts = _neighbourhood(list(found.facts.values()), named_ids, found.sims)
        graph_weight = _specificity(found.near, found.total)
        if RecordKind.FACT in kinds:
            out.ranked.append((_bm25(found.bm25, found.facts, depth), 1.0))
            out.similar += _by_similarity(found.sims, found.facts, depth)
            neighbours = ((f, "neighbour of " + _touching(f, named_ids)) for f in graph_facts[:depth])
            out.ranked.append((neighbours, graph_weight))
    if RecordKind.ENTITY in kinds:
        _rank_records(hits[RecordKind.ENTITY], records[RecordKind.ENTITY], depth, out)
        out.ranked.append((((e, "named in the query") for e in asked.named), 1.0))
    if RecordKind.EPISODE in kinds:
        _rank_records(hits[RecordKind.EPISODE], records[RecordKind.EPISODE], depth, out)
        if graph_facts:
            sources = _sources(core, group_id, graph_facts, named_ids, depth, when.known)
            out.ranked.append((sources, graph_weight))
    if INSIGHT in kinds:
        _rank_insights(core, group_id, asked, when, depth, out)
    return out


@dataclass
class _Hits:
    """What a kind's indexes answered (best first), and for facts the named entities' neighbourhood."""

    found: list[tuple[str, float]] = field(default_factory=list)  # full text: (id, score)
    nearest: list[tuple[str, float]] = field(default_factory=list)  # vectors: (id, cosine)
    around: dict[str, tuple[int, list[Fact]]] = field(default_factory=dict)  # facts_around, by entity
    total: int = 0  # facts in the group at the asked time (read when the query names an entity)


def _index_hits(
    core: Core, group_id: str, asked: _Query, kinds: Sequence[str], when: _When, depth: int
) -> dict[str, _Hits]:
    """Each kind's full-text and vector hits, the named entities' neighbourhood and the group's
    count, read at once. Fact rankings go ``DEEPER`` than ``depth``, so that ``depth`` of them
    survive the time filter. A ``known_at`` search adds what the indexes no longer hold."""
    store = core.store
    # Entities are matched by the whole query: their names are what it is looking for.
    texts = {RecordKind.FACT: asked.keywords, RecordKind.EPISODE: asked.keywords,
             RecordKind.ENTITY: asked.text if asked.keywords is not None else None}
    reads: dict[tuple[str, str], Callable[[], Any]] = {}
    for kind in kinds:
        deep = DEEPER * depth if kind == RecordKind.FACT else depth
        text = texts[kind]
        if text is not None:
            reads[kind, "found"] = partial(store.text_search, group_id, kind, text, deep)
        if asked.vector is not None:
            reads[kind, "nearest"] = partial(store.vector_search, group_id, kind, list(asked.vector), deep,
                                             exact=when.history)
    if RecordKind.FACT in kinds and asked.named:
        reads[RecordKind.FACT, "around"] = partial(
            store.facts_around, group_id, [e.id for e in asked.named], valid_time=when.valid_time,
            known_at=when.known, limit=NEIGHBOURHOOD)
        reads[RecordKind.FACT, "total"] = partial(store.count_facts, when.facts(FactQuery(group_id)))
    answers = dict(zip(reads, store.at_once(list(reads.values())), strict=True))
    hits = {kind: _Hits(**{part: answer for (k, part), answer in answers.items() if k == kind})
            for kind in kinds}
    if when.known is not None:
        for kind, beside in ((RecordKind.FACT, _believed_then_expired_since),
                             (RecordKind.EPISODE, _withdrawn_since)):
            if kind in hits:
                deep = DEEPER * depth if kind == RecordKind.FACT else depth
                later_found, later_nearest = beside(core, group_id, texts[kind], asked.vector, when, deep)
                hits[kind].found = _merged(hits[kind].found, later_found, by_value=False)
                hits[kind].nearest = _merged(hits[kind].nearest, later_nearest, by_value=True)
    return hits


def _records_by_id(
    core: Core, group_id: str, hits: dict[str, _Hits], when: _When
) -> dict[str, dict[str, Any]]:
    """The records the hits name, read by id at once (facts with the time filter applied in the
    store), by kind and id."""
    store = core.store
    reads: dict[str, Callable[[], Any]] = {}
    for kind, found in hits.items():
        ids = list(dict.fromkeys([*(i for i, _ in found.found), *(i for i, _ in found.nearest)]))
        if kind == RecordKind.FACT:
            if ids:
                reads[kind] = partial(store.facts, when.facts(FactQuery(group_id, ids=tuple(ids))))
        else:
            reads[kind] = partial(store.entities if kind == RecordKind.ENTITY else store.episodes, group_id,
                                  ids=ids)
    answers = dict(zip(reads, store.at_once(list(reads.values())), strict=True))
    return {kind: {r.id: r for r in answers.get(kind, [])} for kind in hits}


def _rank_insights(
    core: Core, group_id: str, asked: _Query, when: _When, depth: int, out: _Rankings
) -> None:
    """Current insights (speaking of times up to ``valid_time``) ranked by the query's words they
    hold, and those about an entity the query names. Few per group: read whole, no index."""
    valid_time = when.valid_time
    found = [i for i in core.store.insights(group_id, known_at=when.known)
             if valid_time is None or i.valid_at is None or i.valid_at <= valid_time]
    if asked.keywords is not None:
        terms = {w for w in re.findall(r"\w+", asked.keywords.lower()) if w not in _STOP}
        matched = [(len(terms & set(re.findall(r"\w+", i.text.lower()))), i) for i in found]
        order = sorted((m for m in matched if m[0]), key=lambda m: (-m[0], -m[1].importance, m[1].id))
        out.ranked.append((((i, "insight words #{rank}") for _, i in order[:depth]), 1.0))
    named = asked.named_ids
    about = [(i, "insight about " + named[next(s for s in i.subject_ids if s in named)].name)
             for i in sorted(found, key=lambda i: (-i.importance, i.id)) if named.keys() & set(i.subject_ids)]
    out.ranked.append((iter(about[:depth]), 1.0))


def _score(rankings: _Rankings) -> _Fusion:
    """Fuse the rankings by reciprocal rank; the joint similarity ranking also breaks ties."""
    fusion = _Fusion()
    for ranked, weight in rankings.ranked:
        fusion.add(ranked, weight)
    similar = sorted(rankings.similar, key=lambda item: -item[0])
    fusion.add((record, reason) for _, record, reason in similar[: rankings.depth])
    fusion.cosine = {(kind_of(record), record.id): cos for cos, record, _ in similar}
    return fusion


@dataclass
class _FactCandidates:
    """The facts a search ranks: never the whole group, only what an index or a name points at."""

    facts: dict[str, Fact]  # by row id, all valid at the asked time (or current, with history)
    bm25: list[tuple[str, float]]  # full-text hits, best first (some may be filtered out)
    sims: dict[str, float]  # cosine of the query to the nearest facts
    near: int  # facts touching a named entity, in the whole group (for the graph weight)
    total: int  # facts in the group at the asked time (for the graph weight)


def _fact_candidates(hits: _Hits, by_id: dict[str, Fact], named: Sequence[Entity]) -> _FactCandidates:
    """Fact candidates from the full-text top-k, the vector top-k (read by id, valid at the asked
    time) and the named entities' neighbourhood."""
    facts = dict(by_id)
    near = 0
    for entity in named:
        count, rows = hits.around[entity.id]
        near += count
        facts.update((f.id, f) for f in rows)
    total = hits.total if named else 0
    return _FactCandidates(facts, hits.found, dict(hits.nearest), min(near, total), total)


def _believed_then_expired_since(
    core: Core, group_id: str, keywords: str | None, vector: Sequence[float] | None, when: _When, deep: int,
) -> tuple[list[tuple[str, float]], list[tuple[str, float]]]:
    """The rows a search at ``known_at`` would have found that the indexes (of current rows) no
    longer hold: believed then, expired since. Scored here: the query's words they hold, and the
    cosine of their stored vectors (comparable with the index's). Read only for a ``known_at``
    search: the rows believed then and expired since, without the rest (``expired_after``)."""
    then = core.store.facts(when.facts(FactQuery(group_id, expired_after=when.known)))
    texts = {f.id: f.text for f in then}
    return _scored_beside(core, group_id, RecordKind.FACT, texts, keywords, vector, deep)


def _withdrawn_since(
    core: Core, group_id: str, keywords: str | None, vector: Sequence[float] | None, when: _When, deep: int,
) -> tuple[list[tuple[str, float]], list[tuple[str, float]]]:
    """The messages a search at ``known_at`` would have found that the indexes no longer offer:
    recorded by then, withdrawn (``retract_episode``) since. Scored as
    :func:`_believed_then_expired_since` scores rows."""
    known = when.known
    assert known is not None
    then = {e.id: e.content for e in core.store.withdrawn_episodes(group_id, known) if e.recalled(known)}
    return _scored_beside(core, group_id, RecordKind.EPISODE, then, keywords, vector, deep)


def _scored_beside(
    core: Core, group_id: str, kind: str, texts: dict[str, str], keywords: str | None,
    vector: Sequence[float] | None, deep: int,
) -> tuple[list[tuple[str, float]], list[tuple[str, float]]]:
    """Records the indexes do not hold, ranked beside them: by the query's words they hold, and
    by the cosine of their stored vectors (comparable with the index's)."""
    if not texts:
        return [], []
    words: list[tuple[str, float]] = []
    if keywords is not None:
        terms = {w.lower() for w in re.findall(r"\w+", keywords)}
        held = ((i, len(terms & {w.lower() for w in re.findall(r"\w+", text)})) for i, text in texts.items())
        words = sorted(((i, float(n)) for i, n in held if n), key=lambda x: (-x[1], x[0]))[:deep]
    sims: list[tuple[str, float]] = []
    if vector is not None:
        stored = core.store.vectors(group_id, kind, list(texts))
        query = np.asarray(vector, dtype=np.float32)
        query = query / (np.linalg.norm(query) or 1.0)
        for i, v in stored.items():
            row = np.asarray(v, dtype=np.float32)
            sims.append((i, float(row @ query / (np.linalg.norm(row) or 1.0))))
        sims = sorted(sims, key=lambda x: (-x[1], x[0]))[:deep]
    return words, sims


def _merged(found: list[tuple[str, float]], later: list[tuple[str, float]], *,
            by_value: bool) -> list[tuple[str, float]]:
    """Index hits with the rows found beside the index: similarities interleave by value; keyword
    hits found beside the index follow the index's (their scores are not BM25's)."""
    seen = {i for i, _ in found}
    merged = [*found, *(x for x in later if x[0] not in seen)]
    return sorted(merged, key=lambda x: (-x[1], x[0])) if by_value else merged


def _rank_records(hits: _Hits, by_id: dict[str, Any], depth: int, out: _Rankings) -> None:
    """BM25 and nearest-vector rankings of entities or episodes, of the records read by id."""
    out.ranked.append((_bm25(hits.found, by_id, depth), 1.0))
    out.similar += _by_similarity(dict(hits.nearest), by_id, depth)


def _add_time_cues(fused: _Fusion, query: str, depth: int, floor: float) -> None:
    """One more ranking per time cue of the query (see :mod:`.time_cues`): the candidate messages
    that say a time, for a question asking when; those in the period it names. Only messages above
    the relevance ``floor`` are cued (a cue must not lift an off-topic message over it)."""
    periods = time_cues.named_periods(query)
    when = time_cues.asks_time(query)
    if not (when or periods):
        return
    messages = [fused.records[k] for k in fused.order(floor) if k[0] == RecordKind.EPISODE][:depth]
    if when:
        fused.add((e, "says when #{rank}") for e in messages if time_cues.says_time(e.content))
    if periods:
        fused.add((e, f"placed {periods[0]} #{{rank}}") for e in messages
                  if time_cues.falls_in(periods, e.content, e.reference_time))


def _specificity(near: int, total: int) -> float:
    """How much "touches an entity the query names" says: 1 for a rare entity, 0 when every
    candidate fact touches it (like IDF: a name every fact carries tells nothing apart)."""
    if near == 0 or total <= 1:
        return 0.0 if near == 0 else 1.0
    return max(0.0, 1.0 - math.log1p(near) / math.log1p(total))


def _keywords(query: str, named: Sequence[Entity]) -> str:
    """The words of the query worth matching: no stop words, and not the names of entities it
    names (the graph ranking covers those). Falls back to fewer cuts when nothing is left.

    Fusion only sees ranks, so a record matching nothing but "the" must not get one."""
    rest = query
    for e in named:
        for name in sorted((e.name, *e.aliases), key=len, reverse=True):
            rest = re.sub(rf"(?i)\b{re.escape(name)}(?:'s|’s)?\b", " ", rest)
    for text in (rest, query):
        text = _CLITICS.sub(" ", text)
        words = [w for w in re.findall(r"\w+", text) if w.lower() not in _STOP]
        if words:
            return " ".join(words)
    return query


def _bm25(found: list[tuple[str, float]], allowed: dict[str, Any], depth: int) -> list[tuple[Any, str]]:
    kept = [allowed[i] for i, _ in found if i in allowed][:depth]
    return [(record, "bm25 #{rank}") for record in kept]


def _by_similarity(
    sims: dict[str, float], allowed: dict[str, Any], depth: int
) -> list[tuple[float, Any, str]]:
    best = sorted((i for i in sims if i in allowed), key=lambda i: (-sims[i], i))[:depth]
    return [(sims[i], allowed[i], f"embedding #{{rank}} ({sims[i]:.2f})") for i in best]


def _neighbourhood(facts: list[Fact], named: dict[str, Entity], sims: dict[str, float]) -> list[Fact]:
    """Facts touching a named entity: those touching more of them first, then the most similar."""
    if not named:
        return []

    def touches(f: Fact) -> int:
        return (f.subject_id in named) + (f.object_id in named)

    near = [f for f in facts if touches(f)]
    return sorted(near, key=lambda f: (-touches(f), -sims.get(f.id, 0.0), f.id))


def _touching(f: Fact, named: dict[str, Entity]) -> str:
    names = [named[i].name for i in dict.fromkeys((f.subject_id, f.object_id)) if i in named]
    return " and ".join(names)


def _sources(
    core: Core, group_id: str, facts: list[Fact], named: dict[str, Entity], depth: int,
    known: datetime | None,
) -> list[tuple[Episode, str]]:
    """Episodes the neighbourhood facts were learned from (those a read as known at ``known``
    offers), in the facts' order."""
    ids = list(dict.fromkeys(e for f in facts for e in f.episode_ids))[:depth]
    by_id = {e.id: e for e in core.store.episodes(group_id, ids=ids) if e.recalled(known)}
    about = {e: _touching(f, named) for f in reversed(facts) for e in f.episode_ids}
    return [(by_id[i], f"source of a fact about {about[i]}") for i in ids if i in by_id]


def matching_messages(core: Core, query: str, group_id: str, limit: int) -> list[Episode]:
    """The current messages ``query`` matches best (what an explicit supersede may replace): by
    keyword or named entity, or an embedding close enough on its own; none out of date."""
    hits = search(core, query, group_id=group_id, limit=limit, kinds=(RecordKind.EPISODE,), stale="hide")
    return [h.episode for h in hits if h.episode is not None and h.standing in ("current", "unparsed",
                                                                                "partly_superseded")]
