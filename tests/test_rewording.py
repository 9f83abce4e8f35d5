"""Reading one short text as a rewording of another (``temporal_graph.core.rewording``): what makes
an older message "possibly superseded" in search, and a keyed message a confirmation.

Precision first: a lookalike (another person's rent, another order, the production server beside
the staging one) must never read as a revision. The pairs are our own: ``probable_pairs.tsv`` was
written to develop the rules, ``probable_pairs_holdout.tsv`` afterwards, to check them, and never
tuned on."""

from __future__ import annotations

from pathlib import Path

import pytest

from temporal_graph.core.rewording import revises, says_again

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
    ("Globex payment terms: net 30.", "Globex payment terms: net 45."),
    ("Ticket 5512 status: open.", "Ticket 5512 status: closed."),
    ("The office is at 221 Baker Street.", "The office is not at 221 Baker Street any more."),
    ("Noor uses the compact layout.", "Noor uses the classic layout."),
])
def test_other_values_never_say_it_again(old: str, new: str) -> None:
    assert not says_again(old, new)


def test_long_text_and_questions_are_no_revision() -> None:
    old = "The staging server has 32 GB of RAM."
    assert not revises(old, "Does the staging server have 64 GB of RAM?")
    assert not revises(old, " ".join(["word"] * 200) + " the staging server has 64 GB of RAM")
    assert revises(old, "quick one: the staging server has 64 GB now, can you help me tune postgres?")
