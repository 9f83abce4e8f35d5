"""What the Neo4j store sends per operation, counted at the driver (``testing.BoltCounter``): a
write is one transaction of a few statements whatever its history, a bulk load a few statements
per batch whatever its entities, a search the same statements however many entities it names or
finds; and reads are read transactions that see the store's earlier writes (bookmarks), through
a routing ``neo4j://`` driver too."""

from __future__ import annotations

import os
import threading
from collections.abc import Iterator
from functools import partial
from urllib.parse import urlsplit

import pytest

from temporal_graph import TemporalGraph
from temporal_graph.core.stores.neo4j import _READER_THREADS as READER_THREADS
from temporal_graph.core.stores.neo4j import ROWS_AHEAD, Neo4jStore
from temporal_graph.core.stores.protocol import FactQuery
from temporal_graph.testing import BoltCounter, neo4j_store_from_env, unique_test_group
from temporal_graph.times import ManualClock

pytestmark = pytest.mark.neo4j


@pytest.fixture
def memory() -> Iterator[tuple[TemporalGraph, BoltCounter, str]]:
    store = neo4j_store_from_env()
    assert store is not None
    counter = BoltCounter(store.driver)
    store.driver = counter
    group = unique_test_group("trips")
    tg = TemporalGraph(store, clock=ManualClock("2024-01-01"), embed=False)
    try:
        yield tg, counter, group
    finally:
        tg.forget(group)
        tg.close()


def _history(n: int) -> list[tuple]:
    cities = [f"City {i}" for i in range(n)]
    return [("Ana", "lives in", city, str(1900 + i)) for i, city in enumerate(cities)]


def _add_fact_counts(tg: TemporalGraph, counter: BoltCounter, group: str, year: int) -> dict[str, int]:
    counter.reset()
    tg.add_fact("Ana", "lives in", f"Town {year}", valid_at=str(year), group_id=group)
    return counter.counts()


def test_an_add_fact_is_one_transaction_of_two_statements_whatever_its_history(memory) -> None:
    tg, counter, group = memory
    tg.add_facts(_history(10), group_id=group)
    tg.add_fact("Ana", "lives in", "Town 0", valid_at="1990", group_id=group)  # the relation's schema exists
    short = _add_fact_counts(tg, counter, group, 1991)
    tg.add_facts(_history(150), group_id=group)
    long = _add_fact_counts(tg, counter, group, 2060)
    # Read ahead (lock, names, the key's end, what the summaries read), then the changes with the
    # summaries; BEGIN goes with the first of them, COMMIT after the last.
    assert short == long == {"statements": 2, "transactions": 1, "round_trips": 3}
    assert counter.modes == ["write"]
    # The same answers: Ana's timeline moved on, the older home ended where the new one starts.
    now = tg.history("Ana", "lives in", group_id=group)
    assert [(f.object, f.valid_at.year) for f in now[-2:]] == [("City 149", 2049), ("Town 2060", 2060)]
    assert now[-2].invalid_at is not None and now[-2].invalid_at.year == 2060


def test_a_many_valued_write_is_two_statements_however_many_rows_its_key_has(memory) -> None:
    # The read-ahead holds a key's latest rows; a LIKES write also reads every row and assertion
    # of its own object, wherever they start: they come with it (a known object) or are known to
    # be none (one the write creates). Each of those reads was a statement of its own.
    tg, counter, group = memory
    history = [("Ana", "likes", f"Thing {i}", str(1900 + i)) for i in range(3 * ROWS_AHEAD)]
    tg.add_facts(history, group_id=group)
    tg.add_fact("Ana", "likes", "Warm-up", valid_at="2030", group_id=group)  # the relation's schema
    for thing, year in (("Something new", "2031"), ("Thing 4", "1850"), ("Thing 6", "1906")):
        counter.reset()
        row = tg.add_fact("Ana", "likes", thing, valid_at=year, group_id=group)
        counts = counter.counts()
        # Thing 6 said again merges into its row, handed back whole, as the store now holds it.
        assert tg.core.store.facts(FactQuery(group, ids=[row.id], all_versions=True)) == [row]
        assert counts == {"statements": 2, "transactions": 1, "round_trips": 3}, (thing, counter.texts)
    # The same answers as the embedded store: Thing 4 liked since 1850 in one row, the rest kept.
    rows = tg.as_of("2040", subject="Ana", relation="likes", group_id=group)
    liked = [(f.object, f.valid_at.year) for f in rows if f.object in ("Something new", "Thing 4", "Thing 5")]
    assert sorted(liked) == [("Something new", 2031), ("Thing 4", 1850), ("Thing 5", 1905)]


