"""The rules of ingestion/offline/chat_doings.py: things done told undated with a verb that says what
was done ("We roasted marshmallows around the campfire"), a series of them in one sentence, what one is
off to do now, passions, things of one's own under way, a pastime started at a time, and being part of
a group; and the sentences that look like them but state nothing of the speaker's (someone else's,
questions, hypotheticals, negations, fiction, idioms, pronouns)."""

from __future__ import annotations

import pytest

from tests.test_offline_chat_events import facts

SHAPES = [
    # a past verb whose object says what was done: kept undated, or with its time
    ("We roasted marshmallows and shared stories around the campfire.",
     {("Tim", "DID", "roasted marshmallows", None)}),
    ("I baked some cookies for the kids.", {("Tim", "DID", "baked some cookies for the kids", None)}),
    ("We roasted marshmallows last week.", {("Tim", "DID", "roasted marshmallows", "2023-05-01")}),
    ("We explored the coast up in the Pacific Northwest and hit some cool national parks.",
     {("Tim", "DID", "explored the coast up in the Pacific Northwest", None)}),
    # a series: each verb with the subject again
    ("We explored nature, roasted marshmallows around the campfire and even went on a hike.",
     {("Tim", "DID", "explored nature", None),
      ("Tim", "DID", "roasted marshmallows around the campfire", None),
      ("Tim", "DID", "went on a hike", None)}),
    ("I visited a veteran's hospital and met some amazing people.",
     {("Tim", "VISITED", "veteran's hospital", None), ("Tim", "DID", "met some amazing people", None)}),
    # off to do something now: a plan
    ("I'm off to go swimming with the kids.", {("Tim", "PLANS", "go swimming with the kids", None)}),
    ("Well, I'm off to do some taekwondo!", {("Tim", "PLANS", "do some taekwondo", None)}),
    # passions
    ("I'm passionate about dance and fashion so combining them is fun.",
     {("Tim", "LIKES", "dance", None), ("Tim", "LIKES", "fashion", None)}),
    ("I've always been passionate about veterans and their rights.", {("Tim", "LIKES", "veterans", None)}),
    # a thing of one's own under way
    ("I'm creating a library for when I have kids.", {("Tim", "WORKS_ON", "library", None)}),
    ("I'm building a treehouse with my son.", {("Tim", "WORKS_ON", "treehouse", None)}),
    # a pastime started at a time
    ("I started volunteering here about a year ago.",
     {("Tim", "HAS_HOBBY", "volunteering", "2022-01-01")}),
    # part of a group
    ("I'm now part of the fire-fighting brigade.", {("Tim", "MEMBER_OF", "fire-fighting brigade", None)}),
]


@pytest.mark.parametrize(("text", "expected"), SHAPES)
def test_a_shape_gives_its_fact(text: str, expected: set) -> None:
    assert facts(text, speaker="Tim") == expected


LOOKALIKES = [
    # someone else's, or no one's
    "She baked a cake for the party.",
    "My neighbour roasted a whole pig.",
    "It was about a brave little turtle who was scared but explored the world anyway.",
    "The cookies I baked were gone in a minute.",
    # questions, hypotheticals, negations, plans not yet done
    "Did you roast marshmallows?",
    "If I baked a cake, would you come over?",
    "I never baked a cake in my life.",
    "I'd love to explore the coast someday.",
    "Are you passionate about art?",
    "I'm not passionate about my job.",
    # fiction and framing
    "In my dream I explored the moon.",
    # pronouns, idioms, chat words
    "I explored it.",
    "I wrote back.",
    "Yup, we raised a ton!",
    "I'm off to bed.",
    "I'm off to work.",
    "I'm passionate about what I do.",
    "I'm starting to realize that self-care is really important.",
    "I'm starting a new chapter in my life.",
    "I'm starting a new job at a bakery.",
    "I'm so proud to be part of the difference you're making.",
    "I'm part of the problem.",
    # a list of nouns stays one thing (no piece without its verb)
    "We hiked, swam, and made great memories.",
]


@pytest.mark.parametrize("text", LOOKALIKES)
def test_a_lookalike_gives_nothing(text: str) -> None:
    assert facts(text, speaker="Tim") == set()


@pytest.mark.parametrize("text", ["Next week I'm starting a pottery class.",
                                  "I'm starting a new job next week.", "I'm starting a new diet routine."])
def test_a_course_or_a_job_started_is_no_project(text: str) -> None:
    assert not {f for f in facts(text, speaker="Tim") if f[1] == "WORKS_ON"}
