"""One-shot commands from a cold process: what a user waits for at the shell.

    python benchmarks/cold_start.py [--runs 3] [--facts 50] [--random-vectors] [--torch] [--json]

On an existing memory of ``--facts`` embedded facts, each command runs ``--runs`` times, every
time in a fresh Python process (``python -m temporal_graph``, as ``tgraph`` runs): ``now`` (never
embeds), ``search`` (encodes its query) and ``add-fact`` (embeds what it writes), in turn, so from
the second run on every search follows a write. ``--random-vectors`` gives the memory's records
random unit vectors instead of the model's, so a memory of 100,000 facts is made in seconds (what
these commands cost depends on how many vectors there are, not on which). The figure is the
median wall time of the whole process and its ratio to ``now``, and the same for the CPU time the
process used (a busy shared machine stretches wall time, much less CPU time). The ONNX export is made before
timing (once per machine; the first embedding command on a new machine pays it, up to a minute).
``--torch`` times the same commands with the model on torch, as before the ONNX runtime.
``benchmarks/scale.py`` prints this table too.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
ENV = {**os.environ, "PYTHONPATH": str(ROOT), "HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1"}
# The same CLI with the model on torch: the default embedder set before any command asks for it.
TORCH_CLI = ("import sys\n"
             "from temporal_graph.core import embeddings\n"
             "from temporal_graph.core.embedders import SentenceTransformerEmbedder\n"
             "embeddings._default = SentenceTransformerEmbedder()\n"
             "from temporal_graph.interfaces.cli import main\n"
             "sys.exit(main())\n")
MEMORY = r"""
import sys
from temporal_graph import TemporalGraph
from temporal_graph.core.embeddings import default_embedder
default_embedder()  # exports the model to ONNX when this machine has not yet
people, cities = ["Alice", "Bob", "Chen", "Dana", "Emil"], ["Paris", "Lyon", "Rome", "Oslo"]
jobs = ["Acme", "Initech"]
count = int(sys.argv[2])
people += [f"Person {k}" for k in range(count // 20 - len(people))]  # about 20 facts a person
with TemporalGraph.open(sys.argv[1]) as tg:
    items = []
    for i in range(count):
        person, year = people[i % len(people)], str(1900 + i % 125)
        kind = i % 3
        if kind == 0:
            items.append((person, "lives in", cities[i % len(cities)], year))
        elif kind == 1:
            items.append((person, "works at", jobs[i % len(jobs)], year))
        else:
            items.append((person, "likes", f"hobby {i}", year))
    random_vectors = sys.argv[3] == "random"
    tg.add_facts(items, strict=True, embed=not random_vectors)
    if random_vectors:
        import sqlite3
        import numpy as np
        from temporal_graph.core.stores.protocol import ChangeSet
        rng = np.random.default_rng(7)

        def unit(ids):
            v = rng.standard_normal((len(ids), 384))
            return dict(zip(ids, (v / np.linalg.norm(v, axis=1, keepdims=True)).tolist()))

        with sqlite3.connect(sys.argv[1]) as conn:
            facts = unit([i for (i,) in conn.execute("SELECT id FROM facts WHERE expired_at IS NULL")])
            entities = unit([i for (i,) in conn.execute("SELECT id FROM entities")])
        changes = ChangeSet(fact_embeddings=facts, entity_embeddings=entities)
        tg.core.store.write(lambda tx: tx.apply(changes))
"""


def command_lines(torch: bool) -> dict[str, list[str]]:
    start = [sys.executable, "-c", TORCH_CLI] if torch else [sys.executable, "-m", "temporal_graph"]
    return {"now": [*start, "now", "Alice"],
            "search": [*start, "search", "where does Alice live?", "--limit", "5"],
            "add-fact": [*start, "add-fact", "Alice", "likes", "{unique}"]}


def timed(argv: list[str]) -> tuple[float, float]:
    """Wall seconds of one process, and the CPU seconds it used (what a shared machine distorts less)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    done = subprocess.run(argv, cwd=ROOT, env=ENV, capture_output=True, text=True)
    seconds = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(argv[-4:])} failed: {done.stderr[-2000:]}")
    return seconds, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def measure(
    runs: int = 3, facts: int = 50, *, torch: bool = False, random_vectors: bool = False
) -> dict[str, dict[str, float]]:
    """Median wall seconds of each command over ``runs`` fresh processes, and its ratio to ``now``."""
    with tempfile.TemporaryDirectory(prefix="tg-cold-") as workdir:
        db = str(Path(workdir) / "memory.db")
        vectors = "random" if random_vectors else "model"
        subprocess.run([sys.executable, "-c", MEMORY, db, str(facts), vectors], cwd=ROOT, env=ENV, check=True)
        times: dict[str, list[tuple[float, float]]] = {name: [] for name in command_lines(torch)}
        for run in range(runs):  # interleaved, so a busy moment of the machine hits every command
            for name, argv in command_lines(torch).items():
                argv = [a.replace("{unique}", f"music {run}") for a in argv]
                times[name].append(timed([*argv[:3], "--db", db, *argv[3:]]))
    wall = {name: statistics.median(w for w, _ in t) for name, t in times.items()}
    cpu = {name: statistics.median(c for _, c in t) for name, t in times.items()}
    return {name: {"median_s": round(wall[name], 2), "vs_now": round(wall[name] / wall["now"], 2),
                   "cpu_s": round(cpu[name], 2), "cpu_vs_now": round(cpu[name] / cpu["now"], 2)}
            for name in times}


def table(result: dict[str, dict[str, float]], title: str) -> str:
    rows = [f"{title}", "| command | median wall s | × now | median CPU s | × now |", "|---|---|---|---|---|"]
    rows += [f"| tgraph {name} | {row['median_s']:.2f} | {row['vs_now']:.2f} | {row['cpu_s']:.2f} | "
             f"{row['cpu_vs_now']:.2f} |" for name, row in result.items()]
    return "\n".join(rows)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=3, help="fresh processes per command (default 3)")
    parser.add_argument("--facts", type=int, default=50, help="facts in the memory (default 50)")
    parser.add_argument("--random-vectors", action="store_true",
                        help="random unit vectors for the memory's records instead of the model's")
    parser.add_argument("--torch", action="store_true", help="also time the commands with the model on torch")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    result = {"onnx": measure(args.runs, args.facts, random_vectors=args.random_vectors)}
    if args.torch:
        result["torch"] = measure(args.runs, args.facts, torch=True, random_vectors=args.random_vectors)
    if args.json:
        print(json.dumps(result, indent=2))
        return
    for runtime, rows in result.items():
        print(table(rows, f"cold start, {runtime} runtime (median of {args.runs} fresh processes, "
                          f"{args.facts}-fact memory):"))


if __name__ == "__main__":
    main()
