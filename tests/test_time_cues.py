"""Temporal retrieval: a question asking *when* brings up the message that dated the event."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from queries.time_cues import asks_past, asks_time, falls_in, says_time


@pytest.mark.parametrize("question", [
    "When did Melanie run a charity race?", "when is Caroline going to the conference?",
    "How long has Caroline had her friends?", "How long ago was Caroline's 18th birthday?",
    "What year did Jon open his studio?", "In which month did Gina launch her store?",
    "How many years did Kwame live in Accra?", "Since when does Yuki live in Basel?",
])
def test_questions_that_ask_for_a_time(question):
    assert asks_time(question)


@pytest.mark.parametrize("question", [
    "What did Melanie do when she moved?", "Where does Caroline live?", "Who ran the charity race?",
    "Did Marta ever live in Leeds?",
])
def test_questions_that_ask_for_something_else(question):
    assert not asks_time(question)


@pytest.mark.parametrize("question, past", [
    ("When did Melanie run a charity race?", True), ("Where did Kwame live before Accra?", True),
    ("Does Yuki still live in Basel?", True), ("What did Jon do in July 2022?", True),
    # asking for a time or a duration in the present tense is asking about now
    ("When is the school's open day?", False), ("How long does the test suite take?", False),
    ("Which day is the recycling collected?", False), ("What's the first-line support phone number?", False),
])
def test_a_question_about_the_past_says_so_by_its_tense_or_a_period(question, past):
    assert asks_past(question) is past


def test_a_present_when_question_ranks_the_replacement_above_what_it_replaced(tg):
    old = tg.add_episode("The school's open day is Saturday 9 March, 10am to 1pm.",
                         reference_time="2024-02-01", speaker="office", group_id="school")
    new = tg.supersede(old.episode.id, "Open day moved: Saturday 16 March, 10am to 1pm.",
                       reference_time="2024-02-20", speaker="office", group_id="school")
    hits = [h for h in tg.search("When is the school's open day?", group_id="school", kinds=("episode",))]
    assert [h.episode.id for h in hits if h.episode] == [new.episode.id]
    assert hits[0].standing == "current"


def test_messages_that_say_a_time():
    for text in ("I ran a charity race last Saturday", "Last Fri I took my kids to a pottery workshop",
                 "we went camping two weekends ago", "a friend made it for my 18th birthday ten years ago",
                 "I'm going to a conference this month", "I started there in 2019"):
        assert says_time(text), text
    assert not says_time("I love pottery, it is like therapy for me")


DATED = "I ran a charity race for mental health last Saturday, it was rewarding."
MESSAGES = [
    "Charity races are great: a charity race for a good cause makes running a race so much better.",
    "I'd love to run a charity race with you, running a race for charity sounds fun.",
    DATED,
    "My kids love painting, we painted a sunrise together.",
]


@pytest.mark.slow  # loads the embedding model
def test_a_when_question_ranks_the_dated_message_first(tg):
    for i, text in enumerate(MESSAGES):
        tg.add_episode(text, reference_time=f"2023-05-{20 + i}", speaker="Melanie", group_id="mel")
    when = tg.search("When did Melanie run a charity race?", group_id="mel", kinds=("episode",), limit=3)
    assert when[0].episode is not None and when[0].episode.content == DATED
    assert any(r.startswith("says when") for r in when[0].reasons)
    # A question that asks for something else gets no time cue.
    what = tg.search("What charity race did Melanie run?", group_id="mel", kinds=("episode",), limit=3)
    assert not any(r.startswith("says when") for h in what for r in h.reasons)


def test_a_message_falls_in_the_period_its_phrases_name_or_when_it_was_told():
    told = datetime(2022, 8, 2, tzinfo=UTC)  # a Tuesday: "last week" is 25-31 July
    assert falls_in(["in July 2022"], "We got back from Rome last week!", told)
    assert not falls_in(["in July 2022"], "I'd love to see Rome someday.", told)
    assert falls_in(["in August"], "I'd love to see Rome someday.", told)  # told in August
    assert falls_in(["during the summer"], "We got back from Rome last week!", told)


@pytest.mark.slow  # loads the embedding model
def test_a_question_naming_a_period_marks_the_messages_placed_in_it(tg):
    for text, told in (("We got back from Rome last week, what a trip!", "2022-08-02"),
                       ("I'd love to travel to Lisbon someday, travel is my passion.", "2022-05-10"),
                       ("Maybe Oslo next year, I love to travel.", "2022-09-15")):
        tg.add_episode(text, reference_time=told, speaker="Joanna", group_id="jo")
    hits = tg.search("Where did Joanna travel to in July 2022?", group_id="jo", kinds=("episode",))
    placed = [h.episode.content for h in hits
              if h.episode is not None and any(r.startswith("placed in July 2022") for r in h.reasons)]
    assert placed == ["We got back from Rome last week, what a trip!"]
