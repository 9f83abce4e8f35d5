"""``AsyncTemporalGraph``: concurrent calls from one event loop give what the same calls give one
after another, reads run together, writes wait their turn, and nothing runs on the loop's thread."""

from __future__ import annotations

import asyncio
import threading

import pytest

from temporal_graph import AsyncTemporalGraph, TemporalGraph
from temporal_graph.errors import InvalidTime
from temporal_graph.times import ManualClock

CLOCK = "2025-01-01T00:00:00+00:00"

# (method, args, kwargs): writes and reads on two groups, each read depending on the writes before it.
CALLS = [
    ("add_fact", ("Alice", "lives in", "Paris"), {"valid_at": "2019-01-01"}),
    ("now", ("Alice",), {}),
    ("add_fact", ("Alice", "lives in", "Lisbon"), {"valid_at": "2022-01-01"}),
    ("history", ("Alice",), {}),
    ("add_fact", ("Bob", "works at", "Acme"), {"valid_at": "2020-01-01", "group_id": "team"}),
    ("now", (), {}),
    ("now", (), {"group_id": "team"}),
    ("end_fact", ("Bob", "works at"), {"at": "2023-01-01", "group_id": "team"}),
    ("as_of", ("2021-01-01",), {"subject": "Alice"}),
    ("history", ("Bob",), {"group_id": "team"}),
    ("retract_fact", ("Alice", "lives in", "Paris"), {}),
    ("history", ("Alice",), {}),
    ("add_episode", ("I moved to Oslo in May 2024.",), {"reference_time": "2024-06-01", "speaker": "Carol"}),
    ("now", ("Carol",), {}),
    ("add_fact", ("Dan", "likes", "chess"), {"group_id": "team"}),
    ("now", (), {"group_id": "team"}),
    ("search", ("Oslo",), {"limit": 3}),
    ("ask", ("Where does Alice live?",), {}),
]


def _seen(result):
    """What a user sees of a result, without the random row ids."""
    if isinstance(result, list):
        return [_seen(r) for r in result]
    if hasattr(result, "hops"):
        return _seen(result.hops)
    if hasattr(result, "relation") and hasattr(result, "fact_id"):
        return (result.subject, result.relation, result.object, result.valid_at, result.invalid_at,
                result.created_at, result.expired_at)
    if hasattr(result, "added"):  # IngestResult
        return _seen(result.added), _seen(result.ended)
    if hasattr(result, "kind") and hasattr(result, "score"):  # SearchHit
        return result.kind, result.text
    if hasattr(result, "known"):  # Answer
        return result.text, _seen(result.facts)
    return result


def _memory() -> TemporalGraph:
    return TemporalGraph.open(":memory:", clock=ManualClock(CLOCK))


def test_gather_of_mixed_reads_and_writes_equals_the_same_calls_in_order():
    with _memory() as tg:
        expected = [_seen(getattr(tg, name)(*args, **kwargs)) for name, args, kwargs in CALLS]

    async def concurrently():
        async with AsyncTemporalGraph(_memory()) as memory:
            calls = [getattr(memory, name)(*args, **kwargs) for name, args, kwargs in CALLS]
            return await asyncio.gather(*calls)

    got = [_seen(r) for r in asyncio.run(concurrently())]
    assert got == expected
    # The second call saw the first write only, not the later ones.
    assert [row[:3] for row in expected[1]] == [("Alice", "LIVES_IN", "Paris")]


def test_reads_of_a_group_run_together():
    async def scenario():
        async with AsyncTemporalGraph(_memory()) as memory:
            both = threading.Barrier(2, timeout=10)  # broken unless two reads are inside at once

            def read(g: TemporalGraph) -> list:
                both.wait()
                return g.now()

            return await asyncio.gather(memory.run(read), memory.run(read))

    assert asyncio.run(scenario()) == [[], []]


def test_a_read_waits_for_the_write_asked_for_before_it_and_calls_leave_the_loop_free():
    async def scenario():
        async with AsyncTemporalGraph(_memory()) as memory:
            release = threading.Event()
            loop_thread = threading.get_ident()

            def slow_write(g: TemporalGraph) -> int:
                release.wait(10)
                g.add_fact("Alice", "lives in", "Rome")
                return threading.get_ident()

            writing = asyncio.ensure_future(memory.run(slow_write, write=True))
            reading = asyncio.ensure_future(memory.now("Alice"))
            other_group = await memory.now("Alice", group_id="elsewhere")  # not held up by the write
            done, _ = await asyncio.wait([reading], timeout=0.3)
            assert not done  # the read waits for the write asked for before it
            release.set()
            writer_thread, facts = await writing, await reading
            assert writer_thread != loop_thread
            return other_group, [f.object for f in facts]

    assert asyncio.run(scenario()) == ([], ["Rome"])


def test_errors_reach_the_caller_and_the_memory_stays_usable():
    async def scenario():
        async with AsyncTemporalGraph(_memory()) as memory:
            with pytest.raises(InvalidTime, match="whenever"):
                await memory.add_fact("Alice", "lives in", "Rome", valid_at="whenever")
            await memory.add_fact("Alice", "lives in", "Rome")
            return [f.object for f in await memory.now("Alice")]

    assert asyncio.run(scenario()) == ["Rome"]


def test_open_is_awaitable_or_a_context_manager(tmp_path):
    path = tmp_path / "memory.db"

    async def scenario():
        memory = await AsyncTemporalGraph.open(path, clock=ManualClock(CLOCK))
        await memory.add_fact("Alice", "lives in", "Rome", valid_at="2020")
        await memory.aclose()
        await memory.aclose()  # closing twice is harmless
        async with AsyncTemporalGraph.open(path, clock=ManualClock(CLOCK)) as again:
            return [f.object for f in await again.history("Alice")]

    assert asyncio.run(scenario()) == ["Rome"]


def test_the_docs_async_example_runs(capsys):
    from tests.doc_examples import first_block

    exec(compile(first_block("AsyncTemporalGraph"), "docs", "exec"), {})
    assert capsys.readouterr().out.strip() == "['Lisbon']"
