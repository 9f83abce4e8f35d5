"""A write re-derives only the stretch of one timeline it can change (``core/affected.py``); the
whole key's derivation (``FactWriter(full_derivation=True)``, ``rules.derive_timeline``) is the
reference. Random histories go through both writers side by side, statement by statement: they
must write the same rows (every version, in both times), report the same outcome, and leave the
current rows equal to the timeline derived from every assertion.

Histories mix both cardinalities, starts with and without a start or an end (out of order: valid
times are drawn independently of arrival), endings of one object and of everything,
retractions, claims by other speakers, bulk starts, and transaction times that stand still or
run backwards.
"""

from __future__ import annotations

import os
from collections import defaultdict
from datetime import UTC, datetime, timedelta
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from temporal_graph import Ontology
from temporal_graph.core.model import Fact
from temporal_graph.core.rules import claimant, derive_timeline
from temporal_graph.core.stores.protocol import FactQuery
from temporal_graph.core.stores.sqlite import SQLiteStore
from temporal_graph.core.writer import BulkStart, FactWriter, Outcome
from temporal_graph.errors import InvalidInput

ONTOLOGY = Ontology.default_personal()
GROUP = "g"
SUBJECT = "Ana"
OBJECTS = ("Paris", "Rome", "Lyon", "Oslo")
CLAIMANTS = (None, None, None, "Bob", "Cy")  # mostly the memory's own belief
TIMES = tuple(datetime(2020, 1, 1, tzinfo=UTC) + timedelta(days=90 * i) for i in range(8))
CLOCK0 = datetime(2024, 1, 1, tzinfo=UTC)
EXAMPLES = int(os.environ.get("TG_PROPERTY_EXAMPLES", "120"))

times = st.sampled_from(TIMES)
maybe_time = st.none() | times
claims = st.sampled_from(CLAIMANTS)
relations = st.sampled_from(("LIVES_IN", "LIVES_IN", "LIKES"))  # one at a time / many at once
objects = st.sampled_from(OBJECTS)
starts = st.tuples(st.just("start"), relations, objects, maybe_time, st.none() | st.none() | times, claims,
                   times)
ends = st.tuples(st.just("end"), relations, st.none() | objects, times, claims)
retracts = st.tuples(st.just("retract"), relations, objects, claims)
bulks = st.tuples(st.just("bulk"), relations,
                  st.lists(st.tuples(objects, maybe_time, st.none() | times), min_size=1, max_size=4))
statements = st.lists(starts | starts | starts | ends | retracts | bulks, min_size=1, max_size=25)
clock_steps = st.lists(st.sampled_from((1, 1, 1, 0, -1)), min_size=25, max_size=25)


def _run(store: SQLiteStore, full: bool, now: datetime, op: tuple, episode: str) -> Any:
    """One statement through a writer of ``store``; what it returned, or the error it raised."""

    def write(tx: Any) -> Any:
        w = FactWriter(tx, GROUP, now, ONTOLOGY, full_derivation=full)
        ana = w.entity(SUBJECT)
        kind, relation = op[0], op[1]
        if kind == "start":
            _, _, obj, at, until, who, default = op
            return w.start(ana, relation, w.entity(obj), valid_at=at, invalid_at=until, default_start=default,
                           episode_id=episode, claimed_by=who)
        if kind == "end":
            _, _, obj, at, who = op
            ended = w.entity(obj) if obj else None
            return w.end(ana, relation, ended, at=at, episode_id=episode, claimed_by=who)
        if kind == "retract":
            _, _, obj, who = op
            return w.retract(ana, relation, w.entity(obj), episode_id=episode, claimed_by=who)
        items = [BulkStart(i, w.entity(obj), at, until, episode_id=f"{episode}.{i}")
                 for i, (obj, at, until) in enumerate(op[2])]
        return w.start_many(ana, relation, items)

    try:
        return store.write(write)
    except InvalidInput as exc:
        return type(exc)


def _row(f: Fact) -> tuple:
    return (f.relation, f.object, f.valid_at, f.invalid_at, claimant(f), f.episode_ids, f.text,
            f.confidence, f.importance, f.created_at, f.expired_at)


def _versions(store: SQLiteStore) -> tuple[list[tuple], set[frozenset]]:
    """Every row version without its ids, and which versions share a fact_id."""
    rows = store.facts(FactQuery(GROUP, all_versions=True))
    lineage: dict[str, set] = defaultdict(set)
    for f in rows:
        lineage[f.fact_id].add(_row(f))
    return sorted(map(_row, rows), key=repr), {frozenset(v) for v in lineage.values()}


