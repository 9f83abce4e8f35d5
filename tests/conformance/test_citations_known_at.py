"""A fact's provenance as it was known: a read at transaction time K lists, on each row, only the
messages that were recorded by K. A message saying a fact again is appended to the row it
confirms, in place; before that message was recorded, no read may name it (on every store)."""

from __future__ import annotations

from datetime import datetime

from temporal_graph import TemporalGraph

SAID = ("Sam lives in Austin.", "Sam still lives in Austin.", "Sam lives in Austin, as before.")


def _say(tg: TemporalGraph, tick, g: str, text: str, when: str) -> tuple[str, datetime]:
    at = tick()
    return tg.add_episode(text, reference_time=when, group_id=g).episode.id, at


def _cited(facts) -> list[tuple[str, ...]]:
    return [f.episode_ids for f in facts if f.relation == "LIVES_IN"]


def test_a_row_read_as_known_at_k_cites_only_the_messages_recorded_by_k(tg, tick, groups) -> None:
    g = groups()
    told = [_say(tg, tick, g, text, f"{2020 + i}-01-01") for i, text in enumerate(SAID)]
    ids = [episode_id for episode_id, _ in told]
    assert _cited(tg.now(group_id=g)) == [tuple(ids)]  # one row, confirmed twice
    for n, (_, recorded) in enumerate(told, start=1):
        then = tg.as_of("2024-06-01", known_at=recorded, group_id=g)
        assert _cited(then) == [tuple(ids[:n])], f"known at the {n}th message"
        assert _cited(tg.history("Sam", known_at=recorded, group_id=g)) == [tuple(ids[:n])]
        graph = tg.snapshot(as_of="2024-06-01", known_at=recorded, group_id=g)
        assert [d["fact"].episode_ids for _, _, d in graph.edges(data=True)] == [tuple(ids[:n])]
        found = [h.fact for h in tg.search("Where does Sam live?", known_at=recorded, group_id=g)
                 if h.fact is not None]
        assert _cited(found) == [tuple(ids[:n])]
        hops = tg.paths("Sam", end="Austin", known_at=recorded, group_id=g)
        assert [step.episode_ids for p in hops for step in p.hops] == [tuple(ids[:n])]
        report = tg.learned_after(recorded, group_id=g)
        assert report.clean and report.leaks(then) == []
        assert report.leaks(tg.now(group_id=g)) == ids[n:]  # a read of now cites what came later


def test_a_later_version_keeps_every_citation_of_the_row_it_revises(tg, tick, groups) -> None:
    """A new version (here: the row ended) is written with the provenance of the row it revises;
    as known once it is written, every one of those messages is cited, recorded before it or not."""
    g = groups()
    first, _ = _say(tg, tick, g, "Sam lives in Austin.", "2020-01-01")
    again, _ = _say(tg, tick, g, "Sam still lives in Austin.", "2021-01-01")
    tick()
    tg.end_fact("Sam", "lives in", "Austin", at="2022-01-01", group_id=g)
    ended = tick()
    rows = tg.as_of("2021-06-01", known_at=ended, group_id=g)
    assert _cited(rows) == [(first, again)]
