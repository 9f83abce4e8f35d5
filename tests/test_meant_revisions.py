"""A value revised in other words ("my resting heart rate is 72 bpm", then "I'm at 61 bpm since I
started running"): the sentence vectors say both answer the question and say the same thing, the
rules of :mod:`temporal_graph.core.meant_revisions` say the newer is news of the same holder's value
of the same kind. The pairs are our own (none is a phrasing of a benchmark set)."""

from __future__ import annotations

import pytest

from temporal_graph import TemporalGraph
from temporal_graph.core.meant_revisions import revised_in_other_words, value_sentences

# ruff: noqa: E501 (a case a line)

# (question, older sentence, newer sentence): what the rules accept once the vectors agree.
REVISED = [
    ("What is Ana's resting heart rate?", "For context, my resting heart rate is 72 bpm.", "Side note: I'm at 61 bpm since I started running."),
    ("How many pages is Ana's thesis?", "For context, my thesis is 140 pages long.", "Side note: it's 182 pages now."),
    ("How many hours does Ana sleep?", "Background: I sleep about 6 hours a night.", "FYI I'm getting 8 hours a night now."),
    ("What time does Ana's pottery class start?", "Background: pottery class starts at 18:30 on Tuesdays.", "Heads up, we throw at 19:15 these days."),
]

# Pairs the vectors may find alike that the rules refuse.
LOOKALIKES = [
    # the same value again, however written
    ("What is Ana's resting heart rate?", "My resting heart rate is 72 bpm.", "I'm still at 72 bpm."),
    ("What's the price of diesel?", "Diesel is 151p a litre.", "diesel 151p/l again this week"),
    # a value of another type, or of another kind
    ("What does Ana do on Mondays?", "FYI Monday is book club night for me.", "So I'm taking 16 units at night now."),
    ("What is Ana's hourly rate?", "I charge €85 an hour for translation.", "I put away €300 a month."),
    # someone else's, or another holder the older text does not name
    ("What is Ana's resting heart rate?", "My resting heart rate is 72 bpm.", "My brother is at 58 bpm."),
    ("What is Ana's resting heart rate?", "My dad's resting heart rate is 80 bpm.", "I'm at 61 bpm since I started running."),
    ("How warm does Ana keep the house?", "The thermostat is set to 21°C.", "The guest room heater is set to 18°C."),
    # a name in the subject is a holder, not a value; so is a headline's, before its colon
    ("How much does Ana's Pro plan cost?", "The Team plan costs $79 a month.", "Our Pro plan costs $29 a month."),
    ("How many analysts does team Osprey have?", "Team Osprey has 6 analysts.", "Team Kestrel has 9 analysts."),
    ("What is the Borealis renewal fee?", "Borealis renewal fee: €4,000.", "Vantage renewal fee: €3,200."),
    # two records
    ("What's the status of order 5120?", "Order 5120: 3 boxes shipped.", "Order 5121: 5 boxes shipped."),
    # a question, a wish, a negation
    ("How many pages is Ana's thesis?", "My thesis is 140 pages long.", "Should it be 200 pages?"),
    ("How many pages is Ana's thesis?", "My thesis is 140 pages long.", "I'd like it to be 120 pages."),
    ("Which broker does Ana use?", "My investments sit with Degiro.", "I never moved to Trading 212."),
]


@pytest.mark.parametrize("question, old, new", REVISED)
def test_a_value_said_again_in_other_words_is_read(question: str, old: str, new: str) -> None:
    assert value_sentences(old) == (old,) and value_sentences(new) == (new,)
    assert revised_in_other_words(old, new, old, new, question, 2024)


@pytest.mark.parametrize("question, old, new", LOOKALIKES)
def test_a_lookalike_in_other_words_is_no_revision(question: str, old: str, new: str) -> None:
    sentences = value_sentences(new)
    assert not (sentences and revised_in_other_words(old, new, old, sentences[0], question, 2024))


def test_a_sentence_without_a_stated_value_is_not_compared() -> None:
    assert value_sentences("How do I block spam calls? Thanks a lot for the help.") == ()
    assert value_sentences("Is 72 bpm normal?") == ()


def _told(tg: TemporalGraph, tick, old: str, new: str, speaker: str = "Ana") -> tuple[str, str]:
    tick()
    a = tg.add_episode(old, speaker=speaker, reference_time="2024-02-01").episode.id
    tick()
    tg.add_episode("Can you suggest a good book about habits?", speaker=speaker, reference_time="2024-04-01")
    tick()
    b = tg.add_episode(new, speaker=speaker, reference_time="2024-08-01").episode.id
    return a, b


QUESTION = "What is Ana's resting heart rate?"
OLD = "For context, my resting heart rate is 72 bpm. What is a good warm-up?"


def test_search_and_context_label_a_value_revised_in_other_words(clock, tick) -> None:
    """No word rule reads this pair: the vectors find it. The older message and the fact read from
    it are labelled, in search and in the prompt block."""
    with TemporalGraph.open(":memory:", clock=clock) as tg:
        old_id, new_id = _told(tg, tick, OLD, "Side note: I'm at 61 bpm since I started running. How do I stretch?")
        hits = [h for h in tg.search(QUESTION, limit=10) if h.episode is not None]
        ids = [h.episode.id for h in hits]
        assert ids.index(new_id) < ids.index(old_id)
        old = hits[ids.index(old_id)]
        assert old.standing == "possibly_superseded" and old.superseded_by == (new_id,)
        # the fact read from the older message carries its doubt, and ranks below the newer message
        learned = [h for h in tg.search(QUESTION, limit=10) if h.fact is not None and old_id in h.fact.episode_ids]
        assert learned and all(h.standing == "possibly_superseded" and h.superseded_by == (new_id,) for h in learned)
        lines = [line for line in tg.context(QUESTION).splitlines() if "72 bpm" in line]
        assert lines and all("[possibly superseded" in line for line in lines)


