"""The Neo4j store beside the embedded one: the same data, the same run, both stores.

    .venv/bin/python benchmarks/neo4j_store.py [--sizes 10,1000] [--repeats 10]
        [--facts 20000] [--bulk 0] [--copy 20000] [--chat 300] [--profile] [--json]

The defaults run in minutes on a loaded two-core machine; the issue's sizes are ``--sizes
10,1000,10000 --facts 100000 --copy 100000``.

With ``NEO4J_URI`` set (``NEO4J_USER`` / ``NEO4J_PASSWORD``) it measures that server, in groups of
its own that it forgets afterwards; without it, it starts one with ``scripts/neo4j.sh`` (Neo4j
Community from Maven Central) and stops it at the end. Medians and p95, in milliseconds:

- ``writes``: one ``add_fact`` and one ``add_episode`` against 10 / 1,000 / 10,000 facts of history
  on one key (Ana lives in N places over time) and on one entity (N facts over 20 relations), the
  history loaded with ``add_facts`` (``write_growth.py``'s scenarios); the target is every p50 at
  the largest size within 2x of the smallest, on both stores;
- ``reads``: at ``--facts`` structured facts in one group (loaded with ``add_facts``, stored vectors
  random stand-ins written through the store), ``as_of`` of one subject at random (T, K) and
  ``search`` for 20 questions (the query embedded by the real model), then ``search`` right after
  an ``add_episode`` (only the search timed);
- ``chat``: ``search`` over a memory of messages, the reads a user's memory sees (each message's
  standing, possible revisions): one generated user/assistant conversation of ``--chat``
  messages (``supersession_chats.py``, imported on both stores), its questions about values
  stated and revised, the two stores alternating, and the share of hits both return;
- ``bulk``: the seconds of that load (and of ``--bulk`` more, when larger), with the bulk ==
  one-by-one oracle on a 2,000-fact sample on Neo4j;
- ``copy``: ``copy_to`` of a ``--copy``-fact embedded memory into Neo4j, with its comparison.

``--profile`` adds, for one ``as_of`` and one ``search`` on each store, the store calls each made
and their time; and for Neo4j, what each operation sends, counted at the driver
(``testing.BoltCounter``): statements, transactions and Bolt round trips of one ``add_fact`` and
one ``add_episode`` (at the smallest and largest history; at the smallest also as a memory writes
by default, embedding what it adds), one ``search`` and one ``as_of``, one
search of the conversation, the bulk load and the copy; for the writes and searches also their
waits, the statements waited for in turn (statements sent at once, ``Store.at_once``, are one wait;
a commit is not counted).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from collections.abc import Callable, Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import numpy as np  # noqa: E402

from benchmarks import supersession_chats  # noqa: E402
from benchmarks.write_growth import episode_write, fact_write, history, percentiles, timed  # noqa: E402
from temporal_graph import Ontology, TemporalGraph  # noqa: E402
from temporal_graph.core.stores.protocol import ChangeSet, FactQuery  # noqa: E402
from temporal_graph.testing import BoltCounter, neo4j_store_from_env, unique_test_group  # noqa: E402
from temporal_graph.times import ManualClock  # noqa: E402

STORES = ("sqlite", "neo4j")
ONTOLOGY = Ontology.default_personal().with_relations({"PLAYS_FOR": "one", "WON": "many"})
CLOCK = "2026-01-01T00:00:00+00:00"
QUESTIONS = ["Where does Person 7 live?", "Who plays for Club 12?", "Which awards did Person 3 win?",
             "a player of Club 5 in 1990", "City 40", "who lived in City 8", "Award 17", "Person 99",
             "which club did Person 12 join", "moved to City 3", "won Award 2 in 2001", "Club 19 players",
             "Person 5 home", "Person 250 club", "lived in City 77 before", "Award 150 winners",
             "Person 1000", "City 499", "Club 1999", "a club in 1975"]


# -- the servers and memories ----------------------------------------------------------------------
@contextlib.contextmanager
def neo4j_server() -> Iterator[str]:
    """``NEO4J_URI`` when set, else a server started for this run (stopped at the end)."""
    if os.environ.get("NEO4J_URI"):
        yield f"{os.environ['NEO4J_URI']} (given)"
        return
    state = tempfile.mkdtemp(prefix="bench-neo4j-")
    env = {**os.environ, "TGRAPH_NEO4J_STATE": state}
    script = ROOT / "scripts" / "neo4j.sh"
    started = subprocess.run(["bash", str(script), "start", "--heap", "2g", "--page-cache", "1g"], env=env,
                             capture_output=True, text=True, check=False)
    if started.returncode != 0:
        raise SystemExit(f"could not start Neo4j: {started.stderr.strip()}")
    os.environ.update(dict(line.split("=", 1) for line in started.stdout.splitlines() if "=" in line))
    try:
        yield f"{os.environ['NEO4J_URI']} (started by this run)"
    finally:
        subprocess.run(["bash", str(script), "stop"], env=env, capture_output=True, check=False)
        shutil.rmtree(state, ignore_errors=True)
        for name in ("NEO4J_URI", "NEO4J_USER", "NEO4J_PASSWORD"):
            os.environ.pop(name, None)


class Memory:
    """One memory on one store, in a group of its own on Neo4j (forgotten when closed)."""

    def __init__(self, kind: str, workdir: Path, name: str, **options: Any) -> None:
        self.kind, self.group = kind, unique_test_group(f"bench-{name}") if kind == "neo4j" else "default"
        if kind == "sqlite":
            self.tg = TemporalGraph.open(workdir / f"{name}.db", **options)
        else:
            store = neo4j_store_from_env()
            assert store is not None
            self.tg = TemporalGraph(store, **options)

    def close(self) -> None:
        if self.kind == "neo4j":
            self.tg.forget(self.group)
        self.tg.close()


def structured_facts(count: int, seed: int = 11) -> list[tuple]:
    """People who move (one home at a time), play for clubs (one at a time, with an end) and win
    awards (many): ``scale.py --bulk``'s facts."""
    rng = random.Random(seed)
    cities, clubs = [f"City {i}" for i in range(500)], [f"Club {i}" for i in range(2000)]
    out: list[tuple] = []
    for _ in range(count):
        person = f"Person {rng.randrange(max(10, count // 5))}"
        start = rng.randrange(1950, 2020)
        kind = rng.random()
        if kind < 0.4:
            out.append((person, "lives in", rng.choice(cities), str(start)))
        elif kind < 0.8:
            out.append((person, "plays for", rng.choice(clubs), str(start), str(start + rng.randrange(1, 6))))
        else:
            out.append((person, "won", f"Award {rng.randrange(300)}", str(start)))
    return out


