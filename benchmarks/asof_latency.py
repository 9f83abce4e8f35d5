"""As-of query latency against the number of fact rows, indexed vs a brute-force scan.

    python benchmarks/asof_latency.py                 # 10k and 100k rows (about 2 minutes)
    python benchmarks/asof_latency.py --facts 1000000 # 1M rows: about 20 minutes, nearly all of it loading

A synthetic group of people whose facts change: each person moves home (LIVES_IN, one), changes
jobs (WORKS_AT, one) and picks up and drops hobbies (LIKES, many), with facts learned late and a few
corrections, all written through the real rules (FactWriter) into the embedded store, a few
hundred statements per transaction. About 40% of statements revise an earlier row. Then, at random
(T, K): ``as_of`` for one subject, and a whole-group as-of count, each through the store's index
and through a scan of every row (``NOT INDEXED``) in the same run. Figures are medians and p99
over the repetitions, and index/scan ratios.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from datetime import datetime, timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from temporal_graph import TemporalGraph  # noqa: E402
from temporal_graph.core.stores.protocol import FactQuery  # noqa: E402
from temporal_graph.core.time import UTC, ManualClock  # noqa: E402
from temporal_graph.testing import count_facts_brute_force  # noqa: E402

START = datetime(2010, 1, 1, tzinfo=UTC)
YEARS = 14
CITIES = [f"City {i}" for i in range(300)]
COMPANIES = [f"Company {i}" for i in range(500)]
HOBBIES = [f"Hobby {i}" for i in range(80)]


def _moment(rng: random.Random) -> datetime:
    return START + timedelta(days=rng.randrange(YEARS * 365))


def _person_statements(rng: random.Random, person: str) -> list[tuple]:
    """One person's life as (kind, relation, object, valid_at) statements, in arrival order."""
    out: list[tuple] = []
    for relation, pool, changes in (("LIVES_IN", CITIES, 4), ("WORKS_AT", COMPANIES, 3)):
        for _ in range(rng.randint(1, changes)):
            out.append(("add", relation, rng.choice(pool), _moment(rng)))
    for _ in range(rng.randint(1, 3)):
        hobby = rng.choice(HOBBIES)
        out.append(("add", "LIKES", hobby, _moment(rng)))
        if rng.random() < 0.4:
            out.append(("end", "LIKES", hobby, _moment(rng)))
    if rng.random() < 0.05:
        out.append(("retract", "LIVES_IN", out[0][2], None))
    rng.shuffle(out)  # late news: facts arrive out of valid-time order
    return [(person, *s) for s in out]


def build(
    tg: TemporalGraph, clock: ManualClock, target_rows: int, seed: int, *, group: str = "bench",
    count_rows: Callable[[], int] | None = None,
) -> tuple[int, int, float]:
    """Write statements until the group holds ``target_rows`` rows; return (rows, statements, s)."""
    count_rows = count_rows or (lambda: _row_count(tg))
    rng = random.Random(seed)
    rows = statements = 0
    person = 0
    started = time.perf_counter()
    while rows < target_rows:
        batch = []
        for _ in range(50):
            batch += _person_statements(rng, f"Person {person}")
            person += 1
        clock.set(clock() + timedelta(hours=1))

        def run(w, batch=batch) -> None:  # noqa: ANN001 - a FactWriter in one transaction
            for name, kind, relation, obj, at in batch:
                s, o = w.entity(name, type="Person"), w.entity(obj)
                if kind == "add":
                    w.start(s, relation, o, valid_at=at, invalid_at=None, default_start=w.now)
                elif kind == "end":
                    w.end(s, relation, o, at=at)
                else:
                    w.retract(s, relation, o)

        tg.core.write(group, run)
        statements += len(batch)
        rows = count_rows()
    return rows, statements, time.perf_counter() - started


def _row_count(tg: TemporalGraph) -> int:
    # Rows are never deleted here, so the largest rowid is the count, without a scan.
    return tg.core.store._rows("SELECT coalesce(max(rowid), 0) FROM facts")[0][0]  # noqa: SLF001 - benchmark only


