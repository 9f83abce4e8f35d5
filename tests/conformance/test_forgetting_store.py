"""Un-learning on every store: a withdrawn message's facts give way to what it had ended, an erased
one leaves nothing in any version, and retention keeps current beliefs."""

from __future__ import annotations

from datetime import timedelta

from temporal_graph import TemporalGraph
from temporal_graph.core.stores.protocol import FactQuery


def _lives(tg: TemporalGraph, group: str) -> list[tuple[str, bool, tuple[str, ...]]]:
    return [(f.object, f.invalid_at is None, f.episode_ids)
            for f in tg.history("Ana", "lives in", group_id=group)]


def test_retract_then_erase_then_prune(tg: TemporalGraph, clock, groups) -> None:
    g, other = groups(), groups("other")

    def tick() -> None:
        clock.set(clock() + timedelta(days=1))

    tg.add_fact("Ana", "lives in", "Paris", valid_at="2020-01-01", episode_id="e1", group_id=g)
    tick()
    tg.add_fact("Ana", "lives in", "Rome", valid_at="2022-01-01", episode_id="e2", group_id=g)
    tg.add_fact("Ana", "lives in", "Rome", valid_at="2022-01-01", episode_id="e2", group_id=other)
    tick()
    before = clock()
    tick()
    done = tg.retract_episode("e2", group_id=g)
    assert {f.object for f in done.added} == {"Paris"}
    assert _lives(tg, g) == [("Paris", True, ("e1",))]
    assert {f.object for f in tg.as_of("2023-01-01", known_at=before, group_id=g)} == {"Rome"}
    assert [f.object for f in tg.now("Ana", group_id=other)] == ["Rome"]  # another group is untouched

    tick()
    tg.erase_episode("e2", group_id=g)
    every = tg.core.store.facts(FactQuery(g, all_versions=True))
    assert all("e2" not in f.episode_ids and f.object != "Rome" for f in every)
    assert _lives(tg, g) == [("Paris", True, ("e1",))]

    tick()
    assert tg.prune(history_before=clock(), group_id=g).versions_removed >= 1
    assert _lives(tg, g) == [("Paris", True, ("e1",))]
    assert len(tg.audit(tg.history("Ana", group_id=g)[0].fact_id, group_id=g)) == 1



def test_erasing_a_person_with_their_messages_takes_what_they_said_under_every_id(
    tg: TemporalGraph, clock, groups
) -> None:
    """Messages that gave no fact, said under the person's name or an alias declared for them,
    go with them; someone else's message stays."""
    g = groups()
    tg.alias_speaker("qzbobby", "Qzorvanna", group_id=g)
    told = [tg.add_episode(text, reference_time="2024-01-01", speaker=speaker, group_id=g).episode.id
            for text, speaker in [("I live in Denver.", "Qzorvanna"), ("Good morning everyone!", "Qzorvanna"),
                                  ("Hi all!", "qzbobby"), ("Lovely weather.", "Mallory")]]
    clock.set(clock() + timedelta(days=1))
    report = tg.erase_entity("Qzorvanna", include_episodes=True, group_id=g)
    assert sorted(report.episodes) == sorted(told[:3])
    assert [e.id for e in tg.core.store.episodes(g)] == [told[3]]
    assert "Qzorvanna" not in tg.context("who said good morning?", group_id=g)
    assert tg.find_entity("Qzorvanna", g) is None
