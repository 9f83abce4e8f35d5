"""A writer on Neo4j killed with SIGKILL at a random moment of a random history: what it committed
is all there, what it had not is not there at all (a write's facts, message, entities and the
summaries it refreshes go in one transaction), and a writer that takes over goes on from there.
The oracle is the embedded store fed the same writes on the same clock."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time
from datetime import timedelta
from pathlib import Path

import pytest

from temporal_graph import TemporalGraph
from temporal_graph.core.model import RECORD_KINDS
from temporal_graph.testing import neo4j_store_from_env, unique_test_group
from temporal_graph.times import ManualClock

pytestmark = pytest.mark.neo4j

HERE = Path(__file__).resolve().parent
ENV = {**os.environ, "HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1", "PYTHONPATH": str(HERE.parent)}
START = "2024-01-01"
PEOPLE = ("Ana", "Ben", "Cy")
PLACES = ("Oslo", "Rome", "Lima")
SAID = ("I moved to {}.", "I love {}.", "I work at {}.", "I left {}.")
WRITES = 80

# Writes ops[start:] of the history of `seed` into `group` on Neo4j, saying after each one that it
# returned; run as a child process so that it can be killed.
_WRITER = """
import sys
sys.path.insert(0, sys.argv[1])
from test_neo4j_killed_writer import history, write, writer
tg, clock = writer(embed=sys.argv[4] == "embed")
for n, op in enumerate(history(int(sys.argv[3]))):
    write(tg, clock, sys.argv[2], n, op)
    print(n, flush=True)
"""


def history(seed: int) -> list[tuple[str, str, str, str]]:
    rng = random.Random(seed)
    ops = []
    for _ in range(WRITES):
        kind = rng.choice(("fact", "fact", "say", "say", "end"))
        thing = rng.choice((*PLACES, "Acme", "jazz", "Thing 1"))
        ops.append((kind, rng.choice(PEOPLE), thing, str(rng.randint(1990, 2023))))
    return ops


def writer(*, embed: bool = False) -> tuple[TemporalGraph, ManualClock]:
    store = neo4j_store_from_env()
    assert store is not None
    clock = ManualClock(START)
    return TemporalGraph(store, clock=clock, embed=embed), clock


def write(tg: TemporalGraph, clock: ManualClock, group: str, n: int, op: tuple[str, str, str, str]) -> None:
    """The ``n``th write of a history at its own transaction time (the same on every store)."""
    clock.set(ManualClock(START)() + timedelta(minutes=n + 1))
    kind, person, thing, year = op
    try:
        if kind == "fact":
            relation = "lives in" if thing in PLACES else "likes"
            tg.add_fact(person, relation, thing, valid_at=year, group_id=group)
        elif kind == "end":
            tg.end_fact(person, "lives in", at=year, group_id=group)
        else:
            said = SAID[int(year) % len(SAID)].format(thing)
            tg.add_episode(said, speaker=person, reference_time=f"{year}-06-01", group_id=group)
    except Exception:  # a refusal (an end before any start) writes nothing, on both stores alike
        pass


def state(tg: TemporalGraph, group: str) -> dict[str, list]:
    held = tg.export(group)
    facts = sorted((f["subject"], f["relation"], f["object"], str(f["valid_at"]), str(f["invalid_at"]),
                    str(f["created_at"]), str(f["expired_at"]), len(f["episode_ids"])) for f in held["facts"])
    return {
        "facts": facts,
        "episodes": sorted((e["content"], str(e["created_at"])) for e in held["episodes"]),
        "entities": sorted(e["name"] for e in held["entities"]),
        "summaries": sorted((s.entity, s.text) for s in tg.core.store.summaries(group)),
    }


def replayed(seed: int, count: int) -> dict[str, list]:
    clock = ManualClock(START)
    with TemporalGraph.open(":memory:", clock=clock, embed=False) as tg:
        for n, op in enumerate(history(seed)[:count]):
            write(tg, clock, "default", n, op)
        return state(tg, "default")


@pytest.mark.parametrize(("seed", "embed"), [(3, False), (4, True)], ids=["bare", "embedded"])
def test_a_writer_killed_at_random_loses_nothing_it_committed_and_leaves_nothing_half_done(
    seed: int, embed: bool,
) -> None:
    group = unique_test_group("killed")
    rng = random.Random(seed)
    flag = "embed" if embed else "bare"
    child = subprocess.Popen([sys.executable, "-c", _WRITER, str(HERE), group, str(seed), flag], env=ENV,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    neo, clock = writer()
    try:
        assert child.stdout is not None
        done = -1
        while done < 20 + rng.randrange(20):
            line = child.stdout.readline()
            assert line, f"the writer stopped: {child.stderr.read() if child.stderr else ''}"
            done = int(line)
        time.sleep(rng.uniform(0, 0.05))  # then kill it, most likely inside a write
        os.kill(child.pid, signal.SIGKILL)
        rest, _ = child.communicate(timeout=60)
        done = max([done, *(int(n) for n in rest.split())])
        after = state(neo, group)
        # The write under way either committed whole or left nothing.
        count = next((c for c in (done + 1, done + 2) if replayed(seed, c) == after), None)
        assert count is not None, f"the store after the kill is neither {done + 1} nor {done + 2} writes"
        if embed:  # every record committed has its vector: none waits for a reindex
            assert not any(neo.core.store.missing_embeddings(group, kind, 10) for kind in RECORD_KINDS)
        for n, op in enumerate(history(seed)[count:], start=count):  # another writer takes over
            write(neo, clock, group, n, op)
        assert state(neo, group) == replayed(seed, WRITES)
    finally:
        if child.poll() is None:
            child.kill()
        neo.forget(group)
        neo.close()
