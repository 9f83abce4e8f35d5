"""Answers from a real conversation (issue 26): one test per row of the issue's table — "ever" of a
place that was only a plan, "still" after a break-up, "before/after C", "planning to" after the plan
fell through, "ever" of something only someone else claimed and the subject denied — on a chat log
told through add_episode with the offline extractor; and neighbours on a timeline on their own."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from queries.question import is_plan
from queries.timeline import neighbour
from temporal_graph import TemporalGraph
from temporal_graph.core.model import Fact
from temporal_graph.times import ManualClock

CHAT = [
    ("Maya", "2023-03-01T10:00:00+00:00", "I live in Lisbon."),
    ("Maya", "2023-03-02T10:00:00+00:00", "I work at Acme."),
    ("Maya", "2023-04-01T10:00:00+00:00", "I'm dating Leo."),
    ("Maya", "2023-09-01T10:00:00+00:00", "I moved to Porto last week."),
    ("Maya", "2023-12-01T10:00:00+00:00", "I'm planning to move to Madrid in January."),
    ("Maya", "2024-01-20T10:00:00+00:00", "The Madrid plan fell through."),
    ("Maya", "2024-02-01T10:00:00+00:00", "Leo and I broke up."),
    ("Maya", "2024-03-01T10:00:00+00:00", "I'm dating Sam now."),
    ("Tom", "2024-03-05T10:00:00+00:00", "Maya works at Globex."),
    ("Maya", "2024-03-06T10:00:00+00:00", "I never worked at Globex, I'm still at Acme."),
]


@pytest.fixture(scope="module")
def maya():
    tg = TemporalGraph.open(":memory:", clock=ManualClock("2024-06-01T00:00:00+00:00"))
    for speaker, at, text in CHAT:
        tg.add_episode(text, reference_time=at, speaker=speaker)
    yield tg
    tg.close()


def cited(answer):
    return [(f.subject, f.relation, f.object) for f in answer.facts]


def test_ever_lived_in_a_city_that_was_only_a_plan_is_no_with_the_plan(maya):
    answer = maya.ask("Has Maya ever lived in Madrid?")
    assert answer.verdict == "no" and answer.known
    assert answer.text.startswith("No: no record of Maya living in Madrid")
    # "The Madrid plan fell through" names no date: the plan ended by the time it was told.
    assert "plan ended by 2024-01-20" in answer.text and "Madrid" in answer.facts[0].text
    assert not any(f.relation == "LIVES_IN" for f in answer.facts)


def test_still_dating_after_a_break_up_is_no_with_the_end_and_who_now(maya):
    answer = maya.ask("Is Maya still dating Leo?")
    assert answer.verdict == "no"
    assert answer.text.startswith("No: it ended") and "2024-02-01" in answer.text
    assert "now: Maya is dating Sam" in answer.text
    assert ("Maya", "DATING", "Sam") in cited(answer)
    yes = maya.ask("Is Maya still dating Sam?")
    assert yes.verdict == "yes" and yes.text.startswith("Yes") and cited(yes) == [("Maya", "DATING", "Sam")]


def test_before_and_after_a_city_are_the_neighbours_on_the_timeline(maya):
    before = maya.ask("Where did Maya live before Porto?")
    assert before.known and cited(before) == [("Maya", "LIVES_IN", "Lisbon")]
    after = maya.ask("Where did Maya live after Lisbon?")
    assert after.known and cited(after) == [("Maya", "LIVES_IN", "Porto")]
    first = maya.ask("Where did Maya live before Lisbon?")
    assert not first.known and "no earlier" in first.text


def test_planning_to_move_after_the_plan_fell_through_is_no(maya):
    answer = maya.ask("Is Maya planning to move to Madrid?")
    assert answer.verdict == "no"
    assert answer.text.startswith("No: the plan ended by 2024-01-20; Maya planned to move to Madrid")
    assert all(is_plan(f.relation) for f in answer.facts)
    # a plan is never the answer to where she lives
    home = maya.ask("Where does Maya live?")
    assert cited(home) == [("Maya", "LIVES_IN", "Porto")]


def test_ever_worked_where_only_a_denied_claim_says_is_no_and_names_the_claimant(maya):
    answer = maya.ask("Did Maya ever work at Globex?")
    assert answer.verdict == "no"
    assert answer.text.startswith("No: no record of Maya working at Globex")
    assert "Tom claimed it on 2024-03-05" in answer.text and "Maya said otherwise" in answer.text
    assert ("Maya", "WORKS_AT", "Globex") in cited(answer)
    # only the claims: the claim itself answers, labelled
    claimed = maya.ask("Did Maya ever work at Globex?", claims="only")
    assert claimed.verdict == "yes" and claimed.text.startswith("Yes, according to Tom")


def test_i_dont_know_only_when_the_memory_holds_nothing_about_the_subject(maya):
    never = maya.ask("Has Maya ever lived in Tokyo?")
    assert never.verdict == "no" and never.text == "No: no record of Maya living in Tokyo."
    assert maya.ask("Has Sam ever lived in Tokyo?").text.startswith("No")  # Sam is Maya's partner
    unknown = maya.ask("Has Zed ever lived in Tokyo?")
    assert not unknown.known and unknown.verdict is None and unknown.text.startswith("I don't know")


# -- neighbours on a timeline, on their own --------------------------------------------------------
def _row(obj: str, start: str | None, end: str | None = None) -> Fact:
    def t(s: str | None) -> datetime | None:
        return datetime.fromisoformat(s).replace(tzinfo=UTC) if s else None

    return Fact(id=obj, fact_id=obj, group_id="g", subject="X", relation="LIVES_IN", object=obj,
                subject_id="x", object_id=obj, text=f"X lives in {obj}", valid_at=t(start), invalid_at=t(end),
                created_at=datetime(2025, 1, 1, tzinfo=UTC))


def test_neighbour_is_the_value_just_before_or_after():
    timeline = [_row("A", None, "2020-01-01"), _row("B", "2020-01-01", "2022-01-01"),
                _row("C", "2022-01-01", "2023-01-01"), _row("B", "2023-01-01")]
    assert [f.object for f in neighbour(timeline, "C", "before")] == ["B"]
    assert [f.object for f in neighbour(timeline, "C", "after")] == ["B"]
    assert [f.object for f in neighbour(timeline, "B", "before")] == ["A"]  # before its first stretch
    assert neighbour(timeline, "B", "after") == []  # after its last stretch: nothing yet
    assert neighbour(timeline, "A", "before") == []  # an unknown start is the earliest
    assert neighbour(timeline, "Z", "before") == []  # never held


def test_a_name_holding_a_possessive_is_found_in_a_question():
    with TemporalGraph.open(":memory:", embed=False) as tg:
        tg.add_episode("I work at St. Michael's Hospital.", reference_time="2023-02-01", speaker="Kwame")
        still = tg.ask("Does Kwame still work at St. Michael's Hospital?")
        assert still.verdict == "yes" and cited(still) == [("Kwame", "WORKS_AT", "St. Michael's Hospital")]
        who = tg.ask("Who works at St. Michael's Hospital?")
        assert who.text.startswith("Kwame works at St. Michael's Hospital")


def test_a_no_without_a_relation_named_guesses_no_verb(maya):
    answer = maya.ask("Does Maya still have Pepper?")  # no fact, no relation the words name
    assert answer.verdict == "no" and answer.text.startswith("No: no record of Maya and Pepper")
