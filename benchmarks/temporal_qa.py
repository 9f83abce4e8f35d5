"""Temporal question answering on a public temporal knowledge graph (YAGO11k by default).

    python benchmarks/temporal_qa.py [--data DIR] [--questions N] [--seed S] [--json] [--check]

DIR holds a HyTE-format graph: ``entities.dict`` and ``relations.dict`` (``id<TAB>name``) and
``temporal`` (``head<TAB>relation<TAB>tail<TAB>start<TAB>end``, ``end`` may be ``None``). Ids
without a readable name are fine: they are named after their id.

Every fact goes through ``TemporalGraph.add_fact`` in arrival order (start year, ties shuffled with
a fixed seed), one transaction-time tick per fact. Questions and their gold answers are computed
from the raw intervals by the rules below, without the engine; the engine and an update-in-place
baseline then answer the same questions, scored by exact match on entity ids.

How the data is read (documented here because the gold answers follow these rules):

* **Years.** Dates are kept at year granularity (``1961_09_01`` -> 1961; the data mixes years,
  months and days). A fact ``s e`` holds *during the years s through e inclusive*, stored as the
  half-open interval ``[s-01-01, (e+1)-01-01)``; ``end = None`` means an open (unknown) end. A
  question "in year Y" asks about the instant ``Y-01-01``, which, since every boundary is a 1 January,
  is the same as asking about any moment of Y.
* **Events.** Births and deaths come as ``y y`` (start = end): by the rule above they are points
  one year long, ``[y, y+1)``, never open states. Start-only facts of other relations
  (``hasWonPrize``, ``graduatedFrom``, ``created``) are open states: "has won / graduated from /
  created" stays true from that year on.
* **Unusable rows** are skipped and counted: years before 1 AD (Python datetimes start at year 1)
  and rows whose end year precedes their start year (typos such as ``1991 176``).
* **Cardinality** is declared per relation in :data:`YAGO_CARDINALITY` (unknown relations are
  ``many`` unless ``--one`` names them), after measuring how often one subject holds several
  objects at once (printed with each run). For a ``one`` relation the gold timeline of a subject is
  its facts in start order, where a newcomer takes over from its start year: an open end is closed
  by the next value's start, and an earlier value whose last year is the newcomer's first year
  (a transfer or remarriage within one year) is cut at the newcomer's start.
* **Ambiguity.** A ``one`` subject-relation pair is *ambiguous* when its raw data contradicts one
  value at a time beyond that: two values starting in the same year, a value still explicitly
  running a year or more after the next one began (e.g. married to A 1990-2000 and to B
  1995-1997), or the same value restated while already running. No reading of such data is
  right, so those pairs are left out of every question (counted and printed), rather than letting
  the benchmark pick a winner. ``many`` relations hold every interval as given (a value told twice
  with overlapping intervals holds over their union, as in the engine).

Question types (``one`` relations only for ``replaced_by``; otherwise all relations; the subject-
relation pairs asked about hold at least two different objects over time, except in ``two_hop``):

* ``as_of``: X's R in year Y (non-empty gold).
* ``current``: X's R now (the run's clock, early 2025); if nothing holds now, the last known value(s):
  those whose interval ended last, among those already started.
* ``replaced_by``: what replaced A as X's R, and from which year (A occurs once in X's timeline).
* ``between``: which R-values X had at some point in the years Y1 through Y2.
* ``two_hop``, answered with ``tg.paths`` (every hop valid in Y), two shapes, half each:
  *chains*: the R2-values in year Y of whoever was X's R1 in Y (R1 a ``one`` relation: the
  party of X's spouse, where X's spouse died); *shared values*: who else had one of X's R-values
  in Y (team-mates through a shared club, colleagues), a chain whose second hop is walked
  backwards (``direction="any"``), at most 20 of them.
* ``known_at``: what the memory, as it stood after loading the facts up to year K, held X's R to be
  in a later year Y: answered from transaction time, which a plain overwrite memory cannot do.

The baseline is a dict updated in place in the same arrival order: (subject, relation) -> the
latest object and the year it started. It answers every question from that one value.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from itertools import pairwise
from pathlib import Path
from typing import Any

# This tree's engine, not an installed copy: run from a second worktree, it measures that tree.
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from temporal_graph import TemporalGraph  # noqa: E402
from temporal_graph.core.errors import TemporalGraphError  # noqa: E402
from temporal_graph.core.model import Fact  # noqa: E402
from temporal_graph.core.names import clean_name, name_key, normalize_relation  # noqa: E402
from temporal_graph.core.ontology import Ontology  # noqa: E402
from temporal_graph.core.time import ManualClock  # noqa: E402

DEFAULT_DATA = Path(__file__).resolve().parent.parent.parent / "shared" / "data" / "yago11k"
QUESTION_TYPES = ("as_of", "current", "replaced_by", "between", "two_hop", "known_at")

# Transaction time of the import: it starts here and advances one second per fact, so "now" (the
# clock after the load) lies early in NOW_YEAR.
IMPORT_START = datetime(2025, 1, 1, tzinfo=UTC)
NOW_YEAR = 2025

# Chosen from the counts each run prints ("if-one": subject-relation pairs that would be ambiguous
# if the relation held one object at a time). YAGO11k: isMarriedTo 4 of 2,170 and worksAt 14 of 222
# -> one, those few pairs left out; playsFor 484 of 524 (club and national team at once) and
# isAffiliatedTo 198 of 590 -> many. Births and deaths happen once per person. Prizes, degrees,
# possessions and works accumulate -> many.
YAGO_CARDINALITY: dict[str, str] = {
    "wasBornIn": "one",
    "diedIn": "one",
    "isMarriedTo": "one",
    "worksAt": "one",
    "playsFor": "many",
    "isAffiliatedTo": "many",
    "owns": "many",
    "hasWonPrize": "many",
    "graduatedFrom": "many",
    "created": "many",
}
YAGO_OBJECT_TYPES = {
    "wasBornIn": "Place", "diedIn": "Place", "isMarriedTo": "Person", "worksAt": "Organization",
    "playsFor": "Organization", "isAffiliatedTo": "Organization", "graduatedFrom": "Organization",
    "hasWonPrize": "Award",
}


# -- reading the data ------------------------------------------------------------------------------
@dataclass(frozen=True)
class RawFact:
    """One row of ``temporal``: ``end`` is the last year it held (inclusive), None when open."""

    head: str
    rel: str
    tail: str
    start: int
    end: int | None
    line: int

    @property
    def stop(self) -> int | None:
        """The exclusive end year of the half-open interval."""
        return None if self.end is None else self.end + 1


@dataclass
class Dataset:
    facts: list[RawFact]
    entity_names: dict[str, str]  # dataset id -> the name given to the engine
    relation_names: dict[str, str]  # dataset id -> raw name without brackets (e.g. "isMarriedTo")
    relation_keys: dict[str, str]  # dataset id -> the engine's relation (e.g. "IS_MARRIED_TO")
    rows_read: int
    skipped: Counter[str] = field(default_factory=Counter)


def parse_year(text: str) -> int | None:
    """``1961``, ``1961_09``, ``1961_09_01``, ``-300`` -> the year; ``None`` -> None."""
    text = text.strip()
    if text == "None":
        return None
    negative = text.startswith("-")
    year = int(text.lstrip("-").split("_")[0].split("-")[0])
    return -year if negative else year


def _read_dict(path: Path) -> dict[str, str]:
    names: dict[str, str] = {}
    if not path.exists():
        return names
    for line in path.read_text(encoding="utf-8").splitlines():
        if "\t" in line:
            key, name = line.split("\t", 1)
            names[key.strip()] = name.strip()
    return names


def _display(raw: str | None) -> str:
    return (raw or "").strip().removeprefix("<").removesuffix(">").replace("_", " ").strip()


def _entity_names(ids: Iterable[str], raw_names: dict[str, str]) -> dict[str, str]:
    """A distinct engine name per id: the readable name, else ``entity <id>``; names the engine would
    merge (it matches names case- and space-insensitively) get their id appended."""
    chosen = {i: (" ".join(_display(raw_names.get(i)).split()) or f"entity {i}")[:400] for i in ids}
    by_key: dict[str, list[str]] = defaultdict(list)
    for i, name in chosen.items():
        by_key[name_key(name)].append(i)
    for same in by_key.values():
        if len(same) > 1:
            for i in same:
                chosen[i] = f"{chosen[i]} [{i}]"
    return chosen


def _relation_keys(ids: Iterable[str], raw_names: dict[str, str]) -> tuple[dict[str, str], dict[str, str]]:
    raw, keys = {}, {}
    for i in ids:
        raw[i] = _display(raw_names.get(i)).replace(" ", "_") or f"R{i}"
        try:
            keys[i] = normalize_relation(raw[i])
        except TemporalGraphError:
            keys[i] = normalize_relation(f"R{i}")
    counts = Counter(keys.values())
    for i in ids:
        if counts[keys[i]] > 1:
            keys[i] = normalize_relation(f"{keys[i]}_{i}")
    return raw, keys


def read_dataset(directory: str | Path) -> Dataset:
    directory = Path(directory)
    facts: list[RawFact] = []
    skipped: Counter[str] = Counter()
    rows = 0
    for number, line in enumerate((directory / "temporal").read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip():
            continue
        rows += 1
        parts = line.split("\t")
        if len(parts) < 5:
            skipped["malformed row"] += 1
            continue
        head, rel, tail, start_text, end_text = (p.strip() for p in parts[:5])
        try:
            start, end = parse_year(start_text), parse_year(end_text)
        except ValueError:
            skipped["unreadable year"] += 1
            continue
        if start is None:
            skipped["no start year"] += 1
        elif start < 1 or (end is not None and end < 1):
            skipped["year before 1 AD"] += 1
        elif end is not None and end < start:
            skipped["end year before start year"] += 1
        else:
            facts.append(RawFact(head, rel, tail, start, end, number))
    entities = _entity_names({f.head for f in facts} | {f.tail for f in facts},
                             _read_dict(directory / "entities.dict"))
    raw, keys = _relation_keys(sorted({f.rel for f in facts}), _read_dict(directory / "relations.dict"))
    return Dataset(facts, entities, raw, keys, rows, skipped)


def cardinalities(data: Dataset, extra_one: Iterable[str] = ()) -> dict[str, str]:
    """Relation id -> "one" / "many": the YAGO declaration, ``--one`` names, else "many"."""
    extra = {normalize_relation(r) for r in extra_one}
    return {
        rid: "one" if data.relation_keys[rid] in extra else YAGO_CARDINALITY.get(raw, "many")
        for rid, raw in data.relation_names.items()
    }


def ontology_for(data: Dataset, cards: dict[str, str]) -> Ontology:
    return Ontology.default_personal().with_relations(
        {data.relation_keys[r]: c for r, c in cards.items()},
        {data.relation_keys[r]: YAGO_OBJECT_TYPES[raw] for r, raw in data.relation_names.items()
         if raw in YAGO_OBJECT_TYPES},
    )


def arrival_order(facts: Sequence[RawFact], seed: int) -> list[RawFact]:
    shuffled = list(facts)
    random.Random(seed).shuffle(shuffled)
    return sorted(shuffled, key=lambda f: f.start)  # stable: ties keep the shuffled order


# -- gold timelines, from the raw intervals ------------------------------------------------------
@dataclass(frozen=True)
class Span:
    """A value holding over the years ``[start, stop)`` (stop None: open)."""

    obj: str
    start: int
    stop: int | None

    def holds(self, year: int) -> bool:
        return self.start <= year and (self.stop is None or year < self.stop)

    def meets(self, first: int, last: int) -> bool:
        return self.start <= last and (self.stop is None or self.stop > first)


def one_timeline(facts: Sequence[RawFact]) -> list[Span] | None:
    """One value at a time: the newcomer takes over from its start year. None when ambiguous."""
    chain = sorted(facts, key=lambda f: f.start)
    spans = []
    for a, b in pairwise(chain):
        if b.start <= a.start:
            return None  # two values begin in the same year: no order between them
        if a.end is None:
            if a.tail == b.tail:
                return None  # the running value restated
            spans.append(Span(a.tail, a.start, b.start))
        elif b.start < a.end or (b.start == a.end and a.tail == b.tail):
            return None  # still explicitly running a year or more after the next value began
        else:
            spans.append(Span(a.tail, a.start, min(a.stop, b.start)))  # type: ignore[type-var]
    if chain:
        spans.append(Span(chain[-1].tail, chain[-1].start, chain[-1].stop))
    return spans


def many_timeline(facts: Sequence[RawFact]) -> list[Span] | None:
    """Every interval as given; overlapping intervals of one value are one span (their union)."""
    merged: list[Span] = []
    for span in sorted((Span(f.tail, f.start, f.stop) for f in facts), key=lambda s: (s.obj, s.start)):
        last = merged[-1] if merged else None
        if last is not None and last.obj == span.obj and (last.stop is None or span.start < last.stop):
            stop = None if last.stop is None or span.stop is None else max(last.stop, span.stop)
            merged[-1] = Span(last.obj, last.start, stop)
        else:
            merged.append(span)
    return sorted(merged, key=lambda s: (s.start, s.obj))


def timeline(facts: Sequence[RawFact], cardinality: str) -> list[Span] | None:
    return one_timeline(facts) if cardinality == "one" else many_timeline(facts)


def holding(spans: Iterable[Span], year: int) -> frozenset[str]:
    return frozenset(s.obj for s in spans if s.holds(year))


def last_known(spans: Sequence[Span], year: int) -> frozenset[str]:
    """What holds in ``year``; if nothing does, the value(s) that ended last among those started."""
    now = holding(spans, year)
    if now:
        return now
    started = [s for s in spans if s.start <= year]
    if not started:
        return frozenset()
    last = max(s.stop for s in started if s.stop is not None)
    return frozenset(s.obj for s in started if s.stop == last)


@dataclass
class Gold:
    """Every subject-relation pair's facts and (unambiguous) gold timeline."""

    by_pair: dict[tuple[str, str], list[RawFact]]
    spans: dict[tuple[str, str], list[Span]]
    ambiguous: set[tuple[str, str]]
    cards: dict[str, str]


