"""Property-based tests of the bi-temporal contract against the reference model, on both stores.

Random sequences of add / end / retract (valid times drawn from a few years, so intervals
interact; transaction time one day per write) go through the real client; then answers for
random (T, K) are compared with :mod:`reference_model`, which reads the contract literally.
"""

from __future__ import annotations

import itertools
import os
import random
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from functools import partial
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from reference_model import ReferenceModel, Rejected

from temporal_graph import Ontology, TemporalGraph
from temporal_graph.errors import InvalidInput, NotFound
from temporal_graph.testing import neo4j_store_from_env, unique_test_group
from temporal_graph.times import ManualClock

DAY = timedelta(days=1)
SECOND = timedelta(seconds=1)
ONTOLOGY = Ontology.default_personal()
CARDINALITY = ONTOLOGY.cardinality

SUBJECTS = ("Alice", "Bob", "Carol")
RELATIONS = ("LIVES_IN", "LIKES")  # one object at a time / many at once
OBJECTS = ("Paris", "Rome", "Lyon", "Oslo")
YEARS = tuple(datetime(y, 1, 1, tzinfo=UTC) for y in range(2018, 2024))
# Transaction time runs through mid-2020, so undated starts that become "the write time" land
# among the valid times; one valid time sits inside that stretch too.
CLOCK_START = datetime(2020, 6, 1, tzinfo=UTC)
VALID_TIMES = (*YEARS, datetime(2020, 6, 15, tzinfo=UTC))
EXTRA_T = (datetime(2017, 6, 1, tzinfo=UTC), datetime(2019, 7, 1, tzinfo=UTC),
           datetime(2030, 1, 1, tzinfo=UTC))

# TG_PROPERTY_EXAMPLES=2000 for a longer hunt; the default keeps the suite fast. Neo4j runs the
# same properties with fewer examples (every read is a round trip to the server).
EXAMPLES = int(os.environ.get("TG_PROPERTY_EXAMPLES", "120"))
PROPERTY_SETTINGS = settings(max_examples=EXAMPLES, deadline=None,
                             suppress_health_check=[HealthCheck.too_slow])