def random_vectors(m: Memory, seed: int = 7) -> None:
    """Unit vectors stand in for the model's on every current fact and every entity."""
    store, rng = m.tg.core.store, np.random.default_rng(seed)
    write = m.tg.core.write

    def unit(ids: list[str]) -> dict[str, list[float]]:
        v = rng.standard_normal((len(ids), 384)).astype(np.float32)
        return dict(zip(ids, (v / np.linalg.norm(v, axis=1, keepdims=True)).tolist(), strict=True))

    facts = [f.id for f in store.facts(FactQuery(m.group))]
    entities = [e.id for e in store.entities(m.group)]
    for i in range(0, len(facts), 5000):
        batch = ChangeSet(fact_embeddings=unit(facts[i : i + 5000]))
        write(m.group, lambda w: w.write_vectors(batch))  # noqa: B023 - called at once
    for i in range(0, len(entities), 5000):
        batch = ChangeSet(entity_embeddings=unit(entities[i : i + 5000]))
        write(m.group, lambda w: w.write_vectors(batch))  # noqa: B023


# -- the measurements ------------------------------------------------------------------------------
def warm_up(workdir: Path) -> None:
    """One write of each relation the write scenarios use, on a fresh Neo4j server: the first row
    of a relation type makes its schema (indexes, once per database), which is no write's cost."""
    m = Memory("neo4j", workdir, "warm-up", embed=False)
    try:
        m.tg.add_facts(history("entity", 40), strict=True, embed=False, group_id=m.group)
        for j in range(40):
            fact_write("entity", 40, m.group)(m.tg, j)
    finally:
        m.close()


