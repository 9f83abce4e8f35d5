"""Plans as plans (issue 26): a plan's target time resolves forward from the message, a plan holds from
when it is told until it is called off or happens, and it never shows as the state it plans."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from ingestion.plans import cue_matches, fulfils, plan_words
from temporal_graph import TemporalGraph
from temporal_graph.extraction import ExtractedFact, Extraction


def say(memory: TemporalGraph, text: str, at: str, speaker: str = "Sam") -> None:
    memory.add_episode(text, reference_time=at, speaker=speaker)


def told(memory: TemporalGraph) -> TemporalGraph:
    say(memory, "I live in Paris.", "2023-03-01")
    say(memory, "I'm planning to move to Lyon in January.", "2023-12-01")
    return memory


@pytest.fixture
def sam():
    with TemporalGraph.open(":memory:", embed=False) as memory:
        yield told(memory)


def plans(tg: TemporalGraph, subject: str = "Sam") -> list[str]:
    return sorted(f.object for f in tg.now(subject) if f.relation in ("PLANS", "PLANS_TO_VISIT"))


def test_a_plan_said_in_december_is_for_next_january(sam) -> None:
    [plan] = [f for f in sam.now("Sam") if f.relation == "PLANS"]
    assert plan.object == "move to Lyon"
    assert plan.attributes["planned_for"].startswith("2024-01-01")
    assert plan.valid_at == datetime(2023, 12, 1, tzinfo=UTC)  # held since it was told
    assert plan.text == "Sam is planning to move to Lyon in January 2024."


def test_a_plan_is_not_the_state_it_plans(sam) -> None:
    assert [f.object for f in sam.now("Sam", "lives in")] == ["Paris"]
    summary = sam.summary("Sam").text
    assert "Sam is planning to move to Lyon in January 2024." in summary and "lives in Lyon" not in summary


def test_context_shows_the_plan_as_a_plan(tg) -> None:  # with the embedding model, for token counts
    block = told(tg).context("where is Sam moving?", budget_tokens=300)
    assert "Sam is planning to move to Lyon in January 2024" in block and "lives in Lyon" not in block


@pytest.mark.parametrize("cancel", ["The Lyon plan fell through.", "We called off the move.",
                                    "Not moving after all.", "We decided not to move to Lyon."])
def test_a_called_off_plan_ends(sam, cancel: str) -> None:
    sam.add_episode(cancel, reference_time="2024-01-20", speaker="Sam")
    assert plans(sam) == []
    [ended] = [f for f in sam.history("Sam") if f.relation == "PLANS"]
    assert ended.invalid_at == datetime(2024, 1, 20, tzinfo=UTC)
    assert "Lyon" not in sam.summary("Sam").text
    assert [f.object for f in sam.now("Sam", "lives in")] == ["Paris"]


def test_a_cancellation_long_after_the_plan_finds_it_in_the_memory(sam) -> None:
    for day in range(2, 9):  # more messages than the extractor's context reaches back
        say(sam, f"I had pasta for lunch on day {day}.", f"2023-12-{day:02d}")
    say(sam, "The Lyon plan fell through.", "2024-01-05")
    assert plans(sam) == []


def test_a_cancellation_naming_another_plan_leaves_this_one(sam) -> None:
    say(sam, "We called off the trip to Rome.", "2023-12-10")
    assert plans(sam) == ["move to Lyon"]
    assert sam.find_entity("trip to Rome") is None  # a cue is no new entity


def test_a_plan_that_happens_ends_as_its_fact_starts(sam) -> None:
    say(sam, "We moved to Lyon!", "2024-01-14")
    assert plans(sam) == []
    assert [f.object for f in sam.now("Sam", "lives in")] == ["Lyon"]
    [done] = [f for f in sam.history("Sam") if f.relation == "PLANS"]
    assert done.invalid_at == datetime(2024, 1, 14, tzinfo=UTC)


def test_a_trip_that_happens_ends_the_visit_plan() -> None:
    with TemporalGraph.open(":memory:", embed=False) as memory:
        say(memory, "I'm planning to visit Rome next week.", "2023-12-01")
        assert plans(memory) == ["Rome"]
        say(memory, "We went to Rome last week, it was lovely.", "2023-12-15")
        assert plans(memory) == []


def test_on_friday_is_the_coming_friday() -> None:
    with TemporalGraph.open(":memory:", embed=False) as memory:  # Monday 2023-05-08
        say(memory, "I'm going hiking on Friday.", "2023-05-08T10:00:00")
        say(memory, "I'm moving to Berlin on Saturday.", "2023-05-08T10:00:00")
        [hike] = [f for f in memory.now("Sam") if f.relation == "PLANS"]
        assert hike.attributes["planned_for"].startswith("2023-05-12")
        [berlin] = memory.as_of("2023-05-14", subject="Sam", relation="lives in")
        assert berlin.valid_at == datetime(2023, 5, 13, tzinfo=UTC)  # a scheduled move, dated forward


def test_someone_elses_plan_is_their_claim_and_stays_apart(sam) -> None:
    sam.add_episode("Sam is planning to move to Rome.", reference_time="2023-12-05", speaker="Bob")
    say(sam, "We called off the move.", "2024-01-20")
    claims = [f for f in sam.now("Sam") if f.relation == "PLANS"]
    assert [(f.object, f.claimed_by) for f in claims] == [("move to Rome", "Bob")]  # Sam ended only his own


def test_plan_words_match_cues_and_fulfilments() -> None:
    assert plan_words("PLANS", "relocate to Lyon") == plan_words("PLANS", "move to Lyon")
    assert cue_matches("Lyon", "PLANS", "move to Lyon")
    assert cue_matches("trip to Peru", "PLANS_TO_VISIT", "Peru")
    assert not cue_matches("Rome", "PLANS", "move to Lyon") and not cue_matches("", "PLANS", "move to Lyon")
    assert fulfils("LIVES_IN", "Lyon", "PLANS", "move to Lyon")
    assert fulfils("VISITED", "Rome", "PLANS_TO_VISIT", "Rome")
    assert not fulfils("LIVES_IN", "Lyon", "PLANS_TO_VISIT", "Lyon")  # a visit is not a move
    assert not fulfils("LIKES", "Lyon", "PLANS", "move to Lyon")


class _Told:
    """An extractor that gives the facts it was built with (as an LLM would)."""

    def __init__(self, *facts: ExtractedFact) -> None:
        self.facts = list(facts)

    def extract(self, episode, context=()):
        return Extraction(facts=self.facts)


def test_any_extractor_gets_plans_and_future_facts_dated_forward() -> None:
    plan = ExtractedFact(subject="Ana", relation="PLANS", object="move to Oslo",
                         text="Ana plans to move to Oslo.", time_text="in January")
    move = ExtractedFact(subject="Ana", relation="LIVES_IN", object="Bergen", text="Ana moves to Bergen.",
                         time_text="in March", future=True)
    with TemporalGraph.open(":memory:", embed=False, extractor=_Told(plan, move)) as memory:
        say(memory, "(anything)", "2023-12-01", speaker="Ana")
        [held] = [f for f in memory.now("Ana") if f.relation == "PLANS"]
        assert held.attributes["planned_for"].startswith("2024-01-01")
        [bergen] = memory.history("Ana", "lives in")
        assert bergen.valid_at == datetime(2024, 3, 1, tzinfo=UTC)


def test_a_plan_called_off_in_the_same_session_never_stands() -> None:
    with TemporalGraph.open(":memory:", embed=False) as memory:  # a chat whose messages share their day
        say(memory, "I'm planning to move to Lyon in June.", "2023-12-01")
        say(memory, "Ugh, the plan fell through.", "2023-12-01")
        assert plans(memory) == [] and memory.history("Sam") == []
