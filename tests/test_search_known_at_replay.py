"""``search(known_at=K)`` sees exactly what a search run at K saw: a property test against a replay
of the memory stopped at K (the same messages, told at the same transaction times, into a fresh
memory). Hits are compared as (kind, text, standing); ranks may differ by corpus statistics."""

from __future__ import annotations

from datetime import timedelta

from hypothesis import given, settings
from hypothesis import strategies as st

from temporal_graph import TemporalGraph
from temporal_graph.core.time import ManualClock

START = "2025-01-01T00:00:00+00:00"
SAID = st.sampled_from([
    "I live in Chicago.", "I moved to Denver.", "I live in Austin now.", "I like tea.",
    "I don't like tea anymore.", "Good morning everyone!", "I work at Initech.", "I left Initech.",
])
QUERIES = ("Chicago Denver Austin live", "tea", "Initech work", "morning", "lives", "likes", "works at")
AS_OF = "2026-01-01"


def _memory(messages: list[tuple[str, int]], clock: ManualClock) -> TemporalGraph:
    tg = TemporalGraph.open(":memory:", clock=clock, embed=False)
    for n, (text, month) in enumerate(messages):
        clock.set(ManualClock(START)() + timedelta(days=n + 1))
        tg.add_episode(text, speaker="Sam", reference_time=f"2024-{month:02d}-01")
    return tg


def _seen(hits) -> set[tuple[str, str, str | None]]:
    return {(h.kind, h.text, h.standing) for h in hits}


@settings(max_examples=40, deadline=None)
@given(st.lists(st.tuples(SAID, st.integers(1, 12)), min_size=1, max_size=8), st.data())
def test_search_known_at_sees_what_a_search_at_that_moment_saw(messages, data) -> None:
    stop = data.draw(st.integers(1, len(messages)))
    full = _memory(messages, ManualClock(START))
    replay = _memory(messages[:stop], ManualClock(START))
    known = ManualClock(START)() + timedelta(days=stop, hours=12)
    try:
        for query in QUERIES:
            for stale in ("show", "hide"):
                then = full.search(query, known_at=known, as_of=AS_OF, limit=100, stale=stale)
                again = replay.search(query, as_of=AS_OF, limit=100, stale=stale)
                assert _seen(then) == _seen(again), (query, stale)
                assert then.stale_left_out == again.stale_left_out
    finally:
        full.close()
        replay.close()