def counted(m: Memory) -> BoltCounter:
    """The driver of ``m``'s Neo4j store, counting from now on (see :class:`BoltCounter`)."""
    store = m.tg.core.store
    if not isinstance(store.driver, BoltCounter):
        store.driver = BoltCounter(store.driver)
    store.driver.reset()
    return store.driver


def _trips(counter: BoltCounter, times: int = 1, waits: list[int] | None = None) -> dict[str, float]:
    """The counts of ``times`` operations, each a mean; with ``waits`` (each operation's), theirs too."""
    out = {k: round(v / times, 1) for k, v in counter.counts().items()}
    if waits:
        out["waits"] = round(sum(waits) / len(waits), 1)
    return out


@contextlib.contextmanager
def statement_waits() -> Iterator[list[tuple[float, float]]]:
    """The (start, end) of each statement the Neo4j store runs meanwhile, as its runners see
    them (each hands back its rows read whole). :func:`waits` counts how many of them a caller
    waited for in turn: statements that overlap (``Store.at_once``) are one wait."""
    from temporal_graph.core.stores import neo4j as store_module

    spans: list[tuple[float, float]] = []
    runners = ((store_module._QueryRunner, "run"), (store_module._Runner, "run_now"))
    originals = [getattr(cls, name) for cls, name in runners]

    def timed(original: Callable) -> Callable:
        def run(*args: Any, **kwargs: Any) -> Any:
            started = time.perf_counter()
            try:
                return original(*args, **kwargs)
            finally:
                spans.append((started, time.perf_counter()))
        return run

    for (cls, name), original in zip(runners, originals, strict=True):
        setattr(cls, name, timed(original))
    try:
        yield spans
    finally:
        for (cls, name), original in zip(runners, originals, strict=True):
            setattr(cls, name, original)


def waits(spans: list[tuple[float, float]]) -> int:
    """How many times a caller waited: statements overlapping in time count once."""
    count, busy_until = 0, float("-inf")
    for started, ended in sorted(spans):
        if started > busy_until:
            count += 1
        busy_until = max(busy_until, ended)
    return count


def writes(sizes: list[int], repeats: int, workdir: Path, trips: dict | None = None) -> dict:
    warm_up(workdir)
    out: dict = {}
    done: list[Memory] = []  # forgotten at the end: a large delete keeps the server busy a while after
    try:
        for scenario in ("one_key", "entity"):
            for op, make in (("add_fact", fact_write), ("add_episode", episode_write)):
                for n in sizes:
                    for kind in STORES:
                        m = Memory(kind, workdir, f"{scenario}-{op}-{n}", embed=False)
                        done.append(m)
                        report = m.tg.add_facts(history(scenario, n), strict=True, embed=False,
                                                group_id=m.group)
                        assert report.rows_written == n, report
                        figure = timed(make(scenario, n, m.group), m.tg, repeats)
                        out.setdefault(f"{scenario}.{op}", {}).setdefault(kind, {})[str(n)] = figure
                        if trips is not None and kind == "neo4j" and n in (sizes[0], sizes[-1]):
                            counter = counted(m)
                            with statement_waits() as spans:
                                make(scenario, n, m.group)(m.tg, repeats + 1)
                            trips[f"{op} ({scenario}, N={n:,})"] = _trips(counter, waits=[waits(spans)])
                            if scenario == "one_key" and n == sizes[0]:  # as a memory writes by default
                                m.tg.core.embed = True
                                m.tg.core.embedder.encode(["warm up"])
                                counter = counted(m)
                                with statement_waits() as spans:
                                    make(scenario, n, m.group)(m.tg, repeats + 2)
                                trips[f"{op} ({scenario}, N={n:,}, embedding)"] = _trips(
                                    counter, waits=[waits(spans)])
                        print(f"  writes {scenario} {op} N={n} {kind}: {figure}", file=sys.stderr, flush=True)
    finally:
        for m in done:
            m.close()
    return out


