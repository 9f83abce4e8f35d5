"""Reads search relies on, on every store: rows by id with the time filter applied in the store,
counts, and a vector index that follows writes (embedded when written, gone when expired)."""

from __future__ import annotations

import pytest

from temporal_graph import Insight, TemporalGraph
from temporal_graph.core.stores import composed
from temporal_graph.core.stores.protocol import RECORD_COUNTS, ChangeSet, FactQuery


def test_rows_by_id_are_filtered_by_time_in_the_store(tg: TemporalGraph, tick, groups) -> None:
    g, other = groups(), groups("other")
    tick()
    rome = tg.add_fact("Ana", "lives in", "Rome", valid_at="2019-01-01", group_id=g)
    tick()
    paris = tg.add_fact("Ana", "lives in", "Paris", valid_at="2022-01-01", group_id=g)
    chess = tg.add_fact("Ana", "likes", "chess", group_id=g)
    theirs = tg.add_fact("Bo", "likes", "chess", group_id=other)
    rome_now = tg.history("Ana", "lives in", group_id=g)[0]  # Rome's successor, ending 2022
    ids = (rome.id, rome_now.id, paris.id, chess.id, theirs.id, "no-such-row")

    current = tg.core.store.facts(FactQuery(g, ids=ids))
    assert {f.id for f in current} == {rome_now.id, paris.id, chess.id}  # rome.id is expired
    in_2020 = tg.core.store.facts(FactQuery(g, ids=ids, valid_time=tg.core.time("2020-06-01")))
    assert {f.object for f in in_2020} == {"Rome", "chess"}
    assert tg.core.store.facts(FactQuery(g, ids=())) == []
    assert tg.core.store.count_facts(FactQuery(g, ids=ids)) == 3
    assert tg.core.store.count_facts(FactQuery(g, valid_time=tg.core.time("2020-06-01"))) == 2
    assert len(tg.core.store.facts(FactQuery(g, limit=2))) == 2
    # Another group's row is never returned, whatever the ids say.
    assert tg.core.store.facts(FactQuery(other, ids=(chess.id,))) == []


def test_a_count_is_the_length_of_the_read_for_every_shape_of_query(tg: TemporalGraph, tick, groups) -> None:
    """count_facts answers as len(facts) does, whichever statement a store picks for it: by
    subject, by object, the group's current rows at a time (rows with an unknown start, an end,
    expired versions), as believed earlier, every version."""
    g, other = groups(), groups("other")
    tick()
    tg.add_fact("Ana", "lives in", "Rome", valid_at="2019-01-01", group_id=g)
    tg.add_fact("Ana", "likes", "chess", group_id=g)  # no start: valid since forever
    tg.add_fact("Bo", "works at", "Acme", valid_at="2018-01-01", invalid_at="2021-01-01", group_id=g)
    tg.add_fact("Cy", "knows", "Ana", valid_at="2017-05-01", group_id=g)
    tg.add_fact("Dee", "likes", "chess", group_id=other)
    believed = tick()
    tg.add_fact("Ana", "lives in", "Paris", valid_at="2022-01-01", group_id=g)  # Rome ends, a new version
    store = tg.core.store
    ana = tg.core.store.entity_by_key(g, "ana")
    assert ana is not None
    when = [None, *(tg.core.time(t) for t in ("2016-01-01", "2019-06-01", "2020-06-01", "2023-01-01"))]
    shapes = [FactQuery(g, valid_time=t, known_at=k, all_versions=a) for t in when for k in (None, believed)
              for a in (False, True)]
    shapes += [FactQuery(g, subject_id=ana.id, valid_time=t) for t in when]
    shapes += [FactQuery(g, object_id=ana.id, valid_time=t) for t in when]
    shapes += [FactQuery(g, relation="LIVES_IN", valid_time=t, known_at=believed) for t in when]
    for query in shapes:
        assert store.count_facts(query) == len(store.facts(query)), query
    assert store.count_facts(FactQuery(g, valid_time=tg.core.time("2020-06-01"))) == 4