def _outcome(result: Any) -> Any:
    if isinstance(result, Outcome):
        return {name: sorted(map(_row, getattr(result, name)), key=repr)
                for name in ("added", "merged", "ended", "retracted")} | {
                    "fact": None if result.fact is None else _row(result.fact)}
    if isinstance(result, tuple):  # start_many: rows written, items refused
        return sorted(map(_row, result[0]), key=repr), result[1]
    return result


def _derived_keys(store: SQLiteStore) -> list[tuple]:
    """The current rows the whole-key derivation of every stored assertion implies."""
    by_key: dict[str, list] = defaultdict(list)
    for a in store.group_assertions(GROUP):
        by_key[a.relation].append(a)
    return sorted(((relation, s.object_id, s.valid_at, s.invalid_at, s.claimed_by)
                   for relation, assertions in by_key.items()
                   for s in derive_timeline(assertions, ONTOLOGY.cardinality(relation))), key=repr)


def _current_keys(store: SQLiteStore) -> list[tuple]:
    return sorted(((f.relation, f.object_id, f.valid_at, f.invalid_at, claimant(f))
                   for f in store.facts(FactQuery(GROUP))), key=repr)


def check_history(ops: list[tuple], steps: list[int] | None = None) -> None:
    """Run ``ops`` through both writers, statement by statement, and compare."""
    incremental, reference = SQLiteStore(":memory:"), SQLiteStore(":memory:")
    now = CLOCK0
    for i, op in enumerate(ops):
        now += timedelta(hours=steps[i] if steps else 1)  # transaction time may stand still or run back
        got = _run(incremental, False, now, op, f"e{i}")
        expected = _run(reference, True, now, op, f"e{i}")
        assert _outcome(got) == _outcome(expected), (i, op)
        assert _versions(incremental) == _versions(reference), (i, op)
        assert _current_keys(incremental) == _derived_keys(incremental), (i, op)


@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(statements, clock_steps)
def test_stretch_wise_writes_equal_the_whole_key_derivation(ops: list[tuple], steps: list[int]) -> None:
    check_history(ops, steps)


# Histories worth naming, run on every test run.
Y = TIMES


def test_late_news_between_two_versions() -> None:
    check_history([("start", "LIVES_IN", "Paris", Y[0], None, None, Y[0]),
                   ("start", "LIVES_IN", "Rome", Y[4], None, None, Y[0]),
                   ("start", "LIVES_IN", "Lyon", Y[2], None, None, Y[0])])


def test_a_restatement_that_outlasts_a_run_out_row_joins_what_followed() -> None:
    check_history([("start", "LIVES_IN", "Paris", Y[0], Y[2], None, Y[0]),
                   ("start", "LIVES_IN", "Paris", Y[2], None, None, Y[0]),
                   ("start", "LIVES_IN", "Paris", Y[1], Y[3], None, Y[0])])


def test_an_ending_of_everything_splits_a_merged_stretch() -> None:
    check_history([("start", "LIKES", "Paris", None, None, None, Y[0]),
                   ("start", "LIKES", "Paris", Y[3], None, None, Y[0]),
                   ("start", "LIKES", "Rome", Y[1], None, None, Y[0]),
                   ("end", "LIKES", None, Y[2], None)])


def test_a_retraction_lets_the_previous_object_hold_on() -> None:
    check_history([("start", "LIVES_IN", "Paris", Y[0], Y[5], None, Y[0]),
                   ("start", "LIVES_IN", "Rome", Y[2], None, None, Y[0]),
                   ("start", "LIVES_IN", "Lyon", Y[6], None, None, Y[0]),
                   ("retract", "LIVES_IN", "Rome", None)])


def test_claims_keep_timelines_of_their_own() -> None:
    check_history([("start", "LIVES_IN", "Paris", Y[0], None, "Bob", Y[0]),
                   ("start", "LIVES_IN", "Rome", Y[1], None, None, Y[0]),
                   ("start", "LIVES_IN", "Lyon", None, None, "Bob", Y[3]),
                   ("end", "LIVES_IN", None, Y[4], "Bob"),
                   ("retract", "LIVES_IN", "Paris", "Bob")])


def test_at_the_same_instant_the_last_to_arrive_wins() -> None:
    check_history([("start", "LIVES_IN", "Paris", Y[1], None, None, Y[0]),
                   ("start", "LIVES_IN", "Rome", Y[1], None, None, Y[0]),
                   ("start", "LIVES_IN", "Paris", Y[1], Y[3], None, Y[0]),
                   ("end", "LIVES_IN", "Paris", Y[1], None)])
