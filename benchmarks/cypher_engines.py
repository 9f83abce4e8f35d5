"""Which engine runs ``tgraph cypher`` on the embedded store? Measured, for each candidate:

1. **Dialect**: how many statements of the exploration set (``tests/data/cypher_exploration.json``:
   the console's five snippets and the statements a user types, written for Neo4j, with Neo4j's
   rows) give the right rows on the memory of ``temporal_graph.testing.exploration_memory``, run
   unchanged, and (for the engine we ship) through the translation layer
   ``temporal_graph.interfaces.cypher_embedded.dialect``.
2. **Speed**: seconds to make a group queryable (read it from the store and load it), and the
   median time of the set's statements, on one group of 10k and 100k facts.
3. **Keeping in step**: what noticing a write costs (the store's two counts before a statement).

Candidates: LadybugDB (``ladybug``, the maintained successor of Kùzu: an embedded C++ graph
database with typed tables), ``grand-cypher`` over a networkx graph (pure Python), and OCG
(``ocg``, an in-memory Rust openCypher engine that claims 99% of the openCypher TCK). Each is
fed the same :class:`GroupGraph`; a candidate that is not installed is reported as such
(``pip install grand-cypher ocg`` to measure all three). An engine stops being timed at a size
once its statements have taken ``--budget`` seconds (the median is then over those timed). Run:

    .venv/bin/python benchmarks/cypher_engines.py                   # 10k and 100k facts
    .venv/bin/python benchmarks/cypher_engines.py --sizes 10000 --engines ladybug
"""

from __future__ import annotations

import argparse
import json
import random
import re
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from temporal_graph import TemporalGraph  # noqa: E402
from temporal_graph.interfaces.cypher_embedded.graph import (  # noqa: E402
    EPISODE,
    MENTIONS,
    GroupGraph,
    change_stamp,
    read_group,
)
from temporal_graph.interfaces.cypher_embedded.ladybug_engine import LadybugGraph, result_value  # noqa: E402
from temporal_graph.testing import (  # noqa: E402
    EXPLORATION_GROUP,
    comparable_rows,
    exploration_memory,
    exploration_params,
    exploration_set,
    exploration_text,
    fact_symbols,
)
from temporal_graph.times import ManualClock  # noqa: E402

Rows = tuple[list[str], list[list[Any]]]


# -- the candidates: load a GroupGraph, run a statement as (columns, rows) ---------------------------
class Ladybug:
    """The engine we ship, through the translation layer (``raw=False``) or not."""

    def __init__(self, graph: GroupGraph, *, raw: bool = False) -> None:
        self.graph = LadybugGraph(graph)
        self.raw = raw

    def run(self, text: str, params: dict[str, Any], now: datetime) -> Rows:
        if not self.raw:
            return self.graph.run(text, params, now=now)
        values = {k: v.astimezone(UTC).replace(tzinfo=None) if isinstance(v, datetime) else v
                  for k, v in params.items()}
        result = self.graph.connection.execute(text, values)
        return list(result.get_column_names()), [[result_value(v) for v in row] for row in result.get_all()]


def _iso(value: Any) -> Any:
    return value.isoformat() if isinstance(value, datetime) else value


class OCG:
    """OCG: properties load as text (its loader takes no datetime values) and one statement per
    time property turns them into datetimes; datetime parameters go as ``datetime($x)`` (it takes
    no datetime parameter) when ``adapt``, else as text."""

    TIMES = ("created_at", "reference_time", "valid_at", "invalid_at", "expired_at")

    def __init__(self, graph: GroupGraph, *, adapt: bool = True) -> None:
        import ocg

        self.adapt = adapt
        self.g = ocg.Graph()
        entities = [(list(labels), {k: _iso(v) for k, v in e.items() if v is not None})
                    for e, labels in zip(graph.entities, graph.entity_labels, strict=True)]
        episodes = [([EPISODE], {k: _iso(v) for k, v in e.items() if v is not None}) for e in graph.episodes]
        ids = self.g.bulk_create_nodes(entities + episodes)
        node = {props["id"]: i for (_labels, props), i in zip(entities + episodes, ids, strict=True)}
        rels = [(node[e.start], node[e.end], relation, {k: _iso(v) for k, v in e.properties.items()
                                                          if v is not None})
                for relation, edges in graph.facts.items() for e in edges]
        rels += [(node[ep], node[en], MENTIONS, {}) for ep, en in graph.mentions]
        self.g.bulk_create_relationships(rels)
        for name in self.TIMES:
            self.g.execute(f"MATCH (n) WHERE n.{name} IS NOT NULL SET n.{name} = datetime(n.{name})")
            self.g.execute(f"MATCH ()-[r]->() WHERE r.{name} IS NOT NULL SET r.{name} = datetime(r.{name})")

    def run(self, text: str, params: dict[str, Any], now: datetime) -> Rows:
        times = [k for k, v in params.items() if isinstance(v, datetime)]
        if self.adapt:
            for name in times:
                text = text.replace(f"${name}", f"datetime(${name})")
        rows = self.g.execute(text, {k: _iso(v) for k, v in params.items()})
        columns = list(rows[0]) if rows else []
        return columns, [[_ocg_value(r[c]) for c in columns] for r in rows]


