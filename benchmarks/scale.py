"""A long-lived memory at scale: ONE group of N messages, imported with embeddings, then queried.

    .venv/bin/python benchmarks/scale.py [--sizes 1000,10000,100000] [--bulk 1000000] [--json]
    .venv/bin/python benchmarks/scale.py --sizes 1000000 --random-vectors --bulk 0 --cold-runs 0
    .venv/bin/python benchmarks/scale.py --sizes 10000,1000000 --random-vectors --no-extraction \
        --bulk 0 --cold-runs 0

The group is built from the LoCoMo dev conversations replayed again and again, each replay shifted
later in time, into a single group (one user's years of chat). Each size runs in a fresh process,
so its peak memory is its own. Per size, in that one process:

- import seconds and messages/s, embeddings included (episodes, new entities, new facts);
- the MiniLM encode floor: texts/s encoding the same kind of texts (a sample of them) in batches,
  in the same process, so "import / floor" says how close the import comes to pure encoding;
- the first search right after the import (it must not embed anything stored, nor wait for the
  HNSW graphs: past the crossover they start building in the background, and five more searches
  are timed while they do), then the wait until every graph is built, taken over and saved;
- median and p95 of ``search``, ``context`` and a subject ``as_of`` over 50 questions;
- a brute-force search baseline on the same store: numpy cosine over every stored vector of the
  group (read from the file) plus BM25 over every episode, per question (10 questions from 500k);
- vector top-10 over the group's messages: p50 / p95 of the approximate path (HNSW graph + exact
  re-rank, past the crossover) and of the exact matrix product, and recall@10 of the one against
  the other (a hit counts when it scores as high as the exact path's tenth: the replayed chat holds
  each text many times, and the copies tie); ``search`` p50 / p95 again with the approximate path
  off (today's exact figures);
- ``add_episode`` p50 over 20 messages written after the searches;
- a fresh process on the saved memory: its first ``search`` (model already loaded), and its
  resident memory after it (VmRSS) and at peak.

``--random-vectors`` replaces the embedding model by clustered random 384-d vectors (a low intrinsic
dimension, as sentence embeddings have: ``vector_topk.clustered``), so a 1M memory builds in far
less time; the encode floor is then not measured. ``--no-extraction`` leaves facts out (the
extractor is most of an import's CPU time: 1M messages with it take over an hour and a half on a
shared two-core machine); every message is still stored, embedded and searched.

Bulk: ``add_facts`` of ``--bulk`` synthetic structured facts, against ``add_fact`` one by one on a
20k sample (rate ratio); both without embeddings (a bulk load is reindexed afterwards).

Cold start (``benchmarks/cold_start.py``): ``tgraph now``, ``search`` and ``add-fact`` on an existing
50-fact memory, each the median of ``--cold-runs`` fresh processes, and their ratio to ``now``.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks import cold_start  # noqa: E402

DEFAULT_DATA = ROOT.parent / "shared" / "data" / "locomo" / "locomo_dev.json"

_SIZE = r"""
import json, random, resource, statistics, sys, time
from datetime import datetime, timedelta, timezone
import numpy as np
from temporal_graph import TemporalGraph
from benchmarks.scale import RandomVectors
from temporal_graph.core.time import to_utc

data, n, workdir, random_vectors = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4] == "random"
extract = sys.argv[5] == "extract"
samples = json.load(open(data, encoding="utf-8"))
turns, questions, speakers = [], [], set()
for sample in samples:
    conv = sample["conversation"]
    i = 1
    while f"session_{i}" in conv:
        when = datetime.strptime(conv[f"session_{i}_date_time"], "%I:%M %p on %d %B, %Y").replace(
            tzinfo=timezone.utc)
        for k, turn in enumerate(conv[f"session_{i}"]):
            turns.append((when + timedelta(seconds=30 * k), turn["speaker"], turn["text"]))
            speakers.add(turn["speaker"])
        i += 1
    questions += [q["question"] for q in sample["qa"]]
turns.sort()
first, last = turns[0][0], turns[-1][0]
shift = (last - first) + timedelta(days=30)
path = f"{workdir}/chat-{n}.jsonl"
with open(path, "w", encoding="utf-8") as out:
    for i in range(n):
        rnd, k = divmod(i, len(turns))
        when, speaker, text = turns[k]
        out.write(json.dumps({"id": f"m{i}", "group": "me", "speaker": speaker,
                              "timestamp": (when + rnd * shift).isoformat(), "text": text}) + "\n")

