"""What changed since a moment K, on every store: the messages withdrawn and the rows expired
since, which a search as known at K adds to the indexes of current records, each read without
reading the group's others."""

from __future__ import annotations

from temporal_graph import TemporalGraph
from temporal_graph.core.stores.protocol import FactQuery


def _tell(tg: TemporalGraph, tick, g: str, text: str) -> str:
    tick()
    return tg.add_episode(text, speaker="Ann", reference_time=tick(0), group_id=g).episode.id


def test_a_search_as_known_at_k_offers_messages_withdrawn_since_without_reading_the_group(
        tg, tick, groups, monkeypatch) -> None:
    g = groups()
    start = tick(0)
    early = _tell(tg, tick, g, "The boiler was serviced by Nordheat.")
    late = _tell(tg, tick, g, "The boiler is serviced every March.")
    _tell(tg, tick, g, "The boiler room key is with Ola.")
    tick()
    tg.retract_episode(early, group_id=g)
    between = tick()
    tick()
    tg.retract_episode(late, group_id=g)
    after = tick()
    store = tg.core.store

    assert [e.id for e in store.withdrawn_episodes(g, between)] == [late]
    assert [e.id for e in store.withdrawn_episodes(g, start)] == [early, late]  # in the order told
    assert store.withdrawn_episodes(g, after) == []

    whole_group_reads = []
    episodes = store.episodes
    monkeypatch.setattr(store, "episodes", lambda group_id, *, ids=None: (
        whole_group_reads.append(group_id) if ids is None else None) or episodes(group_id, ids=ids))
    then = [h.episode.id for h in tg.search("boiler serviced", known_at=between, group_id=g) if h.episode]
    assert late in then and early not in then  # withdrawn since K: offered then; withdrawn by K: not
    assert [h.episode.id for h in tg.search("boiler serviced", known_at=after, group_id=g)
            if h.episode and h.episode.id in (early, late)] == []
    assert whole_group_reads == []


def test_rows_expired_since_k_are_those_believed_at_k_and_no_longer_and_counted(tg, tick, groups) -> None:
    g = groups()
    moments = [tick()]
    tg.add_fact("Ana", "lives in", "Oslo", valid_at="2019", group_id=g)
    tg.add_fact("Ana", "works at", "Acme", valid_at="2019", group_id=g)
    moments.append(tick())
    tg.add_fact("Ana", "lives in", "Rome", valid_at="2021", group_id=g)  # Oslo's row ends in 2021
    moments.append(tick())
    tg.add_fact("Ana", "works at", "Globex", valid_at="2020", group_id=g)
    tg.add_fact("Bo", "lives in", "Lima", valid_at="2018", group_id=g)
    tg.add_fact("Bo", "likes", "jazz", group_id=g)  # no valid time: since forever
    moments.append(tick())
    tg.add_fact("Bo", "likes", "jazz", invalid_at="2020", group_id=g)  # known later to have ended
    moments.append(tick())
    store = tg.core.store
    for k in moments:
        for valid_time in (None, tg.core.time("2019-06-01"), tg.core.time("2022-06-01")):
            believed = store.facts(FactQuery(g, known_at=k, valid_time=valid_time))
            expected = sorted(f.id for f in believed if f.expired_at is not None)
            found = store.facts(FactQuery(g, known_at=k, valid_time=valid_time, expired_after=k))
            assert sorted(f.id for f in found) == expected, (k, valid_time)
            assert store.count_facts(FactQuery(g, known_at=k, valid_time=valid_time, expired_after=k)) \
                == len(expected)
            # the count a search weighs by, as known at K, without reading the group
            assert store.count_facts(FactQuery(g, known_at=k, valid_time=valid_time)) == len(believed)
    assert store.facts(FactQuery(g, known_at=moments[1], expired_after=moments[1]))  # Oslo's first row
    assert store.facts(FactQuery(g, expired_after=moments[0])) == []  # current rows never expired
