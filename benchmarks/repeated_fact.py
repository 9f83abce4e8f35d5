"""Does telling the same fact again and again slow the memory down? (issue 42, item 7)

    .venv/bin/python benchmarks/repeated_fact.py [--messages 8000] [--block 1000] [--store sqlite|neo4j]
        [--before REV] [--json]

One speaker says "I like tea." ``--messages`` times (one message a minute), imported with
``import_file`` in files of ``--block`` messages into one group (offline extraction; vectors left
for ``reindex``, entity summaries on, as an import runs by default). Every message confirms the
same fact, so its row gains one episode of provenance each time. Printed: the seconds each block
took (wall and CPU seconds of the importing process; on a shared machine the CPU seconds are the
steadier), and the last block over the second (the first also opens the memory; flat when a
confirmation costs the same however often the fact was told). At the end, a check that the fact's
provenance lists every message.

``--before REV`` runs the same import in a second process on a checkout of REV (a ``git
worktree`` under /tmp, removed after), one block of each in turn so both see the same machine
load, and prints both rows. ``--store neo4j`` writes into the Neo4j server of ``TGRAPH_NEO4J_URI``
(``TGRAPH_NEO4J_USER`` / ``TGRAPH_NEO4J_PASSWORD``), a fresh group per run.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import uuid
from datetime import UTC, datetime, timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
T0 = datetime(2024, 1, 1, tzinfo=UTC)
TEXT = "I like tea."


def block_file(workdir: Path, start: int, count: int) -> Path:
    path = workdir / f"tea-{start}.jsonl"
    lines = ({"id": f"m{i}", "speaker": "Ana", "text": TEXT,
              "timestamp": (T0 + i * timedelta(minutes=1)).isoformat()} for i in range(start, start + count))
    path.write_text("".join(json.dumps(m) + "\n" for m in lines), encoding="utf-8")
    return path


# The worker: imports the block files named on stdin (one per line) and prints each block's seconds;
# run with this tree or a checkout of --before on sys.path (it uses only the public API).
WORKER = """
import json, os, sys, time
sys.path.insert(0, sys.argv[1])
from temporal_graph import TemporalGraph
store, target, group = sys.argv[2], sys.argv[3], sys.argv[4]
if store == "neo4j":
    tg = TemporalGraph.connect(target, auth=(os.environ.get("TGRAPH_NEO4J_USER", "neo4j"),
                                             os.environ.get("TGRAPH_NEO4J_PASSWORD", "")))
else:
    tg = TemporalGraph.open(target)
for line in sys.stdin:
    if line.strip() == "done":
        break
    t0, c0 = time.perf_counter(), time.process_time()
    report = tg.import_file(line.strip(), group_id=group, progress=False, embed=False)
    print(json.dumps({"seconds": time.perf_counter() - t0, "cpu": time.process_time() - c0,
                      "imported": report.episodes_imported}), flush=True)
facts = tg.now("Ana", "likes", group_id=group)
cited = [[f.object, len(f.episode_ids), len(set(f.episode_ids))] for f in facts]
print(json.dumps({"facts": cited}), flush=True)
tg.close()
"""


class Worker:
    def __init__(self, code: Path, store: str, target: str, group: str) -> None:
        env = {**os.environ, "HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1"}
        self.proc = subprocess.Popen(
            [sys.executable, "-c", WORKER, str(code), store, target, group],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, env=env, cwd=str(code))

    def block(self, path: Path) -> dict:
        assert self.proc.stdin and self.proc.stdout
        self.proc.stdin.write(f"{path}\n")
        self.proc.stdin.flush()
        line = self.proc.stdout.readline()
        if not line:
            raise SystemExit(f"worker failed (exit {self.proc.wait()})")
        return json.loads(line)

    def finish(self) -> dict:
        assert self.proc.stdin and self.proc.stdout
        self.proc.stdin.write("done\n")
        self.proc.stdin.flush()
        out = json.loads(self.proc.stdout.readline())
        self.proc.wait()
        return out


def _ratio(seconds: list[float]) -> float:
    """The last block over the second (the first also opens the memory and warms up)."""
    return round(seconds[-1] / seconds[min(1, len(seconds) - 1)], 2)


def checkout(rev: str, where: Path) -> Path:
    subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", str(where), rev],
                   check=True, capture_output=True)
    return where


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--messages", type=int, default=8000)
    parser.add_argument("--block", type=int, default=1000)
    parser.add_argument("--store", choices=("sqlite", "neo4j"), default="sqlite")
    parser.add_argument("--before", metavar="REV", help="also run a checkout of REV, block by block in turn")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    runs = {"after": ROOT}
    with tempfile.TemporaryDirectory(prefix="repeated-fact-") as tmp:
        workdir = Path(tmp)
        worktree = None
        if args.before:
            worktree = checkout(args.before, Path(tempfile.mkdtemp(prefix="repeated-fact-before-")) / "tree")
            runs = {"before": worktree, "after": ROOT}
        try:
            workers = {}
            for name, code in runs.items():
                group = f"tea-{name}-{uuid.uuid4().hex[:8]}"
                uri = os.environ.get("TGRAPH_NEO4J_URI", "neo4j://localhost:7687")
                target = uri if args.store == "neo4j" else str(workdir / f"{name}.db")
                workers[name] = Worker(code, args.store, target, group)
            seconds: dict[str, list[float]] = {name: [] for name in runs}
            cpu: dict[str, list[float]] = {name: [] for name in runs}
            for start in range(0, args.messages, args.block):
                path = block_file(workdir, start, min(args.block, args.messages - start))
                for name, worker in workers.items():  # in turn: both see the same load
                    result = worker.block(path)
                    seconds[name].append(round(result["seconds"], 3))
                    cpu[name].append(round(result["cpu"], 3))
                    print(f"  {name}: messages {start}-{start + args.block - 1}: {result['seconds']:.2f} s, "
                          f"{result['cpu']:.2f} CPU-s", file=sys.stderr)
            finals = {name: worker.finish() for name, worker in workers.items()}
        finally:
            if worktree is not None:
                subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(worktree)],
                               check=False, capture_output=True)
    result = {"messages": args.messages, "block": args.block, "store": args.store, "before": args.before,
              "runs": {name: {"block_seconds": s, "last_over_second": _ratio(s),
                              "block_cpu_seconds": cpu[name], "cpu_last_over_second": _ratio(cpu[name]),
                              "facts": finals[name]["facts"]} for name, s in seconds.items()}}
    if args.json:
        print(json.dumps(result))
        return 0
    print(f'"{TEXT}" x {args.messages}, import_file in blocks of {args.block} ({args.store}): '
          "seconds per block (wall; CPU: the importing process's, a server's not counted)")
    for what, key, ratio in (("wall", "block_seconds", "last_over_second"),
                             ("CPU", "block_cpu_seconds", "cpu_last_over_second")):
        for name, run in result["runs"].items():
            label = f"{name} ({args.before}) {what}" if name == "before" else f"{name} {what}"
            print(f"{label:>24}: " + " ".join(f"{s:6.2f}" for s in run[key])
                  + f"   last/2nd {run[ratio]:.2f}x")
    for name, run in result["runs"].items():
        for obj, cited, distinct in run["facts"]:
            print(f"{name:>24}: Ana LIKES {obj}: provenance lists {cited} messages ({distinct} distinct)")
    if "before" in result["runs"]:
        for what, key in (("wall", "block_seconds"), ("CPU", "block_cpu_seconds")):
            b, a = result["runs"]["before"][key], result["runs"]["after"][key]
            print(f"{'last block, before/after':>24}: {b[-1] / a[-1]:.2f}x ({what})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