def gold_timelines(data: Dataset, cards: dict[str, str]) -> Gold:
    by_pair: dict[tuple[str, str], list[RawFact]] = defaultdict(list)
    for f in data.facts:
        by_pair[(f.head, f.rel)].append(f)
    spans, ambiguous = {}, set()
    for pair, facts in by_pair.items():
        line = timeline(facts, cards[pair[1]])
        if line is None:
            ambiguous.add(pair)
        else:
            spans[pair] = line
    return Gold(dict(by_pair), spans, ambiguous, cards)


def overlap_counts(data: Dataset, gold: Gold) -> list[dict[str, Any]]:
    """Per relation: how often one subject holds several objects in the same year(s)."""
    stats: dict[str, Counter[str]] = defaultdict(Counter)
    for (_, rel), facts in gold.by_pair.items():
        c = stats[rel]
        c["facts"] += len(facts)
        c["pairs"] += 1
        c["multi"] += len({f.tail for f in facts}) > 1
        shared = [_shared_years(a, b) for i, a in enumerate(facts) for b in facts[i + 1:] if a.tail != b.tail]
        c["overlap"] += any(n >= 1 for n in shared)
        c["overlap2"] += any(n >= 2 for n in shared)
        c["open_only"] += all(f.end is None for f in facts)
        c["points"] += sum(f.end == f.start for f in facts)
        c["ambiguous_if_one"] += one_timeline(facts) is None
        c["ambiguous"] += (facts[0].head, rel) in gold.ambiguous
    return [
        {"relation": data.relation_names[r], "cardinality": gold.cards[r], **stats[r]}
        for r in sorted(stats, key=lambda r: data.relation_names[r])
    ]