def test_an_add_fact_that_embeds_reads_its_names_in_one_read_before_its_write(memory) -> None:
    # A write that embeds encodes its texts before its transaction opens, spelled as the group
    # spells its names: those names were read one read transaction each.
    tg, counter, group = memory
    tg.core.embed = True
    tg.add_fact("Ana", "lives in", "Lisbon", valid_at="2020", group_id=group)
    counter.reset()
    tg.add_fact("ana", "works at", "Acme", valid_at="2021", group_id=group)
    assert counter.modes == ["read", "write"], counter.texts
    assert counter.counts()["statements"] == 3, counter.texts  # the read, then the write's two
    hits = tg.search("Where does Ana work?", group_id=group, kinds=["fact"])
    assert any(h.fact.object == "Acme" and any(r.startswith("embedding") for r in h.reasons)
               for h in hits if h.fact is not None)


def test_a_bulk_load_sends_a_few_statements_per_batch_whatever_its_entities(memory) -> None:
    tg, counter, group = memory
    tg.add_facts([("Founder", "works at", f"Firm {i}", "2019") for i in range(7)], group_id=group)
    counts = []
    for size in (50, 400):  # new people at firms the memory holds (their summaries are refreshed)
        counter.reset()
        facts = [(f"Person {i} of {size}", "works at", f"Firm {i % 7}", "2020") for i in range(size)]
        report = tg.add_facts(facts, group_id=group)
        assert report.rows_written == size
        counts.append(counter.counts())
    # One read of every name with what the firms' summaries read; the rows with the summaries.
    assert counts[0] == counts[1] == {"statements": 2, "transactions": 1, "round_trips": 3}, counts
    assert len(tg.now("Person 7 of 400", group_id=group)) == 1


def test_a_search_sends_the_same_statements_however_many_entities_it_names(memory) -> None:
    tg, counter, group = memory
    tg.add_facts([(f"Person {i}", "lives in", f"City {i % 5}", "2020") for i in range(30)]
                 + [(f"Person {i}", "works at", f"Firm {i % 3}", "2021") for i in range(30)], group_id=group)
    tg.search("Person 1", group_id=group)  # the relation types' indexes are ready
    sent = []
    many = "Person 3, Person 4, Person 5 and Person 6 at Firm 1 in City 2"
    for query in ("where does Person 3 live", many):
        counter.reset()
        hits = tg.search(query, group_id=group, limit=10)
        assert any(h.entity is not None and h.entity.name == "Person 3" for h in hits)
        facts = tg.search(query, group_id=group, limit=10, kinds=["fact"])  # its neighbourhood
        assert any(h.fact is not None and h.fact.subject == "Person 3" for h in facts)
        counter.reset()
        tg.search(query, group_id=group, limit=10)
        sent.append(counter.statements)
        assert set(counter.modes) == {"read"}
        assert counter.round_trips == counter.statements  # each read a round trip of its own
        # One read of each vector index, however many vectors other groups of the server hold
        # (this group has none: their neighbours crowd it out, and it is scanned instead).
        assert sum(t.startswith("CALL db.index.vector") for t in counter.texts) <= 3, counter.texts
    # Names, each ranking (a vector index's with an exact scan of the group when the index's nearest
    # are other groups'), the neighbourhood, the group's count, the records by id, the standing of
    # the entities found: one statement each (the second also reads the fact candidates by id).
    assert sent[1] - sent[0] <= 1 and max(sent) <= 15, sent


def test_a_message_is_its_reads_then_one_write_transaction(memory) -> None:
    tg, counter, group = memory
    sizes = []
    for n in (1, 40):  # a short and a longer conversation before the message
        for i in range(n):
            tg.add_episode(f"Note {n}-{i}: the build took {i} minutes.",
                           reference_time=f"2024-03-{1 + i % 27:02d}", speaker="Ana", group_id=group)
        counter.reset()
        result = tg.add_episode("I moved to Porto last week.", reference_time=f"2024-{4 + n // 20:02d}-01",
                                speaker="Ana", group_id=group)
        assert not result.skipped
        assert counter.modes.count("write") == 1 and counter.modes[-1] == "write", counter.modes
        # Every read is one round trip; the write's BEGIN goes with its first statement.
        assert counter.round_trips == counter.statements + 1, counter.counts()
        # Whether it is held, the turns before it, and the keys its speaker's lookalikes are looked
        # up by; not its names' keys, which only a write that embeds needs before it opens.
        assert counter.modes.count("read") == 3, counter.texts
        # They overlap, each in a reader thread of its own: the message waits for one.
        assert sum(t.startswith(READER_THREADS) for t in counter.threads) == 3, counter.threads
        sizes.append(counter.statements)
    assert sizes[1] <= sizes[0], sizes  # the first also made the relation's schema
    # The write's two statements: what it reads (the plans a move may fulfil too), and its changes.
    assert sizes[1] == 3 + 2, sizes
    assert [f.object for f in tg.history("Ana", "lives in", group_id=group)] == ["Porto"]


