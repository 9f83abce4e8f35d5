"""The backtest guard against a reference model: random histories (facts added, ended, retracted,
messages told and withdrawn, insights derived) on a hand-driven clock, one day per write. The model
is the log of writes: after each one it notes which records appeared and which stopped being
believed (read from the export, never from the records' own times). For random K,
``learned_after(K)`` must list exactly the records that appeared in a write after K, and exactly
those believed at K that a later write revised; and the reads as known at K must see none of it."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from temporal_graph import TemporalGraph
from temporal_graph.errors import InvalidInput, NotFound
from temporal_graph.testing import neo4j_store_from_env, unique_test_group
from temporal_graph.times import ManualClock

DAY = timedelta(days=1)
START = datetime(2024, 6, 1, tzinfo=UTC)
EXAMPLES = int(os.environ.get("TG_PROPERTY_EXAMPLES", "40"))
SQLITE_SETTINGS = settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])
NEO4J_SETTINGS = settings(max_examples=max(1, EXAMPLES // 8), deadline=None,
                          suppress_health_check=[HealthCheck.too_slow])

people = st.sampled_from(("Ana", "Ana", "Bo"))
places = st.sampled_from(("Paris", "Rome", "Oslo"))
years = st.sampled_from(("2019-01-01", "2021-01-01", "2023-01-01"))
operations = st.lists(
    st.tuples(st.just("add"), people, places, st.none() | years)
    | st.tuples(st.just("end"), people, years)
    | st.tuples(st.just("retract"), people, places)
    | st.tuples(st.just("tell"), people, places, st.sampled_from(("I live in {}.", "I moved to {}.")))
    | st.tuples(st.just("withdraw"), st.integers(0, 5))
    | st.tuples(st.just("reflect"),),
    min_size=3, max_size=14,
)
# K anywhere: before the first write, at one, between two, after the last.
moments = st.lists(st.integers(-1, 30).map(lambda n: START + n * DAY / 2), min_size=1, max_size=6)


@dataclass
class Model:
    """When each record first appeared, and when it stopped being believed (transaction time)."""

    appeared: dict[tuple[str, str], datetime] = field(default_factory=dict)  # (kind, id) -> t
    revised: dict[tuple[str, str], datetime] = field(default_factory=dict)

    def observe(self, tg: TemporalGraph, group: str, t: datetime) -> None:
        held = tg.export(group)
        ended = {"facts": "expired_at", "insights": "expired_at", "summaries": "expired_at",
                 "episodes": "retracted_at", "entities": None}
        for kind, stamp in ended.items():
            for record in held[kind]:
                key = (kind, record["id"])
                self.appeared.setdefault(key, t)
                if stamp is not None and record[stamp] is not None:
                    self.revised.setdefault(key, t)

    def after(self, kind: str, k: datetime) -> set[str]:
        return {i for (kd, i), t in self.appeared.items() if kd == kind and t > k}

    def revised_after(self, kind: str, k: datetime) -> set[str]:
        return {i for (kd, i), t in self.revised.items() if kd == kind and t > k
                and self.appeared[(kd, i)] <= k}


def run_history(tg: TemporalGraph, clock: ManualClock, group: str, ops: list[tuple]) -> Model:
    model = Model()
    told: list[str] = []
    for op in ops:
        clock.set(clock() + DAY)
        kind = op[0]
        try:
            if kind == "add":
                tg.add_fact(op[1], "lives in", op[2], valid_at=op[3], group_id=group)
            elif kind == "end":
                tg.end_fact(op[1], "lives in", at=op[2], group_id=group)
            elif kind == "retract":
                tg.retract_fact(op[1], "lives in", op[2], group_id=group)
            elif kind == "tell":
                told.append(tg.add_episode(op[3].format(op[2]), reference_time=clock(), speaker=op[1],
                                           group_id=group).episode.id)
            elif kind == "withdraw" and told:
                tg.retract_episode(told[op[1] % len(told)], group_id=group)
            elif kind == "reflect":
                tg.reflect(group_id=group)
        except (InvalidInput, NotFound):
            pass  # a refused write writes nothing; the model sees nothing new
        model.observe(tg, group, clock())
    return model


def check(tg: TemporalGraph, group: str, model: Model, k: datetime) -> None:
    report = tg.learned_after(k, group_id=group)
    assert report.known_at == k
    assert set(report.fact_versions) == model.after("facts", k)
    assert set(report.expired_fact_versions) == model.revised_after("facts", k)
    assert set(report.episodes) == model.after("episodes", k)
    assert set(report.retracted_episodes) == model.revised_after("episodes", k)
    assert set(report.entities) == model.after("entities", k)
    assert set(report.insight_versions) == model.after("insights", k)
    assert set(report.expired_insight_versions) == model.revised_after("insights", k)
    assert set(report.summary_versions) == model.after("summaries", k)
    assert set(report.expired_summary_versions) == model.revised_after("summaries", k)
    assert report.clean and report.leaked == []
    # What a backtest reads at K holds nothing of what came after.
    assert report.leaks(tg.as_of("2030-01-01", known_at=k, group_id=group)) == []
    assert report.leaks(tg.insights(known_at=k, group_id=group)) == []
    assert all(f.id not in report.written for f in tg.core.store.facts(_at(group, k)))


def _at(group: str, k: datetime):
    from temporal_graph.core.stores.protocol import FactQuery

    return FactQuery(group, known_at=k)


@SQLITE_SETTINGS
@given(ops=operations, ks=moments)
def test_learned_after_lists_exactly_what_came_after_k(ops, ks):
    clock = ManualClock(START)
    with TemporalGraph.open(":memory:", clock=clock, embed=False) as tg:
        model = run_history(tg, clock, "default", ops)
        for k in ks:
            check(tg, "default", model, k)


@pytest.mark.neo4j
@NEO4J_SETTINGS
@given(ops=operations, ks=moments)
def test_learned_after_lists_exactly_what_came_after_k_on_neo4j(ops, ks):
    clock = ManualClock(START)
    store = neo4j_store_from_env()
    assert store is not None
    tg = TemporalGraph(store, clock=clock, embed=False)
    group = unique_test_group("learned")
    try:
        model = run_history(tg, clock, group, ops)
        for k in ks:
            check(tg, group, model, k)
    finally:
        tg.forget(group)
        tg.close()
