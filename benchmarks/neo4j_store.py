"""As-of query latency on the Neo4j store: the workload of ``asof_latency.py`` on Neo4j 5.

    NEO4J_URI=neo4j://localhost:7687 NEO4J_USER=neo4j NEO4J_PASSWORD=... \\
        python benchmarks/neo4j_store.py --facts 10000

The same synthetic people (moves, job changes, hobbies picked up and dropped, late news, a few
corrections) written through the real rules into a fresh group of the Neo4j database, then
``as_of`` for one subject and a whole-group as-of at random (T, K): medians and p99 in ms.
The group is forgotten afterwards. Without ``NEO4J_URI`` it says so and exits 0.
"""

from __future__ import annotations

import os
import random
import statistics
import sys
import uuid
from datetime import datetime, timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.asof_latency import START, YEARS, _moment, _p99, _timed, build, workload_arguments
from temporal_graph import TemporalGraph
from temporal_graph.core.stores.protocol import FactQuery
from temporal_graph.core.time import ManualClock
from temporal_graph.testing import neo4j_store_from_env


def measure(tg: TemporalGraph, clock: ManualClock, size: int, repeats: int, seed: int) -> dict:
    group = f"bench-neo4j-{uuid.uuid4().hex[:8]}"
    store = tg.core.store
    try:
        rows, statements, load_s = build(tg, clock, size, seed, group=group,
                                         count_rows=lambda: store.count_rows(group))
        rng = random.Random(seed + 1)
        people = [e for e in store.entities(group) if e.type == "Person"]
        first_k, last_k = START + timedelta(days=YEARS * 365), clock()

        def point() -> tuple[datetime, datetime]:
            return _moment(rng), first_k + (last_k - first_k) * rng.random()

        def subject() -> None:
            t, k = point()
            store.facts(FactQuery(group, subject_id=rng.choice(people).id, valid_time=t, known_at=k))

        def whole_group() -> None:
            t, k = point()
            store.facts(FactQuery(group, valid_time=t, known_at=k))

        return {
            "rows": rows, "statements": statements, "load_s": load_s,
            "subject": _timed(subject, repeats),
            "group": _timed(whole_group, max(5, repeats // 10)),
        }
    finally:
        store.forget(group)


def main(argv: list[str] | None = None) -> int:
    args = workload_arguments(__doc__).parse_args(argv)
    if not os.environ.get("NEO4J_URI"):
        print("skipped: NEO4J_URI is not set, so there is no Neo4j database to measure. "
              "Start Neo4j 5 (e.g. docker run -p 7687:7687 -e NEO4J_AUTH=neo4j/password neo4j:5) and set "
              "NEO4J_URI, NEO4J_USER and NEO4J_PASSWORD.")
        return 0
    store = neo4j_store_from_env(wipe=False)
    assert store is not None
    clock = ManualClock(START + timedelta(days=YEARS * 365))
    with TemporalGraph(store, clock=clock) as tg:
        print(f"{'rows':>9} {'load s':>7} {'stmt/s':>7} | {'subject as_of ms (med/p99)':>27} | "
              f"{'group as_of ms (med/p99)':>25}")
        for size in args.facts or [10_000]:
            f = measure(tg, clock, size, args.repeats, args.seed)
            print(
                f"{f['rows']:>9,} {f['load_s']:>7.1f} {f['statements'] / f['load_s']:>7.0f} | "
                f"{statistics.median(f['subject']):>12.3f} / {_p99(f['subject']):>8.3f}    | "
                f"{statistics.median(f['group']):>11.2f} / {_p99(f['group']):>8.2f}"
            )
            sys.stdout.flush()
    print("subject as_of: one person's facts at random (T, K), anchored on the subject node;")
    print("group as_of: every fact valid at T as known at K in the group (result size grows with N).")
    return 0


if __name__ == "__main__":
    sys.exit(main())
