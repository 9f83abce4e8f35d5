"""Calibrating search's relevance floor on LoCoMo dev: what each floor costs and what it removes.

    python benchmarks/relevance_floor.py [--data PATH] [--conversations N] [--json]

A hit that only the embedding ranks (no BM25 match, no named entity behind it) is dropped when its
cosine is below the floor (``queries.search.RELEVANCE_FLOOR``). For each candidate floor this
reports recall@10 on the LoCoMo questions (categories 1-4, as in ``locomo_retrieval.py``) and, for
off-topic queries (subjects no conversation mentions, e.g. "badminton"), how many hits are left.
Each query is searched once with no floor and 30 hits; a floor is applied to that list the way
search applies it (drop, then keep the first 10), so every floor sees the same candidates.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

# This tree's engine, not an installed copy: run from a second worktree, it measures that tree.
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.locomo_retrieval import DEFAULT_DATA, KS, engine_sources, evidence_ids, load  # noqa: E402

FLOORS = (0.0, 0.2, 0.25, 0.3, 0.35, 0.4, 0.45, 0.5)
DEPTH = 30
# Subjects LoCoMo dev never mentions (checked: none of these words occurs in its turns).
OFF_TOPIC = ("badminton", "quantum chromodynamics", "cryptocurrency mining rigs", "submarine sonar",
             "tax law of Liechtenstein", "volcanic ash forecasts", "bobsleigh", "lacrosse",
             "Byzantine coinage", "welding robots", "polar bear diet", "hydraulic fracturing")
_COSINE = re.compile(r"^embedding #\d+ \((-?[\d.]+)\)$")


def kept(hits: Sequence[Any], floor: float) -> list[Any]:
    """The hits a search with ``floor`` keeps, in order."""
    out = []
    for hit in hits:
        cosines = [float(m.group(1)) for r in hit.reasons if (m := _COSINE.match(r))]
        only_embedding = len(cosines) == len(hit.reasons)
        if not (only_embedding and cosines and cosines[0] < floor):
            out.append(hit)
    return out[: max(KS)]


def run(data: Path, limit: int | None) -> dict[str, Any]:
    from temporal_graph import TemporalGraph

    samples, conversations, _ = load(data, limit)
    texts = " ".join(t.text.lower() for c in conversations for t in c.turns)
    off_topic = [q for q in OFF_TOPIC if not any(w.lower() in texts for w in q.split())]
    workdir = tempfile.TemporaryDirectory(prefix="floor-")
    source = Path(workdir.name) / "locomo.json"
    source.write_text(json.dumps(samples), encoding="utf-8")
    tg = TemporalGraph.open(Path(workdir.name) / "memory.db")
    tg.import_file(source, format="locomo", progress=False)
    found = dict.fromkeys(FLOORS, 0)
    left = dict.fromkeys(FLOORS, 0)
    questions = off_topic_searches = 0
    for conv in conversations:
        episode_turn = {e.id: next(iter(evidence_ids(":".join(e.source_id.rsplit(":", 2)[-2:]))), "")
                        for e in tg.core.store.episodes(conv.group) if e.source_id}
        for q in conv.questions:
            hits = tg.search(q.text, limit=DEPTH, group_id=conv.group, kinds=("fact", "episode"),
                             relevance_floor=0.0)
            questions += 1
            for floor in FLOORS:
                sources = engine_sources(tg, conv.group, kept(hits, floor), episode_turn)
                found[floor] += any(s & q.evidence for s in sources)
        for query in off_topic:
            hits = tg.search(query, limit=DEPTH, group_id=conv.group, relevance_floor=0.0)
            off_topic_searches += 1
            for floor in FLOORS:
                left[floor] += len(kept(hits, floor))
    tg.close()
    workdir.cleanup()
    return {
        "questions": questions, "off_topic_queries": off_topic, "off_topic_searches": off_topic_searches,
        "floors": {str(f): {"recall@10": round(found[f] / max(questions, 1), 4),
                            "off_topic_hits_per_search": round(left[f] / max(off_topic_searches, 1), 2)}
                   for f in FLOORS},
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA)
    parser.add_argument("--conversations", type=int, default=None)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    result = run(args.data, args.conversations)
    if args.json:
        print(json.dumps(result, indent=2))
        return 0
    print(f"{result['questions']} questions; off-topic: {', '.join(result['off_topic_queries'])}")
    print(f"{'floor':>6}  {'recall@10':>9}  {'off-topic hits/search':>21}")
    for floor, row in result["floors"].items():
        print(f"{floor:>6}  {row['recall@10']:>9.4f}  {row['off_topic_hits_per_search']:>21.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
