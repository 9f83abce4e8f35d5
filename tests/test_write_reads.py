"""A write reads what it can change, not the history of its key: the rows its transaction reads
from the store stay the same whether the key holds 10 facts or 1,000 (``core/affected.py``).

The store is wrapped so every read made inside a write transaction counts the rows it returns.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from queries.summaries import PAGE as SUMMARY_PAGE
from temporal_graph import TemporalGraph
from temporal_graph.core.stores.sqlite import SQLiteStore
from temporal_graph.times import ManualClock

DAY = timedelta(days=1)
START = datetime(2000, 1, 1, tzinfo=UTC)


class CountingTx:
    """The transaction a write sees, counting the rows (records) each read returns."""

    def __init__(self, tx: Any, counts: Counter[str]) -> None:
        self._tx, self._counts = tx, counts

    def __getattr__(self, name: str) -> Any:
        found = getattr(self._tx, name)
        if name == "apply" or not callable(found):
            return found

        def read(*args: Any, **kwargs: Any) -> Any:
            result = found(*args, **kwargs)
            self._counts[name] += len(result) if isinstance(result, list) else int(result is not None)
            return result

        return read


class CountingStore:
    """A store whose write transactions count what they read (``counts``, reset by ``reset``)."""

    def __init__(self, store: SQLiteStore) -> None:
        self._store = store
        self.counts: Counter[str] = Counter()

    def write(self, fn: Callable[[Any], Any]) -> Any:
        return self._store.write(lambda tx: fn(CountingTx(tx, self.counts)))

    def rows_read(self) -> int:
        return sum(self.counts.values())

    def __getattr__(self, name: str) -> Any:
        return getattr(self._store, name)


def _memory(history: list[tuple], clock: ManualClock) -> tuple[TemporalGraph, CountingStore]:
    store = CountingStore(SQLiteStore(":memory:"))
    tg = TemporalGraph(store, clock=clock, embed=False)  # type: ignore[arg-type]
    report = tg.add_facts(history, strict=True)  # the bulk path builds the history
    assert report.rows_written == len(history)
    clock.set(clock() + DAY)
    return tg, store


def _likes(n: int) -> list[tuple]:
    return [("Ana", "likes", f"thing {i}") for i in range(n)]


def _homes(n: int) -> list[tuple]:
    """``n`` versions of where Ana lives, one a week (distinct cities, so none merge), all before now."""
    return [("Ana", "lives in", f"City {i}", START + 7 * i * DAY) for i in range(n)]


# What a user does on a key with history, and what reads must not grow with it.
WRITES: dict[str, tuple[Callable[[int], list[tuple]], Callable[[TemporalGraph, int], Any]]] = {
    "a new object of a many-objects key": (
        _likes, lambda tg, n: tg.add_fact("Ana", "likes", "jazz")),
    "a restatement of one of its objects": (
        _likes, lambda tg, n: tg.add_fact("Ana", "likes", f"thing {n // 2}")),
    "an ending of one of its objects": (
        _likes, lambda tg, n: tg.end_fact("Ana", "likes", f"thing {n // 2}", at=START + DAY)),
    "a new version of a one-object key": (
        _homes, lambda tg, n: tg.add_fact("Ana", "lives in", "Oslo", valid_at=START + 7 * n * DAY)),
    "a restatement of the current version": (
        _homes, lambda tg, n: tg.add_fact("Ana", "lives in", f"City {n - 1}")),
    "late news between two old versions": (
        _homes, lambda tg, n: tg.add_fact("Ana", "lives in", "Lima", valid_at=START + (7 * n // 2 + 3) * DAY)
    ),
    "an ending of what holds now": (
        _homes, lambda tg, n: tg.end_fact("Ana", "lives in", at=START + 7 * n * DAY)),
    "a retraction of an old version": (
        _homes, lambda tg, n: tg.retract_fact("Ana", "lives in", f"City {n // 2}")),
    "a message telling a new version of a one-object key": (  # read as a fact, checked for a restatement
        _homes, lambda tg, n: tg.add_episode("I live in Oslo now.", reference_time=START + 7 * n * DAY,
                                             speaker="Ana")),
}


@pytest.mark.parametrize("case", sorted(WRITES))
def test_a_write_reads_the_same_rows_at_10_and_1000_facts_of_history(case: str) -> None:
    history, write = WRITES[case]
    read: dict[int, Counter[str]] = {}
    for n in (10, 1000):
        tg, store = _memory(history(n), ManualClock("2030-01-01T00:00:00+00:00"))
        store.counts.clear()
        write(tg, n)
        read[n] = Counter(store.counts)
        tg.close()
    # The summary refresh reads an entity's newest facts a page at a time until its text is full
    # (a few pages of short facts), whatever the history.
    assert read[1000]["newest_facts"] <= 4 * SUMMARY_PAGE, (case, read)
    small, large = (sum(read[n].values()) - read[n]["newest_facts"] for n in (10, 1000))
    assert large <= small + 2, (case, read)  # (measured: equal) at most a page more of neighbours
    assert large <= (24 if "message" in case else 20), (case, read)  # a message reads its speaker too
    assert not read[1000]["assertions"] and not read[1000]["current_rows"], read  # never the whole key


def _sqlite_work(store: CountingStore) -> Callable[[], int]:
    """A counter of the SQLite virtual machine's steps on ``store``'s connection (a hundred at a
    time): rows a statement walks count even when it returns none of them."""
    steps = [0]

    def tick() -> int:
        steps[0] += 1
        return 0  # go on

    store._store._conn._conn.set_progress_handler(tick, 100)  # noqa: SLF001
    return lambda: steps[0]


@pytest.mark.parametrize("case", sorted(WRITES))
def test_a_write_walks_the_same_rows_at_100_and_1000_facts_of_history(case: str) -> None:
    """What the store walks to answer a write's reads (indexes, not only the rows returned) does not
    grow with the key's history either: a 'one' key's ended versions are never scanned, by the
    summary refresh looking for the facts that still hold or by anything else."""
    history, write = WRITES[case]
    work: dict[int, int] = {}
    for n in (100, 1000):  # from 100 on, the summary's text is full: it reads as much at any size
        tg, store = _memory(history(n), ManualClock("2030-01-01T00:00:00+00:00"))
        steps = _sqlite_work(store)
        before = steps()
        write(tg, n)
        work[n] = steps() - before
        tg.close()
    assert work[1000] <= 1.2 * work[100] + 5, (case, work)  # (measured: equal within a step or two)


def test_a_load_summarises_the_entities_it_creates_without_reading_them_back() -> None:
    """New people in one load: their summaries come from the rows the load just made, so the
    newest facts it reads from the store are those of Rome, there before (a page or two, however
    many people move in)."""
    read = {}
    for n in (50, 500):
        tg, store = _memory([("Old", "lives in", "Rome")], ManualClock("2030-01-01T00:00:00+00:00"))
        store.counts.clear()
        tg.add_facts([(f"Person {i}", "lives in", "Rome", "2001") for i in range(n)])
        read[n] = store.counts["newest_facts"]
        assert tg.summary("Person 7").text == "Person 7 lives in Rome since 2001."  # type: ignore[union-attr]
        tg.close()
    assert read[500] == read[50] <= 2 * SUMMARY_PAGE, read
