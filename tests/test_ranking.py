"""Ranked recall: relevance, recency, importance and their blend; importance stored per fact."""

from __future__ import annotations

import json
import sqlite3
from datetime import UTC, datetime, timedelta

import pytest
from doc_examples import run_example

from queries.ranking import BLEND_WEIGHTS, BLEND_WITHOUT_RECENCY, RANKS, rerank
from temporal_graph import TemporalGraph
from temporal_graph.core.model import DEFAULT_IMPORTANCE, Fact, SearchHit
from temporal_graph.core.ontology import Ontology
from temporal_graph.errors import InvalidInput
from temporal_graph.interfaces.cli import main

pytestmark = pytest.mark.slow  # search loads the embedding model (once per session)

NOW = datetime(2025, 6, 1, tzinfo=UTC)


@pytest.fixture
def memory(tg, tick):
    """An old, important fact and a recent, trivial one, both about Alice."""
    tick()
    tg.add_fact("Alice", "married to", "Bob", text="Alice married Bob", importance=9)
    tick(200)
    tg.add_fact("Alice", "likes", "pancakes", text="Alice likes pancakes", importance=2)
    tick()
    return tg


def _texts(hits: list[SearchHit]) -> list[str]:
    return [h.text for h in hits]


def test_importance_puts_the_old_important_fact_first_and_recency_the_recent_one(memory):
    assert _texts(memory.search("Alice", rank="importance", kinds=("fact",))) == [
        "Alice married Bob", "Alice likes pancakes"]
    assert _texts(memory.search("Alice", rank="recency", kinds=("fact",))) == [
        "Alice likes pancakes", "Alice married Bob"]
    ranked = memory.search("Alice", rank="importance", kinds=("fact",))
    assert ranked[0].reasons[-1] == "importance 9"


def test_blend_follows_the_documented_weights(memory):
    relevant = memory.search("Alice", kinds=("fact",))
    blended = memory.search("Alice", rank="blend", kinds=("fact",))
    low, high = min(h.score for h in relevant), max(h.score for h in relevant)
    told = {h.text: h.fact.created_at for h in relevant}
    freshest = max(told.values())

    def expected(hit: SearchHit) -> float:
        relevance = (hit.score - low) / (high - low) if high > low else 0.0
        recency = 0.5 ** ((freshest - told[hit.text]).total_seconds() / 86400 / 30)
        importance = (hit.fact.importance - 1) / 9
        parts = {"relevance": relevance, "recency": recency, "importance": importance}
        return sum(BLEND_WEIGHTS[k] * parts[k] for k in BLEND_WEIGHTS) / sum(BLEND_WEIGHTS.values())

    scores = {h.text: expected(h) for h in relevant}
    assert _texts(blended) == sorted(scores, key=lambda t: -scores[t])
    for hit in blended:
        assert hit.score == pytest.approx(scores[hit.text], abs=1e-6)
        assert hit.reasons[-1].startswith("blend ")


def test_relevance_is_the_default_order(memory):
    assert memory.search("pancakes") == memory.search("pancakes", rank="relevance")


def test_recency_counts_from_the_newest_telling(tg, tick):
    """A fact told again by a newer message is as fresh as that message."""
    tick()
    old = tg.add_episode("I live in Lyon.", speaker="Alice", reference_time="2024-01-01")
    tg.add_episode("I like jazz.", speaker="Alice", reference_time="2024-06-01")
    again = tg.add_episode("As I said, I live in Lyon.", speaker="Alice", reference_time="2024-09-01")
    assert old.added and (again.merged or again.added)
    hits = tg.search("Alice", rank="recency", kinds=("fact",), as_of="2024-09-02")
    assert hits[0].fact.object == "Lyon"
    assert hits[0].score == pytest.approx(0.5 ** (1 / 30), abs=1e-6)  # told one day before as_of


def _hit(name: str, *, score: float, told: datetime, importance: int) -> SearchHit:
    fact = Fact(
        id=name, fact_id=name, group_id="g", subject="Alice", relation="R", object=name,
        subject_id="a", object_id=name, text=name, valid_at=None, invalid_at=None,
        created_at=told, importance=importance,
    )
    return SearchHit(kind="fact", score=score, reasons=[], fact=fact)


def test_half_life_sets_how_fast_old_facts_fade():
    hits = [
        _hit("newer", score=0.03, told=NOW - timedelta(days=10), importance=3),
        _hit("older", score=0.029, told=NOW - timedelta(days=100), importance=8),
        _hit("other", score=0.01, told=NOW - timedelta(days=5), importance=5),
    ]
    # Recency scores halve every half-life.
    fresh = {h.text: h.score for h in rerank(hits, rank="recency", now=NOW, half_life_days=10)}
    assert fresh["newer"] == pytest.approx(0.5) and fresh["older"] == pytest.approx(0.5**10, abs=1e-6)
    # In the blend, a short half-life lets the newer fact win; a long one lets importance win.
    assert _texts(rerank(hits, rank="blend", now=NOW, half_life_days=7))[0] == "newer"
    assert _texts(rerank(hits, rank="blend", now=NOW, half_life_days=3650))[0] == "older"


def test_rerank_keeps_relevance_order_on_ties_and_cuts_to_limit():
    hits = [_hit(n, score=0.03 - i / 1000, told=NOW, importance=5) for i, n in enumerate("abcd")]
    assert _texts(rerank(hits, rank="importance", now=NOW, limit=3)) == ["a", "b", "c"]
    assert rerank(hits, rank="relevance", now=NOW) == hits


