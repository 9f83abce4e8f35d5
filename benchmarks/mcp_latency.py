"""MCP tool-call latency: ``now`` called through ``tgraph mcp`` over stdio with the SDK's client,
against the same call made in process with ``temporal_graph.tools.call_tool``.

    python benchmarks/mcp_latency.py            # 100 calls each (well under a minute)
    python benchmarks/mcp_latency.py --calls 500 --facts 200 --json

A memory of ``--facts`` current facts (several subjects) is written first; each call asks for one
subject's current facts. Figures are the median and p90 of the wall time of each call, after a few
warm-up calls (the first ones pay for imports and the SQLite page cache, not for the protocol).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from mcp import Client, StdioServerParameters  # noqa: E402

from temporal_graph import TemporalGraph  # noqa: E402
from temporal_graph.tools import call_tool  # noqa: E402

WARMUP = 5


def _figures(seconds: list[float]) -> dict[str, float]:
    ms = sorted(s * 1000 for s in seconds)
    return {"calls": len(ms), "median_ms": round(statistics.median(ms), 3),
            "p90_ms": round(ms[max(0, int(0.9 * len(ms)) - 1)], 3)}


def _fill(db: Path, facts: int) -> None:
    with TemporalGraph.open(db, embed=False) as tg:  # ``now`` reads no vectors
        tg.add_facts([(f"Person {i % 10}", "likes", f"Thing {i}", "2020-01-01") for i in range(facts)])


def _in_process(db: Path, calls: int) -> dict[str, float]:
    with TemporalGraph.open(db, embed=False) as tg:
        times = []
        for i in range(WARMUP + calls):
            started = time.perf_counter()
            call_tool(tg, "now", {"subject": f"Person {i % 10}"})
            times.append(time.perf_counter() - started)
    return _figures(times[WARMUP:])


async def _over_stdio(db: Path, calls: int) -> dict[str, float]:
    env = {**os.environ, "HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1", "PYTHONPATH": str(ROOT)}
    command = ["-m", "temporal_graph", "--db", str(db), "mcp"]
    params = StdioServerParameters(command=sys.executable, args=command, cwd=str(ROOT), env=env)
    times = []
    async with Client(params) as client:
        for i in range(WARMUP + calls):
            started = time.perf_counter()
            result = await client.call_tool("now", {"subject": f"Person {i % 10}"})
            times.append(time.perf_counter() - started)
            if result.is_error:
                raise SystemExit(f"now failed: {result.content}")
    return _figures(times[WARMUP:])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=100)
    parser.add_argument("--facts", type=int, default=100, help="current facts in the memory (default 100)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "memory.db"
        _fill(db, args.facts)
        stdio = asyncio.run(_over_stdio(db, args.calls))
        figures = {"stdio": stdio, "in_process": _in_process(db, args.calls), "facts": args.facts,
                   "facts_per_answer": args.facts // 10}
    if args.json:
        print(json.dumps(figures, indent=2))
        return
    print(f"now() on {args.facts} facts ({args.facts // 10} per answer), {args.calls} calls each:")
    for name in ("stdio", "in_process"):
        f = figures[name]
        print(f"  {name:<10}  median {f['median_ms']:8.3f} ms   p90 {f['p90_ms']:8.3f} ms")


if __name__ == "__main__":
    main()
