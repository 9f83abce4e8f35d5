"""The rules of ingestion/offline/chat_more.py on the shapes long chats use: things done with a
phrasal verb ("I just participated in a marching event"), things done told in a relative clause with
their time ("a trip I took last summer"), pastimes kept up told without a subject, pastimes named as
part of one's life, tastes told as being a fan, as a love or passion of one's own, as what brings joy or
with an emphatic "do", titles loved, good times had at an event, instruments being learnt and works
being written; and the sentences that look like them but state nothing of the speaker's (questions,
hypotheticals, negations, quotes, someone else's, a generic "you", the future)."""

from __future__ import annotations

import pytest

from tests.test_offline_chat_events import facts

SHAPES = [
    # things done with a phrasal verb: dated, told as just done, or with a thing of its own
    ("I just participated in a marching event for veterans' rights and it was awesome.",
     {("Tim", "DID", "participated in a marching event for veterans' rights", None)}),
    ("Last weekend, I participated in a community event to raise money for a good cause.",
     {("Tim", "DID", "participated in a community event", "2023-05-06")}),
    ("I just signed with a new team - excited for the season!",
     {("Tim", "DID", "signed with a new team", None)}),
    ("I just signed with the Minnesota Wolves.", {("Tim", "DID", "signed with the Minnesota Wolves", None)}),
    ("I took part in a charity run.", {("Tim", "DID", "took part in a charity run", None)}),
    # a thing done told in a relative clause, its time right after the verb
    ("It reminds me of a trip I took last summer.", {("Tim", "DID", "took a trip", "2022-06-01")}),
    ("This picture reminds me of a road trip we took last year; there's still beauty.",
     {("Tim", "DID", "took a road trip", "2022-01-01")}),
    ("Here's the cake we baked yesterday.", {("Tim", "DID", "baked the cake", "2023-05-07")}),
    ("Here's a recent self-portrait I made last week.",
     {("Tim", "DID", "made a recent self-portrait", "2023-05-01")}),
    ("One special memory for me was this pride parade I went to a few weeks ago.",
     {("Tim", "ATTENDED", "pride parade", "2023-04-17")}),
    # pastimes kept up, told without a subject; pastimes named as part of one's life
    ("Been busy volunteering at the homeless shelter and keeping fit.",
     {("Tim", "HAS_HOBBY", "volunteering", None)}),
    ("Been running longer since our last chat - a great way to destress.",
     {("Tim", "HAS_HOBBY", "running", None)}),
    ("Pottery is a huge part of my life.", {("Tim", "HAS_HOBBY", "pottery", None)}),
    ("Basketball has been a part of my life ever since I was a kid.", {("Tim", "PLAYS", "basketball", None)}),
    # tastes: a fan, a favourite or passion of one's own, a love of, what brings joy, an emphatic "do"
    ("I'm a huge fan of Lord of the Rings!", {("Tim", "LIKES", "Lord of the Rings", None)}),
    ("Writing has always been a passion of mine.", {("Tim", "LIKES", "writing", None)}),
    ("Seeing this pic just made me appreciate my love of reading even more.",
     {("Tim", "LIKES", "reading", None)}),
    ("Sharing my love for dairy-free desserts has been fun and rewarding.",
     {("Tim", "LIKES", "dairy-free desserts", None)}),
    ("I've always had a love for horses!", {("Tim", "LIKES", "horses", None)}),
    ("Art gives me so much joy.", {("Tim", "LIKES", "Art", None)}),
    ("Turtles really bring me joy and peace.", {("Tim", "LIKES", "Turtles", None)}),
    ("No, no pets right now. But I do love animals.", {("Tim", "LIKES", "animals", None)}),
    ("I do enjoy watching birds in the nature.", {("Tim", "LIKES", "watching birds", None)}),
    # titles loved (and read)
    ('I loved "Becoming Nicole" by Amy Ellis Nutt.', {("Tim", "LIKES", "Becoming Nicole", None)}),
    ('I loved reading "Charlotte\'s Web" as a kid.',
     {("Tim", "LIKES", "Charlotte's Web", None), ("Tim", "READ", "Charlotte's Web", None)}),
    # a good time had at an event, dated
    ("We had a great time at the LGBT pride event last month.",
     {("Tim", "ATTENDED", "LGBT pride event", "2023-04-01")}),
    ("We had a blast last year at the Pride fest.", {("Tim", "ATTENDED", "Pride fest", "2022-01-01")}),
    # learning, works being written
    ("I've also started learning how to play the piano - it's a learning curve.",
     {("Tim", "LEARNING", "piano", None)}),
    ("I'm getting creative too, just learning the piano.", {("Tim", "LEARNING", "piano", None)}),
    ("I am writing another movie script!", {("Tim", "WORKS_ON", "movie script", None)}),
    ("I'm writing articles about fantasy novels for an online mag.",
     {("Tim", "WORKS_ON", "articles about fantasy novels", None)}),
]


@pytest.mark.parametrize(("text", "expected"), SHAPES, ids=[t for t, _ in SHAPES])
def test_a_shape_gives_its_fact(text: str, expected: set) -> None:
    assert facts(text, "Tim") == expected


NOTHING = [
    # questions
    "Did you participate in the marching event?",
    "Have you had a great time at the pride parade last month?",
    "Are you a huge fan of Lord of the Rings?",
    "Do you love animals?",
    # hypotheticals, wishes and plans
    "If I participated in a charity run last week, I'd be proud.",
    "I wish I had a great time at the festival last weekend.",
    "I'd love to take part in a charity run.",
    "I'm hoping to share my love of gaming.",
    "Maybe I'll be a fan of jazz someday.",
    # negations
    "I never signed with a new team.",
    "I didn't have a great time at the parade last week.",
    "Running is not a part of my life anymore.",
    # someone else's
    "She participated in a marching event yesterday.",
    "Your love for dance is inspiring.",
    "He is a huge fan of Lord of the Rings.",
    "The trip she took last summer was amazing.",
    "My sister is writing a novel.",
    # a generic "you" or "us", nothing named
    "Pets bring us so much joy.",
    "It brings me so much joy!",
    "I'm a huge fan of this genre!",
    "I'm a huge fan of it, that's why I go!",
    "My love for my kids is endless.",
    "Here's one I did last week.",
    "Here's a pic I took yesterday.",
    "That picture was from the day I met them.",
    # no time for a thing told in a relative clause, or a time that is another clause's
    "The book I read was great.",
    "The trip we took with friends last year was fun.",
    "These figurines I bought yesterday remind me of family love.",  # what the figurines do
    "Here's a pic from a trip we took last year for my birthday.",  # the time may be the birthday's
    "We had a great time at the parade.",
    # quotes
    'He said "I just signed with a new team".',
    # the future
    "I will be writing a novel next year.",
]


@pytest.mark.parametrize("text", NOTHING)
def test_a_lookalike_gives_nothing(text: str) -> None:
    assert facts(text, "Tim") == set()


@pytest.mark.parametrize(("text", "relation"), [
    ("I'm not a fan of horror movies.", "LIKES"),  # a dislike, the denial rules' own
    ("Next month I'm going to take part in a charity run.", "DID"),  # a plan, not a thing done
    ("I'm not gonna take part in the charity run after all.", "DID"),
])
def test_a_lookalike_gives_no_such_fact(text: str, relation: str) -> None:
    assert all(r != relation for _, r, _, _ in facts(text, "Tim"))
