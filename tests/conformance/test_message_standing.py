"""Where a message stands, on every store: the Chicago -> Denver case through search and context,
with each ``stale`` setting and the revisions that change a message's standing (told out of order,
withdrawn, confirmed), and a search as known at an earlier moment."""

from __future__ import annotations

from temporal_graph import TemporalGraph


def _tell(tg: TemporalGraph, tick, g: str, text: str, when: str) -> str:
    tick()
    return tg.add_episode(text, speaker="Sam", reference_time=when, group_id=g).episode.id


def _messages(hits) -> list[tuple[str, str | None]]:
    return [(h.text, h.standing) for h in hits if h.episode is not None]


def test_a_message_the_memory_knows_is_out_of_date_is_left_out_counted_labelled_or_shown(
    tg: TemporalGraph, tick, groups
) -> None:
    g = groups()
    _tell(tg, tick, g, "I live in Chicago.", "2023-01-05")
    _tell(tg, tick, g, "Good morning everyone!", "2023-02-05")
    _tell(tg, tick, g, "I moved to Denver.", "2023-06-01")
    denver = [f.id for f in tg.now("Sam", "LIVES_IN", group_id=g)]

    hidden = tg.search("where does Sam live? Chicago Denver", group_id=g)
    assert ("I live in Chicago.", "superseded") not in _messages(hidden)
    assert ("I moved to Denver.", "current") in _messages(hidden)
    assert hidden.stale_left_out == 1

    labelled = tg.search("where does Sam live? Chicago Denver", group_id=g, stale="label")
    assert labelled[-1].text == "I live in Chicago." and labelled[-1].standing == "superseded"
    assert list(labelled[-1].replaced_by) == denver
    assert labelled.stale_left_out == 0

    shown = tg.search("where does Sam live? Chicago Denver", group_id=g, stale="show")
    assert ("I live in Chicago.", "superseded") in _messages(shown)
    order = [h.text for h in shown]
    assert order.index("Sam lives in Denver.") < order.index("I moved to Denver.")  # fact above its source

    past = tg.search("Did Sam live in Chicago?", group_id=g)  # about the past: its evidence, labelled
    assert past.stale == "show" and ("I live in Chicago.", "superseded") in _messages(past)
    assert tg.search("Did Sam live in Chicago?", group_id=g, stale="hide").stale_left_out == 1

    block = tg.context("where does Sam live? Chicago", group_id=g)
    assert "I live in Chicago." not in block and "I moved to Denver." in block
    block = tg.context("where does Sam live? Chicago", group_id=g, stale="label")
    assert "I live in Chicago. [superseded: now: Sam lives in Denver (since 2023-06-01)]" in block


def test_standing_follows_revisions_out_of_order_withdrawn_and_confirmed(
    tg: TemporalGraph, tick, groups
) -> None:
    g = groups()
    _tell(tg, tick, g, "I moved to Denver.", "2023-06-01")
    _tell(tg, tick, g, "I live in Chicago.", "2023-01-05")  # told later, about earlier: ended by the move
    standing = dict(_messages(tg.search("Chicago Denver", group_id=g, stale="show")))
    assert standing == {"I moved to Denver.": "current", "I live in Chicago.": "superseded"}

    h = groups("withdrawn")
    _tell(tg, tick, h, "I live in Chicago.", "2023-01-05")
    moved = _tell(tg, tick, h, "I moved to Denver.", "2023-06-01")
    tick()
    tg.retract_episode(moved, group_id=h)
    again = tg.search("Chicago", group_id=h, stale="show")
    assert dict(_messages(again)) == {"I live in Chicago.": "current"}

    k = groups("confirmed")
    _tell(tg, tick, k, "I live in Chicago.", "2023-01-05")
    _tell(tg, tick, k, "I still live in Chicago.", "2023-03-05")
    found = dict(_messages(tg.search("Chicago", group_id=k, stale="show")))
    assert set(found.values()) == {"current"} and len(found) == 2


def test_a_past_told_as_past_and_an_ending_stay_current(tg: TemporalGraph, tick, groups) -> None:
    """What a message said of a bounded past, or that something ended, is still what it said."""
    g = groups()
    _tell(tg, tick, g, "I worked at Initech from 2019 to 2021.", "2023-07-02")
    _tell(tg, tick, g, "I work at Globex.", "2023-08-01")
    _tell(tg, tick, g, "I left Globex.", "2024-02-01")
    found = {text: standing for query in ("Initech", "Globex")
             for text, standing in _messages(tg.search(query, group_id=g, stale="show"))}
    assert found == {"I worked at Initech from 2019 to 2021.": "current", "I left Globex.": "current",
                     "I work at Globex.": "superseded"}