def test_the_groups_count_at_a_moment_follows_every_change(tg: TemporalGraph, tick, groups) -> None:
    """The count of a group's rows valid at a moment (search weighs its graph ranking by it; on
    Neo4j, rows started by then less rows ended by then, counted in indexes) is len(facts) at the
    edges of rows, after a row is ended, retracted, erased with its entity, and the group forgotten."""
    g = groups()
    store = tg.core.store
    edges = ("2017-12-31", "2018-01-01", "2019-01-01", "2020-12-31T23:59:59", "2021-01-01", "2024-06-01",
             "2031-01-01", "2040-01-01")
    moments = [None, *(tg.core.time(t) for t in edges)]

    def counted() -> list[int]:
        counts = [store.count_facts(FactQuery(g, valid_time=t)) for t in moments]
        assert counts == [len(store.facts(FactQuery(g, valid_time=t))) for t in moments]
        return counts

    tick()
    tg.add_fact("Ana", "lives in", "Rome", valid_at="2019-01-01", group_id=g)
    tg.add_fact("Bo", "works at", "Acme", valid_at="2018-01-01", invalid_at="2021-01-01", group_id=g)
    tg.add_fact("Ana", "likes", "chess", group_id=g)  # no start
    tg.add_fact("Cy", "works at", "Initech", valid_at="2031-01-01", group_id=g)  # starts later
    tg.add_fact("Dee", "knows", "Ana", valid_at="2019-01-01", group_id=g)
    assert counted() == [5, 1, 2, 4, 4, 3, 3, 4, 4]
    tick()
    tg.add_fact("Ana", "lives in", "Paris", valid_at="2024-06-01", group_id=g)  # Rome ends there
    tg.end_fact("Dee", "knows", "Ana", at="2021-01-01", group_id=g)
    assert counted() == [6, 1, 2, 4, 4, 2, 2, 3, 3]
    tick()
    tg.retract_fact("Ana", "likes", "chess", group_id=g)
    tg.erase_entity("Bo", group_id=g)
    assert counted() == [4, 0, 0, 2, 2, 1, 1, 2, 2]
    tg.forget(g)
    assert counted() == [0] * len(moments)


@pytest.mark.slow
def test_vectors_are_written_with_the_records_and_follow_expiry(store_factory, clock, tick, groups) -> None:
    g = groups()
    with TemporalGraph(store_factory(), clock=clock) as tg:
        tick()
        try:
            tg.add_fact("Ana", "lives in", "Rome", valid_at="2019-01-01", group_id=g,
                        text="Ana lives in Rome")
            query = tg.embedder.encode(["Ana lives in Rome"])[0]
            first = tg.core.store.vector_search(g, "fact", query, 5)
            assert [f for f, _ in first] and first[0][1] > 0.99
            tick()
            tg.add_fact("Ana", "lives in", "Paris", valid_at="2022-01-01", group_id=g,
                        text="Ana lives in Paris")
            found = dict(tg.core.store.vector_search(g, "fact", query, 5))
            current = {f.id for f in tg.core.store.facts(FactQuery(g))}
            assert set(found) == current  # the expired Rome row left the index; its successor came in
            assert tg.reindex(g) == 0
        finally:
            tg.forget(g)


