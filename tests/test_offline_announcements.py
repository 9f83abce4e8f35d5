"""Stated changes and terse profiles (issue 50, ingestion/offline/announcements.py): each shape with
the fact it states, lookalikes that must state nothing, and the supersession it causes."""

from __future__ import annotations

import pytest

from ingestion.offline.announcements import profile
from temporal_graph import TemporalGraph
from tests.extracted import extracted
from tests.memory_reads import now, stretches, then, told


@pytest.fixture
def tg():
    with TemporalGraph.open(":memory:", embed=False) as memory:
        yield memory


def facts_of(text: str, speaker: str = "Nadia") -> set[tuple[str, str, str]]:
    return {(f.subject, f.relation, f.object) for f in extracted(text, speaker) if f.kind == "state"}


@pytest.mark.parametrize(("text", "fact"), [
    ("Started my new job at Ferrero this week!", ("Nadia", "WORKS_AT", "Ferrero")),
    ("Priya teaches chemistry at Hillside Academy.", ("Priya", "WORKS_AT", "Hillside Academy")),
    ("I drive a Tesla Model 3 now", ("Nadia", "DRIVES", "Tesla Model 3")),
    ("My car is a 2015 Honda Civic", ("Nadia", "DRIVES", "Honda Civic")),
    ("Kemal drives a grey Skoda Octavia.", ("Kemal", "DRIVES", "Skoda Octavia")),
    ("Kemal's car is a Skoda Octavia.", ("Kemal", "DRIVES", "Skoda Octavia")),
    ("Traded the Prius in for a Kia EV6.", ("Nadia", "DRIVES", "Kia EV6")),
    ("Sold the Niva. Got a Skoda Octavia estate instead.", ("Nadia", "DRIVES", "Skoda Octavia")),
    ("I'm using a Pixel 6 at the moment.", ("Nadia", "PHONE_MODEL", "Pixel 6")),
    ("Just upgraded to an iPhone 15, loving it so far", ("Nadia", "PHONE_MODEL", "iPhone 15")),
    ("My phone is a OnePlus 11.", ("Nadia", "PHONE_MODEL", "OnePlus 11")),
])
def test_a_stated_change(text: str, fact: tuple[str, str, str]) -> None:
    assert fact in facts_of(text)


@pytest.mark.parametrize("text", [
    "My brother just started his new job at Nestle!",  # someone else's (no name: nothing)
    "I teach a workshop at PyCon.",  # no school
    "My wife switched to an iPhone 15.",
    "My sister's phone is a Pixel 8.",
    "My dad drives a Volvo XC60.",
    "My mum got a new iPhone 15 for her birthday.",
    "I bought a Toyota Yaris for my daughter.",
    "I bought a Tesla last month.",  # owning, not a car replaced
    "Thinking about getting a Tesla Model Y next year.",
    "Should I get a Kia EV6?",
    "Would you switch to an iPhone 15?",
    "We might get a Kia EV6.",
    "If I drove a Porsche I'd be broke.",
    "I'd love to drive a Porsche 911 someday.",
    "I don't drive a Tesla.",
    "I'm not using a Pixel anymore.",
    "I used to drive a Ford Focus.",
    "Apple announced the iPhone 16.",
    "Uber drivers in my town drive a Toyota Prius.",
])
def test_lookalikes_state_no_car_phone_or_job(text: str) -> None:
    assert not {f for f in facts_of(text) if f[1] in ("DRIVES", "PHONE_MODEL", "WORKS_AT")}


@pytest.mark.parametrize(("text", "expected"), [
    ("Priya: 34, teaches chemistry at Hillside Academy, married to Dev, two cats.",
     {("Priya", "WORKS_AT", "Hillside Academy"), ("Priya", "MARRIED_TO", "Dev"),
      ("Priya", "HAS_PET", "cats")}),
    ("Kofi - 41, accountant at Mensah & Co, lives in Kumasi, three kids",
     {("Kofi", "WORKS_AS", "accountant"), ("Kofi", "WORKS_AT", "Mensah & Co"),
      ("Kofi", "LIVES_IN", "Kumasi")}),
    ("Ana María, 29, Bogotá, UX researcher at Rappi, loves climbing.",
     {("Ana María", "WORKS_AS", "UX researcher"), ("Ana María", "WORKS_AT", "Rappi")}),
])
def test_a_terse_profile(text: str, expected: set[tuple[str, str, str]]) -> None:
    assert expected <= facts_of(text, "notes")


@pytest.mark.parametrize("text", [
    "Team: Priyanka (lead), Otto (backend), Lena (design).",
    "Update: shipped, merged, done.",
    "Kofi, can you check the invoice, thanks.",
    "Project Heron: budget $250k, lead Amira, target launch Q3.",
    "Kofi: married to Ama?",  # one part only
    "Note: married to the job, two deadlines.",
])
def test_not_a_profile(text: str) -> None:
    assert profile(text) is None


def test_a_profile_part_replaced_leaves_the_rest(tg) -> None:
    told(tg, ("2024-01-10", "notes",
              "Priya: 34, teaches chemistry at Hillside Academy, married to Dev, two cats."),
         ("2024-06-03", "notes", "Priya left Hillside - she teaches chemistry at Oakfield School now."))
    assert now(tg, "Priya", "WORKS_AT") == ["Oakfield School"]
    assert then(tg, "2024-03-01", "Priya", "WORKS_AT") == ["Hillside Academy"]
    assert now(tg, "Priya", "MARRIED_TO") == ["Dev"]


def test_a_new_car_replaces_the_old_one(tg) -> None:
    told(tg, ("2024-01-10", "Sam", "My car is a 2015 Honda Civic"),
         ("2024-06-03", "Sam", "I drive a Tesla Model 3 now"))
    assert now(tg, "Sam", "DRIVES") == ["Tesla Model 3"]
    assert stretches(tg, "Sam", "DRIVES") == [("Honda Civic", "2024-01-10", "2024-06-03"),
                                              ("Tesla Model 3", "2024-06-03", "")]


def test_a_new_job_announced_replaces_the_old_one(tg) -> None:
    told(tg, ("2024-01-10", "Giulia", "I live in Turin and I work at Fiat."),
         ("2024-06-03", "Giulia", "Started my new job at Ferrero this week!"))
    assert now(tg, "Giulia", "WORKS_AT") == ["Ferrero"]
    assert now(tg, "Giulia", "LIVES_IN") == ["Turin"]
    assert then(tg, "2024-03-01", "Giulia", "WORKS_AT") == ["Fiat"]