def _shared_years(a: RawFact, b: RawFact) -> int:
    """Years both explicit intervals cover (0 when either end is unknown)."""
    if a.end is None or b.end is None:
        return 0
    return max(0, min(a.end, b.end) - max(a.start, b.start) + 1)


# -- questions -----------------------------------------------------------------------------------
@dataclass(frozen=True)
class Question:
    kind: str
    subject: str  # dataset ids
    relation: str
    year: int = 0  # as_of / two_hop / known_at: the valid year asked about
    until: int = 0  # between: the last year (inclusive)
    known: int = 0  # known_at: facts starting up to this year were loaded
    replaced: str = ""  # replaced_by: the value replaced
    relation2: str = ""  # two_hop chain: the second hop
    shared: bool = False  # two_hop shared value: who else had X's R-value in that year
    gold: Any = None  # frozenset of ids, or (id, year) for replaced_by


def _span_years(spans: Sequence[Span]) -> tuple[int, int]:
    first = min(s.start for s in spans)
    last = max(max(s.start, (s.stop - 1) if s.stop is not None else s.start) for s in spans)
    return first, min(max(last, first), max(NOW_YEAR, first))


def make_questions(gold: Gold, n: int, seed: int) -> dict[str, list[Question]]:
    rng = random.Random(seed)
    pairs = sorted(p for p, spans in gold.spans.items() if len({s.obj for s in spans}) > 1)
    out: dict[str, list[Question]] = {}

    def sampled(make: Callable[[tuple[str, str]], Question | None]) -> list[Question]:
        found: dict[tuple, Question] = {}
        for _ in range(n * 20):
            if len(found) >= n or not pairs:
                break
            q = make(rng.choice(pairs))
            if q is not None:
                found.setdefault((q.subject, q.relation, q.year, q.until, q.known), q)
        return list(found.values())

    def as_of(pair: tuple[str, str]) -> Question | None:
        spans = gold.spans[pair]
        year = rng.randint(*_span_years(spans))
        answer = holding(spans, year)
        return Question("as_of", *pair, year=year, gold=answer) if answer else None

    def between(pair: tuple[str, str]) -> Question | None:
        spans = gold.spans[pair]
        first, last = sorted(rng.randint(*_span_years(spans)) for _ in range(2))
        answer = frozenset(s.obj for s in spans if s.meets(first, last))
        return Question("between", *pair, year=first, until=last, gold=answer) if answer else None

    def known_at(pair: tuple[str, str]) -> Question | None:
        starts = sorted({f.start for f in gold.by_pair[pair]})
        if len(starts) < 2:
            return None
        known = rng.randint(starts[0], starts[-1] - 1)
        high = _span_years(gold.spans[pair])[1]
        if high <= known:
            return None
        year = rng.randint(known + 1, high)
        then = timeline([f for f in gold.by_pair[pair] if f.start <= known], gold.cards[pair[1]])
        answer = holding(then or [], year)
        return Question("known_at", *pair, year=year, known=known, gold=answer) if answer else None

    out["as_of"] = sampled(as_of)
    current = [Question("current", *p, gold=last_known(gold.spans[p], NOW_YEAR)) for p in pairs]
    out["current"] = _pick(rng, [q for q in current if q.gold], n)
    out["replaced_by"] = _pick(rng, _replacements(gold, pairs), n)
    out["between"] = sampled(between)
    out["two_hop"] = _two_hops(gold, rng, n)
    out["known_at"] = sampled(known_at)
    return out


