"""Keys and explicit supersedes against a naive model of the contract, on both stores.

Random histories of keyed messages (told in any order of reference time), explicit supersedes and
retractions go through the real client; then every message's standing at random (T, K) is
compared with :class:`KeyModel`, which reads the rule literally: a message is superseded at valid
time T, as known at K, when a message believed at K with the same key and other content was told
after it (by reference time, then arrival) and by T; or when a supersede of it recorded by K names
a message believed at K, told by T. Search as known at K sees exactly the messages believed then.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from queries.standing import standings
from temporal_graph import TemporalGraph
from temporal_graph.core.message_links import content_mark
from temporal_graph.errors import InvalidInput
from temporal_graph.testing import neo4j_store_from_env, unique_test_group
from temporal_graph.times import ManualClock

CONTENTS = ("Build note alpha.", "Build note beta.", "build note alpha", "Build note gamma.")
KEYS = ("proj/x", "proj/y")
REFS = tuple(datetime(2024, m, 1, tzinfo=UTC) for m in (1, 3, 5, 7))
CLOCK_START = datetime(2025, 1, 1, tzinfo=UTC)
DAY = timedelta(days=1)
EXAMPLES = int(os.environ.get("TG_PROPERTY_EXAMPLES", "120")) // 2

tells = st.tuples(st.just("tell"), st.sampled_from(range(len(CONTENTS))), st.sampled_from(range(len(REFS))),
                  st.sampled_from((None, 0, 0, 1)))
supersedes = st.tuples(st.just("supersede"), st.integers(0, 20), st.sampled_from(range(len(CONTENTS))),
                       st.sampled_from(range(len(REFS))))
retracts = st.tuples(st.just("retract"), st.integers(0, 20))
histories = st.lists(tells | tells | tells | supersedes | retracts, min_size=2, max_size=14)


@dataclass
class Told:
    id: str
    content: str
    ref: datetime
    key: str | None
    tx: datetime
    retracted: datetime | None = None

    def believed(self, k: datetime) -> bool:
        return self.tx <= k and (self.retracted is None or self.retracted > k)


@dataclass
class KeyModel:
    told: dict[str, Told] = field(default_factory=dict)
    supersedes: list[tuple[str, str, datetime]] = field(default_factory=list)  # (old, new, tx)

    def superseded(self, m: Told, t: datetime, k: datetime) -> bool:
        for other in self.told.values():
            if (other.key is not None and other.key == m.key and other.believed(k)
                    and content_mark(other.content) != content_mark(m.content)
                    and (other.ref, other.tx) > (m.ref, m.tx) and other.ref <= t):
                return True
        return any(old == m.id and tx <= k and self.told[new].believed(k)
                   and max(self.told[new].ref, m.ref) <= t for old, new, tx in self.supersedes)


class Run:
    def __init__(self, store: str) -> None:
        self.clock = ManualClock(CLOCK_START)
        if store == "sqlite":
            self.tg = TemporalGraph.open(":memory:", clock=self.clock, embed=False)
            self.group = "default"
        else:
            neo4j = neo4j_store_from_env()
            assert neo4j is not None
            self.tg = TemporalGraph(neo4j, clock=self.clock, embed=False)
            self.group = unique_test_group("keys")
        self.model = KeyModel()
        self.order: list[str] = []  # message ids in the order first told
        self.txs: list[datetime] = []

    def close(self) -> None:
        try:
            if self.group != "default":
                self.tg.forget(self.group)
        finally:
            self.tg.close()

    def _tick(self) -> datetime:
        now = self.clock() + DAY
        self.clock.set(now)
        self.txs.append(now)
        return now

    def _told(self, result, content: str, ref: datetime, key: str | None, tx: datetime) -> None:
        e = result.episode
        if not result.skipped:
            self.model.told[e.id] = Told(e.id, content, ref, key, tx)
            self.order.append(e.id)

    def apply(self, op: tuple) -> None:
        tx = self._tick()
        if op[0] == "tell":
            _, c, r, k = op
            key = None if k is None else KEYS[k]
            result = self.tg.add_episode(CONTENTS[c], reference_time=REFS[r], group_id=self.group, key=key)
            self._told(result, CONTENTS[c], REFS[r], key, tx)
        elif op[0] == "supersede":
            _, target, c, r = op
            if not self.order:
                return
            old = self.model.told[self.order[target % len(self.order)]]
            same = next((m for m in self.model.told.values() if (m.content, m.ref) == (CONTENTS[c], REFS[r])),
                        None)
            if old.retracted is not None or (same is not None and same.retracted is not None):
                with pytest.raises(InvalidInput):
                    self.tg.supersede(old.id, CONTENTS[c], reference_time=REFS[r], group_id=self.group)
                return
            done = self.tg.supersede(old.id, CONTENTS[c], reference_time=REFS[r], group_id=self.group)
            assert done.result is not None
            self._told(done.result, CONTENTS[c], REFS[r], None, tx)
            new = done.result.episode.id
            if new != old.id and self.model.told[new].retracted is None and old.id in done.result.superseded:
                self.model.supersedes.append((old.id, new, tx))
            else:  # told before and already replacing it, or the same message
                assert old.id not in done.result.superseded
        else:
            _, target = op
            if not self.order:
                return
            m = self.model.told[self.order[target % len(self.order)]]
            self.tg.retract_episode(m.id, group_id=self.group)
            if m.retracted is None:
                m.retracted = tx

    def check(self, t: datetime, k: datetime) -> None:
        believed = [m for m in self.model.told.values() if m.believed(k)]
        episodes = self.tg.core.store.episodes(self.group, ids=[m.id for m in believed])
        found = standings(self.tg.core, self.group, episodes, valid_time=t, known_at=k)
        for m in believed:
            expected = self.model.superseded(m, t, k)
            assert (found[m.id].standing == "superseded") == expected, (m, t, k, found[m.id])
        hits = self.tg.search("build note", group_id=self.group, known_at=k, as_of=t, limit=100, stale="show")
        # A hit stands for the copies of its text it lists (a message said word for word again).
        returned = {i for h in hits for i in h.message_ids}
        assert returned == {m.id for m in believed if m.ref <= t}


def _run(store: str, ops: list[tuple], data: st.DataObject) -> None:
    run = Run(store)
    try:
        for op in ops:
            run.apply(op)
        for _ in range(6):
            t = data.draw(st.sampled_from((*REFS, REFS[-1] + DAY * 400, REFS[1] + DAY)))
            k = data.draw(st.sampled_from(run.txs))
            run.check(t, k)
    finally:
        run.close()


@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(ops=histories, data=st.data())
def test_keys_and_supersedes_match_the_model(ops: list[tuple], data: st.DataObject) -> None:
    _run("sqlite", ops, data)


@pytest.mark.neo4j
@settings(max_examples=max(1, EXAMPLES // 6), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(ops=histories, data=st.data())
def test_keys_and_supersedes_match_the_model_on_neo4j(ops: list[tuple], data: st.DataObject) -> None:
    _run("neo4j", ops, data)
