"""The chat rules of issue 37 (ingestion/offline/chat_events.py) on the shapes long chats use, and the
sentences that look like them but state nothing: questions, hypotheticals, negations, quotes of
others, hearsay, idioms, hopes. Every sentence is said on Monday 8 May 2023 (13:56 UTC)."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from ingestion.offline import OfflineExtractor
from temporal_graph import TemporalGraph
from temporal_graph.core.model import Episode
from temporal_graph.core.time import resolve_time

REF = datetime(2023, 5, 8, 13, 56, tzinfo=UTC)
EXTRACTOR = OfflineExtractor()


def facts(text: str, speaker: str = "Andrew") -> set[tuple[str, str, str, str | None]]:
    """(subject, relation, object, start date or None) per fact."""
    episode = Episode(id="e", group_id="g", content=text, reference_time=REF, created_at=REF, speaker=speaker)
    out = set()
    for f in EXTRACTOR.extract(episode).facts:
        span = resolve_time(f.time_text, REF) if f.time_text else None
        out.add((f.subject, f.relation, f.object, span.start.date().isoformat() if span else None))
    return out


STATES = [
    ("Last weekend my girlfriend and I went fishing in one of the nearby lakes.",
     {("Andrew", "DID", "went fishing", "2023-05-06")}),
    ("Last Friday, I had a picnic with my girlfriend and it was so much fun!",
     {("Andrew", "DID", "had a picnic", "2023-05-05")}),
    ("I spent some time at the shelter last Friday.",
     {("Andrew", "DID", "spent some time at the shelter", "2023-05-05")}),
    ("I had an interview for a design internship yesterday!",
     {("Andrew", "DID", "had an interview for a design internship", "2023-05-07")}),
    ("My girl & I tried out that new cafe scene in the city last weekend!",
     {("Andrew", "DID", "tried out the new cafe scene in the city", "2023-05-06")}),
    # told as just done, or a past verb with its own thing: kept undated
    ("I just contacted my mentor for adoption advice.",
     {("Andrew", "DID", "contacted their mentor for adoption advice", None)}),
    ("I had a picnic with the wife and kids.", {("Andrew", "DID", "had a picnic with the wife", None)}),
    # pastimes kept up, tastes for doing, work on something, a class
    ("I've been painting a lot lately.", {("Andrew", "HAS_HOBBY", "painting", None)}),
    ("I'm still volunteering at the homeless shelter.", {("Andrew", "HAS_HOBBY", "volunteering", None)}),
    ("I love checking out new parks with my friends.", {("Andrew", "LIKES", "checking out new parks", None)}),
    ("I've always liked turtles since I was a boy.", {("Andrew", "LIKES", "turtles", None)}),
    ("I'm working on my online store.", {("Andrew", "WORKS_ON", "online store", None)}),
    ("I'm taking a dog training course.", {("Andrew", "LEARNING", "dog training", None)}),
    # pets told of by "my", the species in its plain form
    ("My dogs love running around the park.", {("Andrew", "HAS_PET", "dog", None)}),
    ("I took my turtles to the beach.",
     {("Andrew", "HAS_PET", "turtle", None), ("Andrew", "DID", "took their turtles to the beach", None)}),
]


@pytest.mark.parametrize(("text", "expected"), STATES, ids=[t for t, _ in STATES])
def test_a_chat_shape_gives_its_fact(text: str, expected: set) -> None:
    assert facts(text) == expected


# Sentences that look like the shapes above and state nothing (or nothing of the speaker's).
NOTHING = [
    # questions
    "Did you have a picnic last weekend?",
    "Have you ever gone fishing before?",
    "Do your dogs like the snow?",
    # hypotheticals and hopes
    "If I had a free weekend, I would have a picnic.",
    "I wish I could have gone fishing last weekend.",
    "Maybe I'll get a dog next year.",
    "Can't wait for the day I go on a trip with my dog!",
    "I'm hoping to attend a book conference next month.",
    # negations
    "I didn't have a picnic last weekend.",
    "I never spent time at the shelter last year.",
    "I haven't been painting lately.",
    # quotes and hearsay
    'She said "I had a picnic yesterday".',
    "Apparently he got a new job last week.",
    "My sister told me she found a great spot last week.",
    # idioms and things that say nothing done
    "I had a blast last weekend!",
    "I had to work last Friday.",
    "I got it yesterday.",
    "I made it yesterday.",
    "I had a great time last week.",
    "Pepper took a bit to get used to her.",
    "I got a surprise for you!",
    "I'm working on a project.",
    "I love talking about books with friends.",
    # "my" before a pet word that is no pet
    "Here's a photo of my horse painting.",
    "I went to my dog park yesterday.",
    # a time that dates another clause
    "I had a quiet weekend after we went camping two weekends ago.",
]


@pytest.mark.parametrize("text", NOTHING)
def test_a_lookalike_gives_no_such_fact(text: str) -> None:
    got = {f for f in facts(text) if f[1] in ("DID", "HAS_HOBBY", "LIKES", "WORKS_ON", "LEARNING", "HAS_PET")}
    if text.startswith("I had a quiet weekend"):  # kept, but undated: the time is the camping's
        assert got == {("Andrew", "DID", "had a quiet weekend", None)}
        return
    if text.startswith("I went to my dog park"):  # a visit to a park, never a pet
        assert all(f[1] != "HAS_PET" for f in got)
        return
    assert got == set()


def test_the_memory_keeps_a_dated_thing_done_and_the_pet() -> None:
    with TemporalGraph.open(":memory:", embed=False) as tg:
        tg.add_episode("Last Friday, I had a picnic with my girlfriend. My dogs loved it.",
                       reference_time=REF, speaker="Andrew")
        assert {(f.relation, f.object) for f in tg.now("Andrew")} == {("HAS_PET", "dog")}
        # the picnic held on its day, as a dated event
        that_day = {(f.relation, f.object) for f in tg.as_of("2023-05-05T12:00:00Z", subject="Andrew")}
        assert ("DID", "had a picnic") in that_day
        assert not tg.as_of("2023-05-03T12:00:00Z", subject="Andrew", relation="DID")