NEO4J_SETTINGS = settings(max_examples=max(1, EXAMPLES // 5), deadline=None,
                          suppress_health_check=[HealthCheck.too_slow])

# -- strategies -----------------------------------------------------------------------------------
# Weighted towards one key so that statements about it pile up and interact.
subjects = st.sampled_from(("Alice", "Alice", "Alice", "Bob", "Carol"))
relations = st.sampled_from(("LIVES_IN", "LIVES_IN", "LIKES"))
objects = st.sampled_from(OBJECTS)
valid_times = st.sampled_from(VALID_TIMES)

add_ops = st.tuples(
    st.just("add"), subjects, relations, objects, st.none() | valid_times, st.none() | st.none() | valid_times
)
end_ops = st.tuples(st.just("end"), subjects, relations, st.none() | objects, valid_times)
retract_ops = st.tuples(st.just("retract"), subjects, relations, objects)
operations = st.lists(add_ops | add_ops | end_ops | retract_ops, min_size=8, max_size=30)


def show(t: datetime | None, none: str = "-inf") -> str:
    return none if t is None else t.date().isoformat()


def span(f) -> str:
    return f"[{show(f.valid_at)}, {show(f.invalid_at, '+inf')})"


# -- running a sequence through the client and the model ------------------------------------------
@dataclass
class Run:
    tg: TemporalGraph
    clock: ManualClock
    model: ReferenceModel
    group: str = "default"
    txs: list[datetime] = field(default_factory=list)
    # row id -> (fact_id, subject, relation, object, valid_at, invalid_at, created_at), and expired_at
    seen: dict[str, tuple] = field(default_factory=dict)
    expired: dict[str, Any] = field(default_factory=dict)
    current_after: list[set] = field(default_factory=list)  # current rows after each write

    @classmethod
    def fresh(cls, store: str = "sqlite") -> Run:
        """A run on a throw-away embedded memory, or on the Neo4j server in a group of its own."""
        clock = ManualClock(CLOCK_START)
        if store == "sqlite":
            return cls(TemporalGraph.open(":memory:", clock=clock, ontology=ONTOLOGY, embed=False), clock,
                       ReferenceModel(CARDINALITY))
        neo4j = neo4j_store_from_env()
        assert neo4j is not None
        tg = TemporalGraph(neo4j, clock=clock, ontology=ONTOLOGY, embed=False)
        return cls(tg, clock, ReferenceModel(CARDINALITY), group=unique_test_group("property"))

    def close(self) -> None:
        try:
            if self.group != "default":
                self.tg.forget(self.group)
        finally:
            self.tg.close()

    def export_facts(self) -> list[dict]:
        return self.tg.export(self.group)["facts"]

    def apply(self, op: tuple) -> None:
        self.clock.set(self.clock() + DAY)
        tx = self.clock()
        kind, subject, relation = op[:3]
        if kind == "add":
            _, _, _, obj, at, until = op
            try:
                stmt = self.model.start(subject, relation, obj, at=at, until=until, tx=tx)
            except Rejected:
                before = self.tg.export(self.group)
                with pytest.raises(InvalidInput):
                    self.tg.add_fact(subject, relation, obj, valid_at=at, invalid_at=until,
                                     group_id=self.group)
                assert self.tg.export(self.group) == before, "a rejected add_fact wrote something"
                return
            fact = self.tg.add_fact(subject, relation, obj, valid_at=at, invalid_at=until,
                                    group_id=self.group)
            self.txs.append(tx)
            # The row written or merged into: this object, current, covering the statement's start.
            assert (fact.subject, fact.relation, fact.object) == (subject, relation, obj)
            assert fact.expired_at is None
            if stmt.at is None:
                assert fact.valid_at is None, f"undated start returned a row starting {fact.valid_at}"
            else:
                assert fact.valid_at is None or fact.valid_at <= stmt.at
                assert fact.invalid_at is None or stmt.at < fact.invalid_at
            assert fact.id in self.current_ids()
        elif kind == "end":
            _, _, _, obj, at = op
            self.model.end(subject, relation, obj, at=at, tx=tx)
            # An ending may come before its fact (and before its names): recorded all the same.
            ended = self.tg.end_fact(subject, relation, obj, at=at, create_names=True, group_id=self.group)
            self.txs.append(tx)
            current = self.current_ids()
            for row in ended:
                assert row.invalid_at == at and row.id in current
                assert (row.subject, row.relation) == (subject, relation)
                assert obj is None or row.object == obj
        else:
            _, _, _, obj = op
            if None in (self.tg.find_entity(subject, self.group), self.tg.find_entity(obj, self.group)):
                # Nothing was ever said about an unknown name: refused, nothing written (and the
                # model's retract would only withdraw earlier statements, of which there are none).
                before = self.tg.export(self.group)
                with pytest.raises(NotFound):
                    self.tg.retract_fact(subject, relation, obj, group_id=self.group)
                assert self.tg.export(self.group) == before, "a refused retract_fact wrote something"
                return
            self.model.retract(subject, relation, obj, tx=tx)
            gone = self.tg.retract_fact(subject, relation, obj, group_id=self.group)
            self.txs.append(tx)
            rows = {f["id"]: f for f in self.export_facts()}
            for row in gone:
                assert row.object == obj and row.expired_at == tx
                assert rows[row.id]["expired_at"] is not None, "retract_fact returned a row still current"
            history = self.tg.history(subject, relation, group_id=self.group)
            assert not [f for f in history if f.object == obj], "a retracted object still shows in history"
        self.check_immutable()

    def current_ids(self) -> set[str]:
        return {f["id"] for f in self.export_facts() if f["expired_at"] is None}

    def check_immutable(self) -> None:
        """Rows never change once written, except expired_at going from None to a time, once."""
        current = set()
        facts = self.export_facts()
        for f in facts:
            frozen = (f["fact_id"], f["subject"], f["relation"], f["object"], f["valid_at"], f["invalid_at"],
                      f["created_at"])
            assert self.seen.setdefault(f["id"], frozen) == frozen, f"row {f['id']} changed: {frozen}"
            if f["id"] in self.expired and self.expired[f["id"]] is not None:
                assert f["expired_at"] == self.expired[f["id"]], f"row {f['id']} expired twice"
            self.expired[f["id"]] = f["expired_at"]
            if f["expired_at"] is None:
                current.add((f["id"], f["subject"], f["relation"], f["object"], f["valid_at"],
                             f["invalid_at"]))
        assert set(self.seen) == {f["id"] for f in facts}, "a row disappeared"
        self.current_after.append(current)

    # -- comparing with the model ---------------------------------------------------------------
    def time_points(self) -> list[datetime]:
        # Event times, a second before them (half-open intervals), and times in between.
        return sorted({*VALID_TIMES, *(t - SECOND for t in VALID_TIMES), *EXTRA_T, *self.txs})

    def knowledge_points(self) -> list[datetime]:
        # Each write, a second before it (not yet known) and half a day after (between writes).
        return sorted({CLOCK_START, *self.txs, *(t - SECOND for t in self.txs),
                       *(t + timedelta(hours=12) for t in self.txs)})

    def check_as_of(self, t: datetime, k: datetime) -> None:
        rows = self.tg.as_of(t, known_at=k, group_id=self.group)
        got = [(f.subject, f.relation, f.object) for f in rows]
        expected = self.model.believed(t, k)
        assert len(got) == len(set(got)), f"duplicate rows at T={show(t)} K={k}: {got}"
        assert set(got) == expected, (
            f"as_of(T={show(t)}, known_at={k}):\n  client {sorted(got)}\n  model  {sorted(expected)}"
        )
        for f in rows:
            assert f.valid_at_time(t), f"row {f.object} {span(f)} misses {t}"
            assert f.known_at(k)
            problems = self.model.row_problems(f.subject, f.relation, f.object, f.valid_at, f.invalid_at, k)
            assert not problems, f"row {f.object} {span(f)} at K={k}: {problems}"

    def check_filtered_as_of(self, t: datetime, k: datetime, *, subject: str, relation: str | None) -> None:
        """The subject-scoped read path answers the same as the whole-group one."""
        got = {(f.subject, f.relation, f.object)
               for f in self.tg.as_of(t, known_at=k, subject=subject, relation=relation, group_id=self.group)}
        expected = {x for x in self.model.believed(t, k) if x[0] == subject and relation in (None, x[1])}
        assert got == expected, f"as_of(T={show(t)}, known_at={k}, subject={subject}, relation={relation})"


def describe(ops: list[tuple]) -> str:
    def args(op: tuple) -> str:
        return " ".join(show(x) if isinstance(x, datetime) or x is None else str(x) for x in op[1:])

    return "\n".join(f"  {i}: {op[0]} {args(op)}" for i, op in enumerate(ops))


# -- 1. as_of(T, known_at=K) equals the model -----------------------------------------------------
@PROPERTY_SETTINGS
@given(ops=operations, data=st.data())
def test_as_of_matches_reference_model(ops: list[tuple], data: st.DataObject) -> None:
    as_of_matches_reference_model(Run.fresh(), ops, data)


@pytest.mark.neo4j
@NEO4J_SETTINGS
@given(ops=operations, data=st.data())
def test_as_of_matches_reference_model_on_neo4j(ops: list[tuple], data: st.DataObject) -> None:
    as_of_matches_reference_model(Run.fresh("neo4j"), ops, data)


def as_of_matches_reference_model(run: Run, ops: list[tuple], data: st.DataObject) -> None:
    try:
        for op in ops:
            run.apply(op)
        final = run.clock()
        # Every valid time against the final belief, plus random (T, K) pairs incl. K between writes.
        for t in run.time_points():
            run.check_as_of(t, final)
        pairs = data.draw(
            st.lists(st.tuples(st.sampled_from(run.time_points()), st.sampled_from(run.knowledge_points())),
                     min_size=1, max_size=12)
        )
        for t, k in pairs:
            run.check_as_of(t, k)
            run.check_filtered_as_of(t, k, subject="Alice", relation=data.draw(st.none() | relations))
        run.check_as_of(final, final)
        assert {(f.subject, f.relation, f.object) for f in run.tg.now(group_id=run.group)} == (
            run.model.believed(final, final))
        check_history(run, final)
    finally:
        run.close()


def check_history(run: Run, k: datetime) -> None:
    """history() is the current rows in valid-time order; `one` timelines never overlap."""
    for subject in SUBJECTS:
        for relation in RELATIONS:
            rows = run.tg.history(subject, relation, group_id=run.group)
            starts = [(f.valid_at is not None, f.valid_at or CLOCK_START) for f in rows]
            assert starts == sorted(starts), "history is not in valid-time order"
            for f in rows:
                assert f.expired_at is None
                assert not run.model.row_problems(subject, relation, f.object, f.valid_at, f.invalid_at, k)
            if CARDINALITY(relation) == "one":
                for a, b in itertools.pairwise(rows):
                    assert (a.invalid_at is not None and b.valid_at is not None
                            and a.invalid_at <= b.valid_at), (
                        f"overlapping {relation} rows: {a.object} and {b.object}"
                    )


# -- 2. rows are immutable; known_at replays the past exactly --------------------------------------
@PROPERTY_SETTINGS
@given(ops=operations, data=st.data())
def test_rows_immutable_and_known_at_replays_the_past(ops: list[tuple], data: st.DataObject) -> None:
    rows_immutable_and_known_at_replays_the_past(Run.fresh(), ops, data)


@pytest.mark.neo4j
@NEO4J_SETTINGS
@given(ops=operations, data=st.data())
def test_rows_immutable_and_known_at_replays_the_past_on_neo4j(ops: list[tuple], data: st.DataObject) -> None:
    rows_immutable_and_known_at_replays_the_past(Run.fresh("neo4j"), ops, data)


def rows_immutable_and_known_at_replays_the_past(run: Run, ops: list[tuple], data: st.DataObject) -> None:
    as_of = partial(run.tg.as_of, group_id=run.group)
    try:
        snapshots: list[tuple[datetime, datetime, list]] = []  # (K, T, as_of answer then)
        for op in ops:
            run.apply(op)  # checks immutability after every write
            k = run.clock()
            t = data.draw(st.sampled_from(VALID_TIMES + (k,)))
            snapshots.append((k, t, rows_of(as_of(t, known_at=k))))
        final_rows = run.export_facts()
        # The rows known at each past K are exactly the rows current right after that write.
        for k, current in zip(run.txs, [c for c in run.current_after], strict=True):  # one per write
            known = {(f["id"], f["subject"], f["relation"], f["object"], f["valid_at"], f["invalid_at"])
                     for f in final_rows if known_at(f, k)}
            assert known == current, f"rows known at {k} changed after later writes"
        # Asking now about a past K gives what was answered at K, rows and intervals alike,
        # also for a K between two writes.
        for k, t, answer in snapshots:
            assert rows_of(as_of(t, known_at=k)) == answer, f"as_of({t}, known_at={k}) changed"
            assert rows_of(as_of(t, known_at=k + timedelta(hours=12))) == answer
    finally:
        run.close()


def rows_of(facts: list) -> list[tuple]:
    return sorted((f.id, f.subject, f.relation, f.object, f.valid_at or CLOCK_START.replace(year=1),
                   f.invalid_at or CLOCK_START.replace(year=9999)) for f in facts)


def known_at(row: dict, k: datetime) -> bool:
    created = datetime.fromisoformat(row["created_at"])
    expired = row["expired_at"] and datetime.fromisoformat(row["expired_at"])
    return created <= k and (expired is None or expired > k)


# -- 3. out-of-order input gives the same final belief --------------------------------------------
dated_adds = st.lists(
    st.tuples(st.just("add"), st.sampled_from(SUBJECTS[:2]), relations, objects, st.sampled_from(YEARS),
              st.none() | st.sampled_from(YEARS)),
    unique_by=lambda op: (op[1], op[2], op[4]),  # distinct start times per (subject, relation): no ties
    min_size=1,
    max_size=12,
).map(lambda adds: [op if op[5] is None or op[5] > op[4] else op[:5] + (None,) for op in adds])
dated_ends = st.lists(
    st.tuples(st.just("end"), st.sampled_from(SUBJECTS[:2]), relations, st.none() | objects,
              st.sampled_from(YEARS)),
    max_size=5,
)


@PROPERTY_SETTINGS
@given(statements=st.builds(lambda a, e: a + e, dated_adds, dated_ends),
       seed=st.randoms(use_true_random=False))
def test_out_of_order_input_gives_the_same_final_belief(statements: list[tuple], seed: random.Random) -> None:
    out_of_order_input_gives_the_same_final_belief("sqlite", statements, seed)


@pytest.mark.neo4j
@NEO4J_SETTINGS
@given(statements=st.builds(lambda a, e: a + e, dated_adds, dated_ends),
       seed=st.randoms(use_true_random=False))
def test_out_of_order_input_gives_the_same_final_belief_on_neo4j(
    statements: list[tuple], seed: random.Random
) -> None:
    out_of_order_input_gives_the_same_final_belief("neo4j", statements, seed)


def out_of_order_input_gives_the_same_final_belief(
    store: str, statements: list[tuple], seed: random.Random
) -> None:
    shuffled = list(statements)
    seed.shuffle(shuffled)
    results = []
    for order in (statements, shuffled):
        run = Run.fresh(store)
        tg, clock, g = run.tg, run.clock, run.group
        clock.set("2025-01-01")
        try:
            for kind, subject, relation, obj, at, *rest in order:
                clock.set(clock() + DAY)
                if kind == "add":
                    tg.add_fact(subject, relation, obj, valid_at=at, invalid_at=rest[0], group_id=g)
                else:
                    tg.end_fact(subject, relation, obj, at=at, create_names=True, group_id=g)
            history = {(f.subject, f.relation, f.object, f.valid_at, f.invalid_at)
                       for s in SUBJECTS[:2] for f in tg.history(s, group_id=g)}
            now = {(f.subject, f.relation, f.object, f.valid_at, f.invalid_at) for f in tg.now(group_id=g)}
            results.append((history, now))
        finally:
            run.close()
    (history_a, now_a), (history_b, now_b) = results
    assert history_a == history_b, (
        f"history differs by arrival order\n in order: {sorted(history_a - history_b)}\n"
        f" shuffled: {sorted(history_b - history_a)}\n"
        f"order:\n{describe(statements)}\nshuffled:\n{describe(shuffled)}"
    )
    assert now_a == now_b


# -- 4. known_at before a revision: the worked example -------------------------------------------
def test_known_at_before_a_revision_returns_the_pre_revision_rows() -> None:
    clock = ManualClock("2025-01-01")
    with TemporalGraph.open(":memory:", clock=clock, embed=False) as tg:
        beijing = tg.add_fact("Alice", "lives in", "Beijing", valid_at="2020-03-01")
        before_move = clock()
        clock.set("2025-02-01")
        tg.add_fact("Alice", "lives in", "Shanghai", valid_at="2024-03-01")
        clock.set("2025-03-01")

        then = tg.as_of("2024-06-01", known_at=before_move)
        assert [(f.id, f.object, f.invalid_at) for f in then] == [(beijing.id, "Beijing", None)]
        assert tg.as_of("2024-06-01", known_at="2025-01-15")[0].invalid_at is None  # between the writes

        now = tg.as_of("2024-06-01")
        assert [f.object for f in now] == ["Shanghai"]
        revised = [f for f in tg.history("Alice", "lives in") if f.object == "Beijing"]
        assert revised[0].invalid_at == datetime(2024, 3, 1, tzinfo=UTC)
        assert revised[0].fact_id == beijing.fact_id and revised[0].id != beijing.id
