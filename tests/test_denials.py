"""Denials in chat ("I never worked at Globex", "that's not true, I don't live in Paris"), told through
add_episode with the offline extractor: the subject's word labels someone else's claim of that value
as contradicted, and never touches what the subject's own record holds instead."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from ingestion.denials import denial_step
from temporal_graph import TemporalGraph
from temporal_graph.core.model import Fact
from temporal_graph.times import ManualClock


@pytest.fixture
def tg():
    memory = TemporalGraph.open(":memory:", clock=ManualClock("2024-06-01T00:00:00+00:00"))
    yield memory
    memory.close()


def tell(tg: TemporalGraph, *turns: tuple[str, str, str]) -> None:
    for speaker, at, text in turns:
        tg.add_episode(text, reference_time=at, speaker=speaker)


def test_a_denied_claim_answers_no_and_names_the_claimant(tg):
    tell(tg, ("Tom", "2024-03-05T10:00:00+00:00", "Maya works at Globex."),
         ("Maya", "2024-03-06T10:00:00+00:00", "I never worked at Globex."))
    answer = tg.ask("Did Maya ever work at Globex?")
    assert answer.verdict == "no"
    assert answer.text.startswith("No: no record of Maya working at Globex")
    assert "Tom claimed it on 2024-03-05" in answer.text and answer.text.endswith("Maya said otherwise.")
    # the claim itself is kept, as Tom's word, labelled
    claimed = tg.ask("Did Maya ever work at Globex?", claims="only")
    assert claimed.verdict == "yes" and claimed.text.startswith("Yes, according to Tom")
    assert "Maya said otherwise" in claimed.text
    assert [(f.object, f.claimed_by, f.contradicted) for f in tg.now("Maya", claims="only")] == [
        ("Globex", "Tom", True)]


def test_without_the_denial_the_claim_alone_answers_yes(tg):
    tell(tg, ("Tom", "2024-03-05T10:00:00+00:00", "Maya works at Globex."),
         ("Maya", "2024-03-06T10:00:00+00:00", "I never said I'd move."))
    assert tg.ask("Did Maya ever work at Globex?").text.startswith("Yes, according to Tom")


def test_a_denial_of_another_value_leaves_the_own_home_alone(tg):
    tell(tg, ("Maya", "2023-03-01T10:00:00+00:00", "I live in Porto."),
         ("Tom", "2024-03-05T10:00:00+00:00", "Maya lives in Paris."),
         ("Maya", "2024-03-06T10:00:00+00:00", "That's not true, I don't live in Paris."))
    assert [f.object for f in tg.now("Maya", "lives in", claims="own")] == ["Porto"]
    claims = tg.now("Maya", "lives in", claims="only")
    assert [(f.object, f.contradicted) for f in claims] == [("Paris", True)]
    assert tg.ask("Does Maya live in Paris?").verdict == "no"


def test_a_present_denial_of_the_own_value_ends_it_and_keeps_the_past(tg):
    tell(tg, ("Maya", "2023-03-01T10:00:00+00:00", "I live in Paris."),
         ("Maya", "2024-02-01T10:00:00+00:00", "I don't live in Paris."))
    assert tg.now("Maya", "lives in") == []
    assert [f.object for f in tg.as_of("2023-06-01", subject="Maya", relation="lives in")] == ["Paris"]
    [row] = tg.history("Maya", "lives in")
    assert row.invalid_at == datetime(2024, 2, 1, 10, tzinfo=UTC)


def test_a_denial_of_a_name_never_heard_creates_nothing(tg):
    result = tg.add_episode("I've never been to Rome.", reference_time="2024-03-06T10:00:00+00:00",
                            speaker="Maya")
    assert result.added == [] and result.retracted == []
    assert tg.find_entity("Rome") is None


def _row(obj: str, start: str, end: str | None = None) -> Fact:
    def t(s: str | None) -> datetime | None:
        return datetime.fromisoformat(s).replace(tzinfo=UTC) if s else None

    return Fact(id=obj, fact_id=obj, group_id="g", subject="X", relation="LIVES_IN", object=obj,
                subject_id="x", object_id=obj, text="", valid_at=t(start), invalid_at=t(end),
                created_at=datetime(2025, 1, 1, tzinfo=UTC))


def test_denial_step_retracts_only_what_the_record_never_held():
    at = datetime(2024, 1, 1, tzinfo=UTC)
    assert denial_step([], at) == "retract"
    assert denial_step([_row("P", "2023-01-01")], at) == "end"
    assert denial_step([_row("P", "2020-01-01", "2021-01-01")], at) == "none"  # a past stint stays