def test_a_fact_from_a_part_of_a_message_not_revised_stays_current(clock, tick) -> None:
    """A message revised in one part ("a full CI run takes 45 minutes" -> "31 minutes these days") is
    possibly superseded; the fact read from its other part (the phone) is not in doubt, in search or
    in an answer."""
    with TemporalGraph.open(":memory:", clock=clock) as tg:
        old_id, _ = _told(tg, tick, "My phone is the iPhone 15, and a full CI run takes 45 minutes. Any tips?",
                          "In case it matters: a full CI run is 31 minutes these days. How do I speed up tests?")
        hits = tg.search("What phone does Ana use?", limit=10)
        assert any(h.episode is not None and h.episode.id == old_id and h.standing == "possibly_superseded"
                   for h in hits)
        phone = [h for h in hits if h.fact is not None and "iPhone 15" in h.fact.text]
        assert phone and all(h.standing is None for h in phone)
        answer = tg.ask("What phone does Ana use?")
        assert "iPhone 15" in answer.text and answer.possibly_superseded_by == []


# Newer messages of the same search that revise nothing of Ana's 72 bpm.
LOOKALIKES = [
    ("Side note: my brother is at 58 bpm since he started running. How do I stretch?", "Ana"),
    ("Side note: I'm at 61 bpm since I started running. How do I stretch?", "Ben"),  # another speaker's
    ("Side note: would 61 bpm be better? How do I stretch?", "Ana"),
]


@pytest.mark.parametrize("new, speaker", LOOKALIKES)
def test_a_lookalike_in_other_words_leaves_the_older_message_current(clock, tick, new: str, speaker: str) -> None:
    with TemporalGraph.open(":memory:", clock=clock) as tg:
        tick()
        old_id = tg.add_episode(OLD, speaker="Ana", reference_time="2024-02-01").episode.id
        tick()
        tg.add_episode(new, speaker=speaker, reference_time="2024-08-01")
        hit = next(h for h in tg.search(QUESTION, limit=10) if h.episode is not None and h.episode.id == old_id)
        assert hit.standing in ("current", "unparsed")


def test_an_answer_from_a_value_revised_in_other_words_says_it_may_be_out_of_date(clock, tick) -> None:
    """``ask`` answers from the fact the rules read (72 bpm), as before, and now says what may have
    replaced it: an agent reading the answer can tell, as one reading the search can."""
    with TemporalGraph.open(":memory:", clock=clock) as tg:
        old_id, new_id = _told(tg, tick, OLD, "Side note: I'm at 61 bpm since I started running. How do I stretch?")
        answer = tg.ask(QUESTION)
        assert answer.known and "72 bpm" in answer.text
        assert all(old_id in f.episode_ids for f in answer.facts)
        assert answer.possibly_superseded_by == [new_id]
        assert answer.text.endswith(
            '[possibly superseded: by the message of 2024-08-01: "Side note: I\'m at 61 bpm since I started running.'
            ' …"]')
        # before the newer message was told, nothing was in doubt
        earlier = tg.ask("What was Ana's resting heart rate in March 2024?")
        assert "72 bpm" in earlier.text and "superseded" not in earlier.text
        assert earlier.possibly_superseded_by == []


@pytest.mark.parametrize("new, speaker", LOOKALIKES)
def test_an_answer_beside_a_lookalike_is_not_doubted(clock, tick, new: str, speaker: str) -> None:
    with TemporalGraph.open(":memory:", clock=clock) as tg:
        tick()
        tg.add_episode(OLD, speaker="Ana", reference_time="2024-02-01")
        tick()
        tg.add_episode(new, speaker=speaker, reference_time="2024-08-01")
        answer = tg.ask(QUESTION)
        assert "72 bpm" in answer.text and "superseded" not in answer.text
        assert answer.possibly_superseded_by == []


@pytest.mark.parametrize("text, quoted", [
    ("Rent is €900.", "Rent is €900."),
    ("Hi! Rent is €900 now. Bye.", "… Rent is €900 now. …"),
    ("How do I fit training around a newborn (oh and my rent went up to £1,350 a month, if that matters)? Thanks",
     "…and my rent went up to £1,350 a month, if that matters)? …"),
    ("Nothing with a number here.", "Nothing with a number here."),
])
def test_a_newer_message_is_quoted_where_it_gives_its_value(text: str, quoted: str) -> None:
    from queries.probable import excerpt

    assert excerpt(text, "How much rent does Ana pay?") == quoted


def test_a_long_message_is_compared_by_a_few_of_its_sentences() -> None:
    """A pasted document states thousands of values: a read encodes a few sentences of it, those
    sharing the question's words first."""
    from queries.probable import SENTENCES, _compared

    lines = [f"Bay {n} holds {n * 3} crates." for n in range(40)]
    text = " ".join([*lines, "My resting heart rate is 72 bpm."])
    kept = _compared(text, QUESTION)
    assert len(kept) == SENTENCES and kept[0] == "My resting heart rate is 72 bpm."