def reads_and_bulk(
    facts: int, bulk: int, repeats: int, workdir: Path, profile: bool, trips: dict | None = None,
    oracle: int = 2000,
) -> tuple[dict, dict]:
    items = structured_facts(facts)
    reads: dict = {}
    loads: dict = {}
    for kind in STORES:
        m = Memory(kind, workdir, "reads", ontology=ONTOLOGY, clock=ManualClock(CLOCK))
        try:
            if kind == "neo4j":  # the relation types' schema, made once per database, is no load's cost
                m.tg.core.store.ensure_relations(["LIVES_IN", "PLAYS_FOR", "WON"])
            counter = counted(m) if kind == "neo4j" and trips is not None else None
            started = time.perf_counter()
            report = m.tg.add_facts(items, embed=False, group_id=m.group)
            seconds = time.perf_counter() - started
            loads.setdefault(str(facts), {})[kind] = _load_figure(facts, seconds, report)
            print(f"  bulk {facts} {kind}: {loads[str(facts)][kind]}", file=sys.stderr, flush=True)
            if counter is not None and trips is not None:
                trips[f"add_facts of {facts:,} (whole load)"] = _trips(counter)
            random_vectors(m)
            reads[kind] = _reads(m, repeats)
            print(f"  reads {kind}: {reads[kind]}", file=sys.stderr, flush=True)
            if profile:
                reads[kind]["profile"] = _profile(m)
            if counter is not None and trips is not None:
                _read_trips(m, counter, trips)
        finally:
            m.close()
    if bulk > facts:
        for kind in STORES:
            m = Memory(kind, workdir, "bulk", ontology=ONTOLOGY, clock=ManualClock(CLOCK), embed=False)
            try:
                started = time.perf_counter()
                report = m.tg.add_facts(structured_facts(bulk), embed=False, group_id=m.group)
                seconds = time.perf_counter() - started
                loads.setdefault(str(bulk), {})[kind] = _load_figure(bulk, seconds, report)
                print(f"  bulk {bulk} {kind}: {loads[str(bulk)][kind]}", file=sys.stderr, flush=True)
            finally:
                m.close()
    loads["oracle_on_neo4j"] = bulk_oracle(workdir, oracle)
    return reads, loads


def _load_figure(count: int, seconds: float, report: Any) -> dict:
    return {"seconds": round(seconds, 1), "facts_per_s": round(count / seconds), "rows": report.rows_written,
            "errors": len(report.errors)}


def _reads(m: Memory, repeats: int) -> dict:
    store, tg, rng = m.tg.core.store, m.tg, random.Random(3)
    people = [e.id for e in store.entities(m.group) if e.name.startswith("Person ")]
    times = [datetime(y, 6, 1, tzinfo=UTC) for y in range(1950, 2026)]
    known = tg.core.now()

    def as_of() -> None:
        store.facts(FactQuery(m.group, subject_id=rng.choice(people), valid_time=rng.choice(times),
                              known_at=known - timedelta(days=rng.randrange(0, 3))))

    def search() -> None:
        tg.search(rng.choice(QUESTIONS), group_id=m.group, limit=10)

    search()  # the first loads the model and, on SQLite, the group's vectors
    out = {"as_of_subject": percentiles(_seconds(as_of, repeats * 10)),
           "search": percentiles(_seconds(search, repeats * 2))}
    # A search right after a message is told (the write not timed): on Neo4j it waits for the
    # full-text indexes' background refresh, which writes no longer wait for in their commit.
    after_write = []
    for i in range(repeats * 2):
        tg.add_episode(f"Person {i} said the meeting is on floor {i}.", reference_time=known,
                       group_id=m.group)
        after_write += _seconds(search, 1)
    out["search_after_write"] = percentiles(after_write)
    return out


def _seconds(fn: Callable[[], None], repeats: int) -> list[float]:
    out = []
    for _ in range(repeats):
        started = time.perf_counter()
        fn()
        out.append(time.perf_counter() - started)
    return out


