"""Offline extraction on pathological messages: CPU seconds per message of each shape, and how they grow.

    PYTHONPATH=. python benchmarks/extraction_linear.py [--sizes 50000,200000] [--runs 3] [--json]

Each shape is a message of that many characters that used to make some pattern scan its whole text
from every position (quadratic time): a run of capitals without spaces, capitalised words, a DNA string,
repeated punctuation of several kinds, nested quotes, a long run-on sentence in the first person, and an
ordinary chat paragraph repeated (the baseline). For each shape and size: the median CPU seconds of
``--runs`` extractions (``time.process_time``: the machine is shared, wall time would count others'
work), and the ratio of the largest size to the smallest against the ratio of their lengths (linear
growth: the two ratios agree; quadratic: the first is the square of the second). Targets (issue 51):
under 1 s of CPU for 200 KB of every shape, growing linearly.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from ingestion.offline import OfflineExtractor  # noqa: E402
from temporal_graph.core.model import Episode  # noqa: E402

REF = datetime(2023, 5, 8, 13, 56, tzinfo=UTC)


def _repeat(unit: str, size: int) -> str:
    return (unit * (size // len(unit) + 1))[:size]


def _dna(size: int) -> str:
    rng = random.Random(51)
    return "".join(rng.choice("ACGT") for _ in range(size))


SHAPES: dict[str, Any] = {
    "capital run": lambda n: _repeat("A", n),
    "capitalised words": lambda n: _repeat("Lorem Ipsum Dolor Sit Amet ", n),
    "DNA": _dna,
    "DNA in a sentence": lambda n: "My sequence is " + _dna(n - 30) + " and I live in Paris.",
    "exclamation marks": lambda n: _repeat("!", n),
    "dots": lambda n: _repeat(".", n),
    "commas and spaces": lambda n: _repeat(", ", n),
    "question-exclamation": lambda n: _repeat("?!", n),
    "nested quotes": lambda n: _repeat('He said "she said \'I live in "Rome" ', n),
    "open quotes": lambda n: _repeat('"', n),
    "apostrophes": lambda n: _repeat("I'm A's 'B' ", n),
    "first person run-on": lambda n: _repeat("I love it and I went there and ", n),
    "chat paragraph": lambda n: _repeat("I went to a support group yesterday and it was great. My sister "
                                        "Anna works at Google. Order 5512 status: shipped. ", n),
}


def cpu_seconds(text: str, runs: int) -> float:
    episode = Episode(id="e", group_id="g", content=text, reference_time=REF, created_at=REF, speaker="Sam")
    extractor = OfflineExtractor()
    times = []
    for _ in range(runs):
        start = time.process_time()
        extractor.extract(episode)
        times.append(time.process_time() - start)
    return statistics.median(times)


def measure(sizes: list[int], runs: int, shapes: list[str] | None = None) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for name, make in SHAPES.items():
        if shapes and name not in shapes:
            continue
        row = {size: round(cpu_seconds(make(size), runs), 4) for size in sizes}
        small, large = min(sizes), max(sizes)
        out[name] = {"cpu_s": row, "length_ratio": round(large / small, 1),
                     "time_ratio": round(row[large] / max(row[small], 1e-4), 1)}
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sizes", default="50000,200000", help="message lengths in characters")
    parser.add_argument("--runs", type=int, default=3, help="extractions per shape and size (median)")
    parser.add_argument("--shape", action="append", help="only these shapes (repeatable)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    sizes = [int(s) for s in args.sizes.split(",")]
    result = measure(sizes, args.runs, args.shape)
    if args.json:
        print(json.dumps(result))
        return 0
    head = "".join(f"{f'{s // 1000} KB CPU s':>14}" for s in sizes)
    print(f"{'shape':24}{head}{'length x':>10}{'time x':>9}")
    for name, row in result.items():
        cells = "".join(f"{row['cpu_s'][s]:>14.3f}" for s in sizes)
        print(f"{name:24}{cells}{row['length_ratio']:>10}{row['time_ratio']:>9}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