from benchmarks.scale import NoFacts
tg = TemporalGraph.open(f"{workdir}/scale-{n}.db", embedder=RandomVectors() if random_vectors else None,
                        **({} if extract else {"extractor": NoFacts()}))
encode_calls = []
real_encode = tg.embedder.encode
tg.embedder.encode(["warm up"])
started, cpu = time.perf_counter(), time.process_time()
report = tg.import_file(path, progress=False)
import_s, import_cpu = time.perf_counter() - started, time.process_time() - cpu

texts = [f"{s}: {t}" for _, s, t in turns][: min(n, 2000)]
started, cpu = time.perf_counter(), time.process_time()
for i in range(0, len(texts), 256):
    tg.embedder.encode(texts[i : i + 256])
floor, floor_cpu = len(texts) / (time.perf_counter() - started), len(texts) / (time.process_time() - cpu)
if random_vectors:
    floor = floor_cpu = float("nan")  # no model: no floor

tg.embedder.encode = lambda texts: encode_calls.append(len(texts)) or real_encode(texts)
rng = random.Random(5)
asked = rng.sample(questions, 50)
started = time.perf_counter()
tg.search(asked[0], group_id="me")
first_search = time.perf_counter() - started  # past the crossover: exact, the graphs build meanwhile
embedded_at_search = sum(encode_calls) - 1
store = tg.core.store
building = [k for k in ("episode", "fact", "entity") if store._index("me", k).building]
started = time.perf_counter()
during = []
for q in asked[1:6]:  # searches while the graphs build (in a child process): the exact path
    t = time.perf_counter(); tg.search(q, group_id="me"); during.append((time.perf_counter() - t) * 1000)
for kind in ("episode", "fact", "entity"):
    store.wait_for_graph("me", kind)  # taken over and saved
graph_wait = time.perf_counter() - started

cpu_ms = {}
def timed(fn, name=None, questions=None):
    out, cpu = [], []
    for q in questions or asked:
        t, c = time.perf_counter(), time.process_time(); fn(q)
        out.append((time.perf_counter() - t) * 1000); cpu.append((time.process_time() - c) * 1000)
    if name:  # CPU time of this process: what a loaded, shared machine does not inflate as much
        cpu_ms[name] = round(statistics.median(cpu), 1)
    return statistics.median(out), sorted(out)[int(0.95 * len(out)) - 1]

search_med, search_p95 = timed(lambda q: tg.search(q, group_id="me"), "search")
context_med, _ = timed(lambda q: tg.context(q, group_id="me"))
people = sorted(speakers)
picks = iter([(first + (last - first) * rng.random(), rng.choice(people)) for _ in asked])
def one_as_of(q):
    moment, person = next(picks)
    return tg.as_of(moment, subject=person, group_id="me")
asof_med, _ = timed(one_as_of)

def brute_force(q):
    vector = np.asarray(real_encode([q])[0], dtype=np.float32)
    scores = []
    for table in ("episodes", "entities", "facts"):
        rows = store._rows(f"SELECT id, embedding FROM {table} WHERE group_id = ? AND embedding IS NOT NULL",
                           ("me",))
        if not rows:  # no facts (--no-extraction)
            continue
        matrix = np.frombuffer(b"".join(r[1] for r in rows), dtype=np.float32).reshape(len(rows), -1)
        scores.append(np.argsort(-(matrix @ vector))[:30])
    words = " OR ".join(f'"{w}"' for w in q.replace('"', " ").split())
    store._rows("SELECT e.id, bm25(episodes_fts) AS s FROM episodes_fts "
                "JOIN episodes e ON e.rowid = episodes_fts.rowid "
                "WHERE episodes_fts MATCH ? AND e.group_id = ? ORDER BY s", (words, "me"))
    return scores
baseline_asked = asked if n < 500_000 else asked[:10]  # 1.5 GB read per question at 1M
baseline_med, _ = timed(brute_force, "baseline", baseline_asked)

import os
vectors = {q: real_encode([q])[0] for q in asked}
def top10(q, exact):
    return store.vector_search("me", "episode", vectors[q], 10, exact=exact)
