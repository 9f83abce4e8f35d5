"""Reflection (issue 25): each offline pattern with a case that makes it and one that does not;
revisions link the insight they replace; the LLM producer's answers are refused (and counted) when
they cite evidence they were not given; reflect_every reflects after the write, never failing it;
and, over random writes, ends and retractions, no current insight ever cites an expired version."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from doc_examples import run_example
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from queries.reflection.patterns import (
    changes,
    long_held,
    plans_never_happened,
    shared,
    streaks_and_gaps,
)
from temporal_graph import TemporalGraph
from temporal_graph.core.stores.protocol import FactQuery
from temporal_graph.errors import InvalidInput, NotFound
from temporal_graph.llm.testing import ScriptedLLM
from temporal_graph.times import ManualClock

NOW = datetime(2026, 1, 1, tzinfo=UTC)


def memory(llm=None, **options) -> TemporalGraph:
    return TemporalGraph.open(":memory:", clock=ManualClock(NOW), embed=False, llm=llm, **options)


def facts(tg: TemporalGraph):
    return tg.core.store.facts(FactQuery("default"))


def lives(tg: TemporalGraph, who: str, *moves: tuple[str, str], until: str | None = None) -> None:
    for city, start in moves:
        tg.add_fact(who, "LIVES_IN", city, valid_at=start)
    if until:
        tg.end_fact(who, "LIVES_IN", moves[-1][0], at=until)


# -- the offline patterns ---------------------------------------------------------------------------
def test_changes_counts_moves_in_a_window_of_two_years():
    tg = memory()
    lives(tg, "Kenji", ("Osaka", "2019-01-01"), ("Kyoto", "2019-09-01"), ("Nara", "2020-05-01"),
          ("Kobe", "2020-12-01"))
    lives(tg, "Ana", ("Rome", "2010-01-01"), ("Milan", "2013-01-01"), ("Turin", "2016-01-01"),
          ("Genoa", "2019-01-01"))  # as many moves, three years apart
    found = changes(facts(tg), NOW)
    assert [d.text for d in found] == ["Kenji moved 3 times in 2 years (2019-2020: Osaka, Kyoto, Nara, Kobe)"]
    assert len(found[0].derived_from) == 4


def test_long_held_needs_years_and_a_value_still_holding():
    tg = memory()
    lives(tg, "Ana", ("Denver", "2019-03-01"))
    lives(tg, "Bo", ("Lima", "2024-06-01"))  # too recent
    lives(tg, "Cy", ("Oslo", "2010-01-01"), until="2020-01-01")  # long, but over
    found = long_held(facts(tg), NOW)
    assert [d.text for d in found] == ["Ana lives in Denver since 2019 (7 years)"]


def test_streaks_and_gaps():
    tg = memory()
    for org, start, end in (("Acme", "2010-01-01", "2012-01-01"), ("Beta", "2012-01-01", "2014-01-01"),
                            ("Core", "2014-01-01", "2015-01-01"), ("Delta", "2018-01-01", None)):
        tg.add_fact("Ana", "WORKS_AT", org, valid_at=start, invalid_at=end)
    for org, start, end in (("Acme", "2010-01-01", "2011-01-01"), ("Beta", "2011-03-01", None)):
        tg.add_fact("Bo", "WORKS_AT", org, valid_at=start, invalid_at=end)  # a short gap, no streak
    found = {d.pattern.split()[0]: d for d in streaks_and_gaps(facts(tg), NOW)}
    assert set(found) == {"streak", "gap"}
    assert found["streak"].subjects == ("Ana",) and "Acme, Beta, Core" in found["streak"].text
    assert found["gap"].text == "Ana had no 'works at' for 3 years (2015-2018), between Core and Delta"


def test_shared_values_need_overlapping_times():
    tg = memory()
    tg.add_fact("Ana", "LIVES_IN", "Denver", valid_at="2019-01-01")
    tg.add_fact("Bo", "LIVES_IN", "Denver", valid_at="2021-01-01")
    tg.add_fact("Cy", "LIVES_IN", "Paris", valid_at="2000-01-01", invalid_at="2005-01-01")
    tg.add_fact("Di", "LIVES_IN", "Paris", valid_at="2006-01-01")  # after Cy left: never together
    found = shared(facts(tg), NOW)
    assert [(d.subjects, d.valid_at) for d in found] == [
        (tuple(sorted(("Ana", "Bo"), key=lambda n: tg.find_entity(n).id)), datetime(2021, 1, 1, tzinfo=UTC))]
    assert found[0].text.startswith(f"{found[0].subjects[0]} and {found[0].subjects[1]} shared Denver")


def test_plans_called_off_or_long_overdue_never_happened():
    tg = memory()
    tg.add_fact("Ana", "PLANS", "move to Lyon", valid_at="2024-01-01", invalid_at="2024-06-01")  # called off
    tg.add_fact("Bo", "PLANS", "move to Kyoto", valid_at="2024-01-01", invalid_at="2024-06-01")
    tg.add_fact("Bo", "LIVES_IN", "Kyoto", valid_at="2024-06-01")  # it happened when the plan ended
    tg.add_fact("Cy", "PLANS", "run a marathon", valid_at="2024-01-01",
                attributes={"planned_for": "2024-10-01T00:00:00+00:00"})  # overdue, still standing
    tg.add_fact("Di", "PLANS", "visit Peru", valid_at="2025-12-01",
                attributes={"planned_for": "2026-05-01T00:00:00+00:00"})  # not yet due
    found = plans_never_happened(facts(tg), NOW)
    assert sorted(d.subjects[0] for d in found) == ["Ana", "Cy"]
    assert any("called off in 2024-06-01" in d.text for d in found)


# -- reflect, revise, read --------------------------------------------------------------------------
def test_reflect_keeps_what_comes_out_the_same_and_revises_the_rest():
    tg = memory()
    lives(tg, "Kenji", ("Osaka", "2019-01-01"), ("Kyoto", "2019-09-01"), ("Nara", "2020-05-01"),
          ("Kobe", "2020-12-01"))
    first = tg.reflect()
    assert first.written and first.producer == "offline"
    again = tg.reflect()
    assert (again.written, again.kept) == ([], len(first.written))
    tg.core.clock.set(NOW + timedelta(days=1))  # type: ignore[attr-defined]
    tg.add_fact("Kenji", "LIVES_IN", "Sendai", valid_at="2020-12-20")
    assert not any(i.pattern.startswith("changes") for i in tg.insights("Kenji"))  # expired with Kobe's row
    revised = tg.reflect(subject="Kenji")
    new = next(i for i in revised.written if i.pattern.startswith("changes"))
    old = next(i for i in first.written if i.pattern.startswith("changes"))
    assert new.replaces == old.id and "4 times" in new.text
    assert tg.insights("Kenji", known_at=NOW)[0].created_at == NOW
    assert tg.insights("Nobody") == [] and tg.reflect(subject="Nobody").written == []


def test_reflect_refuses_an_unknown_producer():
    with pytest.raises(InvalidInput):
        memory().reflect(producer="oracle")
    with pytest.raises(InvalidInput):
        memory().reflect(producer="llm")  # no LLM configured


def test_the_llm_producer_cites_what_it_was_given_or_is_refused():
    def answer(request):
        prompt = request.messages[-1]["content"]
        if "Osaka" in prompt:
            return {"insights": [{"text": "Kenji is restless", "subjects": ["Kenji"],
                                  "evidence": ["F1", "F2"], "importance": 7}]}
        return {"insights": [{"text": "Ana likes cities", "subjects": ["Ana"], "evidence": ["F99"]}]}

    llm = ScriptedLLM(answer)
    tg = memory(llm)
    lives(tg, "Kenji", ("Osaka", "2019-01-01"), ("Kyoto", "2020-01-01"))
    kenji = tg.reflect(producer="llm")
    assert [(i.text, i.producer, i.importance, len(i.derived_from)) for i in kenji.written] == [
        ("Kenji is restless", "llm", 7, 2)]
    assert kenji.refused == 0
    tg.add_fact("Ana", "LIVES_IN", "Rome", valid_at="2020-01-01")
    ana = tg.reflect(subject="Ana", producer="llm")
    assert ana.written == [] and ana.refused == 1
    assert all(r.purpose == "reflect" for r in llm.requests)


def test_reflect_every_n_episodes_runs_after_the_write_and_never_fails_it(monkeypatch):
    tg = memory(reflect_every=2)
    tg.add_fact("Ana", "LIVES_IN", "Denver", valid_at="2015-01-01")
    tg.add_episode("I had tea.", reference_time="2025-12-01")
    assert tg.insights() == []
    tg.add_episode("I had coffee.", reference_time="2025-12-02")
    assert [i.text for i in tg.insights()] == ["Ana lives in Denver since 2015 (11 years)"]

    import queries.reflection.reflecting as module

    def broken(*args, **kwargs):
        raise RuntimeError("reflection broke")

    monkeypatch.setattr(module, "reflect", broken)
    tg.add_episode("I had juice.", reference_time="2025-12-03")
    stored = tg.add_episode("I had milk.", reference_time="2025-12-04")
    assert tg.core.store.episodes("default", ids=[stored.episode.id])
    with pytest.raises(InvalidInput):
        memory(reflect_every=0)


# -- the property -----------------------------------------------------------------------------------
CITIES = ("Denver", "Boston", "Austin")
YEARS = ("2012-01-01", "2016-01-01", "2016-07-01", "2017-01-01", "2017-07-01", "2020-01-01")
people, cities, years = st.sampled_from(("Ana", "Bo")), st.sampled_from(CITIES), st.sampled_from(YEARS)
step = st.one_of(
    st.tuples(st.just("add"), people, cities, years),
    st.tuples(st.just("end"), people, cities, years),
    st.tuples(st.just("retract"), people, cities, st.just("")),
    st.tuples(st.just("reflect"), st.just(""), st.just(""), st.just("")),
)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(steps=st.lists(step, min_size=1, max_size=14))
def test_no_current_insight_ever_cites_an_expired_fact_version(steps):
    tg = memory(summaries=False)
    clock = tg.core.clock
    for n, (op, who, city, year) in enumerate(steps):
        clock.set(NOW + timedelta(hours=n))  # type: ignore[attr-defined]
        try:
            if op == "add":
                tg.add_fact(who, "LIVES_IN", city, valid_at=year)
            elif op == "end":
                tg.end_fact(who, "LIVES_IN", city, at=year)
            elif op == "retract":
                tg.retract_fact(who, "LIVES_IN", city)
            else:
                tg.reflect()
        except (InvalidInput, NotFound):
            continue  # a statement the rules refuse, or about no one known, changes nothing
        current = {f.id for f in facts(tg)}
        for insight in tg.insights():
            assert set(insight.derived_from) <= current, insight.text


def test_the_docs_reflection_example():
    scope = run_example("### Reflection: insights")
    assert scope["moved"][0].text == "Kenji moved 3 times in 2 years (2019-2020: Osaka, Kyoto, Nara, Kobe)"
    assert scope["gone"] == []
    assert any(i.pattern.startswith("changes") for i in scope["believed"])
    assert "Insight: Kenji moved 3 times in 2 years" in scope["said"].text
    assert scope["about"].startswith("Kenji lives in Kobe since December 2020. Insight: ")


def test_context_labels_the_insights_about_what_it_shows():
    tg = memory()
    lives(tg, "Kenji", ("Osaka", "2019-01-01"), ("Kyoto", "2019-09-01"), ("Nara", "2020-05-01"),
          ("Kobe", "2020-12-01"))
    assert "Insights" not in tg.context("Where does Kenji live?")
    tg.reflect()
    block = tg.context("Where does Kenji live?")
    facts, insights = block.split("Insights (derived from facts):\n")
    assert "Kobe" in facts
    assert "- Kenji moved 3 times in 2 years (2019-2020: Osaka, Kyoto, Nara, Kobe) (insight believed since " \
           "2026-01-01, from 4 facts)" in insights
    assert "Insights" not in tg.context("Where does Kenji live?", known_at=NOW - timedelta(days=1))


def test_an_answer_states_the_insights_citing_its_facts_as_believed_when_asked():
    clock = ManualClock(NOW)
    tg = TemporalGraph.open(":memory:", clock=clock, embed=False)
    lives(tg, "Kenji", ("Osaka", "2019-01-01"), ("Kyoto", "2019-09-01"), ("Nara", "2020-05-01"),
          ("Kobe", "2020-12-01"))
    tg.add_fact("Kenji", "LIKES", "chess", valid_at="2025-06-01")
    before = tg.ask("Where does Kenji live?")
    assert before.insights == [] and "Insight" not in before.text
    clock.set(NOW + timedelta(days=1))
    tg.reflect()
    answer = tg.ask("Where does Kenji live?")
    assert answer.text.startswith("Kenji lives in Kobe")
    assert "Insight: Kenji moved 3 times in 2 years (2019-2020: Osaka, Kyoto, Nara, Kobe) (insight " \
           "believed since 2026-01-02, from 4 facts)." in answer.text
    cited = {f.id for f in answer.facts}
    assert answer.insights and all(cited & set(i.derived_from) for i in answer.insights)
    # An insight about Kenji that cites none of the answer's facts stays out of it.
    assert tg.ask("What does Kenji like?").insights == []
    # As known the day before the reflection: no insight was believed then.
    then = tg.ask("Where did Kenji live in 2019, as known on 2026-01-01?")
    assert then.known and then.insights == []
    assert tg.ask("Where did Kenji live in 2019, as known on 2026-01-03?").insights
    tg.retract_fact("Kenji", "LIVES_IN", "Nara")  # the evidence changed: the insight leaves the answer
    assert "moved 3 times" not in tg.ask("Where does Kenji live?").text


def test_a_summary_states_the_insights_believed_with_it():
    clock = ManualClock(NOW)
    tg = TemporalGraph.open(":memory:", clock=clock, embed=False)
    lives(tg, "Kenji", ("Osaka", "2019-01-01"), ("Kyoto", "2019-09-01"), ("Nara", "2020-05-01"),
          ("Kobe", "2020-12-01"))
    made_at = NOW + timedelta(days=1)
    clock.set(made_at)
    tg.reflect()
    summary = tg.summary("Kenji")
    assert summary is not None
    assert summary.text.startswith("Kenji lives in Kobe since December 2020.")
    assert "Insight: Kenji moved 3 times in 2 years (2019-2020: Osaka, Kyoto, Nara, Kobe)." in summary.text
    assert set(summary.insight_ids) <= {i.id for i in tg.insights("Kenji")} and summary.insight_ids
    before = tg.summary("Kenji", known_at=NOW)
    assert before is not None and "Insight" not in before.text and before.insight_ids == ()
    clock.set(made_at + timedelta(days=1))
    tg.retract_fact("Kenji", "LIVES_IN", "Nara")
    assert "moved 3 times" not in tg.summary("Kenji").text
    assert "moved 3 times" in tg.summary("Kenji", known_at=made_at).text  # as believed then


def test_the_reflection_benchmark_on_the_sample_chat():
    from benchmarks.reflection import CHAT_LOGS, measure_llm_refusals, measure_log

    row = measure_log(CHAT_LOGS[0], None)
    assert row["messages"] == 37 and row["insights"] >= 1 and row["sound"] == 1.0
    llm = measure_llm_refusals(CHAT_LOGS[0], None)
    assert llm["refused"] == llm["answers"] // 2


def test_search_finds_insights_when_asked_and_ranks_them_by_importance():
    tg = memory()
    lives(tg, "Kenji", ("Osaka", "2019-01-01"), ("Kyoto", "2019-09-01"), ("Nara", "2020-05-01"),
          ("Kobe", "2020-12-01"))
    tg.reflect()
    assert all(h.kind != "insight" for h in tg.search("Kenji moved", limit=20))  # not unless asked
    hits = tg.search("Kenji moved", kinds=("fact", "insight"), limit=20)
    insight_hits = [h for h in hits if h.kind == "insight"]
    assert insight_hits and insight_hits[0].insight is not None
    first = insight_hits[0]
    assert first.text.startswith("Kenji moved 3 times") and "insight words #1" in first.reasons
    ranked = tg.search("Kenji", kinds=("fact", "insight"), rank="importance", limit=3)
    assert ranked[0].kind == "insight" and ranked[0].insight.importance == 6
    with pytest.raises(InvalidInput):
        tg.search("Kenji", kinds=("insights",))


# -- insights follow what un-learning and copying do to their evidence --------------------------------
def _denver() -> tuple[TemporalGraph, str]:
    tg = memory()
    told = tg.add_episode("I live in Denver.", reference_time="2019-03-01", speaker="Ana")
    tg.reflect()
    assert [i.text for i in tg.insights("Ana")] == ["Ana lives in Denver since 2019 (7 years)"]
    return tg, told.episode.id


def test_retracting_the_message_behind_an_insight_expires_it_and_history_keeps_it():
    tg, episode_id = _denver()
    before = tg.moment()
    tg.core.clock.set(NOW + timedelta(days=1))  # type: ignore[attr-defined]
    tg.retract_episode(episode_id)
    assert tg.insights("Ana") == []
    believed = tg.insights("Ana", known_at=before)
    assert [i.text for i in believed] == ["Ana lives in Denver since 2019 (7 years)"]


def test_erasing_the_message_behind_an_insight_erases_every_version_of_it():
    tg, episode_id = _denver()
    tg.erase_episode(episode_id)
    assert tg.core.store.insights("default", all_versions=True) == []


def test_a_copy_holds_the_same_insight_versions():
    tg, _ = _denver()
    other = memory()
    report = tg.copy_to(other)
    assert report.ok, report
    assert other.core.store.insights("default", all_versions=True) == tg.core.store.insights(
        "default", all_versions=True)
