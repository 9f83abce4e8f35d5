"""A large memory opened again: what a fresh process pays before its first answer and its first
write, and its searches after. For a memory ``scale.py`` cannot keep (it builds in a temporary
folder): build one once (e.g. a million messages, ``--random-vectors``), then measure it here as
often as the code changes.

    .venv/bin/python benchmarks/reopen.py MEMORY.db [--random-vectors] [--group me]

Each line comes from its own fresh process, in this order:

- ``first search``: the first ``search`` of a process opening the memory (the model already loaded);
- ``first write``: then its first ``add_episode``, and its first search after it;
- ``first search, files a few writes old``: a next process, whose saved vectors the writes above
  made a few writes old (it brings them up to date as it loads them);
- ``search p50 / p95``: 50 LoCoMo dev questions asked once (the first time each word is seen), then
  asked again in the same process.

The writes stay in the memory (per run, one message to the group and one to ``GROUP-warm-up``).
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

_FRESH = r"""
import json, random, statistics, sys, time
from temporal_graph import TemporalGraph
from benchmarks.scale import DEFAULT_DATA, RandomVectors

db, random_vectors, group, step = sys.argv[1], sys.argv[2] == "random", sys.argv[3], sys.argv[4]
tg = TemporalGraph.open(db, embedder=RandomVectors() if random_vectors else None)
tg.embedder.encode(["warm up"])  # the model's load is not the memory's start-up
out = {}
started = time.perf_counter()
tg.search("What did Caroline research?", group_id=group)
out["first_search_s"] = round(time.perf_counter() - started, 3)
if step == "write":
    # The extraction rules' first use (compiling them) is not the memory's: a message to another group
    # (a new one: a message stored already is skipped before extraction).
    tg.add_episode(f"Warm up {time.time()}: I moved to Lisbon.", speaker="Caroline",
                   group_id=group + "-warm-up", reference_time="2031-01-01T00:00:00+00:00")
    started = time.perf_counter()
    tg.add_episode(f"Note {time.time()}: I moved to Porto.", speaker="Caroline", group_id=group,
                   reference_time="2031-01-01T00:00:00+00:00")
    out["first_write_s"] = round(time.perf_counter() - started, 3)
    started = time.perf_counter()
    tg.search("Where did Caroline move?", group_id=group)
    out["search_after_write_s"] = round(time.perf_counter() - started, 3)
if step == "searches":
    questions = [q["question"] for sample in json.load(open(DEFAULT_DATA)) for q in sample["qa"]]
    asked = random.Random(5).sample(questions, 50)
    for name in ("once", "again"):
        times = []
        for question in asked:
            started = time.perf_counter()
            tg.search(question, group_id=group)
            times.append((time.perf_counter() - started) * 1000)
        times.sort()
        out[name] = [round(statistics.median(times), 1), round(times[int(0.95 * len(times)) - 1], 1)]
tg.close()
print(json.dumps(out))
"""


def fresh(db: str, vectors: str, group: str, step: str) -> dict:
    done = subprocess.run([sys.executable, "-c", _FRESH, db, vectors, group, step], cwd=ROOT,
                          capture_output=True, text=True, check=True)
    return json.loads(done.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("memory", help="the memory's file (built beforehand)")
    parser.add_argument("--random-vectors", action="store_true",
                        help="the stand-in vectors the memory was built with (scale.py --random-vectors)")
    parser.add_argument("--group", default="me")
    args = parser.parse_args()
    vectors = "random" if args.random_vectors else "model"
    first = fresh(args.memory, vectors, args.group, "search")
    print(f"first search {first['first_search_s']} s", flush=True)
    wrote = fresh(args.memory, vectors, args.group, "write")
    print(f"first write {wrote['first_write_s']} s, the search after it {wrote['search_after_write_s']} s",
          flush=True)
    after = fresh(args.memory, vectors, args.group, "searches")
    print(f"first search, files a few writes old {after['first_search_s']} s", flush=True)
    print(f"search p50 / p95, 50 questions asked once {after['once'][0]} / {after['once'][1]} ms, "
          f"asked again {after['again'][0]} / {after['again'][1]} ms", flush=True)


if __name__ == "__main__":
    main()
