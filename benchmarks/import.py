"""Batch import, offline: the whole LoCoMo dev file, then synthetic JSONL files of growing size.

    python benchmarks/import.py [--data PATH] [--sizes 10000,30000,100000]

For each input: wall time, messages per second, peak memory (RSS of a fresh process per run) and
the size of the database file. The synthetic logs are chat between many people who state and
change where they live and work and what they like, with chit-chat in between, one conversation
per 200 messages.
"""

from __future__ import annotations

import argparse
import json
import random
import subprocess
import sys
import tempfile
from datetime import datetime, timedelta, timezone
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_DATA = ROOT.parent / "shared" / "data" / "locomo" / "locomo_dev.json"

CITIES = ["Paris", "Lyon", "Berlin", "Madrid", "Rome", "Vienna", "Prague", "Oslo", "Lisbon", "Dublin"]
JOBS = ["nurse", "teacher", "software engineer", "designer", "chef", "pilot", "lawyer", "architect"]
HOBBIES = ["tennis", "chess", "hiking", "painting", "jazz", "yoga", "cycling", "baking"]
CHAT = ["How was your day?", "Haha, that's great!", "See you tomorrow.", "What do you think?",
        "I'm so tired today.", "Thanks for asking!", "Let's catch up soon."]

# Runs in a fresh interpreter so peak RSS belongs to one import only.
_CHILD = """
import json, resource, sys, time
from temporal_graph import TemporalGraph
path, db = sys.argv[1], sys.argv[2]
with TemporalGraph.open(db) as tg:
    tg.embedder.encode(["warm up"])
    t0 = time.perf_counter()
    report = tg.import_file(path, progress=False)
    seconds = time.perf_counter() - t0
print(json.dumps({"seconds": seconds, "read": report.episodes_read, "imported": report.episodes_imported,
                  "facts": report.facts_added, "ended": report.facts_ended, "errors": len(report.errors),
                  "entities": report.entities_created,
                  "rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}))
"""


def synthetic(path: Path, n: int, seed: int = 3) -> Path:
    rng = random.Random(seed)
    start = datetime(2022, 1, 1, tzinfo=timezone.utc)
    with path.open("w", encoding="utf-8") as out:
        for i in range(n):
            person = f"Person {rng.randrange(max(10, n // 50))}"
            roll = rng.random()
            if roll < 0.15:
                text = f"I live in {rng.choice(CITIES)}."
            elif roll < 0.25:
                text = f"I work as a {rng.choice(JOBS)}."
            elif roll < 0.35:
                text = f"I love {rng.choice(HOBBIES)}."
            elif roll < 0.40:
                text = f"I just moved to {rng.choice(CITIES)}!"
            else:
                text = rng.choice(CHAT)
            when = start + timedelta(minutes=7 * i)
            out.write(json.dumps({"speaker": person, "text": text, "timestamp": when.isoformat(),
                                  "conversation": f"chat-{i // 200}"}) + "\n")
    return path


def run(path: Path) -> dict:
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "import.db"
        done = subprocess.run([sys.executable, "-c", _CHILD, str(path), str(db)], capture_output=True,
                              text=True, cwd=ROOT, check=True)
        figures = json.loads(done.stdout.strip().splitlines()[-1])
        figures["db_mb"] = sum(p.stat().st_size for p in Path(tmp).iterdir()) / 1e6
        return figures


def show(label: str, f: dict) -> None:
    print(f"{label:<28} {f['read']:>8,} {f['seconds']:>8.1f} {f['read'] / f['seconds']:>8.0f} "
          f"{f['facts']:>8,} {f['entities']:>8,} {f['errors']:>6} {f['rss_mb']:>8.0f} {f['db_mb']:>8.1f}")
    sys.stdout.flush()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA)
    parser.add_argument("--sizes", default="10000,30000,100000")
    args = parser.parse_args(argv)
    print(f"{'input':<28} {'messages':>8} {'wall s':>8} {'msg/s':>8} {'facts':>8} {'entities':>8} "
          f"{'errors':>6} {'peak MB':>8} {'db MB':>8}")
    show(args.data.name, run(args.data))
    with tempfile.TemporaryDirectory() as tmp:
        for n in (int(s) for s in args.sizes.split(",")):
            show(f"synthetic {n:,} lines", run(synthetic(Path(tmp) / f"chat-{n}.jsonl", n)))
    print("peak MB: RSS of the importing process (includes the embedding model, ~0.5 GB).")
    return 0


if __name__ == "__main__":
    sys.exit(main())