def paired():  # the two paths in turn on each question, so a busy moment hits both
    wall, cpu = {False: [], True: []}, {False: [], True: []}
    for q in asked:
        for exact in (False, True):
            t, c = time.perf_counter(), time.process_time(); top10(q, exact)
            wall[exact].append((time.perf_counter() - t) * 1000)
            cpu[exact].append((time.process_time() - c) * 1000)
    for exact, name in ((False, "vector_approx"), (True, "vector_exact")):
        cpu_ms[name] = round(statistics.median(cpu[exact]), 2)
    p95 = lambda xs: sorted(xs)[int(0.95 * len(xs)) - 1]
    return [(statistics.median(wall[e]), p95(wall[e])) for e in (False, True)]
(approx_med, approx_p95), (exact_med, exact_p95) = paired()
def recall(q):  # by score: the dev set replayed holds each text many times, and any copy is as near
    exact = top10(q, True)
    tenth = exact[-1][1] - 1e-5 if exact else 0.0  # what the exact path's tenth scores (float noise aside)
    return sum(1 for _, score in top10(q, False) if score >= tenth) / max(1, len(exact))
hit = [recall(q) for q in asked]
graph = store._indexes[("me", "episode")].graph is not None
os.environ["TGRAPH_APPROXIMATE_FROM"] = str(10**12)  # today's path, same process, same memory
exact_search_med, exact_search_p95 = timed(lambda q: tg.search(q, group_id="me"), "exact_search")
del os.environ["TGRAPH_APPROXIMATE_FROM"]
writes = []
for i in range(20):
    t = time.perf_counter()
    tg.add_episode(f"Note {i}: I moved to Lisbon and started at a bakery.", speaker=people[0],
                   reference_time=last + (n // len(turns) + 2) * shift + timedelta(minutes=i), group_id="me")
    writes.append((time.perf_counter() - t) * 1000)
tg.search(asked[0], group_id="me")  # the index saved with these writes, as a long-lived process would
tg.close()

print(json.dumps({
    "import_s": round(import_s, 1), "import_msgs_per_s": round(n / import_s, 1),
    "import_cpu_s": round(import_cpu, 1), "import_msgs_per_cpu_s": round(n / import_cpu, 1),
    "embed_floor_texts_per_cpu_s": round(floor_cpu, 1), "search_median_cpu_ms": cpu_ms["search"],
    "baseline_search_median_cpu_ms": cpu_ms["baseline"],
    "embed_floor_texts_per_s": round(floor, 1), "first_search_s": round(first_search, 3),
    "records_embedded_by_first_search": embedded_at_search,
    "graphs_building": building, "graph_wait_s": round(graph_wait, 1),
    "search_while_building_median_ms": round(statistics.median(during), 1),
    "baseline_questions": len(baseline_asked),
    "search_median_ms": round(search_med, 1), "search_p95_ms": round(search_p95, 1),
    "context_median_ms": round(context_med, 1), "asof_median_ms": round(asof_med, 3),
    "baseline_search_median_ms": round(baseline_med, 1),
    "peak_rss_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024),
    "vector_approx_median_ms": round(approx_med, 2), "vector_approx_p95_ms": round(approx_p95, 2),
    "vector_exact_median_ms": round(exact_med, 2), "vector_exact_p95_ms": round(exact_p95, 2),
    "recall_at_10": round(statistics.mean(hit), 3), "graph": graph,
    "exact_search_median_ms": round(exact_search_med, 1), "exact_search_p95_ms": round(exact_search_p95, 1),
    "add_episode_median_ms": round(statistics.median(writes), 1),
    "exact_search_median_cpu_ms": cpu_ms["exact_search"],
    "vector_approx_median_cpu_ms": cpu_ms["vector_approx"],
    "vector_exact_median_cpu_ms": cpu_ms["vector_exact"],
    "facts": report.facts_added, "entities": report.entities_created, "errors": len(report.errors),
}))
"""

_FRESH = r"""
import json, resource, sys, time
from temporal_graph import TemporalGraph
from benchmarks.scale import RandomVectors

db, random_vectors, question = sys.argv[1], sys.argv[2] == "random", sys.argv[3]
tg = TemporalGraph.open(db, embedder=RandomVectors() if random_vectors else None)
tg.embedder.encode(["warm up"])  # the model's load is not the memory's start-up
started = time.perf_counter()
hits = tg.search(question, group_id="me")
first = time.perf_counter() - started
rss = next(int(line.split()[1]) for line in open("/proc/self/status") if line.startswith("VmRSS"))
print(json.dumps({"fresh_first_search_s": round(first, 3), "fresh_rss_mb": round(rss / 1024),
                  "fresh_peak_rss_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024),
                  "fresh_hits": len(hits)}))
"""

_BULK = r"""
import json, random, sys, time
from temporal_graph import Ontology, TemporalGraph
from temporal_graph.core.time import ManualClock

n, workdir = int(sys.argv[1]), sys.argv[2]
rng = random.Random(11)
cities = [f"City {i}" for i in range(500)]
clubs = [f"Club {i}" for i in range(2000)]
def facts(count):
    for _ in range(count):
        person = f"Person {rng.randrange(max(10, count // 5))}"
        start = rng.randrange(1950, 2020)
        kind = rng.random()
        if kind < 0.4:
            yield (person, "lives in", rng.choice(cities), str(start))
        elif kind < 0.8:
            yield (person, "plays for", rng.choice(clubs), str(start), str(start + rng.randrange(1, 6)))
        else:
            yield (person, "won", f"Award {rng.randrange(300)}", str(start))
ontology = Ontology.default_personal().with_relations({"PLAYS_FOR": "one", "WON": "many"})
with TemporalGraph.open(f"{workdir}/bulk.db", ontology=ontology, embed=False,
                        clock=ManualClock("2026-01-01T00:00:00+00:00")) as tg:
    items = list(facts(n))
    started, cpu = time.perf_counter(), time.process_time()
    report = tg.add_facts(items)
    seconds, cpu = time.perf_counter() - started, time.process_time() - cpu
with TemporalGraph.open(f"{workdir}/one.db", ontology=ontology, embed=False,
                        clock=ManualClock("2026-01-01T00:00:00+00:00")) as tg:
    sample = items[:20000]
    started = time.perf_counter()
    for item in sample:
        try:
            tg.add_fact(*item[:3], valid_at=item[3], invalid_at=item[4] if len(item) > 4 else None)
        except Exception:
            pass
    one = len(sample) / (time.perf_counter() - started)
print(json.dumps({"facts": n, "seconds": round(seconds, 1), "cpu_s": round(cpu, 1),
                  "facts_per_s": round(n / seconds),
                  "one_by_one_facts_per_s": round(one), "rows_written": report.rows_written,
                  "errors": len(report.errors)}))
"""


class RandomVectors:
    """Stands in for the embedding model when building big memories fast: clustered random unit
    vectors of the model's width (see ``vector_topk.clustered``), new ones for every text."""

    dimensions = 384

    def __init__(self) -> None:
        self._calls = 0

    def encode(self, texts: Sequence[str]) -> list[list[float]]:
        from benchmarks.vector_topk import clustered

        self._calls += 1
        return clustered(len(texts), seed=self._calls).tolist() if texts else []

    @property
    def tokenizer(self) -> Any:
        return _Words()


class NoFacts:
    """An extractor that reads nothing out of a message (``--no-extraction``): the memory holds the
    messages alone, which builds 1M of them without the extractor's CPU time (most of an import's)."""

    def extract(self, episode: Any, context: Sequence[Any] = ()) -> Any:
        from temporal_graph.core.extraction import Extraction

        return Extraction()


class _Words:
    """A word count for context()'s token budget (no model, no model's tokens)."""

    def encode(self, text: str, add_special_tokens: bool = True, **_: Any) -> list[int]:
        return list(range(len(text.split())))


def child(code: str, *args: str) -> dict:
    out = subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True, cwd=ROOT,
                         env={"PYTHONPATH": str(ROOT), "HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1",
                              "PATH": "/usr/bin:/bin",
                              **{k: v for k, v in os.environ.items() if k == "TGRAPH_APPROXIMATE_FROM"}})
    if out.returncode != 0:
        raise SystemExit(out.stderr[-3000:])
    return json.loads(out.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--data", default=str(DEFAULT_DATA))
    parser.add_argument("--sizes", default="1000,10000,100000")
    parser.add_argument("--bulk", type=int, default=1_000_000,
                        help="structured facts for add_facts (0: skip)")
    parser.add_argument("--cold-runs", type=int, default=3,
                        help="fresh processes per command for the cold-start line (0: skip)")
    parser.add_argument("--random-vectors", action="store_true",
                        help="clustered random vectors instead of the model (builds 1M fast)")
    parser.add_argument("--no-extraction", action="store_true",
                        help="messages only, no facts read out of them (builds 1M in a fraction of the time)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    vectors = "random" if args.random_vectors else "model"
    result: dict = {"sizes": {}, "bulk": None, "cold_start": None}
    with tempfile.TemporaryDirectory(prefix="tg-scale-") as workdir:
        for size in (int(s) for s in args.sizes.split(",") if s):
            row = child(_SIZE, args.data, str(size), workdir, vectors,
                        "none" if args.no_extraction else "extract")
            row.update(child(_FRESH, f"{workdir}/scale-{size}.db", vectors, "What did Caroline research?"))
            result["sizes"][str(size)] = row
            if not args.json:
                print(f"{size:>7} msgs: import {row['import_s']} s ({row['import_msgs_per_s']}/s, floor "
                      f"{row['embed_floor_texts_per_s']} texts/s) | first search {row['first_search_s']} s "
                      f"({row['records_embedded_by_first_search']} records embedded; graphs built "
                      f"in the background: {row['graphs_building']}, {row['graph_wait_s']} s more, "
                      f"searches meanwhile p50 {row['search_while_building_median_ms']} ms) | search "
                      f"{row['search_median_ms']}/{row['search_p95_ms']} ms (baseline "
                      f"{row['baseline_search_median_ms']}; CPU {row['search_median_cpu_ms']} vs "
                      f"{row['baseline_search_median_cpu_ms']} ms) | import CPU {row['import_cpu_s']} s, "
                      f"{row['import_msgs_per_cpu_s']} msg/CPU-s vs floor "
                      f"{row['embed_floor_texts_per_cpu_s']} texts/CPU-s | "
                      f"context {row['context_median_ms']} ms | as_of {row['asof_median_ms']} ms | "
                      f"peak {row['peak_rss_mb']} MB", flush=True)
                print(f"{size:>7} msgs: vector top-10 p50/p95 approximate {row['vector_approx_median_ms']}/"
                      f"{row['vector_approx_p95_ms']} ms (graph: {row['graph']}) vs exact "
                      f"{row['vector_exact_median_ms']}/{row['vector_exact_p95_ms']} ms, recall@10 "
                      f"{row['recall_at_10']} (CPU p50 {row['vector_approx_median_cpu_ms']} vs "
                      f"{row['vector_exact_median_cpu_ms']} ms) | search p50/p95 {row['search_median_ms']}/"
                      f"{row['search_p95_ms']} ms vs exact path {row['exact_search_median_ms']}/"
                      f"{row['exact_search_p95_ms']} ms (CPU p50 {row['search_median_cpu_ms']} vs "
                      f"{row['exact_search_median_cpu_ms']} ms) | add_episode p50 "
                      f"{row['add_episode_median_ms']} ms | "
                      f"fresh process: first search {row['fresh_first_search_s']} s, RSS "
                      f"{row['fresh_rss_mb']} MB (peak {row['fresh_peak_rss_mb']} MB)", flush=True)
        if args.bulk:
            result["bulk"] = bulk = child(_BULK, str(args.bulk), workdir)
            if not args.json:
                print(f"bulk: {bulk['facts']:,} facts in {bulk['seconds']} s ({bulk['cpu_s']} CPU s, "
                      f"{bulk['facts_per_s']}/s) vs "
                      f"{bulk['one_by_one_facts_per_s']}/s one by one "
                      f"({bulk['facts_per_s'] / max(1, bulk['one_by_one_facts_per_s']):.0f}x)", flush=True)
    if args.cold_runs:
        result["cold_start"] = cold = cold_start.measure(args.cold_runs)
        if not args.json:
            print(cold_start.table(cold, f"cold start (median of {args.cold_runs} fresh processes, "
                                         "50-fact memory):"), flush=True)
    if args.json:
        print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
