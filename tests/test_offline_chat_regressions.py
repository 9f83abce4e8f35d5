"""Shapes issue 51's rules broke on chat logs, each through a whole memory with its revision read back:
a sentence closed by a remark that is no reporter (", hard to believe" is not "..., my flatmate
said"), a rumour about someone who speaks in the chat (the teller's claim, theirs to deny), a home
moved to "here" in the sentence after the one naming it, moving into a home bought in the same
message, and a fact closed by an aside (", if that matters"). Each with lookalikes that must stay as
they were."""

from __future__ import annotations

import pytest

from temporal_graph import TemporalGraph
from tests.extracted import extracted
from tests.memory_reads import stretches, told


@pytest.fixture
def tg():
    with TemporalGraph.open(":memory:", embed=False) as memory:
        yield memory


def facts_of(text: str, speaker: str = "Nadia", *context: tuple[str, str]) -> set[tuple[str, str, str, str]]:
    return {(f.subject, f.relation, f.object, f.kind) for f in extracted(text, speaker, context)}


# --- a remark closing a sentence is no reporter ----------------------------------------------------------


def test_a_couple_told_with_a_remark_after_it(tg) -> None:
    told(tg, ("2023-03-11", "Ines", "How's Pedro?"),
         ("2023-03-11", "Nadia", "Pedro's fine. We've been together since June 2020, can you believe it."),
         ("2023-11-04", "Nadia", "Pedro and I broke up last week."))
    # ("last week": from its Monday)
    assert stretches(tg, "Nadia", "DATING") == [("Pedro", "2020-06-01", "2023-10-23")]


@pytest.mark.parametrize(("text", "fact"), [
    ("I moved to Oslo in 2020, hard to believe it's been four years.",
     ("Nadia", "LIVES_IN", "Oslo", "state")),
    ("I live in Ghent now, can't believe it.", ("Nadia", "LIVES_IN", "Ghent", "state")),
    ("I work at Arup, I must say.", ("Nadia", "WORKS_AT", "Arup", "state")),
    ("My rent is 700 euros, needless to say.", ("Nadia", "RENT", "700 euros", "state")),
    ("We've been together since 2019, hard to believe.", None),  # no partner named: nothing
])
def test_remarks_that_name_no_reporter(text: str, fact: tuple[str, str, str, str] | None) -> None:
    assert facts_of(text) == ({fact} if fact else set())


@pytest.mark.parametrize("text", [
    "I live in Bath now, my mum says.",
    "Nadia works at Stripe, I heard.",
    "My rent is 980 euros, or so the agent claims.",
    "Ticket 77 is closed, says support.",
    "Order 6601 has shipped, or so they say.",
    "Flight LH400 is delayed, a woman at the desk told us.",
    "The parcel arrived, the tracking page says.",
    "Tom works at Apple, Ken claims.",
])
def test_reporters_still_close_a_sentence(text: str) -> None:
    assert facts_of(text) == set()


# --- a rumour about someone in the chat is the teller's claim --------------------------------------------


def test_a_rumour_about_someone_present_is_the_tellers_claim_and_theirs_to_deny(tg) -> None:
    told(tg, ("2023-01-10", "Nadia", "I live in Lyon, I've been here since 2018."),
         ("2023-03-01", "Omar", "Word is Nadia is moving back to Tunisia next year."))
    assert tg.as_of("2023-06-01", subject="Nadia", relation="LIVES_IN", claims="only") == []  # next year
    ahead = tg.as_of("2024-06-01", subject="Nadia", relation="LIVES_IN", claims="only")
    assert [(f.object, f.claimed_by) for f in ahead] == [("Tunisia", "Omar")]
    assert [f.object for f in tg.now("Nadia", "LIVES_IN", claims="own")] == ["Lyon"]
    answer = tg.ask("Who said Nadia is moving back to Tunisia?")
    assert answer.known and "Omar" in answer.text


@pytest.mark.parametrize("text", [
    "Word is Carla works at Google now.",          # Carla does not speak here
    "Apparently I live in Paris now, lol.",        # the teller's own: a joke or a guess
    "Rumour has it Initech moved to 4 Canal Street.",
    "Word is, Contoso cut the forecast to 3M units.",
])
def test_rumours_about_anyone_else_give_nothing(text: str) -> None:
    assert facts_of(text, "Omar", ("Nadia", "I got a new job at Arup.")) == set()


def test_a_rumour_with_no_one_else_in_the_chat_gives_nothing() -> None:
    assert facts_of("Word is Nadia is moving to Lisbon next year.", "Omar") == set()


# --- "moved here" dates the home the message just named ----------------------------------------------


def test_moved_here_dates_the_home_named_before_it(tg) -> None:
    told(tg, ("2024-02-03", "Nadia", "I live in Ghent now, moved here in October. Loving it."))
    assert stretches(tg, "Nadia", "LIVES_IN") == [("Ghent", "2023-10-01", "")]


@pytest.mark.parametrize(("text", "expected"), [
    ("We live in Porto. We moved there in 2015.", {("Nadia", "LIVES_IN", "Porto", "state")}),
    ("I work at Arup, moved there in 2019.", {("Nadia", "WORKS_AT", "Arup", "state")}),  # no home named
    ("Moved here in March.", set()),  # nothing named: no place to date
    ("Lisbon is lovely, I moved here for the sun.", set()),
])
def test_moved_here_needs_a_home_named_in_the_message(text: str, expected: set) -> None:
    assert facts_of(text) == expected


# --- ", if that matters": an aside, not a condition on what it follows ---------------------------------


@pytest.mark.parametrize(("text", "expected"), [
    ("I live in Ghent now, if that matters.", {("Nadia", "LIVES_IN", "Ghent", "state")}),
    ("Can you fix my CV? I work at Arup now, if it helps.", {("Nadia", "WORKS_AT", "Arup", "state")}),
    ("If that matters, I could move to Ghent.", set()),  # a condition before it still hedges
    ("I would move to Ghent, if that helps you plan.", set()),
])
def test_an_aside_closing_a_sentence_hedges_nothing(text: str, expected: set) -> None:
    assert facts_of(text) == expected