def _profile(m: Memory) -> dict[str, dict[str, float]]:
    """The store calls one as_of and one search make, with their milliseconds."""
    store = m.tg.core.store
    spent: dict[str, list[float]] = defaultdict(list)
    # at_once: the reads a search sends together (their own times overlap inside it on Neo4j).
    names = ("facts", "entities", "episodes", "text_search", "vector_search", "vectors", "relations",
             "entities_by_keys", "facts_around", "count_facts", "entity_fact_presence", "at_once")
    originals = {name: getattr(store, name) for name in names}

    def wrap(name: str, fn: Callable) -> Callable:
        def call(*args: Any, **kwargs: Any) -> Any:
            started = time.perf_counter()
            try:
                return fn(*args, **kwargs)
            finally:
                spent[name].append(1000 * (time.perf_counter() - started))
        return call

    out: dict[str, dict[str, float]] = {}
    person = next(e.id for e in store.entities(m.group) if e.name == "Person 7")
    try:
        for name, fn in originals.items():
            setattr(store, name, wrap(name, fn))
        at = datetime(2000, 1, 1, tzinfo=UTC)
        one = FactQuery(m.group, subject_id=person, valid_time=at)
        for label, run in (("as_of", lambda: store.facts(one)),
                           ("search", lambda: m.tg.search("Where does Person 7 live?", group_id=m.group))):
            spent.clear()
            run()
            out[label] = {f"{name} x{len(ms)}": round(sum(ms), 2) for name, ms in spent.items()}
    finally:
        for name in names:
            vars(store).pop(name, None)
    return out


def _read_trips(m: Memory, counter: BoltCounter, trips: dict) -> None:
    """What one search (each of the questions, averaged) and one as_of send."""
    store = m.tg.core.store
    person = next(e.id for e in store.entities(m.group) if e.name == "Person 7")
    counter.reset()
    each: list[int] = []
    with statement_waits() as spans:
        for question in QUESTIONS:
            spans.clear()
            m.tg.search(question, group_id=m.group, limit=10)
            each.append(waits(spans))
    trips["search (mean of the 20 questions)"] = _trips(counter, len(QUESTIONS), each)
    counter.reset()
    store.facts(FactQuery(m.group, subject_id=person, valid_time=datetime(2000, 1, 1, tzinfo=UTC)))
    trips["as_of of one subject"] = _trips(counter)


def bulk_oracle(workdir: Path, sample: int) -> bool:
    """On Neo4j, ``add_facts`` of a sample gives the rows ``add_fact`` one by one gives."""
    items = structured_facts(sample, seed=5)
    answers = []
    for how in ("bulk", "one by one"):
        m = Memory("neo4j", workdir, "oracle", ontology=ONTOLOGY, clock=ManualClock(CLOCK), embed=False)
        try:
            if how == "bulk":
                m.tg.add_facts(items, group_id=m.group)
            else:
                for s, r, o, *times in items:
                    m.tg.add_fact(s, r, o, valid_at=times[0], invalid_at=times[1] if len(times) > 1 else None,
                                  group_id=m.group)
            answers.append(sorted((f.subject, f.relation, f.object, f.valid_at, f.invalid_at)
                                  for f in m.tg.core.store.facts(FactQuery(m.group))))
        finally:
            m.close()
    return answers[0] == answers[1]


