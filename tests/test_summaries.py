"""Entity summaries: derived from the facts as currently believed, refreshed on every write, kept
as versions in transaction time, capped in length; with an LLM, rewritten once per N new facts."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from datetime import date, timedelta

import pytest

from queries.summaries import PAGE
from temporal_graph import Fact, TemporalGraph
from temporal_graph.core.stores.protocol import FactQuery
from temporal_graph.core.stores.sqlite import SQLiteStore
from temporal_graph.errors import InvalidInput, NotFound
from temporal_graph.llm.testing import ScriptedLLM


@pytest.fixture
def tg(clock) -> Iterator[TemporalGraph]:
    with TemporalGraph.open(":memory:", clock=clock, embed=False) as graph:  # summaries need no vectors
        yield graph


def test_the_summary_states_the_current_facts_newest_first(tg: TemporalGraph, tick) -> None:
    tick()
    tg.add_fact("Alice", "lives in", "Paris", valid_at="2020-03-01")
    tg.add_fact("Alice", "works at", "Acme", valid_at="2021-06-01")
    tg.add_fact("Bob", "knows", "Alice", valid_at="2019-01-01")
    summary = tg.summary("alice")  # names match as everywhere else
    assert summary is not None and summary.entity == "Alice" and summary.method == "offline"
    assert summary.text == ("Alice works at Acme since June 2021. Alice lives in Paris since March 2020. "
                            "Bob knows Alice since 2019.")
    assert tg.summary("Acme").text == "Alice works at Acme since June 2021."


def test_a_bulk_load_commits_each_batch_with_its_summaries(tg: TemporalGraph, tick) -> None:
    tick()
    people = [(f"Person {i}", "lives in", "Paris", "2020") for i in range(6)]
    tg.add_facts([*people, ("Person 0", "works at", "Acme", "2021")], batch_size=2)
    paris = tg.core.store.summaries("default", tg.find_entity("Paris").id, all_versions=True)
    # One version per batch that named Paris, each batch complete alone: Person 0's two facts,
    # then two people a batch (a subject's keys are never split across batches).
    assert len(paris) == 4
    assert all(f"Person {i} lives in Paris" in tg.summary("Paris").text for i in range(6))
    assert tg.summary("Person 0").text.startswith("Person 0 works at Acme since 2021.")


def test_a_bulk_load_about_one_person_still_commits_in_bounded_batches(tg: TemporalGraph, tick) -> None:
    tick()
    likes = [("Ana", "likes", f"Hobby {i}", "2020") for i in range(3)]
    places = [("Ana", "lives in", city, f"202{i}") for i, city in enumerate(["Rome", "Oslo", "Lima"])]
    tg.add_facts([*likes, *places, ("Ana", "works at", "Acme", "2021")], batch_size=3)
    ana = tg.core.store.summaries("default", tg.find_entity("Ana").id, all_versions=True)
    assert len(ana) == 3  # one transaction per key here: Ana's 7 facts are more than a batch holds
    text = tg.summary("Ana").text
    assert text.startswith("Ana lives in Lima since 2022. Ana works at Acme since 2021.")
    assert "Hobby 2" in text


def test_a_bulk_load_without_summaries_leaves_them_to_refresh_summaries(tg: TemporalGraph, tick) -> None:
    tick()
    people = [(f"Person {i}", "lives in", "Paris", "2020") for i in range(6)]
    tg.add_facts(people, batch_size=2, summaries=False)
    assert tg.summary("Paris") is None and tg.core.store.summaries("default") == []
    assert tg.refresh_summaries() == 7  # Paris and the six people, one version each
    paris = tg.core.store.summaries("default", tg.find_entity("Paris").id, all_versions=True)
    assert len(paris) == 1 and all(f"Person {i} lives in Paris" in paris[0].text for i in range(6))
    assert tg.refresh_summaries() == 0  # nothing is stale any more
    with TemporalGraph.open(":memory:", summaries=False, embed=False) as quiet:  # the memory's setting
        quiet.add_fact("Ana", "lives in", "Rome")
        assert quiet.summary("Ana") is None and quiet.summaries is False
        assert quiet.refresh_summaries() == 2 and quiet.summary("Ana").text == "Ana lives in Rome."


class CountingStore(SQLiteStore):
    """The embedded store, counting the fact rows its reads return."""

    rows_read = 0

    def facts(self, query: FactQuery) -> list[Fact]:
        found = super().facts(query)
        self.rows_read += len(found)
        return found

    def newest_facts(self, group_id: str, entity_id: str, **kwargs) -> list[Fact]:
        found = super().newest_facts(group_id, entity_id, **kwargs)
        self.rows_read += len(found)
        return found


def test_a_summary_refresh_reads_only_the_facts_it_can_state(clock, tick) -> None:
    store = CountingStore(":memory:")
    with TemporalGraph(store, clock=clock, embed=False) as tg:
        tick()
        start = date(2000, 1, 1)
        tg.add_facts([(f"Person {i:04d}", "lives in", "Paris", (start + timedelta(days=i)).isoformat())
                      for i in range(1000)])
        tick()
        store.rows_read = 0
        tg.add_fact("Newcomer", "lives in", "Paris", valid_at="2024-05-08")
        assert store.rows_read <= 2 * PAGE + 2  # Paris has 1,001 facts; its summary states ~15
        text = tg.summary("Paris").text
        assert text.startswith("Newcomer lives in Paris since 2024-05-08. Person 0999 lives in Paris since "
                               "2002-09-26. Person 0998 lives in Paris since 2002-09-25.")
        assert len(text) <= 600 and tg.summary("Newcomer").text == "Newcomer lives in Paris since 2024-05-08."


def test_a_contradiction_changes_the_summary_and_the_old_one_stays_readable(tg: TemporalGraph, tick) -> None:
    before = tick()
    tg.add_fact("Alice", "lives in", "Paris", valid_at="2020-03-01")
    after = tick()
    tg.add_fact("Alice", "lives in", "Berlin", valid_at="2024-05-08")

    assert tg.summary("Alice").text == "Alice lives in Berlin since 2024-05-08."
    old = tg.summary("Alice", known_at=before)
    assert old.text == "Alice lives in Paris since March 2020."
    assert old.expired_at == after  # believed until the move was written
    assert tg.summary("Alice", known_at=after).text == "Alice lives in Berlin since 2024-05-08."
    assert tg.summary("Paris") is None  # Paris has no current fact any more
    assert tg.summary("Paris", known_at=before).text == "Alice lives in Paris since March 2020."


def test_a_retraction_updates_the_summary(tg: TemporalGraph, tick) -> None:
    tick()
    tg.add_fact("Alice", "likes", "jazz")
    tg.add_fact("Alice", "likes", "chess")
    tick()
    tg.retract_fact("Alice", "likes", "jazz")
    assert "jazz" not in tg.summary("Alice").text and "chess" in tg.summary("Alice").text


def test_the_summary_keeps_within_the_length_cap(clock, tick) -> None:
    with TemporalGraph.open(":memory:", clock=clock, embed=False, summary_chars=120) as tg:
        tick()
        for year in range(2000, 2020):
            tg.add_fact("Alice", "visited", f"City number {year}", valid_at=f"{year}-07-01")
        text = tg.summary("Alice").text
        assert len(text) <= 120
        assert text.startswith("Alice visited City number 2019 in July 2019.")  # newest first
        assert text.endswith(".")  # whole sentences only


def test_unknown_entities_and_bad_settings_are_refused(tg: TemporalGraph, clock) -> None:
    with pytest.raises(NotFound, match="Nobody"):
        tg.summary("Nobody")
    with pytest.raises(InvalidInput, match="summary_chars"):
        TemporalGraph.open(":memory:", clock=clock, summary_chars=0)


def _summary_requests(llm: ScriptedLLM) -> int:
    return sum(1 for r in llm.requests if r.purpose == "summary")


def test_with_an_llm_the_summary_is_rewritten_once_per_n_new_facts(clock, tick) -> None:
    answers = iter(["Alice is into three things.", "Alice is into six things."])
    llm = ScriptedLLM(lambda request: {"summary": next(answers)})
    with TemporalGraph.open(":memory:", clock=clock, embed=False, llm=llm, summary_llm_every=3) as tg:
        for i, hobby in enumerate(["jazz", "chess", "tennis", "opera", "golf", "poker"], 1):
            tick()
            tg.add_fact("Alice", "likes", hobby)
            if i == 2:  # fewer than three facts yet: the offline sentences, no call
                assert _summary_requests(llm) == 0 and tg.summary("Alice").method == "offline"
            if i in (3, 4, 5):
                assert _summary_requests(llm) == 1
                assert tg.summary("Alice").text == "Alice is into three things."
        assert _summary_requests(llm) == 2
        summary = tg.summary("Alice")
        assert (summary.text, summary.method) == ("Alice is into six things.", "llm")
        assert len(summary.fact_ids) == 6
        assert "Alice likes poker" in llm.requests[-1].messages[-1]["content"]  # the facts went in
        assert tg.summary("jazz").method == "offline"  # one fact: never worth a call


def test_with_an_llm_a_contradiction_or_a_failed_call_falls_back_to_the_offline_summary(clock, tick) -> None:
    answers = iter([{"summary": "Alice, a Parisian chess player."}, "this is not JSON"])
    llm = ScriptedLLM(lambda request: next(answers))
    with TemporalGraph.open(":memory:", clock=clock, embed=False, llm=llm, summary_llm_every=2) as tg:
        tick()
        tg.add_fact("Alice", "lives in", "Paris", valid_at="2020-03-01")
        tg.add_fact("Alice", "likes", "chess")
        assert tg.summary("Alice").text == "Alice, a Parisian chess player."
        tick()
        tg.add_fact("Alice", "lives in", "Berlin", valid_at="2024-05-08")  # the LLM's summary is now wrong
        assert tg.summary("Alice").method == "offline" and "Paris" not in tg.summary("Alice").text
        tick()
        tg.add_fact("Alice", "likes", "go")  # two new facts: a call, which fails
        summary = tg.summary("Alice")
        assert summary.method == "offline" and "Alice likes go." in summary.text
        assert _summary_requests(llm) == 2


def test_an_llm_rewrite_never_replaces_a_summary_a_later_write_made(clock, tick) -> None:
    """The rewrite runs after its write committed; a write that lands meanwhile has its own summary,
    which the late rewrite must not overwrite with one made from older facts."""
    tg = TemporalGraph.open(":memory:", clock=clock, embed=False, summary_chars=200, summary_llm_every=3)
    calls: list[str] = []

    def answer(request) -> dict:
        calls.append(request.messages[-1]["content"])
        if len(calls) == 1:  # while the first rewrite is out, another write lands
            tg.add_fact("Alice", "likes", "golf")
        return {"summary": f"rewrite {len(calls)}"}

    tg.llm = ScriptedLLM(answer)
    with tg:
        tick()
        for hobby in ("jazz", "chess", "tennis"):
            tg.add_fact("Alice", "likes", hobby)
        versions = tg.core.store.summaries("default", tg.find_entity("Alice").id, all_versions=True)
        assert len(calls) == 2 and "golf" not in calls[0] and "golf" in calls[1]
        assert tg.summary("Alice").text == "rewrite 2"  # made from the facts golf included
        assert "rewrite 1" not in [v.text for v in versions]  # the stale rewrite was dropped


def test_tgraph_show_prints_the_summary_the_current_facts_and_the_timeline(
    tmp_path, clock, tick, capsys
) -> None:
    from temporal_graph.interfaces.cli import main

    db = str(tmp_path / "memory.db")
    with TemporalGraph.open(db, clock=clock, embed=False) as tg:
        tick()
        tg.add_fact("Alice", "lives in", "Paris", valid_at="2020-03-01")
        tg.add_fact("Alice", "works at", "Acme", valid_at="2021-06-01")
        tick()
        tg.add_fact("Alice", "lives in", "Berlin", valid_at="2024-05-08")

    assert main(["--db", db, "show", "alice"]) == 0
    out = capsys.readouterr().out
    summary, facts, timeline = (out.split(heading)[1] for heading in ("summary", "current facts", "timeline"))
    assert "Alice lives in Berlin since 2024-05-08. Alice works at Acme since June 2021." in summary
    assert "Paris" not in facts.split("timeline")[0]  # no longer true
    assert "Paris" in timeline and "2024-05-08" in timeline  # still part of the past, ended by the move

    assert main(["--db", db, "show", "Alice", "--known-at", "2025-01-02T12:00"]) == 0
    then = capsys.readouterr().out
    assert "Alice works at Acme since June 2021. Alice lives in Paris since March 2020." in then

    assert main(["--db", db, "--json", "show", "Alice"]) == 0
    shown = json.loads(capsys.readouterr().out)
    assert shown["summary"]["method"] == "offline"
    assert (len(shown["facts"]), len(shown["timeline"])) == (2, 3)

    assert main(["--db", db, "show", "Nobody"]) == 2
    assert "no entity named 'Nobody'" in capsys.readouterr().err


def test_the_docs_example_of_summaries() -> None:
    from tests.doc_examples import first_block

    code = first_block("Entity summaries")
    scope: dict = {}
    exec(compile(code, "docs", "exec"), scope)
    expected = "Alice lives in Berlin since 2024-05-08. Alice works at Acme since June 2021."
    assert scope["summary"].text == expected
    assert scope["was"].text.endswith("Alice lives in Paris since March 2020.")


def test_the_async_client_reads_summaries_too(clock) -> None:
    from temporal_graph import AsyncTemporalGraph

    async def run() -> str:
        async with AsyncTemporalGraph.open(":memory:", clock=clock, embed=False) as memory:
            await memory.add_fact("Alice", "likes", "jazz")
            return (await memory.summary("Alice")).text

    assert asyncio.run(run()) == "Alice likes jazz."
