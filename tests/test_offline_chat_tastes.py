"""The taste rules (ingestion/offline/chat_tastes.py) on the shapes long chats use: titles being read,
played or watched, favourites told the other way round, pastimes named as such, clubs joined, and
pets of the person spoken to; and the sentences that look like them but state nothing of the
speaker's (questions, hypotheticals, negations, quotes, someone else's taste, a generic "you")."""

from __future__ import annotations

import pytest

from ingestion.offline import OfflineExtractor
from temporal_graph import TemporalGraph
from temporal_graph.core.model import Episode
from tests.test_offline_chat_events import REF, facts

SHAPES = [
    ('I\'m reading "Dune" by Frank Herbert.', {("Tim", "READS", "Dune", None)}),
    ("I'm currently reading The Hobbit.", {("Tim", "READS", "The Hobbit", None)}),
    ('I\'m currently playing this awesome fantasy RPG called "Xenoblade Chronicles".',
     {("Tim", "PLAYS", "Xenoblade Chronicles", None)}),
    ('I just watched "Little Women" and it was amazing!', {("Tim", "WATCHED", "Little Women", None)}),
    ('I recently finished rereading "The Alchemist".', {("Tim", "READ", "The Alchemist", None)}),
    ('We love "Home Alone" - it always brings lots of laughs!', {("Tim", "LIKES", "Home Alone", None)}),
    ("Harry Potter is my favorite book.",
     {("Tim", "FAVORITE_BOOK", "Harry Potter", None), ("Tim", "LIKES", "Harry Potter", None)}),
    ("The Hobbit is one of my favorites too.", {("Tim", "LIKES", "The Hobbit", None)}),
    ("Garlic is my go-to ingredient.", {("Tim", "LIKES", "Garlic", None)}),
    ("Playing video games and watching movies are my main hobbies.",
     {("Tim", "HAS_HOBBY", "playing video games", None), ("Tim", "HAS_HOBBY", "watching movies", None)}),
    ("I started making jewelry as a hobby.", {("Tim", "HAS_HOBBY", "making jewelry", None)}),
    ("Painting helps me explore my identity.", {("Tim", "HAS_HOBBY", "painting", None)}),
    ("I joined a travel club last week.",
     {("Tim", "DID", "joined a travel club", "2023-05-01"),
      ("Tim", "MEMBER_OF", "travel club", "2023-05-01")}),
    ("Yesterday I joined a nearby church.",
     {("Tim", "DID", "joined a nearby church", "2023-05-07"), ("Tim", "MEMBER_OF", "church", "2023-05-07")}),
]


@pytest.mark.parametrize(("text", "expected"), SHAPES, ids=[t for t, _ in SHAPES])
def test_a_taste_shape_gives_its_fact(text: str, expected: set) -> None:
    assert facts(text, "Tim") == expected


NOTHING = [
    'Are you reading "Dune"?',
    "What is your favorite book?",
    'Have you played "Cyberpunk 2077"?',
    "I'm reading Joanna's script.",  # whose, not what
    "I'm playing Toby.",  # a bare name after "playing" may be a dog's game
    'She is reading "Dune".',
    "This series is one of my favorites.",  # names nothing
    "That is my favorite.",
    "It is my passion.",
    "My favorite part was the ending.",  # a moment of the chat, not a lasting taste
    "If I joined a travel club, I'd travel more.",
    "I didn't join a travel club.",
    "I'm thinking of joining a gym.",
    "I want to start painting as a hobby.",
    'I never watched "Little Women".',
    'I\'d love to watch "Little Women" someday.',
    'He said "Harry Potter is my favorite book".',
]


@pytest.mark.parametrize("text", NOTHING)
def test_a_taste_lookalike_gives_nothing(text: str) -> None:
    assert facts(text, "Tim") == set()


def _said_to_tim(text: str) -> set[tuple[str, str, str]]:
    """What Ana's reply to Tim gives, in a two-person chat."""
    before = Episode(id="p", group_id="g", content="Look at them!", reference_time=REF, created_at=REF,
                     speaker="Tim")
    reply = Episode(id="e", group_id="g", content=text, reference_time=REF, created_at=REF, speaker="Ana")
    return {(f.subject, f.relation, f.object) for f in OfflineExtractor().extract(reply, [before]).facts}


@pytest.mark.parametrize(("text", "expected"), [
    ("I love your turtles so much!", {("Tim", "HAS_PET", "turtle")}),
    ("Say hi to your dogs for me.", {("Tim", "HAS_PET", "dog")}),
    # a pet still to come, a "you" of anyone, a question, a condition: nothing
    ("I'll be expecting a pic of your dog soon!", set()),
    ("There are parks where you can take your pup on a leash.", set()),
    ("Do your dogs like the snow?", set()),
    ("If your dog barks, call me.", set()),
])
def test_your_pets_are_the_other_speakers(text: str, expected: set) -> None:
    assert _said_to_tim(text) == expected


def test_a_new_favourite_ends_the_old_one_and_tastes_stay() -> None:
    with TemporalGraph.open(":memory:", embed=False) as tg:
        tg.add_episode("Harry Potter is my favorite book.", reference_time="2023-01-01", speaker="Tim")
        tg.add_episode("Dune is my favorite book now.", reference_time="2023-03-01", speaker="Tim")
        assert [f.object for f in tg.now("Tim", "FAVORITE_BOOK")] == ["Dune"]
        assert [f.object for f in tg.as_of("2023-02-01", subject="Tim", relation="FAVORITE_BOOK")] == [
            "Harry Potter"]
        assert {f.object for f in tg.now("Tim", "LIKES")} == {"Harry Potter", "Dune"}  # liking is many
