"""A message the extractor read only part of, on every store (issue 50): when the facts read from it
are replaced, what nobody read may still hold, so the message is partly superseded (labelled,
below what replaced it, its kept part still found), not wholly superseded and left out. A message
that said nothing else goes out of date whole, greeting, feeling or place name beside it or not."""

from __future__ import annotations

from temporal_graph import TemporalGraph

OLD = "Rafa lives in Leeds; he is a keen birdwatcher."


def _tell(tg: TemporalGraph, tick, g: str, text: str, when: str, speaker: str = "Ann") -> str:
    tick()
    return tg.add_episode(text, speaker=speaker, reference_time=when, group_id=g).episode.id


def _rafa_moved(tg: TemporalGraph, tick, g: str) -> str:
    """OLD, then a move that replaces its Leeds part (the birdwatching nobody read): the group."""
    _tell(tg, tick, g, OLD, "2024-01-05")
    _tell(tg, tick, g, "Rafa moved to York.", "2024-06-01")
    return g


def _messages(hits) -> list[tuple[str, str | None]]:
    return [(h.text, h.standing) for h in hits if h.episode is not None]


def test_a_message_with_an_unread_part_is_partly_superseded_in_search_and_context(
    tg: TemporalGraph, tick, groups
) -> None:
    g = _rafa_moved(tg, tick, groups())

    now = tg.search("Leeds", group_id=g)
    assert now.stale_left_out == 0
    assert _messages(now) == [(OLD, "partly_superseded")]  # kept, labelled, not left out
    york = [f.id for f in tg.now("Rafa", "LIVES_IN", group_id=g)]
    assert [h.fact.id for h in now if h.fact is not None] == york  # what replaced it, just above it
    old = next(h for h in now if h.text == OLD)
    assert old.stale_statements == ("Rafa lives in Leeds.",)
    assert list(old.replaced_by) == york

    kept = tg.search("Is Rafa a birdwatcher?", group_id=g)  # the part that may still hold is found
    assert (OLD, "partly_superseded") in _messages(kept)
    assert (OLD, "partly_superseded") in _messages(tg.search("birdwatcher", group_id=g, stale="hide"))

    block = tg.context("Is Rafa a birdwatcher?", group_id=g)
    assert f"{OLD} [partly superseded: no longer: Rafa lives in Leeds.; now: Rafa lives in York" in block


def test_a_terse_profile_keeps_what_was_not_read(tg: TemporalGraph, tick, groups) -> None:
    g = groups()
    profile = "Kim: lives in Oslo, vegan, two kids."  # only where Kim lives is read
    _tell(tg, tick, g, profile, "2024-01-05")
    _tell(tg, tick, g, "Kim moved to Bergen.", "2024-06-01")
    assert _messages(tg.search("Oslo vegan", group_id=g)) == [(profile, "partly_superseded")]
    assert _messages(tg.search("Bergen", group_id=g)) == [("Kim moved to Bergen.", "current")]


def test_a_message_that_said_nothing_else_goes_out_of_date_whole(tg: TemporalGraph, tick, groups) -> None:
    for n, old in enumerate(("I live in Leeds.",
                             "Hi! Great news, I moved to Leeds last week, so excited.",
                             "I live in Leeds, England.")):
        g = groups(f"whole{n}")
        _tell(tg, tick, g, old, "2024-01-05", speaker="Sam")
        _tell(tg, tick, g, "I moved to York.", "2024-06-01", speaker="Sam")
        now = tg.search("Leeds York", group_id=g)
        assert old not in [h.text for h in now], old
        assert now.stale_left_out == 1, old
        assert (old, "superseded") in _messages(tg.search("Leeds York", group_id=g, stale="show"))
        assert old not in tg.context("Where does Sam live? Leeds", group_id=g)


def test_retracting_the_replacement_makes_the_partly_replaced_message_current_again(
    tg: TemporalGraph, tick, groups
) -> None:
    g = groups()
    _tell(tg, tick, g, OLD, "2024-01-05")
    moved = _tell(tg, tick, g, "Rafa moved to York.", "2024-06-01")
    tick()
    tg.retract_episode(moved, group_id=g)
    assert dict(_messages(tg.search("Rafa Leeds birdwatcher", group_id=g, stale="show")))[OLD] == "current"


def test_as_of_before_the_change_it_is_current(tg: TemporalGraph, tick, groups) -> None:
    g = _rafa_moved(tg, tick, groups())
    then = tg.search("Where did Rafa live? Leeds", group_id=g, as_of="2024-03-01")
    assert (OLD, "current") in _messages(then)


def test_the_message_that_told_the_replacing_fact_ranks_above_the_partly_replaced_one(
    tg: TemporalGraph, tick, groups
) -> None:
    g = _rafa_moved(tg, tick, groups())
    # The old message holds more of the question's words; the York fact replaced its Leeds part.
    found = _messages(tg.search("Rafa lives where, and is he a birdwatcher?", group_id=g))
    assert found == [("Rafa moved to York.", "current"), (OLD, "partly_superseded")]