def chat_reads(messages: int, repeats: int, workdir: Path, trips: dict | None = None) -> dict:
    """Search p50 / p95 over one imported conversation on each store, the stores alternating
    question by question; the share of hits both return (messages by id, facts and entities by text)."""
    conversation = supersession_chats.generate(1, messages)[0]
    path = supersession_chats.write([conversation], workdir / "chat")[0]
    questions = [q.question for q in conversation.questions] + [q for q, _ in conversation.keep]
    memories = {kind: Memory(kind, workdir, "chat", clock=ManualClock(CLOCK)) for kind in STORES}
    try:
        for m in memories.values():
            m.tg.import_file(path, group_id=m.group, progress=False)
        counter = counted(memories["neo4j"]) if trips is not None else None
        spent: dict[str, list[float]] = {kind: [] for kind in STORES}
        answers: dict[str, list[list[tuple]]] = {kind: [] for kind in STORES}
        for m in memories.values():
            m.tg.search(questions[0], group_id=m.group)  # the model loaded, the caches warm
        if counter is not None:
            counter.reset()
        each: list[int] = []
        with statement_waits() as spans:  # only the Neo4j store's statements are timed
            for _ in range(repeats):
                for question in questions:
                    for kind, m in memories.items():
                        spans.clear()
                        started = time.perf_counter()
                        hits = m.tg.search(question, group_id=m.group, limit=10)
                        spent[kind].append(time.perf_counter() - started)
                        answers[kind].append([_hit_key(h) for h in hits])
                        if kind == "neo4j":
                            each.append(waits(spans))
        if counter is not None and trips is not None:
            trips["search of a conversation (mean)"] = _trips(counter, repeats * len(questions), each)
        # Full-text scores differ between the stores (Lucene's statistics span every group), so
        # near-ties can trade places: what is compared is the hits, in any order.
        shared = [len(set(a) & set(b)) / max(len(a), len(b), 1)
                  for a, b in zip(answers["sqlite"], answers["neo4j"], strict=True)]
        return {"messages": messages, "questions": len(questions), "searches": len(spent["neo4j"]),
                "shared": round(sum(shared) / len(shared), 3),
                **{kind: percentiles(spent[kind]) for kind in STORES}}
    finally:
        for m in memories.values():
            m.close()


def _hit_key(hit: Any) -> tuple:
    """A hit as both stores name it: fact row ids differ between them, texts do not."""
    if hit.episode is not None:
        return "episode", hit.episode.source_id, hit.standing
    if hit.fact is not None:
        return "fact", hit.fact.text
    return hit.kind, hit.entity.name if hit.entity is not None else ""


def copy(facts: int, workdir: Path, trips: dict | None = None) -> dict:
    options = {"ontology": ONTOLOGY, "clock": ManualClock(CLOCK), "embed": False}
    source = Memory("sqlite", workdir, "copy-source", **options)
    target = Memory("neo4j", workdir, "copy-target", **options)
    try:
        source.tg.add_facts(structured_facts(facts), group_id=target.group)  # the group it will have there
        counter = counted(target)
        started = time.perf_counter()
        report = source.tg.copy_to(target.tg, group_id=target.group)
        seconds = time.perf_counter() - started
        copied = report.groups[0]
        if trips is not None:
            trips[f"copy_to of {facts:,} facts (whole copy)"] = _trips(counter)
        return {"facts": facts, "seconds": round(seconds, 1), "ok": report.ok,
                "records": sum(copied.written.values()),
                "records_per_s": round(sum(copied.written.values()) / seconds)}
    finally:
        source.close()
        target.tg.forget(target.group)
        target.tg.close()