def _timed(fn, repeats: int) -> list[float]:  # noqa: ANN001
    out = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        fn()
        out.append((time.perf_counter() - t0) * 1000)
    return out


def _p99(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(0.99 * (len(ordered) - 1))))]


def measure(size: int, repeats: int, seed: int) -> dict[str, float]:
    with tempfile.TemporaryDirectory() as tmp:
        clock = ManualClock(START + timedelta(days=YEARS * 365))
        with TemporalGraph.open(Path(tmp) / "bench.db", clock=clock) as tg:
            rows, statements, load_s = build(tg, clock, size, seed)
            store = tg.core.store
            rng = random.Random(seed + 1)
            people = [e for e in store.entities("bench") if e.type == "Person"]
            first_k, last_k = START + timedelta(days=YEARS * 365), clock()

            def point() -> tuple[datetime, datetime]:
                t = _moment(rng)
                k = first_k + (last_k - first_k) * rng.random()
                return t, k

            def subject_indexed() -> None:
                t, k = point()
                store.facts(FactQuery("bench", subject_id=rng.choice(people).id, valid_time=t, known_at=k))

            def subject_scan() -> None:
                t, k = point()
                count_facts_brute_force(store, "bench", t, k, subject_id=rng.choice(people).id)

            def group_count_indexed() -> None:
                t, k = point()
                store.count_facts(FactQuery("bench", valid_time=t, known_at=k))

            def group_scan() -> None:
                t, k = point()
                count_facts_brute_force(store, "bench", t, k)

            # Same answers both ways, checked before timing anything.
            for _ in range(20):
                t, k = point()
                indexed = len(store.facts(FactQuery("bench", valid_time=t, known_at=k)))
                assert indexed == count_facts_brute_force(store, "bench", t, k), "index and scan disagree"

            group_repeats = max(5, repeats // 10)
            figures = {
                "rows": rows, "statements": statements, "load_s": load_s,
                "subject_idx": _timed(subject_indexed, repeats),
                "subject_scan": _timed(subject_scan, max(5, repeats // 10)),
                "group_idx": _timed(group_count_indexed, group_repeats),
                "group_scan": _timed(group_scan, group_repeats),
            }
            return figures


def workload_arguments(doc: str) -> argparse.ArgumentParser:
    """The options every as-of latency benchmark takes (this one and ``neo4j_store.py``)."""
    parser = argparse.ArgumentParser(description=doc.splitlines()[0])
    parser.add_argument("--facts", type=int, action="append", help="row counts (repeatable)")
    parser.add_argument("--repeats", type=int, default=200)
    parser.add_argument("--seed", type=int, default=7)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = workload_arguments(__doc__).parse_args(argv)
    sizes = args.facts or [10_000, 100_000]
    print(f"{'rows':>9} {'load s':>7} {'stmt/s':>7} | "
          f"{'subject as_of ms (med/p99)':>27} {'scan':>13} {'ratio':>6} "
          f"| {'group count ms (med/p99)':>25} {'scan':>15} {'ratio':>6}")
    for size in sizes:
        f = measure(size, args.repeats, args.seed)
        s_med, s_scan = statistics.median(f["subject_idx"]), statistics.median(f["subject_scan"])
        g_med, g_scan = statistics.median(f["group_idx"]), statistics.median(f["group_scan"])
        print(
            f"{f['rows']:>9,} {f['load_s']:>7.1f} {f['statements'] / f['load_s']:>7.0f} | "
            f"{s_med:>12.3f} / {_p99(f['subject_idx']):>8.3f}    {s_scan:>10.2f} {s_scan / s_med:>6.0f}x | "
            f"{g_med:>11.2f} / {_p99(f['group_idx']):>8.2f}    {g_scan:>12.2f} {g_scan / g_med:>6.1f}x"
        )
        sys.stdout.flush()
    print("subject as_of: one person's facts at random (T, K) via the (group, subject, relation) B-tree;")
    print("group count: every fact valid at T as known at K: current rows via a partial covering index,")
    print("             expired versions via an R*Tree of their (transaction, valid) boxes;")
    print("scan: the same query with NOT INDEXED over every row. Ratios are scan/indexed medians, same run.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
