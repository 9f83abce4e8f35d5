"""How big and how slow is ``tgraph view``'s page of an entity with many facts? (issue 54)

    .venv/bin/python benchmarks/view_page.py [--facts 3000,30000] [--repeat 3] [--before REV] [--json]

For each size, one entity ("Big") gets that many facts through ``add_facts`` (no vectors): a
third things it likes (many at once, each from its own day, open), a third homes (one at a
time: each move ends the one before), a third employers (a year each); then one in twenty of
its likes is ended later by ``end_fact`` (a new version; the old one stops being believed). The
view's server is started on the file and these are fetched over HTTP, ``--repeat`` times each:

- ``/entity?name=Big`` (the page), and with ``hops=2``;
- ``/chart.svg?name=Big`` (the chart alone);
- ``/entity?name=City 1`` (a small page) sent while the big page is being made: how long a
  small page waits behind a big one.

Printed: bytes and the median seconds of each, and the chart's height in pixels. ``--before REV``
serves the same files from a checkout of REV (a ``git worktree`` under /tmp, removed after) in a
second process, one size at a time in turn, and prints both rows.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from datetime import UTC, datetime, timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
T0 = datetime(2000, 1, 1, tzinfo=UTC)


def build(path: Path, facts: int) -> None:
    """The memory of one entity with ``facts`` facts (see the module's docstring)."""
    sys.path.insert(0, str(ROOT))
    from temporal_graph import TemporalGraph

    third = facts // 3
    items = []
    for i in range(third):
        items.append(("Big", "likes", f"thing {i}", T0 + timedelta(days=i)))
        items.append(("Big", "lives in", f"City {i % 40}", T0 + timedelta(days=i, hours=1)))
        items.append(("Big", "works at", f"Company {i}", T0 + timedelta(days=i),
                      T0 + timedelta(days=i + 365)))
    with TemporalGraph.open(path) as tg:
        tg.add_facts(items, group_id="bench", embed=False)
        for i in range(0, third, 20):
            tg.end_fact("Big", "likes", f"thing {i}", at=T0 + timedelta(days=i + 30), group_id="bench")


# The worker: serves the files named on stdin, one per line, and prints what each page took;
# run with this tree or a checkout of --before on sys.path.
WORKER = r"""
import http.client, json, re, statistics, sys, threading, time
from urllib.parse import quote
sys.path.insert(0, sys.argv[1])
from temporal_graph import TemporalGraph
from temporal_graph.interfaces.view import Server

def get(port, path):
    c = http.client.HTTPConnection("127.0.0.1", port, timeout=3600)
    t0 = time.perf_counter()
    c.request("GET", path)
    r = c.getresponse()
    body = r.read()
    return r.status, body, time.perf_counter() - t0

repeat = int(sys.argv[2])
for line in sys.stdin:
    if line.strip() == "done":
        break
    with TemporalGraph.open(line.strip()) as tg:
        server = Server(tg, "bench")
        server.start()
        out = {}
        try:
            for name, path in (("page", "/entity?name=Big"), ("page, hops=2", "/entity?name=Big&hops=2"),
                               ("chart.svg", "/chart.svg?name=Big")):
                runs = [get(server.port, path) for _ in range(repeat)]
                status, body, _ = runs[-1]
                found = re.findall(rb'class="tg-chart" width="\d+" height="(\d+)"', body)
                height = max((int(h) for h in found), default=0)
                out[name] = {"status": status, "bytes": len(body), "chart_px": height,
                             "seconds": statistics.median(r[2] for r in runs)}
            waits = []
            for _ in range(repeat):
                big = threading.Thread(target=get, args=(server.port, "/entity?name=Big"))
                big.start()
                time.sleep(0.05)  # the big page is under way
                waits.append(get(server.port, "/entity?name=" + quote("City 1"))[2])
                big.join()
            out["small page during it"] = {"status": 200, "bytes": 0, "chart_px": 0,
                                           "seconds": statistics.median(waits)}
        finally:
            server.stop()
    print(json.dumps(out), flush=True)
"""


class Worker:
    def __init__(self, code: Path, repeat: int) -> None:
        env = {"HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1", "PATH": "/usr/bin:/bin"}
        self.proc = subprocess.Popen([sys.executable, "-c", WORKER, str(code), str(repeat)],
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, env=env,
                                     cwd=str(code))

    def serve(self, path: Path) -> dict:
        assert self.proc.stdin and self.proc.stdout
        self.proc.stdin.write(f"{path}\n")
        self.proc.stdin.flush()
        line = self.proc.stdout.readline()
        if not line:
            raise SystemExit(f"worker failed (exit {self.proc.wait()})")
        return json.loads(line)

    def finish(self) -> None:
        assert self.proc.stdin
        self.proc.stdin.write("done\n")
        self.proc.stdin.flush()
        self.proc.wait()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--facts", default="3000,30000", help="sizes, comma-separated")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--before", metavar="REV", help="also serve the files from a checkout of REV")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    sizes = [int(s) for s in args.facts.split(",")]
    results: dict[str, dict[int, dict]] = {}
    with tempfile.TemporaryDirectory(prefix="view-page-") as tmp:
        worktree = None
        runs = {"after": ROOT}
        if args.before:
            worktree = Path(tempfile.mkdtemp(prefix="view-page-before-")) / "tree"
            subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", str(worktree),
                            args.before], check=True, capture_output=True)
            runs = {"before": worktree, "after": ROOT}
        try:
            workers = {name: Worker(code, args.repeat) for name, code in runs.items()}
            for size in sizes:
                path = Path(tmp) / f"big-{size}.db"
                t0 = datetime.now(UTC)
                build(path, size)
                print(f"  built {size} facts in {(datetime.now(UTC) - t0).total_seconds():.1f} s",
                      file=sys.stderr)
                for name, worker in workers.items():  # in turn: both see the same load
                    results.setdefault(name, {})[size] = worker.serve(path)
                    print(f"  {name}: {size} facts served", file=sys.stderr)
            for worker in workers.values():
                worker.finish()
        finally:
            if worktree is not None:
                subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(worktree)],
                               check=False, capture_output=True)
    if args.json:
        print(json.dumps({"before": args.before, "repeat": args.repeat, "results": results}))
        return 0
    print(f"tgraph view, one entity with N facts (median of {args.repeat}; SQLite, no vectors)")
    print(f"{'run':>22} {'facts':>7} {'request':>22} {'status':>6} {'bytes':>11} {'chart px':>9} "
          f"{'seconds':>8}")
    for name, by_size in results.items():
        label = f"{name} ({args.before})" if name == "before" else name
        for size, pages in by_size.items():
            for request, r in pages.items():
                size_text = f"{r['bytes']:,}" if r["bytes"] else "-"
                px = f"{r['chart_px']:,}" if r["chart_px"] else "-"
                print(f"{label:>22} {size:>7,} {request:>22} {r['status']:>6} {size_text:>11} {px:>9} "
                      f"{r['seconds']:>8.2f}")
    if "before" in results:
        for size in sizes:
            b, a = results["before"][size]["page"]["seconds"], results["after"][size]["page"]["seconds"]
            print(f"{'page, before/after':>22} {size:>7,}: {b / a:.1f}x")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