# -- the table -------------------------------------------------------------------------------------
def table(result: dict) -> str:
    sizes = result["sizes"]
    lines = [f"Neo4j store beside SQLite ({result['server']}), p50 / p95 ms", "",
             f"{'write':22} {'store':7}" + "".join(f"{'N=' + format(n, ','):>17}" for n in sizes)
             + f"{'growth':>8}"]
    for key, by_store in result["writes"].items():
        for kind, by_size in by_store.items():
            cells = "".join(f"{by_size[str(n)]['p50_ms']:>8.1f} /{by_size[str(n)]['p95_ms']:>7.1f}"
                            for n in sizes)
            growth = by_size[str(sizes[-1])]["p50_ms"] / by_size[str(sizes[0])]["p50_ms"]
            lines.append(f"{key:22} {kind:7}{cells}{growth:>7.2f}x")
    lines += ["", f"reads at {result['facts']:,} facts        p50 / p95 ms (neo4j / sqlite p50)"]
    for read in ("as_of_subject", "search", "search_after_write"):
        s, n = result["reads"]["sqlite"][read], result["reads"]["neo4j"][read]
        lines.append(f"  {read:18} sqlite {s['p50_ms']:7.2f} / {s['p95_ms']:7.2f}   "
                     f"neo4j {n['p50_ms']:7.2f} / "
                     f"{n['p95_ms']:7.2f}   {n['p50_ms'] / s['p50_ms']:5.1f}x")
    for kind in STORES:
        if "profile" in result["reads"][kind]:
            lines.append(f"  profile {kind}: {json.dumps(result['reads'][kind]['profile'])}")
    if result.get("chat"):
        c = result["chat"]
        s, n = c["sqlite"], c["neo4j"]
        lines += ["", f"search of a {c['messages']}-message conversation ({c['questions']} questions, "
                      f"{c['searches']} searches each)   p50 / p95 ms (neo4j / sqlite p50)",
                  f"  {'search':18} sqlite {s['p50_ms']:7.2f} / {s['p95_ms']:7.2f}   "
                  f"neo4j {n['p50_ms']:7.2f} / {n['p95_ms']:7.2f}   {n['p50_ms'] / s['p50_ms']:5.1f}x   "
                  f"hits both stores return: {100 * c['shared']:.0f}%"]
    lines += ["", "bulk loads (add_facts)"]
    for size, by_store in result["bulk"].items():
        if size == "oracle_on_neo4j":
            continue
        s, n = by_store["sqlite"], by_store["neo4j"]
        lines.append(f"  {int(size):>9,} facts  sqlite {s['seconds']:7.1f} s ({s['facts_per_s']:,}/s)   "
                     f"neo4j {n['seconds']:7.1f} s ({n['facts_per_s']:,}/s)   "
                     f"{n['seconds'] / s['seconds']:.1f}x")
    lines.append(f"  bulk == one by one on Neo4j ({result['oracle']:,}-fact sample): "
                 f"{result['bulk']['oracle_on_neo4j']}")
    c = result["copy"]
    lines += ["", f"copy of a {c['facts']:,}-fact embedded memory into Neo4j: {c['seconds']} s, "
                  f"{c['records']:,} records ({c['records_per_s']:,}/s), both sides agree: {c['ok']}"]
    if result.get("trips"):
        lines += ["", "sent to Neo4j per operation (driver-level count)", "",
                  f"  {'operation':44} {'statements':>11} {'transactions':>13} {'round trips':>12} "
                  f"{'waits':>6}"]
        for op, n in result["trips"].items():
            wait = f"{n['waits']:>6,}" if "waits" in n else f"{'-':>6}"
            lines.append(f"  {op:44} {n['statements']:>11,} {n['transactions']:>13,} "
                         f"{n['round_trips']:>12,} {wait}")
        lines.append("  (waits: statements waited for in turn, those sent at once as one; commits not"
                     " counted)")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="10,1000", help="facts of history for the writes")
    parser.add_argument("--repeats", type=int, default=10)
    parser.add_argument("--facts", type=int, default=20_000, help="facts in the group the reads run on")
    parser.add_argument("--bulk", type=int, default=0, help="a second, larger bulk load (100000)")
    parser.add_argument("--copy", type=int, default=20_000, help="facts of the memory copied into Neo4j")
    parser.add_argument("--oracle", type=int, default=500, help="facts of the bulk == one-by-one sample")
    parser.add_argument("--chat", type=int, default=300,
                        help="messages of the conversation searched (0: no chat reads)")
    parser.add_argument("--profile", action="store_true")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    sizes = sorted(int(s) for s in args.sizes.split(","))
    with neo4j_server() as server, tempfile.TemporaryDirectory(prefix="neo4j-bench-") as tmp:
        workdir = Path(tmp)
        result: dict = {"server": server, "sizes": sizes, "facts": args.facts, "oracle": args.oracle}
        trips: dict | None = {} if args.profile else None
        result["writes"] = writes(sizes, args.repeats, workdir, trips)
        result["reads"], result["bulk"] = reads_and_bulk(args.facts, args.bulk, args.repeats, workdir,
                                                         args.profile, trips, args.oracle)
        if args.chat:
            result["chat"] = chat_reads(args.chat, max(1, args.repeats // 5), workdir, trips)
        result["copy"] = copy(args.copy, workdir, trips)
        result["trips"] = trips
    print(json.dumps(result) if args.json else table(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