@pytest.mark.parametrize("bad", ["newest", "", None, 3])
def test_bad_rank_names_the_choices(memory, bad):
    with pytest.raises(InvalidInput, match="rank: .* is not one of relevance, recency, importance, blend"):
        memory.search("Alice", rank=bad)


@pytest.mark.parametrize("bad", [0, -1, float("nan"), "30", True])
def test_bad_half_life_is_refused(memory, bad):
    with pytest.raises(InvalidInput, match="half_life_days"):
        memory.search("Alice", rank="recency", half_life_days=bad)


def test_every_rank_is_accepted(memory):
    for rank in RANKS:
        assert memory.search("Alice", rank=rank)


# -- importance per fact ------------------------------------------------------------------------


def test_importance_round_trips_through_the_file(tmp_path, clock):
    path = tmp_path / "memory.db"
    with TemporalGraph.open(path, clock=clock) as tg:
        tg.add_fact("Alice", "married to", "Bob", importance=9)
        tg.add_facts([{"subject": "Alice", "relation": "likes", "object": "tea", "importance": 3},
                      ("Alice", "likes", "coffee")])
    with TemporalGraph.open(path, clock=clock) as tg:
        got = {f.object: f.importance for f in tg.now("Alice")}
    assert got == {"Bob": 9, "tea": 3, "coffee": DEFAULT_IMPORTANCE}


@pytest.mark.parametrize("bad", [0, 11, 5.5, "high"])
def test_bad_importance_is_refused(tg, bad):
    with pytest.raises(InvalidInput, match="importance"):
        tg.add_fact("Alice", "likes", "tea", importance=bad)
    report = tg.add_facts([{"subject": "Alice", "relation": "likes", "object": "tea", "importance": bad}])
    assert report.rows_written == 0 and "importance" in report.errors[0].reason


def test_a_file_written_before_importance_existed_opens_with_the_middle_rating(tmp_path, clock):
    path = tmp_path / "old.db"
    with TemporalGraph.open(path, clock=clock) as tg:
        tg.add_fact("Alice", "married to", "Bob", importance=9)
    # Make it look like an older file: no importance columns.
    conn = sqlite3.connect(path)
    for table in ("facts", "assertions"):
        conn.execute(f"ALTER TABLE {table} DROP COLUMN importance")
    conn.commit()
    conn.close()
    with TemporalGraph.open(path, clock=clock) as tg:
        assert [f.importance for f in tg.now("Alice")] == [DEFAULT_IMPORTANCE]
        tg.add_fact("Alice", "likes", "tea", importance=3)
        assert sorted(f.importance for f in tg.now("Alice")) == [3, DEFAULT_IMPORTANCE]


def test_offline_extraction_rates_facts_by_the_ontology_table(tg):
    tg.add_episode("I married Bob last year.", speaker="Alice", reference_time="2024-06-01")
    tg.add_episode("I like pancakes.", speaker="Alice", reference_time="2024-06-02")
    rated = {f.relation: f.importance for f in tg.now("Alice")}
    ontology = Ontology.default_personal()
    # "married" also gives the status a wedding starts (RELATIONSHIP_STATUS), rated by its own row.
    assert rated == {relation: ontology.importance(relation)
                     for relation in ("MARRIED_TO", "RELATIONSHIP_STATUS", "LIKES")}
    assert rated["MARRIED_TO"] > rated["LIKES"]


def test_ontology_importance_can_be_declared():
    ontology = Ontology.default_personal().with_relations({"PLAYS_FOR": "one"}, importances={"plays for": 7})
    assert ontology.importance("PLAYS_FOR") == 7
    assert Ontology.default_personal().importance("SOMETHING_NEW") == DEFAULT_IMPORTANCE
    with pytest.raises(InvalidInput, match="importance"):
        Ontology.default_personal().with_relations({}, importances={"LIKES": 11})


def test_cli_search_ranks_and_refuses_a_bad_mode(tmp_path, clock, capsys):
    db = tmp_path / "memory.db"
    with TemporalGraph.open(db, clock=clock) as tg:
        tg.add_fact("Alice", "married to", "Bob", text="Alice married Bob", importance=9)
        tg.add_fact("Alice", "likes", "pancakes", text="Alice likes pancakes", importance=2)
    args = ["--db", str(db), "search", "Alice", "--rank", "importance", "--half-life", "7", "--json"]
    assert main(args) == 0
    facts = [h["fact"]["text"] for h in json.loads(capsys.readouterr().out) if h["kind"] == "fact"]
    assert facts == ["Alice married Bob", "Alice likes pancakes"]
    with pytest.raises(SystemExit) as refused:
        main(["--db", str(db), "search", "Alice", "--rank", "newest"])
    assert refused.value.code == 2 and "invalid choice: 'newest'" in capsys.readouterr().err


def test_the_ranking_example_in_the_docs():
    scope = run_example("### Ranked recall")
    assert scope["by_importance"][0].text == "Alice married Bob"
    assert scope["by_recency"][0].text == "Alice likes pancakes"
    assert scope["blended"]


def test_a_blend_without_recency_ignores_when_a_fact_was_told():
    hits = [
        _hit("newer", score=0.03, told=NOW - timedelta(days=1), importance=3),
        _hit("older", score=0.029, told=NOW - timedelta(days=400), importance=8),
        _hit("other", score=0.01, told=NOW - timedelta(days=200), importance=5),
    ]
    no_recency = rerank(hits, rank="blend", now=NOW, half_life_days=7, weights=BLEND_WITHOUT_RECENCY)
    assert _texts(no_recency)[:2] == ["older", "newer"]  # importance decides between near-equal relevance
    assert _texts(rerank(hits, rank="blend", now=NOW, half_life_days=7))[:2] == ["newer", "older"]
