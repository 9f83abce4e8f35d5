"""Reading one short text as a rewording of another (``temporal_graph.core.rewording``): what makes
an older message "possibly superseded" in search, and a keyed message a confirmation.

Precision first: a lookalike (another person's rent, another order, the production server beside
the staging one) must never read as a revision. The pairs are our own: ``probable_pairs.tsv`` was
written to develop the rules, ``probable_pairs_holdout.tsv`` afterwards, to check them, and never
tuned on."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from temporal_graph.core import rewording
from temporal_graph.core.rewording import (
    asked_words,
    clauses,
    pinned_words,
    revises,
    revises_about,
    says_again,
)

DATA = Path(__file__).parent / "data"


def _pairs(name: str) -> list[tuple[str, str, str]]:
    rows = [line.rstrip("\n").split("\t") for line in (DATA / name).read_text().splitlines()
            if line.strip() and not line.startswith("#")]
    return [(label, old, new) for label, old, new in rows]


@pytest.mark.parametrize("name, least_recall", [("probable_pairs.tsv", 0.9),
                                                ("probable_pairs_holdout.tsv", 0.7)])
def test_no_lookalike_reads_as_a_revision_and_most_revisions_do(name: str, least_recall: float) -> None:
    pairs = _pairs(name)
    wrong = [(old, new) for label, old, new in pairs if label == "same" and revises(old, new)]
    assert wrong == []
    updates = [(old, new) for label, old, new in pairs if label == "update"]
    found = sum(revises(old, new) for old, new in updates)
    assert found >= least_recall * len(updates), [(o, n) for o, n in updates if not revises(o, n)]


@pytest.mark.parametrize("old, new", [
    ("Globex payment terms: net 30.", "Reminder: Globex is still on net 30."),
    ("Server RAM: 64 GB", "The server still has 64 GB of RAM."),
    ("Deploy freeze until Friday.", "Reminder: deploy freeze until Friday."),
    ("Rent is 950 pounds.", "rent: 950 pounds"),
])
def test_the_same_values_in_other_words_say_it_again(old: str, new: str) -> None:
    assert says_again(old, new) and not revises(old, new)


@pytest.mark.parametrize("old, new", [
    ("What is the door code for the loading bay? 4471.", "Loading bay door code: 4471"),
    ("Who is on call this weekend? Priya.", "On call this weekend: Priya"),
    ("Loading bay door code: 4471", "What's the loading bay door code? 4471"),
])
def test_a_question_answered_in_a_word_gives_the_answer_as_its_value(old: str, new: str) -> None:
    assert says_again(old, new)


@pytest.mark.parametrize("old, new", [
    ("Who is on call this weekend? Priya.", "On call this weekend: Marco"),
    ("What is the door code for the loading bay? 4471.", "Loading bay door code: 5520"),
    ("Loading bay door code: 4471", "What's the loading bay door code? 5520"),
    ("Who is on call this weekend? Priya.", "Who is on call this weekend? Marco."),
])
def test_a_question_answered_otherwise_never_says_it_again(old: str, new: str) -> None:
    assert not says_again(old, new)


@pytest.mark.parametrize("old, new", [
    ("Diesel is 1.62 a litre.", "diesel 1.62/l again today"),
    ("The plan costs $12 a month.", "plan still $12/month"),
])
def test_an_amount_per_unit_written_with_a_slash_is_the_same_amount(old: str, new: str) -> None:
    assert not revises(old, new)


@pytest.mark.parametrize("old, new", [
    ("Globex payment terms: net 30.", "Globex payment terms: net 45."),
    ("Ticket 5512 status: open.", "Ticket 5512 status: closed."),
    ("The office is at 221 Baker Street.", "The office is not at 221 Baker Street any more."),
    ("Noor uses the compact layout.", "Noor uses the classic layout."),
    # the old value is named, but not as the value: someone else holds the role now
    ("On call this week: Ines.", "ines is off sick :( tomas is on call for the rest of the week"),
])
def test_other_values_never_say_it_again(old: str, new: str) -> None:
    assert not says_again(old, new)


def test_a_person_named_in_both_is_not_one_thing_said_twice() -> None:
    assert not revises("Lena is allergic to peanuts, so no Thai place for her party.",
                       "New party plan for Lena: karaoke at 7pm on the 3rd.")
    assert not revises("Lena is afraid of heights.", "Lena is not afraid of heights now, she climbs.")
    assert revises("Lena lives in Leeds.", "Lena lives in York now.")


def test_long_text_and_questions_are_no_revision() -> None:
    old = "The staging server has 32 GB of RAM."
    assert not revises(old, "Does the staging server have 64 GB of RAM?")
    assert not revises(old, " ".join(["word"] * 200) + " the staging server has 64 GB of RAM")
    assert revises(old, "quick one: the staging server has 64 GB now, can you help me tune postgres?")


@pytest.mark.parametrize("question, old, new, expected", [
    ("How much RAM does Priya's staging server have?", "Our staging server has 16 GB of RAM, and one more",
     "Quick one (oh and we bumped staging to 48 GB of RAM last week, if that matters)?", True),
    ("How much does Priya run per week?", "My running volume is 20 km a week.",
     "I'm running 35 km a week now.", True),
    ("Which Python version does the backend run?", "We're on Python 3.8 in production.",
     "The service runs Python 3.11 since the upgrade.", True),
    ("What is the p95 latency of the API?", "p95 on the API sits at 420 ms", "we measured the p95 at 180 ms",
     True),
    # the question does not tell them apart, the messages do
    ("What is Marco's rent?", "Marco's rent is 900 euros.", "Priya's rent is 1,100 euros.", False),
    ("What is the status of order 4471?", "Order 4471: 2 items, shipped", "Order 4472: 3 items, processing",
     False),
    ("How much RAM do the servers have?", "The staging server has 32 GB of RAM.",
     "The production server has 128 GB of RAM.", False),
    ("How much is the rent?", "My rent is 900 euros.", "My sister's rent is 1,200 euros.", False),
    ("How long does the build take?", "The nightly build takes 40 minutes.",
     "The release build takes 90 minutes.", False),
    ("How much RAM does the staging server have?", "Our staging server has 16 GB of RAM.",
     "Our staging server has 16 GB of RAM and 4 cores.", False),
])
def test_a_newer_value_for_what_a_question_asks(question: str, old: str, new: str, expected: bool) -> None:
    assert revises_about(old, new, asked_words(question), pinned_words(question)) is expected


@pytest.mark.parametrize("question, old, new", [
    ("What is the price of the Pro plan?", "The Pro plan is 20 dollars a month.",
     "The Team plan is 50 dollars a month."),
    ("How many people are on the team?", "The design team has 6 people.", "The platform team has 9 people."),
    ("What was revenue?", "Q1 revenue was 2M.", "Q2 revenue was 3M."),
    ("How big is the flat?", "The flat is 60 square metres.", "The flat has 3 rooms."),
    ("How old is the car?", "The car is 7 years old.", "The car has 120,000 km on it."),
    # A version of a name, then a size: the database grew, its Postgres did not change.
    ("Which Postgres version does the main database run?", "The database is Postgres 16 now.",
     "The production database is 3.5 TB now."),
    ("How long is the commute by tram?", "The tram takes 35 minutes to the office.",
     "The bus takes 50 minutes to the office."),
])
def test_another_thing_or_another_measure_is_no_new_value(question: str, old: str, new: str) -> None:
    assert not revises_about(old, new, asked_words(question), pinned_words(question))


# -- the cheap pre-test before reading two texts clause by clause ------------------------------------
_SUBJECTS = ("the staging server", "Marco's rent", "Priya's rent", "Noor", "the nightly build", "our office",
             "order 4471", "order 4472", "I", "we", "the production server", "Contoso's Q2 forecast")
_VERBS = ("has", "is", "takes", "uses", "moved to", "went back to", "is now", "was cut to", "costs")
_VALUES = ("32 GB", "48 GB of RAM", "€900", "1,100", "40 minutes", "12 minutes", "the classic layout",
           "the compact layout", "5 Market Square", "221 Baker Street", "Leeds", "4.1M units", "shipped")
_JOINS = (". ", ", ", "; ", " and ", " - ", "\n", "! ", "? ")
_clause = st.tuples(st.sampled_from(_SUBJECTS), st.sampled_from(_VERBS), st.sampled_from(_VALUES),
                    st.sampled_from(_JOINS)).map(lambda c: f"{c[0]} {c[1]} {c[2]}{c[3]}")
_texts = st.lists(_clause, min_size=1, max_size=4).map(lambda cs: "".join(cs).strip())


@settings(max_examples=400, deadline=None)
@given(_texts, _texts)
def test_the_pre_test_never_changes_which_clauses_revise(old: str, new: str) -> None:
    newer = rewording._text(new)
    read_in_full = frozenset(n for o in rewording._parsed(old) for n in newer.candidates(o)
                             if rewording._clause_revises(o, n))
    assert rewording.revising_clauses(old, new) == read_in_full
    assert revises(old, new) == bool(read_in_full)


@pytest.mark.parametrize("old, new", [
    ("The tank holds 2,500 litres.", "the tank holds about 2500 litres"),
    ("The backup image is 820 MB.", "backup image is roughly 820MB"),
])
def test_one_amount_written_two_ways_is_no_revision(old: str, new: str) -> None:
    assert clauses(old)[0].numbers == clauses(new)[0].numbers
    assert not revises(old, new)
    asked = asked_words("How big is the tank?") | asked_words("How big is the backup image?")
    assert not revises_about(old, new, asked)