def test_a_message_that_embeds_reads_its_names_keys_with_its_speakers_after_the_extraction(memory) -> None:
    # Its new names are encoded before its write opens, so which names are new is read after the
    # extraction, with its speaker's keys: the first two reads at once, then that one.
    tg, counter, group = memory
    tg.core.embed = True
    tg.add_episode("I moved to Porto.", reference_time="2024-01-01", speaker="Ana", group_id=group)
    counter.reset()
    tg.add_episode("My sister Ines lives in Braga.", reference_time="2024-02-01", speaker="Ana",
                   group_id=group)
    assert counter.modes == ["read"] * 3 + ["write"], counter.texts
    assert sum(t.startswith(READER_THREADS) for t in counter.threads) == 2, counter.threads
    # Braga, a new name, was embedded with its write.
    [braga] = [e.id for e in tg.core.store.entities(group) if e.name == "Braga"]
    found = tg.core.store.vector_search(group, "entity", tg.core.embedder.encode(["Braga"])[0], 1)
    assert found[0][0] == braga and found[0][1] > 0.99


def test_a_move_that_fulfils_a_plan_reads_the_plans_with_its_keys(memory) -> None:
    tg, counter, group = memory
    tg.add_episode("I'm planning to move to Braga.", reference_time="2024-01-10", speaker="Ana",
                   group_id=group)
    tg.add_episode("I moved to Porto.", reference_time="2024-02-01", speaker="Ana", group_id=group)
    counter.reset()
    tg.add_episode("I moved to Braga.", reference_time="2024-06-01", speaker="Ana", group_id=group)
    assert counter.modes.count("write") == 1 and counter.statements == 3 + 2, counter.texts
    plans = [(f.object, f.invalid_at.date().isoformat()) for f in tg.history("Ana", "plans", group_id=group)]
    assert plans == [("move to Braga", "2024-06-01")]  # the plan happened
    assert [f.object for f in tg.history("Ana", "lives in", group_id=group)] == ["Porto", "Braga"]



def test_no_statement_takes_more_than_one_list_parameter(memory) -> None:
    # The server keeps a plan per statement text and per mix of its list parameters' lengths (by
    # order of magnitude, empty apart): a write's statement took 17 lists, and each new mix of
    # them was planned again, a write of 1.2 to 3 s. Lists of a statement now travel in one map.
    tg, counter, group = memory
    counter.reset()
    tg.add_facts(_history(30), group_id=group)
    tg.add_fact("Ana", "lives in", "Town 1", valid_at="1990", group_id=group)
    tg.add_episode("I moved to Porto last week, and my sister Ines lives in Braga.",
                   reference_time="2023-03-01", speaker="Ana", group_id=group)
    tg.search("where does Ana live", group_id=group)
    tg.context("where does Ana live", group_id=group)
    assert "write" in counter.modes and "read" in counter.modes
    many = [(text, lists) for text, lists in zip(counter.texts, counter.lists, strict=True) if len(lists) > 1]
    assert not many, many
    assert sorted(f.object for f in tg.now("Ana", group_id=group)) == ["Ines", "Porto"]

class _FailsFirstRead:
    """A driver whose first auto-commit read fails as a cluster member going away would."""

    def __init__(self, driver: object, error: Exception) -> None:
        self._driver, self.error, self.failed = driver, error, 0

    def session(self, **config: object) -> object:
        real, outer = self._driver.session(**config), self  # type: ignore[attr-defined]

        class Session:
            def __enter__(self) -> Session:
                real.__enter__()
                return self

            def __exit__(self, *exc: object) -> object:
                return real.__exit__(*exc)

            def run(self, *args: object, **kwargs: object) -> object:
                if not outer.failed:
                    outer.failed += 1
                    raise outer.error
                return real.run(*args, **kwargs)

            def __getattr__(self, name: str) -> object:
                return getattr(real, name)

        return Session()

    def __getattr__(self, name: str) -> object:
        return getattr(self._driver, name)