def test_batched_reads_answer_as_the_single_reads_they_are_made_of(tg: TemporalGraph, tick, groups) -> None:
    """entities_by_keys, entity_fact_presence and facts_around (a search's names, the standing of
    the entities it finds, the named entities' neighbourhood: one statement each on a server)
    answer as the single reads they batch (temporal_graph.core.stores.composed), at every time."""
    from temporal_graph.core.names import exact_key, name_key
    from temporal_graph.core.stores import composed

    g, other = groups(), groups("other")
    tick()
    tg.add_fact("Ana", "lives in", "Rome", valid_at="2019-01-01", group_id=g)
    tg.add_fact("Ana", "likes", "chess", group_id=g)
    tg.add_fact("Bo", "works at", "Acme", valid_at="2018-01-01", invalid_at="2021-01-01", group_id=g)
    tg.add_fact("Cy", "knows", "Ana", valid_at="2017-05-01", group_id=g)
    tg.add_fact("Ana", "knows", "Ana", valid_at="2016-01-01", group_id=g)  # both sides
    tg.add_fact("Dee", "likes", "chess", group_id=other)
    believed = tick()
    tg.add_fact("Ana", "lives in", "Paris", valid_at="2022-01-01", group_id=g)
    tg.retract_fact("Cy", "knows", "Ana", group_id=g)  # Cy's only fact: recorded, none holds
    store = tg.core.store
    ids = [e.id for e in store.entities(g)] + [e.id for e in store.entities(other)] + ["no-such-entity"]
    keys = [k for name in ("Ana", "ana", "ACME", "Dee", "nobody") for k in (name_key(name), exact_key(name))]
    assert store.entities_by_keys(g, keys) == composed.entities_by_keys(store, g, keys)
    assert set(store.entities_by_keys(g, keys)) == {name_key("Ana"), exact_key("Ana"), name_key("ACME")}
    for when in [None, *(tg.core.time(t) for t in ("2016-06-01", "2019-06-01", "2020-06-01", "2023-01-01"))]:
        for known in (None, believed):
            presence = store.entity_fact_presence(g, ids, valid_time=when, known_at=known)
            assert presence == composed.entity_fact_presence(store, g, ids, valid_time=when, known_at=known)
            around = store.facts_around(g, ids, valid_time=when, known_at=known, limit=2)
            expected = composed.facts_around(store, g, ids, valid_time=when, known_at=known, limit=2)
            assert {i: (n, sorted(f.id for f in rows)) for i, (n, rows) in around.items()} == \
                   {i: (n, sorted(f.id for f in rows)) for i, (n, rows) in expected.items()}
    cy = store.entity_by_key(g, "cy")
    assert cy is not None
    presence = store.entity_fact_presence(g, [cy.id], valid_time=tg.core.now(), known_at=None)
    assert presence[cy.id] == (False, True)  # recorded, none holds: search leaves Cy out


def test_record_counts_count_what_the_reads_list(tg: TemporalGraph, tick, groups, clock) -> None:
    """A copy compares both sides by these counts: each kind as its listing read answers, every
    version of facts, summaries and insights, the records still without a vector, one group only."""
    g, other = groups(), groups("other")
    tick()
    tg.add_fact("Ana", "lives in", "Rome", valid_at="2019-01-01", group_id=g)
    tick()
    tg.add_fact("Ana", "lives in", "Paris", valid_at="2022-01-01", group_id=g)  # Rome's versions end
    kept = tg.add_episode("Bo likes chess.", reference_time="2024-01-02", speaker="Bo", group_id=g)
    gone = tg.add_episode("Cy works at Acme.", reference_time="2024-01-03", speaker="Cy", group_id=g)
    tg.retract_episode(gone.episode.id, group_id=g)
    tg.add_fact("Dee", "likes", "tea", group_id=other)
    store = tg.core.store
    fact = tg.now("Ana", "lives in", group_id=g)[0]
    ana = store.entity_by_key(g, "ana")
    assert ana is not None
    unit = [1.0] + [0.0] * 383
    vectors = ChangeSet(fact_embeddings={fact.id: unit}, entity_embeddings={ana.id: unit},
                        episode_embeddings={kept.episode.id: unit})
    store.write(lambda tx: tx.apply(vectors))
    store.write(lambda tx: tx.apply(ChangeSet(insights=[Insight(
        id="i1", group_id=g, text="Ana moves often", subject_ids=(ana.id,), subjects=("Ana",),
        derived_from=(fact.id,), created_at=clock(), pattern="test")])))

    counts = store.record_counts(g)
    assert counts == composed.record_counts(store, g)
    assert list(counts) == list(RECORD_COUNTS)
    assert counts["episodes"] == 2 and counts["insight versions"] == 1
    assert counts["fact versions"] == len(store.facts(FactQuery(g, all_versions=True))) > 3
    assert counts["episodes without a vector"] == 0  # the retracted one is no longer searched
    assert counts["entities without a vector"] == counts["entities"] - 1 > 0
    assert counts["summary versions"] > 0
    assert store.record_counts(other)["fact versions"] == 1