def _ocg_value(value: Any) -> Any:
    if isinstance(value, dict) and "labels" in value and "properties" in value:
        return {"labels": value["labels"], "properties": value["properties"]}
    return value


class GrandCypher:
    """grand-cypher over a networkx MultiDiGraph (labels in ``__labels__``). It takes no parameters
    and reads only double-quoted strings: parameters are written into the statement as literals
    and single quotes become double quotes (a help the other engines do not need)."""

    def __init__(self, graph: GroupGraph) -> None:
        import networkx as nx

        g = nx.MultiDiGraph()
        for e, labels in zip(graph.entities, graph.entity_labels, strict=True):
            g.add_node(e["id"], __labels__=set(labels), **e)
        for e in graph.episodes:
            g.add_node(e["id"], __labels__={EPISODE}, **e)
        for relation, edges in graph.facts.items():
            for edge in edges:
                g.add_edge(edge.start, edge.end, __labels__={relation}, **edge.properties)
        for ep, en in graph.mentions:
            g.add_edge(ep, en, __labels__={MENTIONS})
        self.g = g

    def run(self, text: str, params: dict[str, Any], now: datetime) -> Rows:
        from grandcypher import GrandCypher as Engine

        text = re.sub(r"'((?:[^'\\]|\\.)*)'", lambda m: json.dumps(m.group(1)), text)
        for name, value in sorted(params.items(), key=lambda item: -len(item[0])):
            text = text.replace(f"${name}", json.dumps(_iso(value)))
        result = Engine(self.g).run(text)
        columns = [str(c) for c in result]
        return columns, [list(row) for row in zip(*result.values(), strict=True)] if columns else []


CANDIDATES: dict[str, Callable[[GroupGraph], Any]] = {
    "ladybug": Ladybug,  # with the translation layer: what tgraph cypher runs
    "ladybug-raw": lambda graph: Ladybug(graph, raw=True),
    "ocg": OCG,
    "ocg-raw": lambda graph: OCG(graph, adapt=False),
    "grand-cypher": GrandCypher,
}
SPEED = ("ladybug", "ocg", "grand-cypher")  # the raw variants load and run alike


def available(name: str) -> str | None:
    module = {"ladybug": "ladybug", "ocg": "ocg", "grand-cypher": "grandcypher"}[name.removesuffix("-raw")]
    try:
        __import__(module)
    except ImportError:
        return None
    return module


# -- 1. the dialect ----------------------------------------------------------------------------------
def dialect(names: list[str]) -> dict[str, Any]:
    clock = ManualClock("2024-01-01")
    with TemporalGraph.open(":memory:", clock=clock, embed=False) as tg:
        exploration_memory(tg, clock)
        graph = read_group(tg.core.store, EXPLORATION_GROUP)
        symbols = fact_symbols(tg, EXPLORATION_GROUP)
    statements = exploration_set()
    report: dict[str, Any] = {"statements": len(statements)}
    for name in names:
        engine = CANDIDATES[name](graph)
        right, wrong = 0, []
        for entry in statements:
            params = exploration_params(entry, EXPLORATION_GROUP, clock())
            try:
                _columns, rows = engine.run(exploration_text(entry), params, clock())
                ok = comparable_rows(entry, rows, symbols) == comparable_rows(entry, entry["rows"], symbols)
            except Exception:  # noqa: BLE001 - a candidate's failure is a data point
                ok = False
            right += ok
            if not ok:
                wrong.append(entry["name"])
        report[name] = {"right": right, "wrong": wrong}
    return report


