"""Offline extraction stays linear in the message: a 200 KB message costs a bounded multiple of a 2 KB one.

A ratio, not a wall-clock limit: 100x the text may take at most 300x the time (quadratic
backtracking would take about 10,000x).
"""

from __future__ import annotations

import time
from datetime import UTC, datetime

import pytest

from ingestion.offline import OfflineExtractor
from temporal_graph.core.model import Episode

REF = datetime(2023, 5, 8, 13, 56, tzinfo=UTC)

# Shapes that used to backtrack: run-on text with no punctuation, capitalized word runs, and
# endless "I ... and I ..." clauses.
SHAPES = {
    "run-on words": "lorem ipsum dolor sit amet ",
    "capitalized": "Lorem Ipsum Dolor Sit Amet ",
    "first person": "I love it and I went there and ",
    "chat": "I went to a support group yesterday and it was great. My sister Anna works at Google. ",
}


def _seconds(text: str, runs: int) -> float:
    episode = Episode(id="e", group_id="g", content=text, reference_time=REF, created_at=REF, speaker="Sam")
    extractor = OfflineExtractor()
    best = float("inf")
    for _ in range(runs):
        started = time.perf_counter()
        extractor.extract(episode)
        best = min(best, time.perf_counter() - started)
    return best


@pytest.mark.parametrize("shape", SHAPES)
def test_200kb_costs_a_bounded_multiple_of_2kb(shape: str) -> None:
    base = SHAPES[shape]
    small = (base * (2_000 // len(base) + 1))[:2_000]
    large = (base * (200_000 // len(base) + 1))[:200_000]
    ratio = _seconds(large, 1) / max(_seconds(small, 3), 1e-4)
    assert ratio <= 300, f"{shape}: 100x the text took {ratio:.0f}x the time"