def _pick(rng: random.Random, items: list[Question], n: int) -> list[Question]:
    return items if len(items) <= n else rng.sample(items, n)


def _replacements(gold: Gold, pairs: list[tuple[str, str]]) -> list[Question]:
    found = []
    for pair in pairs:
        if gold.cards[pair[1]] != "one":
            continue
        spans = gold.spans[pair]
        seen = Counter(s.obj for s in spans)
        for a, b in pairwise(spans):
            if a.obj != b.obj and seen[a.obj] == 1:
                found.append(Question("replaced_by", *pair, replaced=a.obj, gold=(b.obj, b.start)))
    return found


def _two_hops(gold: Gold, rng: random.Random, n: int) -> list[Question]:
    """Half chains, half shared values (see the module docstring), at most one year per
    (X, R1, R2) chain or (X, R) pair so that long marriages and careers do not crowd out the rest."""
    chains, shared = _chain_hops(gold, rng), _shared_hops(gold, rng)
    take = min(len(chains), max(n // 2, n - len(shared)))
    return _pick(rng, chains, take) + _pick(rng, shared, n - take)


def _chain_hops(gold: Gold, rng: random.Random) -> list[Question]:
    """X's R1 in Y (R1 a one relation), then their R2 in Y, non-empty and not leading back to X."""
    by_subject: dict[str, list[str]] = defaultdict(list)
    for subject, rel in gold.by_pair:
        by_subject[subject].append(rel)
    found = []
    for (x, r1), spans in sorted(gold.spans.items()):
        if gold.cards[r1] != "one":
            continue
        for r2 in sorted({r for s in spans for r in by_subject.get(s.obj, ())} - {r1}):
            options = []
            low, high = _span_years(spans)
            for year in range(low, high + 1):
                mids = holding(spans, year)
                if not mids or any((m, r2) in gold.ambiguous for m in mids):
                    continue
                answer = frozenset(o for m in mids for o in holding(gold.spans.get((m, r2), []), year))
                if answer and x not in answer:
                    options.append(Question("two_hop", x, r1, year=year, relation2=r2, gold=answer))
            if options:
                found.append(rng.choice(options))
    return found


def _shared_hops(gold: Gold, rng: random.Random) -> list[Question]:
    """Who else had one of X's R-values in year Y (team-mates, colleagues): at most 20 of them,
    and X's R changed over time (the question depends on Y)."""
    holders: dict[tuple[str, str], set[tuple[str, str]]] = defaultdict(set)  # (rel, obj) -> pairs
    for pair, facts in gold.by_pair.items():
        for f in facts:
            holders[(f.rel, f.tail)].add(pair)
    found = []
    for (x, r), spans in sorted(gold.spans.items()):
        if len({s.obj for s in spans}) < 2:
            continue
        options = []
        low, high = _span_years(spans)
        for year in range(low, high + 1):
            values = holding(spans, year)
            others = {p for v in values for p in holders[(r, v)] if p[0] != x}
            if not values or any(p in gold.ambiguous for p in others):
                continue
            answer = frozenset(p[0] for p in others if holding(gold.spans[p], year) & values)
            if 0 < len(answer) <= 20:
                options.append(Question("two_hop", x, r, year=year, shared=True, gold=answer))
        if options:
            found.append(rng.choice(options))
    return found


# -- answering -------------------------------------------------------------------------------------
def year_start(year: int) -> datetime:
    return datetime(year, 1, 1, tzinfo=UTC)


class Engine:
    """The temporal graph, loaded through ``add_fact`` one fact per transaction-time tick."""

    def __init__(self, data: Dataset, cards: dict[str, str], db: str = ":memory:") -> None:
        self.data = data
        self.clock = ManualClock(IMPORT_START)
        self.tg = TemporalGraph.open(db, clock=self.clock, ontology=ontology_for(data, cards),
                                     embed=False)  # a bulk load: ask_qa reindexes for its search baseline
        self.ids = {name_key(clean_name(name)): i for i, name in data.entity_names.items()}
        self.loaded_through: dict[int, datetime] = {}  # start year -> tx time after its last fact
        self.rejected: list[tuple[RawFact, str]] = []
        self.paths_used = True

    def load(self, facts: Sequence[RawFact]) -> None:
        names, rels = self.data.entity_names, self.data.relation_keys
        for i, f in enumerate(facts):
            self.clock.set(IMPORT_START + timedelta(seconds=i))
            try:
                self.tg.add_fact(names[f.head], rels[f.rel], names[f.tail], valid_at=year_start(f.start),
                                 invalid_at=year_start(f.stop) if f.stop is not None else None)
            except TemporalGraphError as exc:
                self.rejected.append((f, str(exc)))
            self.loaded_through[f.start] = self.clock()
        self.clock.set(IMPORT_START + timedelta(seconds=len(facts)))

    def known_at(self, year: int) -> datetime:
        """The transaction time by which every fact starting up to ``year`` was loaded."""
        done = [t for y, t in self.loaded_through.items() if y <= year]
        return max(done) if done else IMPORT_START - timedelta(seconds=1)

    def _objects(self, facts: Iterable[Fact]) -> frozenset[str]:
        return frozenset(self.ids.get(name_key(f.object), f.object) for f in facts)

    def answer(self, q: Question) -> Any:
        x, r = self.data.entity_names[q.subject], self.data.relation_keys[q.relation]
        if q.kind == "as_of":
            return self._objects(self.tg.as_of(year_start(q.year), subject=x, relation=r))
        if q.kind == "known_at":
            return self._objects(self.tg.as_of(year_start(q.year), known_at=self.known_at(q.known),
                                               subject=x, relation=r))
        if q.kind == "current":
            now = self.tg.now(subject=x, relation=r)
            if now:
                return self._objects(now)
            moment = self.clock()
            started = [f for f in self.tg.history(x, r) if f.valid_at is None or f.valid_at <= moment]
            ends = [f.invalid_at for f in started if f.invalid_at is not None]
            return self._objects(f for f in started if ends and f.invalid_at == max(ends))
        if q.kind == "replaced_by":
            rows = self.tg.history(x, r)  # valid-time order
            replaced = self.data.entity_names[q.replaced]
            for i, row in enumerate(rows):
                if name_key(row.object) == name_key(replaced):
                    nxt = next((n for n in rows[i + 1:] if n.object != row.object), None)
                    if nxt is None or nxt.valid_at is None:
                        return None
                    return (self.ids.get(name_key(nxt.object)), nxt.valid_at.year)
            return None
        if q.kind == "between":
            first, stop = year_start(q.year), year_start(q.until + 1)
            return self._objects(
                f for f in self.tg.history(x, r)
                if (f.valid_at is None or f.valid_at < stop)
                and (f.invalid_at is None or f.invalid_at > first)
            )
        if q.kind == "two_hop" and q.shared:
            return self._shared(x, r, year_start(q.year))
        if q.kind == "two_hop":
            return self._two_hop(x, r, self.data.relation_keys[q.relation2], year_start(q.year))
        raise ValueError(q.kind)

    def _two_hop(self, x: str, r1: str, r2: str, moment: datetime) -> frozenset[str]:
        if self.paths_used:
            try:
                found = self.tg.paths(x, relations=[r1, r2], max_hops=2, as_of=moment)
            except TemporalGraphError:
                self.paths_used = False  # the paths service is not installed: compose two lookups
            else:
                return self._objects(
                    p.hops[1] for p in found
                    if len(p.hops) == 2 and p.hops[0].relation == r1 and p.hops[1].relation == r2
                    and name_key(p.hops[0].subject) == name_key(x)
                )
        mids = self.tg.as_of(moment, subject=x, relation=r1)
        return self._objects(f for m in mids for f in self.tg.as_of(moment, subject=m.object, relation=r2))

    def _shared(self, x: str, r: str, moment: datetime) -> frozenset[str]:
        """X -R-> value <-R- other: a chain walking its second fact backwards."""
        if self.paths_used:
            try:
                found = self.tg.paths(x, relations=[r], max_hops=2, as_of=moment, direction="any",
                                      limit=10_000)
            except TemporalGraphError:
                self.paths_used = False
            else:
                return frozenset(
                    self.ids.get(name_key(p.hops[1].subject), p.hops[1].subject) for p in found
                    if len(p.hops) == 2 and name_key(p.hops[0].subject) == name_key(x)
                    and p.hops[1].object_id == p.hops[0].object_id
                )
        values = self.tg.as_of(moment, subject=x, relation=r)
        return frozenset(
            self.ids.get(name_key(f.subject), f.subject) for v in values
            for f in self.tg.as_of(moment, relation=r, object=v.object) if name_key(f.subject) != name_key(x)
        )

    def close(self) -> None:
        self.tg.close()


class Baseline:
    """Update in place: (subject, relation) -> (latest object, its start year)."""

    def __init__(self) -> None:
        self.latest: dict[tuple[str, str], tuple[str, int]] = {}
        self.holders: dict[tuple[str, str], set[str]] = defaultdict(set)  # (rel, value) -> subjects

    def load(self, facts: Iterable[RawFact]) -> None:
        for f in facts:
            self.latest[(f.head, f.rel)] = (f.tail, f.start)
        for (subject, rel), (value, _) in self.latest.items():
            self.holders[(rel, value)].add(subject)

    def answer(self, q: Question) -> Any:
        value = self.latest.get((q.subject, q.relation))
        if q.kind == "replaced_by":
            return value if value is not None and value[0] != q.replaced else None
        if q.kind == "two_hop" and q.shared:
            return frozenset(self.holders[(q.relation, value[0])] - {q.subject}) if value else frozenset()
        if q.kind == "two_hop":
            if value is None:
                return frozenset()
            second = self.latest.get((value[0], q.relation2))
            return frozenset([second[0]]) if second else frozenset()
        return frozenset([value[0]]) if value else frozenset()


# -- running ---------------------------------------------------------------------------------------
@dataclass
class Report:
    engine: dict[str, dict[str, Any]]
    baseline: dict[str, dict[str, Any]]
    facts: int
    load_seconds: float
    data: Dataset
    gold: Gold
    engine_state: Engine
    failures: dict[str, list[tuple[Question, Any]]]
    questions: dict[str, list[Question]]

    def as_json(self) -> dict[str, Any]:
        return {"engine": self.engine, "baseline": self.baseline, "facts": self.facts,
                "load_seconds": round(self.load_seconds, 3)}


def score(answer: Callable[[Question], Any], questions: dict[str, list[Question]],
          failures: dict[str, list[tuple[Question, Any]]] | None = None) -> dict[str, dict[str, Any]]:
    result = {}
    for kind in QUESTION_TYPES:
        qs = questions.get(kind, [])
        right, times = 0, []
        for q in qs:
            t0 = time.perf_counter()
            try:
                got = answer(q)
            except TemporalGraphError as exc:
                got = f"error: {exc}"
            times.append((time.perf_counter() - t0) * 1000)
            if got == q.gold:
                right += 1
            elif failures is not None:
                failures[kind].append((q, got))
        result[kind] = {
            "accuracy": round(right / len(qs), 4) if qs else None,
            "n": len(qs),
            "median_ms": round(statistics.median(times), 3) if times else None,
        }
    return result


def run(data_dir: str | Path, *, questions: int = 500, seed: int = 7, db: str = ":memory:",
        extra_one: Iterable[str] = ()) -> Report:
    data = read_dataset(data_dir)
    cards = cardinalities(data, extra_one)
    gold = gold_timelines(data, cards)
    asked = make_questions(gold, questions, seed)
    order = arrival_order(data.facts, seed)

    engine = Engine(data, cards, db)
    t0 = time.perf_counter()
    engine.load(order)
    load_seconds = time.perf_counter() - t0
    baseline = Baseline()
    baseline.load(order)

    failures: dict[str, list[tuple[Question, Any]]] = defaultdict(list)
    engine_scores = score(engine.answer, asked, failures)
    baseline_scores = score(baseline.answer, asked)
    return Report(engine_scores, baseline_scores, len(order) - len(engine.rejected), load_seconds,
                  data, gold, engine, failures, asked)


def all_perfect(report: Report) -> bool:
    return all(s["accuracy"] == 1.0 for s in report.engine.values() if s["n"])


def _table(rows: list[list[str]], header: list[str]) -> str:
    # every row has one cell per header column
    widths = [max(len(str(x)) for x in col) for col in zip(header, *rows, strict=True)]

    def line(cells: Sequence[Any]) -> str:
        return "  ".join(str(c).rjust(w) if i else str(c).ljust(w)
                         for i, (c, w) in enumerate(zip(cells, widths, strict=True)))

    return "\n".join([line(header), line(["-" * w for w in widths]), *map(line, rows)])


def _percent(scores: dict[str, Any]) -> str:
    return "-" if scores["accuracy"] is None else f"{100 * scores['accuracy']:.1f}%"


def _millis(scores: dict[str, Any]) -> str:
    return "-" if scores["median_ms"] is None else f"{scores['median_ms']:.2f}"


def human(report: Report) -> str:
    data, gold = report.data, report.gold
    out = [(f"data: {data.rows_read} rows read, {len(data.facts)} usable, "
            f"{len(data.entity_names)} entities, {len(data.relation_names)} relations")]
    for reason, n in sorted(report.data.skipped.items()):
        out.append(f"  skipped {n}: {reason}")
    out.append("")
    out.append("relations, counted in subject-relation pairs: multi-obj = several objects over time; "
               "overlap = two objects share >= 1 / >= 2 years of explicit intervals; if-one = pairs that "
               "would be ambiguous as a one relation; ambiguous = left out of the questions")
    rows = [[s["relation"], s["cardinality"], s["facts"], s["pairs"], s["multi"], s["overlap"],
             s["overlap2"], s["ambiguous_if_one"], s["ambiguous"], s["points"]]
            for s in overlap_counts(data, gold)]
    out.append(_table(rows, ["relation", "card", "facts", "pairs", "multi-obj", "overlap>=1y",
                             "overlap>=2y", "if-one", "ambiguous", "point facts"]))
    out.append("")
    rate = report.facts / report.load_seconds if report.load_seconds else 0.0
    out.append(f"load: {report.facts} facts through add_fact in {report.load_seconds:.1f} s "
               f"({rate:.0f} facts/s); rejected by the engine: {len(report.engine_state.rejected)}")
    for f, why in report.engine_state.rejected[:5]:
        out.append(f"  line {f.line}: {why}")
    out.append("")
    rows = []
    for kind in QUESTION_TYPES:
        e, b = report.engine[kind], report.baseline[kind]
        rows.append([kind, e["n"], _percent(e), _millis(e), _percent(b), _millis(b)])
    out.append(_table(rows, ["question", "n", "engine", "engine ms", "baseline", "baseline ms"]))
    hops = report.questions.get("two_hop", [])
    how = ("tg.paths" if report.engine_state.paths_used
           else "two as_of lookups (tg.paths unavailable: no paths service installed)")
    out.append(f"two_hop: {sum(not q.shared for q in hops)} chains (X's R1 in Y, then their R2 in Y), "
               f"{sum(q.shared for q in hops)} shared values (who else had X's R-value in Y), "
               f"answered with {how}")
    for kind, bad in report.failures.items():
        for q, got in bad[:3]:
            out.append(f"  engine miss [{kind}] {q} -> {got}")
    return "\n".join(out)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Temporal-QA benchmark on a HyTE-format temporal KG")
    parser.add_argument("--data", default=str(DEFAULT_DATA),
                        help="directory with entities.dict, relations.dict, temporal")
    parser.add_argument("--questions", type=int, default=500, help="questions per type (default 500)")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--db", default=":memory:", help="embedded store file (default: in memory)")
    parser.add_argument("--one", action="append", default=[], metavar="RELATION",
                        help="declare a relation one-at-a-time (repeatable; YAGO relations are declared)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--check", action="store_true",
                        help="exit 1 unless the engine scores 100%% on every type")
    args = parser.parse_args(argv)
    if not (Path(args.data) / "temporal").exists():
        print(f"error: {args.data} has no 'temporal' file", file=sys.stderr)
        return 2
    report = run(args.data, questions=args.questions, seed=args.seed, db=args.db, extra_one=args.one)
    report.engine_state.close()
    print(json.dumps(report.as_json()) if args.json else human(report))
    if args.check and not all_perfect(report):
        if args.json:
            print("check failed: the engine scored below 100% on some question type", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