def test_one_time_model_for_search_as_of_and_known_at(tg: TemporalGraph, tick, groups) -> None:
    g = groups()
    _tell(tg, tick, g, "I live in Chicago.", "2023-01-05")
    before_move = tick()
    _tell(tg, tick, g, "I moved to Denver.", "2023-06-01")

    then = tg.search("Chicago Denver live", group_id=g, as_of="2023-03-01")
    assert _messages(then) == [("I live in Chicago.", "current")]  # the move was not told by then
    assert [h.text for h in then if h.fact is not None] == ["Sam lives in Chicago."]

    known = tg.search("Chicago Denver live", group_id=g, known_at=before_move)
    assert _messages(known) == [("I live in Chicago.", "current")]
    assert [h.text for h in known if h.fact is not None] == ["Sam lives in Chicago."]  # expired since, found


def test_an_entity_whose_facts_all_ended_is_no_hit_for_now(tg: TemporalGraph, tick, groups) -> None:
    g = groups()
    told = _tell(tg, tick, g, "I live in Zqvillea.", "2023-01-05")
    assert any(h.entity is not None and h.text == "Zqvillea" for h in tg.search("Zqvillea", group_id=g))
    tick()
    tg.retract_episode(told, group_id=g)
    assert not [h for h in tg.search("Zqvillea", group_id=g) if h.entity is not None]
    assert not [h for h in tg.search("Zqvillea", group_id=g, stale="show") if h.episode is not None]


def test_a_broad_question_gets_the_weightiest_current_facts_and_nothing_about_nobody(
    tg: TemporalGraph, tick, groups
) -> None:
    g = groups()
    tick()
    tg.add_fact("Sam", "LIVES_IN", "Denver", valid_at="2023-06-01", group_id=g)
    tg.add_fact("Sam", "WORKS_AT", "Initech", valid_at="2023-07-01", group_id=g)
    tg.add_fact("Sam", "LIKES", "tea", valid_at="2023-07-01", group_id=g)
    hits = tg.search("What do you know about Sam?", group_id=g, kinds=("fact",))
    assert {h.text for h in hits} == {"Sam lives in Denver", "Sam works at Initech", "Sam likes tea"}
    assert all("broad question" in h.reasons[0] for h in hits)
    assert [h.fact.importance for h in hits if h.fact] == sorted((h.fact.importance for h in hits if h.fact),
                                                                   reverse=True)
    assert tg.search("What do you know about Zqnobody?", group_id=g, kinds=("fact",)) == []
    every_kind = tg.search("What do you know about Sam?", group_id=g)
    assert every_kind[0].entity is not None and len([h for h in every_kind if h.fact]) == 3


def test_a_snapshot_holds_messages_and_insights_with_counts(tg: TemporalGraph, tick, groups) -> None:
    g = groups()
    _tell(tg, tick, g, "I live in Chicago.", "2023-01-05")
    _tell(tg, tick, g, "Good morning everyone!", "2023-02-05")
    then = tg.core.now()
    _tell(tg, tick, g, "I moved to Denver.", "2023-06-01")
    graph = tg.snapshot(known_at=then, group_id=g)
    assert [e.content for e in graph.graph["episodes"]] == ["I live in Chicago.", "Good morning everyone!"]
    assert graph.graph["counts"] == {"facts": 1, "entities": 2, "episodes": 2, "insights": 0}
    assert len(tg.snapshot(group_id=g).graph["episodes"]) == 3


def test_paths_walk_the_facts_believed_at_known_at(tg: TemporalGraph, tick, groups) -> None:
    g = groups()
    tick()
    tg.add_fact("Ana", "WORKS_AT", "Acme", valid_at="2020-01-01", group_id=g)
    then = tg.core.now()
    tick()
    tg.retract_fact("Ana", "WORKS_AT", "Acme", group_id=g)
    tick()
    assert tg.paths("Ana", end="Acme", group_id=g) == []
    [path] = tg.paths("Ana", end="Acme", group_id=g, known_at=then)
    assert [f.text for f in path.hops] == ["Ana works at Acme"]


def test_a_change_the_question_names_labels_the_older_message_found_by_the_question(
    tg: TemporalGraph, tick, groups
) -> None:
    # "Bank: Nordea." and, months later, "Moved my salary account over to Revolut.": no word shared,
    # no fact read; the question says both are about the bank, and finds the newer one by its words.
    g = groups()
    tick()
    old = tg.add_episode("Bank: Nordea.", speaker="Olga", reference_time="2024-02-01", group_id=g).episode.id
    tick()
    tg.add_episode("Can you suggest a good book about habits?", speaker="Olga", reference_time="2024-04-01",
                   group_id=g)
    tick()
    new = tg.add_episode("Moved my salary account over to Revolut.", speaker="Olga",
                         reference_time="2024-08-01", group_id=g).episode.id
    hits = [h for h in tg.search("Which bank does Olga use?", group_id=g) if h.episode is not None]
    ids = [h.episode.id for h in hits]
    assert old in ids and new in ids and ids.index(new) < ids.index(old)
    assert hits[ids.index(old)].standing == "possibly_superseded"
    assert list(hits[ids.index(old)].superseded_by) == [new]
    assert "Bank: Nordea. [possibly superseded" in tg.context("Which bank does Olga use?", group_id=g)
