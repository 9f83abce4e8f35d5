"""Where a bulk load's server time goes on Neo4j: one batch's write, replayed part by part.

    .venv/bin/python benchmarks/neo4j_bulk_parts.py [--facts 20000] [--repeats 3]

``add_facts`` loads ``--facts`` structured facts (``neo4j_store.py``'s) into a group while the
statements its first transaction sends are kept: the read ahead and the one write statement
(``changes_write``) that carries every change of the batch. That write is then replayed in the
same group (forgotten before each run), whole and with kinds of change left out, each in a
transaction of its own; the seconds of the statement and of its commit are the server's, since
the client only waits. What a kind costs is the difference between two runs that differ by it.

Uses ``NEO4J_URI`` when set, else starts a server as ``neo4j_store.py`` does.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.neo4j_store import ONTOLOGY, Memory, neo4j_server, structured_facts  # noqa: E402
from temporal_graph.core.stores import neo4j as neo4j_module  # noqa: E402

# Each run leaves out these lists of the write's changes; consecutive runs differ by one kind.
RUNS: list[tuple[str, tuple[str, ...]]] = [
    ("everything", ()),
    ("without the assertion log", ("assertions",)),
    ("without summaries either", ("assertions", "summaries", "summary_due")),
    ("entities and their name keys only", ("assertions", "summaries", "summary_due", "insert")),
    ("entities only", ("assertions", "summaries", "summary_due", "insert", "keys")),
]
PARTS = ["the assertion log (:Assertion nodes)", "entity summaries",
         "fact rows (relationship, :CurrentFact node, full text)", "entity name keys", "entities"]


@contextmanager
def first_write(kept: list[tuple[str, dict, str]]) -> Iterator[None]:
    """Keep (name, parameters, text) of every statement a write transaction sends meanwhile."""
    runner = neo4j_module._Runner
    original = runner.run_now

    def run_now(self: Any, name: str, params: Mapping[str, Any], **identifiers: Any) -> list[dict]:
        kept.append((name, dict(params), neo4j_module._text(name, params, identifiers)))
        return original(self, name, params, **identifiers)

    runner.run_now = run_now  # type: ignore[method-assign]
    try:
        yield
    finally:
        runner.run_now = original  # type: ignore[method-assign]


def replay(m: Memory, text: str, params: dict, left_out: tuple[str, ...]) -> tuple[float, float, int]:
    """The write run once in a transaction of its own: (statement seconds, commit seconds, rows)."""
    changes = {k: ([] if k in left_out else v) for k, v in params["changes"].items()}
    store = m.tg.core.store
    with store._session() as session:
        tx = session.begin_transaction()
        started = time.perf_counter()
        inserted = tx.run(text, {**params, "changes": changes}).single()["inserted"]
        ran = time.perf_counter()
        tx.commit()
        committed = time.perf_counter()
    m.tg.forget(m.group)
    return ran - started, committed - ran, inserted


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--facts", type=int, default=20_000, help="facts loaded (at least 100)")
    parser.add_argument("--repeats", type=int, default=3, help="replays of each run (at least 1)")
    args = parser.parse_args(argv)
    if args.facts < 100 or args.repeats < 1:  # too few facts leave no batch worth replaying
        parser.error("--facts must be at least 100 and --repeats at least 1")
    with neo4j_server() as server, tempfile.TemporaryDirectory(prefix="neo4j-parts-") as tmp:
        m = Memory("neo4j", Path(tmp), "parts", ontology=ONTOLOGY, embed=False)
        try:
            m.tg.core.store.ensure_relations(["LIVES_IN", "PLAYS_FOR", "WON"])
            kept: list[tuple[str, dict, str]] = []
            with first_write(kept):
                started = time.perf_counter()
                m.tg.add_facts(structured_facts(args.facts), embed=False, group_id=m.group)
                load = time.perf_counter() - started
            _, params, text = next(k for k in kept if k[0] == "changes_write")
            m.tg.forget(m.group)
            sizes = {k: len(v) for k, v in params["changes"].items() if v}
            print(f"Neo4j ({server}): a load of {args.facts:,} facts took {load:.1f} s "
                  f"({args.facts / load:,.0f}/s); its first write statement holds {sizes}")
            print(f"\n{'run (median of ' + str(args.repeats) + ')':40} {'statement':>10} {'commit':>8} "
                  f"{'total':>8}  rows")
            totals = []
            for label, left_out in RUNS:
                runs = [replay(m, text, params, left_out) for _ in range(args.repeats)]
                ran, commit = (statistics.median(r[i] for r in runs) for i in (0, 1))
                totals.append(ran + commit)
                print(f"{label:40} {ran:9.2f}s {commit:7.2f}s {ran + commit:7.2f}s  {runs[0][2]:,}")
            facts = len(params["changes"]["insert"])
            print(f"\nserver seconds by part, per 10,000 fact rows ({facts:,} in the batch)")
            for part, spent in zip(PARTS, [*(a - b for a, b in zip(totals, totals[1:], strict=False)),
                                           totals[-1]], strict=True):
                print(f"  {part:58} {spent * 10_000 / facts:6.2f} s")
            print(f"  {'the whole write, so at most':58} {facts / totals[0]:6,.0f} facts/s on the server")
        finally:
            m.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
