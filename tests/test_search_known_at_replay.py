"""``search(known_at=K)`` and ``context(known_at=K)`` see exactly what a search run at K saw: a
property test against a replay of the memory stopped at K (the same messages, retractions, supersedes
and erasures, told at the same transaction times, into a fresh memory). Revisions come on both sides
of K: a message withdrawn after K was still believed at K, so the search as known at K shows it. An
erasure is physical removal: a search as known at any time never shows an erased message, whenever
it was erased (so for erasures after K only that is compared). Hits are compared as (kind, text,
standing); ranks may differ by corpus statistics."""

from __future__ import annotations

from datetime import timedelta

from hypothesis import HealthCheck, given, settings
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

tell = st.tuples(st.just("tell"), SAID, st.integers(1, 12))
retract = st.tuples(st.just("retract"), st.integers(0, 20))
supersede = st.tuples(st.just("supersede"), st.integers(0, 20), SAID, st.integers(1, 12))
erase = st.tuples(st.just("erase"), st.integers(0, 20))
histories = st.lists(tell | tell | tell | retract | supersede | erase, min_size=1, max_size=9)


def _replay(ops: list[tuple], upto: int, erasing: bool = True) -> tuple[TemporalGraph, set[str]]:
    """The memory after the first ``upto`` operations (erasures left out unless ``erasing``), and
    the ids of the messages erased. An operation naming a message that is not there does nothing."""
    clock = ManualClock(START)
    tg = TemporalGraph.open(":memory:", clock=clock, embed=False)
    told: list[str | None] = []  # the episode id each telling gave, None when not told
    erased: set[str] = set()
    for n, op in enumerate(ops[:upto]):
        clock.set(ManualClock(START)() + timedelta(days=n + 1))
        if op[0] == "tell":
            said = tg.add_episode(op[1], speaker="Sam", reference_time=f"2024-{op[2]:02d}-01")
            told.append(said.episode.id)
            erased.discard(said.episode.id)  # told again after its erasure: a message of its own
            continue
        target = told[op[1] % len(told)] if told else None
        if op[0] == "supersede":
            told.append(None)
            if target is None or _gone(tg, target) or _said_and_withdrawn(tg, op[2], op[3]):
                continue
            result = tg.supersede(target, op[2], speaker="Sam", reference_time=f"2024-{op[3]:02d}-01")
            assert result.episode is not None
            told[-1] = result.episode.id
        elif target is None or not tg.core.store.episodes("default", ids=[target]):
            continue
        elif op[0] == "retract":
            tg.retract_episode(target)
        elif op[0] == "erase" and erasing:
            tg.erase_episode(target)
            erased.add(target)
    return tg, erased


def _gone(tg: TemporalGraph, episode_id: str) -> bool:
    found = tg.core.store.episodes("default", ids=[episode_id])
    return not found or found[0].retracted_at is not None


def _said_and_withdrawn(tg: TemporalGraph, text: str, month: int) -> bool:
    return any(e.retracted_at is not None and e.content == text and e.reference_time.month == month
               for e in tg.core.store.episodes("default"))


def _seen(hits) -> set[tuple[str, str, str | None]]:
    return {(h.kind, h.text, h.standing) for h in hits}


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(histories, st.data())
def test_search_and_context_known_at_see_what_a_search_at_that_moment_saw(ops, data) -> None:
    _known_at_is_a_replay(ops, data.draw(st.integers(1, len(ops))))


def test_a_message_cited_again_after_k_is_not_in_the_block_as_known_at_k() -> None:
    # Hypothesis found it: Austin (February) superseded by Chicago (January), Austin told again for
    # January, then, after K, Chicago withdrawn. The withdrawal restores February's message, and
    # the Austin row cites it again; as known at K it was superseded, and the block hid it.
    ops = [("tell", "I live in Austin now.", 2), ("supersede", 0, "I live in Chicago.", 1),
           ("tell", "I live in Austin now.", 1), ("retract", 1)]
    _known_at_is_a_replay(ops, 3)


def _known_at_is_a_replay(ops: list[tuple], stop: int) -> None:
    # Erasures after K: compared with a memory that never made them (below, they only hide).
    before = [op for n, op in enumerate(ops) if op[0] != "erase" or n < stop]
    full, _ = _replay(before, len(before))
    replay, _ = _replay(ops, stop)
    erasing, erased = _replay(ops, len(ops))
    known = ManualClock(START)() + timedelta(days=stop, hours=12)
    try:
        for query in QUERIES:
            for stale in ("show", "hide"):
                then = full.search(query, known_at=known, as_of=AS_OF, limit=100, stale=stale)
                again = replay.search(query, as_of=AS_OF, limit=100, stale=stale)
                assert _seen(then) == _seen(again), (query, stale)
                assert then.stale_left_out == again.stale_left_out
                shown = erasing.search(query, known_at=known, as_of=AS_OF, limit=100, stale=stale)
                assert not {i for h in shown for i in h.message_ids} & erased
        block = full.context("where does Sam live", known_at=known, budget_tokens=5000)
        assert block == replay.context("where does Sam live", budget_tokens=5000)
    finally:
        for tg in (full, replay, erasing):
            tg.close()


def test_a_message_told_again_after_its_erasure_is_seen_from_then_on() -> None:
    ops = [("tell", "I live in Chicago.", 1), ("erase", 0), ("tell", "I live in Chicago.", 1)]
    tg, erased = _replay(ops, len(ops))
    try:
        assert erased == set()
        between = ManualClock(START)() + timedelta(days=2, hours=12)
        assert [h.text for h in tg.search("Chicago", known_at=between, as_of=AS_OF) if h.episode] == []
        assert [h.text for h in tg.search("Chicago", as_of=AS_OF) if h.episode] == ["I live in Chicago."]
    finally:
        tg.close()
