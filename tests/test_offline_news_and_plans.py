"""The shapes LoCoMo's turns told and the offline rules missed: news inside a frame ("wanted to let you
know I joined a travel club", which reads as a wish without the frame taken out), a statement with a
question tacked on after a dash, the speaker and company ("my kids and I"), another pet adopted, a trip
taken ("on my trip to the Smoky Mountains"), plans told in the present ("I'm putting together a talent
show next month", "I'm off to Ireland", "I've got a gaming tournament next month"), eagerness that is
no negation ("I can't wait"), two things done joined by "and", and things done undated with "went to",
"did" or "started doing"; and the sentences that look like them but state nothing of the speaker's."""

from __future__ import annotations

import pytest

from tests.test_offline_chat_events import facts

SHAPES = [
    # news in a frame: the frame says it is news, not a wish
    ("Haven't talked in a few days, wanted to let you know I joined a travel club!",
     {("Tim", "DID", "joined a travel club", None), ("Tim", "MEMBER_OF", "travel club", None)}),
    ("Long time no see - wanted to let you know I joined a Zürich club!",
     {("Tim", "DID", "joined a Zürich club", None), ("Tim", "MEMBER_OF", "Zürich club", None)}),
    ("I'm so excited to tell you I started a weekend yoga class with a colleague - it's awesome!",
     {("Tim", "DID", "started a weekend yoga class", None)}),
    # a statement with a question after a dash
    ("FYI, I finished another pottery project - want to see a pic?",
     {("Tim", "DID", "finished another pottery project", None)}),
    # ... or after ", and" (a question of its own)
    ("I drive a 2015 Honda Civic, and what's the cleanest way to pivot monthly totals?",
     {("Tim", "DRIVES", "Honda Civic", None)}),
    ("Do you live in Paris, and what do you do there?", set()),
    # the speaker and company
    ("My kids and I just finished another painting like our last one.",
     {("Tim", "DID", "finished another painting", None)}),
    ("My wife and I live in Paris.", {("Tim", "LIVES_IN", "Paris", None)}),
    # pets adopted as "another", by "we"
    ("We adopted another puppy called Pixie.", {("Tim", "HAS_PET", "Pixie", None)}),
    ("I recently adopted another pup from a shelter.", {("Tim", "HAS_PET", "pup", None)}),
    # a trip taken
    ("I snapped that pic on my trip to the Smoky Mountains last year.",
     {("Tim", "VISITED", "Smoky Mountains", "2022-01-01")}),
    # plans told in the present
    ("We're putting together a talent show for the kids next month.",
     {("Tim", "PLANS", "put together a talent show for the kids", "2023-06-01")}),
    ("I'm also hosting a dance competition next month to showcase local talent.",
     {("Tim", "PLANS", "host a dance competition", "2023-06-01")}),
    ("Yep, I'm hiking with some buddies this weekend.", {("Tim", "PLANS", "hike", "2023-05-13")}),
    ("Next month, I'm off to Ireland for a semester.", {("Tim", "PLANS_TO_VISIT", "Ireland", "2023-06-01")}),
    ("This weekend I'm heading to a nature reserve to reconnect with the outdoors - excited!",
     {("Tim", "PLANS", "go to a nature reserve", "2023-05-13")}),
    ("Tomorrow I am going on a picnic date with my girlfriend.",
     {("Tim", "PLANS", "go on a picnic date", "2023-05-09")}),
    ("I've got a gaming tournament next month and I'm feeling good about it.",
     {("Tim", "PLANS", "attend a gaming tournament", "2023-06-01")}),
    ("Next week I have a community meeting coming up.",
     {("Tim", "PLANS", "attend a community meeting", "2023-05-15")}),
    # eagerness is no negation
    ("I'm currently planning a ring-toss tournament later this month, I can't wait!",
     {("Tim", "PLANS", "plan a ring-toss tournament", "2023-05-08")}),
    # two things done joined by "and"
    ('I took your recommendation and watched "The Lord of the Rings" last night!',
     {("Tim", "WATCHED", "The Lord of the Rings", "2023-05-07")}),
    # undated things done, each with a thing of its own
    ("Oh yeah, we went to the beach recently.", {("Tim", "DID", "went to the beach recently", None)}),
    ("I challenged myself and did a charity event.", {("Tim", "DID", "did a charity event", None)}),
    ("My week's been busy - I started doing seminars.", {("Tim", "DID", "started doing seminars", None)}),
]


@pytest.mark.parametrize(("text", "expected"), SHAPES, ids=[t for t, _ in SHAPES])
def test_a_shape_gives_its_fact(text: str, expected: set) -> None:
    assert facts(text, "Tim") == expected


NOTHING = [
    # a frame around a wish, a question, a hypothetical: still nothing
    "I wanted to tell you I would love to join a club.",
    "I wanted to go to the beach.",
    "Have you joined a travel club, I wanted to let you know I did?",
    "Did you finish the project - the one from May?",
    "Want to hear about my trip to Paris - or not?",
    "If I went to the beach last week, I would remember.",
    # someone else and company
    "Tom's kids and I are friends.",
    # trips to come, or only prepared for
    "I'm packing for my trip to Rome.",
    "On my next trip to Rome I will see the Colosseum.",
    # no plan: no event, no time, a negation, something past
    "I am seeing to it tomorrow.",
    "I have a feeling next week will be busy.",
    "I have a community meeting.",
    "I can't go hiking with my buddies this weekend.",
    "I'm not hosting a dance competition next month.",
    # nothing done: vague, a feeling, cut short
    "I did a lot of thinking last week.",
    "I started teaching people how to make this.",
    "We just did a contemporary piece called \"Finding Freedom.\"",
]


@pytest.mark.parametrize("text", NOTHING)
def test_a_lookalike_gives_nothing(text: str) -> None:
    assert facts(text, "Tim") == set()
