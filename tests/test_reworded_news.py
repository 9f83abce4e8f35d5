"""A newer message that reads like an older one with other values (``temporal_graph.core.rewording``)
marks it ``possibly_superseded`` only as news of the same thing: the refusals of a stated change
(``temporal_graph.core.change_cues``) stand in front of the rewording rule too. Someone else's
value, a plan, a question, a negation, the past told as past and advice leave the older message
current; so does another speaker's rewording, unless it names the same subject.

Through the public API (``add_episode``, ``search(...)``'s standings, ``context()`` lines), as
``tests/test_change_cues.py``. Each lookalike below does read as a rewording
(``rewording.revises``): what keeps the older message current is the refusal. The pairs are our own."""

from __future__ import annotations

import pytest

from temporal_graph import TemporalGraph
from temporal_graph.core.change_cues import reworded_as_news, states_change
from temporal_graph.core.rewording import revises

LABEL = "[possibly superseded"

REVISIONS = [
    ("The nightly build takes 40 minutes.", "After the cache fix the nightly build takes 12 minutes."),
    # a value told in passing, inside a request, is news
    ("The staging server has 32 GB of RAM.",
     "btw the staging server has 64 GB now, can you help me tune postgres?"),
    # a phone plan is no plan
    ("Priya's phone plan costs 20 euros.", "Priya's phone plan costs 25 euros since the price change."),
    ("Rent for the Leith flat is 950 pounds.", "The rent for the Leith flat is 1,020 pounds from June."),
    ("Globex payment terms: net 30.", "Globex payment terms: net 45."),
    # a lead-in before a colon names no subject
    ("Some background: the nightly build takes 40 minutes.",
     "Quick update: the nightly build takes 15 minutes."),
]

LOOKALIKES = [
    # someone else's value
    ("Our office is at 221 Baker Street.", "Our client moved to a new office."),
    ("The office is in Leeds.", "Their office is in York."),
    ("The office is in Leeds.", "Her office is in York."),
    # plans, wishes, hypotheticals, conditionals
    ("The data pipeline runs on Airflow.", "We might migrate the data pipeline to Dagster."),
    ("The office is at 221 Baker Street.", "The office will relocate to 5 Market Square."),
    ("The standup is at 9:30.", "If the standup is at 10 I can join."),
    ("The standup is at 9:30.", "Imagine the standup at 11."),
    # questions, without a question mark
    ("The staging server has 32 GB of RAM.", "does the staging server have 64 GB of RAM now"),
    ("The standup is at 9:30.", "is the standup at 10 now"),
    # negated
    ("The office is at 221 Baker Street.", "Nobody thinks the office is at 5 Market Square."),
    # the past told as past
    ("The office is at 221 Baker Street.", "In 2019 the office was at 5 Market Square."),
    ("The office is at 221 Baker Street.", "Years ago the office was at 5 Market Square."),
    # advice: a command, "for now", a relative clause
    ("The cache TTL is 300 seconds.", "Keep the cache TTL at 60 seconds for now."),
    ("The cache TTL is 300 seconds.", "Set the cache TTL to 60 seconds."),
    ("The cache TTL is 300 seconds.", "A cache TTL that is 60 seconds works better."),
    ("The batch size is 32.", "Try a batch size of 64 instead."),
]


def _tell(tg: TemporalGraph, tick, old: str, new: str,
          speakers: tuple[str, str] = ("Sam", "Sam")) -> tuple[str, str]:
    tick()
    a = tg.add_episode(old, speaker=speakers[0], reference_time="2024-01-10").episode.id
    tick()
    b = tg.add_episode(new, speaker=speakers[1], reference_time="2024-06-10").episode.id
    return a, b


def _standing(tg: TemporalGraph, query: str, episode_id: str):
    hits = tg.search(query, stale="label", limit=20)
    return next((h for h in hits if h.episode is not None and h.episode.id == episode_id), None)


@pytest.mark.parametrize("old, new", REVISIONS)
def test_a_rewording_told_as_news_labels_the_older_message(clock, tick, old: str, new: str) -> None:
    with TemporalGraph.open(":memory:", clock=clock) as tg:
        old_id, new_id = _tell(tg, tick, old, new)
        hit = _standing(tg, old, old_id)
        assert hit is not None and hit.standing in ("possibly_superseded", "superseded")
        if hit.standing == "possibly_superseded":
            assert new_id in hit.superseded_by


@pytest.mark.parametrize("old, new", LOOKALIKES)
def test_a_rewording_that_is_no_news_of_the_same_thing_leaves_it_current(clock, tick, old: str,
                                                                         new: str) -> None:
    assert revises(old, new)  # it reads as a rewording; the refusal is what keeps the older current
    with TemporalGraph.open(":memory:", clock=clock) as tg:
        old_id, _ = _tell(tg, tick, old, new)
        for query in (old, new):
            hit = _standing(tg, query, old_id)
            assert hit is None or hit.standing in ("current", "unparsed"), (query, hit.standing)
        lines = [line for line in tg.context(old).splitlines() if old.rstrip(".") in line]
        assert not any(LABEL in line for line in lines)


def test_another_speakers_rewording_revises_only_when_it_names_the_subject(clock, tick) -> None:
    with TemporalGraph.open(":memory:", clock=clock) as tg:
        old_id, _ = _tell(tg, tick, "The nightly build takes 40 minutes.",
                          "After the cache fix the nightly build takes 12 minutes.", ("Sam", "Kim"))
        assert _standing(tg, "nightly build minutes", old_id).standing in ("current", "unparsed")
    with TemporalGraph.open(":memory:", clock=clock) as tg:
        old_id, _ = _tell(tg, tick, "Noor uses the compact layout.", "Noor uses the classic layout.",
                          ("Sam", "Kim"))
        assert _standing(tg, "Noor layout", old_id).standing in ("possibly_superseded", "superseded")


@pytest.mark.parametrize("old, new", [
    ("Some background: the design budget is $2,000 a month. Now, how do I plan a sprint?",
     "Some background: the API answers in 300 ms. Now, how do I write a changelog?"),
    ("FYI: my sister lives in Porto.", "FYI: the build server runs Ubuntu 22.04."),
    # a lead-in with stop words between its words
    ("Quick update before I forget: the door code is 4417.",
     "Quick update before I forget: the bike has 21 gears now."),
    ("A bit of context: our team is 6 people.",
     "A bit of context: the maps API allows 50 requests per minute."),
])
def test_two_messages_that_open_with_the_same_lead_in_are_no_rewording(old: str, new: str) -> None:
    assert not reworded_as_news(old, new, 2024) and not states_change(old, new, 2024)


@pytest.mark.parametrize("question, old, new", [
    ("How many paying customers does the product have?", "The product has 120 paying customers.",
     "My sister pays £950 a month for her place."),
    ("How much rent do I pay?", "My sister pays £950 a month for her place.",
     "We're at 310 paying customers now."),
])
def test_another_partys_value_for_what_a_question_asks_is_no_new_value(clock, tick, question: str, old: str,
                                                                        new: str) -> None:
    with TemporalGraph.open(":memory:", clock=clock) as tg:
        old_id, _ = _tell(tg, tick, old, new)
        hit = _standing(tg, question, old_id)
        assert hit is not None and hit.standing in ("current", "unparsed"), hit