def test_a_read_that_fails_on_a_retryable_error_is_run_again_and_others_are_reported(memory) -> None:
    import neo4j.exceptions

    from temporal_graph.core.errors import StoreError

    tg, counter, group = memory
    tg.add_fact("Ana", "lives in", "Lisbon", valid_at="2020", group_id=group)
    store = tg.core.store
    real = store.driver
    try:
        store.driver = _FailsFirstRead(real, neo4j.exceptions.SessionExpired("the reader went away"))
        assert [f.object for f in store.facts(FactQuery(group, relation="LIVES_IN"))] == ["Lisbon"]
        assert store.driver.failed == 1
        store.driver = _FailsFirstRead(real, neo4j.exceptions.ClientError("not a retryable one"))
        with pytest.raises(StoreError):
            store.facts(FactQuery(group, relation="LIVES_IN"))
    finally:
        store.driver = real


def test_a_read_after_a_write_sees_it_through_a_routing_driver() -> None:
    uri = os.environ["NEO4J_URI"]
    parts = urlsplit(uri)
    routing = f"neo4j://{parts.hostname}:{parts.port}"
    auth = (os.environ.get("NEO4J_USER", "neo4j"), os.environ.get("NEO4J_PASSWORD", ""))
    group = unique_test_group("causal")
    with TemporalGraph(Neo4jStore(routing, auth=auth), clock=ManualClock("2024-01-01"), embed=False) as tg:
        store = tg.core.store
        counter = BoltCounter(store.driver)
        store.driver = counter
        try:
            for i in range(5):
                counter.reset()
                tg.add_fact("Ana", "lives in", f"City {i}", valid_at=str(2000 + i), group_id=group)
                assert counter.modes == ["write"]
                counter.reset()
                # A new read transaction of another session, waiting for the write's bookmark.
                found = store.facts(FactQuery(group, relation="LIVES_IN"))
                assert counter.modes == ["read"]
                assert f"City {i}" in {f.object for f in found}
            assert store.bookmarks.get_bookmarks(), "a committed write leaves a bookmark"
        finally:
            tg.forget(group)


def test_reads_at_once_that_read_at_once_themselves_finish(memory) -> None:
    tg, _, group = memory
    tg.add_fact("Ana", "lives in", "Lisbon", valid_at="2020", group_id=group)
    store = tg.core.store

    def nested() -> list[int]:  # a read that reads at once itself, as a composed read may
        reads = [partial(store.entities, group), partial(store.episodes, group)]
        return [len(x) for x in store.at_once(reads)]

    answers: list = []
    worker = threading.Thread(target=lambda: answers.append(store.at_once([nested] * 12)), daemon=True)
    worker.start()
    worker.join(timeout=60)  # twelve such reads on eight threads waited for each other for ever
    assert answers == [[[2, 0]] * 12]


def test_rows_come_back_as_the_drivers_record_data_gives_them() -> None:
    """The store reads rows with its own conversion (``row_data``): the same values as the
    driver's ``Record.data()`` for maps, lists, moments, points and nodes; a relationship refused."""
    from temporal_graph.core.stores.neo4j import row_data
    from temporal_graph.errors import StoreError

    store = neo4j_store_from_env()
    assert store is not None
    try:
        with store.driver.session(database=store.database) as session:
            [record] = list(session.run(
                "RETURN 1 AS n, 'x' AS s, null AS none, "
                "[1, [2.5, true], {a: [date('2024-01-02')]}] AS nested, "
                "{at: datetime('2024-01-02T03:04:05.000006Z'), where: point({x: 1, y: 2}), "
                "took: duration('PT1S'), node: {labels: ['A']}} AS map"))
            assert row_data(record) == record.data()
            tx = session.begin_transaction()
            try:
                [made] = list(tx.run("CREATE (n:RowDataProbe {name: 'a', tags: ['x']})-[:PROBED {w: 1}]->(m) "
                                     "RETURN n, {n: n} AS inside"))
                assert row_data(made) == made.data()
                [linked] = list(tx.run("MATCH (:RowDataProbe)-[r:PROBED]->() RETURN r"))
                with pytest.raises(StoreError, match="relationship"):
                    row_data(linked)
            finally:
                tx.rollback()
    finally:
        store.close()
