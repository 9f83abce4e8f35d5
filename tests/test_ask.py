"""Questions answered from facts (cited), offline by rules or with a planned query; never invented."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from queries.ask import QuestionPlan, question_time
from temporal_graph.core.time import resolve_range as resolve_phrase
from temporal_graph.errors import InvalidInput
from temporal_graph.llm.testing import ScriptedLLM


@pytest.fixture
def story(tg, tick):
    """Zhang Wei: Beijing from March 2020, software engineer at Alibaba from 2021, Shanghai from June 2024."""
    tick()
    tg.add_fact("Zhang Wei", "lives in", "Beijing", valid_at="2020-03-01", episode_id="ep-beijing")
    tg.add_fact("Zhang Wei", "works as", "software engineer", valid_at="2021-03-01", episode_id="ep-job")
    tg.add_fact("Zhang Wei", "works at", "Alibaba", valid_at="2021-03-01", episode_id="ep-job")
    tg.add_fact("Zhang Wei", "likes", "hiking")
    tg.add_fact("Li Na", "lives in", "Hangzhou", valid_at="2019-01-01")
    tick()
    tg.add_fact("Zhang Wei", "lives in", "Shanghai", valid_at="2024-06-01", episode_id="ep-move")
    tg.add_episode("Hello again!", reference_time="2024-06-02", speaker="Zhang Wei")  # "he" = the speaker
    return tg


def cited(answer):
    return [(f.relation, f.object) for f in answer.facts]


def test_where_does_he_live_now(story):
    answer = story.ask("Where does Zhang Wei live now?")
    assert answer.known
    assert cited(answer) == [("LIVES_IN", "Shanghai")]
    assert answer.facts[0].episode_ids == ("ep-move",)
    assert "Shanghai" in answer.text and "2024-06-01" in answer.text


def test_where_did_he_live_the_month_before_the_move(story):
    answer = story.ask("Where did he live in May 2024?")
    assert answer.known
    assert cited(answer) == [("LIVES_IN", "Beijing")]
    assert "Zhang Wei" in answer.text  # says whom "he" was taken to be


def test_before_he_moved(story):
    answer = story.ask("Where did Zhang Wei live before he moved?")
    assert cited(answer) == [("LIVES_IN", "Beijing")]


def test_what_does_he_do(story):
    answer = story.ask("What does he do?")
    assert cited(answer) == [("WORKS_AS", "software engineer")]
    assert story.ask("Where does Zhang Wei work?").facts[0].object == "Alibaba"


def test_other_relations_and_the_whole_history(story):
    assert cited(story.ask("What does Zhang Wei like?")) == [("LIKES", "hiking")]
    assert cited(story.ask("Where did Zhang Wei live?")) == [
        ("LIVES_IN", "Beijing"),
        ("LIVES_IN", "Shanghai"),
    ]
    assert cited(story.ask("Where does Li Na live?")) == [("LIVES_IN", "Hangzhou")]
    who = story.ask("Who lives in Shanghai?")
    assert [f.subject for f in who.facts] == ["Zhang Wei"]


def test_says_it_does_not_know_instead_of_inventing(story):
    before = story.ask("Where did Zhang Wei live in 2019?")  # Beijing only from 2020
    assert not before.known and before.facts == []
    assert before.text.startswith("I don't know")
    stranger = story.ask("Where does Bob live?")
    assert not stranger.known and stranger.facts == []
    nothing = story.ask("Is Li Na allergic to anything?")
    assert not nothing.known


def test_reference_time_sets_now(story):
    answer = story.ask("Where does Zhang Wei live now?", reference_time="2023-01-01")
    assert cited(answer) == [("LIVES_IN", "Beijing")]
    with pytest.raises(InvalidInput):
        story.ask("   ")


def test_time_expressions_in_questions():
    ref = datetime(2025, 1, 10, tzinfo=UTC)
    assert question_time("where does she live now?", ref).start == ref
    in_2019 = question_time("where did she live in 2019?", ref)
    assert (in_2019.kind, in_2019.start.year, in_2019.end.year) == ("during", 2019, 2020)
    month = question_time("what did he do in May 2023?", ref)
    assert (month.start.month, month.end.month) == (5, 6)
    assert question_time("where did she live before she moved?", ref).kind == "before_change"
    assert question_time("where did she live?", ref).kind == "ever"


def test_relative_periods_resolve_against_the_reference_time():
    ref = datetime(2025, 1, 10, tzinfo=UTC)
    assert resolve_phrase("last summer", ref) == (
        datetime(2024, 6, 1, tzinfo=UTC),
        datetime(2024, 9, 1, tzinfo=UTC),
    )
    july = datetime(2025, 7, 15, tzinfo=UTC)
    assert resolve_phrase("last summer", july)[0].year == 2024  # this summer is not over yet
    assert resolve_phrase("last year", ref)[0] == datetime(2024, 1, 1, tzinfo=UTC)
    assert resolve_phrase("two years ago", ref)[0] == datetime(2023, 1, 1, tzinfo=UTC)
    assert resolve_phrase("may", ref)[0] == datetime(2024, 5, 1, tzinfo=UTC)
    assert resolve_phrase("this winter", ref)[0] == datetime(2024, 12, 1, tzinfo=UTC)


def test_with_an_llm_the_plan_comes_from_one_structured_call(story):
    plan = QuestionPlan(subject="Zhang Wei", relations=["LIVES_IN"], time="during", time_text="in March 2022")
    story.llm = ScriptedLLM([plan])
    answer = story.ask("Where was Zhang Wei based in the spring of 2022?")
    assert cited(answer) == [("LIVES_IN", "Beijing")]
    assert [r.purpose for r in story.llm.requests] == ["ask-plan"]


def test_with_an_llm_unknown_names_are_not_invented(story):
    story.llm = ScriptedLLM([QuestionPlan(subject="Bob", relations=["LIVES_IN"])])
    answer = story.ask("Where does Bob live?")
    assert not answer.known and "Bob" in answer.text


def test_a_failing_llm_falls_back_to_the_rules(story):
    story.llm = ScriptedLLM(["this is not JSON"])
    answer = story.ask("Where does Zhang Wei live now?")
    assert cited(answer) == [("LIVES_IN", "Shanghai")]
