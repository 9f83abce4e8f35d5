"""Peak resident memory of a chat-log import, against the size of the file.

    python benchmarks/import_memory.py [--mb 60] [--embed]

Writes a synthetic JSONL log of about ``--mb`` megabytes (many people stating and changing where
they live, work and what they like, chit-chat in between, one conversation per 200 messages, the
lines of different conversations interleaved and a tenth of them out of time order), then imports
it in a fresh process and prints the wall time, messages per second, the process's peak
resident set (``ru_maxrss``, which includes the database pages SQLite maps) and its peak anonymous
memory (``RssAnon``, sampled), which is what the importer itself holds. Embedding is off by
default (``import_file(..., embed=False)``), so the figure is the importer's own and not the
model's (~0.5 GB); ``--embed`` turns it on.
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

CITIES = ["Paris", "Lyon", "Berlin", "Madrid", "Rome", "Vienna", "Prague", "Oslo", "Lisbon", "Dublin"]
JOBS = ["nurse", "teacher", "software engineer", "designer", "chef", "pilot", "lawyer", "architect"]
HOBBIES = ["tennis", "chess", "hiking", "painting", "jazz", "yoga", "cycling", "baking"]
CHAT = ["How was your day? Mine was long, the train was late again and the office was freezing.",
        "Haha, that's great! Tell me more about it when we meet on the weekend.",
        "See you tomorrow, and don't forget to bring the book you promised me last week.",
        "What do you think about the plan for the trip? I am not sure about the dates yet.",
        "I'm so tired today, I only slept four hours because the neighbours had a party.",
        "Thanks for asking! Everything is fine here, just busy with work and the garden."]

_CHILD = """
import json, resource, sys, threading, time
from temporal_graph import TemporalGraph
path, db, embed = sys.argv[1], sys.argv[2], sys.argv[3] == "1"
anon = [0]

def sample():  # the process's own memory, without the database pages SQLite maps (RssFile)
    while True:
        with open("/proc/self/status") as status:
            for row in status:
                if row.startswith("RssAnon:"):
                    anon[0] = max(anon[0], int(row.split()[1]))
        time.sleep(0.2)

threading.Thread(target=sample, daemon=True).start()
with TemporalGraph.open(db, embed=embed) as tg:
    t0 = time.perf_counter()
    report = tg.import_file(path, progress=False, embed=embed, summaries=False)
    seconds = time.perf_counter() - t0
print(json.dumps({"seconds": seconds, "read": report.episodes_read, "imported": report.episodes_imported,
                  "errors": len(report.errors), "groups": len(report.groups),
                  "rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
                  "anon_mb": anon[0] / 1024}))
"""


def synthetic(path: Path, megabytes: float, seed: int = 7) -> int:
    """Write the log; returns its number of lines."""
    rng = random.Random(seed)
    start = datetime(2020, 1, 1, tzinfo=timezone.utc)
    target, written, i = megabytes * 1e6, 0, 0
    with path.open("w", encoding="utf-8") as out:
        while written < target:
            person = f"Person {rng.randrange(2000)}"
            roll = rng.random()
            if roll < 0.15:
                text = f"I live in {rng.choice(CITIES)}."
            elif roll < 0.25:
                text = f"I work as a {rng.choice(JOBS)}."
            elif roll < 0.35:
                text = f"I love {rng.choice(HOBBIES)}."
            else:
                text = rng.choice(CHAT)
            # Conversations interleave (20 at a time), and one line in ten is a few minutes early.
            minutes = 7 * i - (rng.randrange(60) if rng.random() < 0.1 else 0)
            line = json.dumps({"id": f"m{i}", "speaker": person, "text": text,
                               "timestamp": (start + timedelta(minutes=minutes)).isoformat(),
                               "conversation": f"chat-{(i // 4000) * 20 + i % 20}"}) + "\n"
            out.write(line)
            written += len(line.encode("utf-8"))
            i += 1
    return i


def run(path: Path, embed: bool) -> dict:
    with tempfile.TemporaryDirectory() as tmp:
        done = subprocess.run([sys.executable, "-c", _CHILD, str(path), str(Path(tmp) / "m.db"),
                               "1" if embed else "0"], capture_output=True, text=True, check=True)
        return json.loads(done.stdout.strip().splitlines()[-1])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mb", type=float, default=60.0, help="size of the generated log (MB)")
    parser.add_argument("--embed", action="store_true", help="embed while importing (loads the model)")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        log = Path(tmp) / "chat.jsonl"
        lines = synthetic(log, args.mb)
        size = log.stat().st_size / 1e6
        f = run(log, args.embed)
    print(f"{'file MB':>8} {'lines':>9} {'groups':>7} {'imported':>9} {'wall s':>8} {'msg/s':>7} "
          f"{'peak RSS MB':>12} {'peak anon MB':>13}")
    print(f"{size:>8.1f} {lines:>9,} {f['groups']:>7} {f['imported']:>9,} {f['seconds']:>8.1f} "
          f"{f['read'] / f['seconds']:>7.0f} {f['rss_mb']:>12.0f} {f['anon_mb']:>13.0f}")
    print(f"embedding {'on' if args.embed else 'off'}; peak RSS: the importing process's ru_maxrss, which "
          "counts the database pages SQLite maps (mmap); peak anon: its own memory (RssAnon, sampled)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
