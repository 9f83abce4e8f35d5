"""``retract_episode``: withdrawing a message equals never having told it, for what is believed
after the withdrawal, while what was believed before stays readable.

The property test draws random histories of statements (starts, endings, retractions, claims by
other speakers; both cardinalities), each told by one of a few messages; memory A hears them all,
withdraws one message, then hears more; memory B never hears that message. Their current beliefs,
and ``as_of`` at every valid time for knowledge times after the withdrawal, must be equal, and A's
rows must equal the timeline derived in full from its assertions (the oracle).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from temporal_graph import TemporalGraph
from temporal_graph.core.rules import claimant, derive_timeline
from temporal_graph.core.stores.protocol import FactQuery
from temporal_graph.core.writer import FactWriter
from temporal_graph.errors import InvalidInput, NotFound
from temporal_graph.times import ManualClock

GROUP = "g"
SUBJECT = "Ana"
OBJECTS = ("Paris", "Rome", "Lyon")
EPISODES = ("e0", "e1", "e2", "e3")
TIMES = tuple(datetime(2020, 1, 1, tzinfo=UTC) + timedelta(days=90 * i) for i in range(6))
EXAMPLES = int(os.environ.get("TG_PROPERTY_EXAMPLES", "60"))

times = st.sampled_from(TIMES)
relations = st.sampled_from(("LIVES_IN", "LIVES_IN", "LIKES"))
objects = st.sampled_from(OBJECTS)
claims = st.sampled_from((None, None, None, "Bob"))
episodes = st.sampled_from(EPISODES)
# Starts are dated: an undated start's resolved start depends on what was said before it.
starts = st.tuples(st.just("start"), episodes, relations, objects, times, st.none() | times, claims)
ends = st.tuples(st.just("end"), episodes, relations, st.none() | objects, times, claims)
retracts = st.tuples(st.just("retract"), episodes, relations, objects, claims)
histories = st.lists(starts | starts | starts | ends | retracts, min_size=1, max_size=14)


def _memory() -> tuple[TemporalGraph, ManualClock]:
    clock = ManualClock("2024-01-01T00:00:00+00:00")
    return TemporalGraph.open(":memory:", clock=clock, embed=False, summaries=False), clock


def _tell(tg: TemporalGraph, clock: ManualClock, op: tuple) -> None:
    clock.set(clock() + timedelta(minutes=1))

    def write(w: FactWriter) -> None:
        ana = w.entity(SUBJECT)
        kind, episode = op[0], op[1]
        if kind == "start":
            _, _, relation, obj, at, until, who = op
            w.start(ana, relation, w.entity(obj), valid_at=at, invalid_at=until, default_start=w.now,
                    episode_id=episode, claimed_by=who)
        elif kind == "end":
            _, _, relation, obj, at, who = op
            w.end(ana, relation, None if obj is None else w.entity(obj), at=at, episode_id=episode,
                  claimed_by=who)
        else:
            _, _, relation, obj, who = op
            w.retract(ana, relation, w.entity(obj), episode_id=episode, claimed_by=who)

    try:
        tg.core.write(GROUP, write)
    except InvalidInput:
        pass  # an end before its start: refused alike in both memories


def _beliefs(facts: Sequence[Any]) -> set[tuple]:
    return {(f.relation, f.object, f.valid_at, f.invalid_at, claimant(f), frozenset(f.episode_ids))
            for f in facts}


def _intervals(facts: Sequence[Any]) -> set[tuple]:
    """Beliefs without provenance (a kept row gains later messages' ids in place)."""
    return {b[:5] for b in _beliefs(facts)}


def _current(tg: TemporalGraph) -> set[tuple]:
    return _beliefs(tg.core.store.facts(FactQuery(GROUP)))


@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(before=histories, after=histories, withdrawn=episodes)
def test_retracting_an_episode_equals_never_having_told_it(before, after, withdrawn):
    after = [op for op in after if op[1] != withdrawn]  # the withdrawn message is not told again
    a, clock_a = _memory()
    b, clock_b = _memory()
    for op in before:
        _tell(a, clock_a, op)
        if op[1] != withdrawn:
            _tell(b, clock_b, op)
    believed_before, told_at = _intervals(a.core.store.facts(FactQuery(GROUP))), clock_a()
    clock_a.set(clock_a() + timedelta(minutes=1))
    try:
        a.retract_episode(withdrawn, group_id=GROUP)
    except NotFound:  # the message told nothing the memory accepted
        assert not any(x.episode_id == withdrawn for x in a.core.store.group_assertions(GROUP))
    for op in after:
        _tell(a, clock_a, op)
        _tell(b, clock_b, op)

    assert _current(a) == _current(b)
    for t in TIMES:
        assert _beliefs(a.as_of(t, group_id=GROUP)) == _beliefs(b.as_of(t, group_id=GROUP))
    # What was believed before the withdrawal is still what as_of(known_at=before) reads.
    assert _intervals(a.core.store.facts(FactQuery(GROUP, known_at=told_at))) == believed_before
    # The rows are the timeline the remaining assertions give, derived in full.
    ana = a.find_entity(SUBJECT, GROUP)
    if ana is not None:
        for relation in ("LIVES_IN", "LIKES"):
            derived = derive_timeline(a.core.store.assertions(GROUP, ana.id, relation),
                                      a.ontology.cardinality(relation))
            rows = a.core.store.facts(FactQuery(GROUP, subject_id=ana.id, relation=relation))
            assert {(r.object_id, r.valid_at, r.invalid_at, claimant(r)) for r in rows} == {
                (s.object_id, s.valid_at, s.invalid_at, s.claimed_by) for s in derived}
    a.close()
    b.close()


# -- "I never said I moved to Austin" ---------------------------------------------------------------
@pytest.fixture
def maya(tg: TemporalGraph, tick: Callable[..., datetime]) -> tuple[TemporalGraph, str, datetime]:
    tick()
    tg.add_episode("I live in Denver.", reference_time="2023-01-05", speaker="Maya")
    tick()
    moved = tg.add_episode("I moved to Austin last month.", reference_time="2024-03-05", speaker="Maya")
    assert [f.object for f in tg.now("Maya", "lives in")] == ["Austin"]
    believed = tick()
    tick()
    return tg, moved.episode.id, believed


def test_i_never_said_i_moved_to_austin(maya):
    tg, moved, believed = maya
    result = tg.retract_episode(moved)
    assert [f.object for f in result.expired] and {f.object for f in result.added} == {"Denver"}
    # Denver holds again, open, and cites only the message that told it.
    [denver] = tg.now("Maya", "lives in")
    assert denver.object == "Denver" and denver.invalid_at is None and moved not in denver.episode_ids
    # Before the retraction, the memory believed Austin: that stays answerable.
    assert [f.object for f in tg.as_of("2024-06-01", known_at=believed, subject="Maya",
                                       relation="lives in")] == ["Austin"]
    [austin] = [f for f in result.expired if f.object == "Austin"]
    versions = tg.audit(austin.fact_id)
    assert versions and all(v.expired_at is not None for v in versions)
    assert moved in versions[-1].episode_ids  # audit still says which message told it
    # A second retraction changes nothing.
    assert tg.retract_episode(moved).already


def test_a_retracted_fact_survives_in_no_summary_search_context_or_answer(maya):
    tg, moved, _ = maya
    assert "Austin" in tg.summary("Maya").text
    tg.retract_episode(moved)
    assert "Austin" not in tg.summary("Maya").text
    hits = tg.search("Maya moved to Austin", kinds=("fact", "episode"))
    assert hits and all("Austin" not in h.text for h in hits)
    assert "Austin" not in tg.context("where did Maya move to Austin")
    answer = tg.ask("Where does Maya live?")
    assert "Denver" in answer.text and "Austin" not in answer.text


def test_retracting_an_unknown_episode_is_not_found(tg):
    with pytest.raises(NotFound, match="no episode"):
        tg.retract_episode("nope")