# -- 2. speed ----------------------------------------------------------------------------------------
def scale_memory(path: Path, facts: int, seed: int = 7) -> None:
    """One group of ``facts`` structured facts among ``facts // 5`` entities (named like the
    exploration memory's, so its statements find something), over 2000-2024."""
    rng = random.Random(seed)
    people = ["Zhang Wei", "Alice", "Bob"] + [f"Person {i}" for i in range(facts // 10)]
    places = ["Hangzhou", "Shanghai", "Paris", "Berlin"] + [f"City {i}" for i in range(facts // 20)]
    orgs = ["Initech", "Acme"] + [f"Company {i}" for i in range(facts // 20)]
    kinds = [("lives in", places), ("works at", orgs), ("knows", people), ("visited", places),
             ("likes", places)]
    rows = []
    for _ in range(facts):
        relation, objects = rng.choice(kinds)
        start = f"{rng.randint(2000, 2024)}-{rng.randint(1, 12):02d}-01"
        rows.append((rng.choice(people), relation, rng.choice(objects), start))
    with TemporalGraph.open(path, embed=False) as tg:
        tg.add_facts(rows, group_id=EXPLORATION_GROUP, embed=False)


def speed(size: int, names: list[str], budget: float, workdir: Path) -> dict[str, Any]:
    path = workdir / f"scale-{size}.db"
    if not path.exists():
        scale_memory(path, size)
    now = datetime(2024, 6, 1, tzinfo=UTC)
    statements = exploration_set()
    report: dict[str, Any] = {}
    with TemporalGraph.open(path, embed=False) as tg:
        store = tg.core.store
        started = time.perf_counter()
        graph = read_group(store, EXPLORATION_GROUP)
        read_seconds = time.perf_counter() - started
        checks = []
        for _ in range(20):
            t = time.perf_counter()
            change_stamp(store, EXPLORATION_GROUP)
            checks.append((time.perf_counter() - t) * 1000)
        report["fact rows"] = graph.fact_rows
        report["entities"] = len(graph.entities)
        report["read from the store (s)"] = round(read_seconds, 2)
        report["write check per statement (ms)"] = round(statistics.median(checks), 2)
        for name in names:
            started = time.perf_counter()
            engine = CANDIDATES[name](graph)
            load = time.perf_counter() - started
            times, failed, spent = [], 0, 0.0
            for entry in statements:
                if spent > budget:
                    break
                params = exploration_params(entry, EXPLORATION_GROUP, now)
                params.setdefault("name", "Zhang Wei")
                t = time.perf_counter()
                try:
                    engine.run(exploration_text(entry), params, now)
                    times.append((time.perf_counter() - t) * 1000)
                except Exception:  # noqa: BLE001
                    failed += 1
                spent += time.perf_counter() - t
            report[name] = {
                "queryable after (s)": round(read_seconds + load, 2), "load (s)": round(load, 2),
                "median (ms)": round(statistics.median(times), 1) if times else None,
                "p90 (ms)": round(sorted(times)[int(0.9 * (len(times) - 1))], 1) if times else None,
                "timed": len(times), "failed": failed, "of": len(statements),
            }
            del engine
    return report


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="10000,100000")
    parser.add_argument("--engines", default=",".join(CANDIDATES))
    parser.add_argument("--budget", type=float, default=120.0,
                        help="seconds of statements per engine and size")
    parser.add_argument("--workdir", default=None,
                        help="keep the generated stores here (default: a temp dir)")
    args = parser.parse_args()
    wanted = [n for n in args.engines.split(",") if n]
    missing = [n for n in wanted if not available(n)]
    names = [n for n in wanted if n not in missing]
    for name in missing:
        print(f"{name}: not installed (pip install {name.removesuffix('-raw')})")
    result = dialect(names)
    print(f"1. exploration set: {result['statements']} statements, right rows per engine")
    for name in names:
        print(f"   {name:14} {result[name]['right']:3}   wrong: {', '.join(result[name]['wrong']) or '-'}")
    workdir = Path(args.workdir) if args.workdir else Path(tempfile.mkdtemp(prefix="cypher-engines-"))
    workdir.mkdir(parents=True, exist_ok=True)
    for size in (int(s) for s in args.sizes.split(",") if s):
        report = speed(size, [n for n in names if n in SPEED], args.budget, workdir)
        print(f"2. {size:,} facts: " + ", ".join(f"{k} {v}" for k, v in report.items()
                                                  if not isinstance(v, dict)))
        for name in (n for n in names if n in SPEED):
            print(f"   {name:14} " + ", ".join(f"{k} {v}" for k, v in report[name].items()))


if __name__ == "__main__":
    main()
