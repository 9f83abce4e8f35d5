"""Names are kept and never merged without evidence (issue 22): names that differ in a digit or a
whole word are different entities, through messages and imports, whatever a model says; embedding
similarity alone merges nothing; an import interrupted anywhere and resumed gives the entities of
a clean import; and the offline extractor keeps the numbers and codes of names."""

from __future__ import annotations

import json
import random
import sys
import unicodedata
from collections.abc import Sequence
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ingestion.offline import OfflineExtractor
from ingestion.resolution import distinct_names
from temporal_graph import TemporalGraph
from temporal_graph.core.model import Episode
from temporal_graph.core.names import clean_name, name_key
from temporal_graph.errors import InvalidName
from temporal_graph.extraction import Extraction
from temporal_graph.llm.testing import ScriptedLLM
from temporal_graph.times import ManualClock

T0 = datetime(2024, 1, 1, tzinfo=UTC)


@pytest.mark.parametrize(("a", "b", "distinct"), [
    ("Kvzcity1", "Kvzcity0", True), ("Hangar13", "Hangar12", True), ("Terminal 1", "Terminal 2", True),
    ("Lakeside4", "Lakeside3", True), ("Route 66", "Route 6", True), ("Apartment 3B", "Apartment 3", True),
    ("Lakeside North", "Lakeside South", True), ("New York", "New York City", True),
    ("NYC", "New York City", False), ("Mel", "Melanie", False), ("Hangar 13", "Hangar13", False),
])
def test_which_names_can_never_be_one(a: str, b: str, distinct: bool) -> None:
    assert distinct_names(a, b) is distinct and distinct_names(b, a) is distinct


PAIRS = [("Kvzcity0", "Kvzcity1"), ("Hangar12", "Hangar13"), ("Lakeside3", "Lakeside4"),
         ("Terminal 1", "Terminal 2")]


@pytest.mark.parametrize(("first", "second"), PAIRS)
def test_a_digit_makes_another_place_in_messages(tg: TemporalGraph, first: str, second: str) -> None:
    tg.add_episode(f"I live in {first}.", reference_time="2023-01-01", speaker="Ann")
    result = tg.add_episode(f"Bo lives in {second}.", reference_time="2023-02-01", speaker="Cy")
    assert second in [e.name for e in result.entities_created]
    assert [f.object for f in tg.now("Bo", "lives in")] == [second]
    assert tg.find_entity(second).name == second and tg.find_entity(first).aliases == ()


def test_an_llm_is_never_asked_to_merge_names_that_differ_in_a_number(tg: TemporalGraph) -> None:
    llm = ScriptedLLM(lambda request: {"choice": 1})  # an LLM that would merge anything it is asked
    tg.llm = llm
    tg.extractor = _Lives()
    tg.add_episode("Ann Terminal 1", reference_time="2023-01-01")
    tg.add_episode("Bo Terminal 2", reference_time="2023-01-02")
    assert [f.object for f in tg.now("Bo")] == ["Terminal 2"] and llm.usage.calls == 0


class _Lives:
    """Reads "<person> <place...>" as the person living there."""

    def extract(self, episode: Episode, context: Sequence[Episode] = ()) -> Extraction:
        person, place = episode.content.split(" ", 1)
        return Extraction.model_validate({"facts": [
            {"subject": person, "relation": "LIVES_IN", "object": place, "text": episode.content}]})


# -- an import of 400 made-up place names with digits --------------------------------------------------
def city_log(path: Path) -> tuple[Path, list[str]]:
    rng = random.Random(22)
    stems = sorted({"".join(rng.choice("bdgklmnprstvz") + rng.choice("aeiou") for _ in range(3))
                    for _ in range(60)})[:40]
    cities = [f"{stem.capitalize()}{d}" for stem in stems for d in range(10)]
    rng.shuffle(cities)  # lookalikes land in different commit batches, as in a real log
    people = ["Ann", "Bo", "Cy", "Di", "Ed"]
    lines = [{"speaker": people[i % 5], "text": f"I moved to {city}.",
              "timestamp": (T0 + timedelta(hours=i)).isoformat()} for i, city in enumerate(cities)]
    path.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    return path, cities


class Killed(Exception):
    pass


class _Interrupted(OfflineExtractor):
    """The offline rules, stopped dead at the ``at``-th message (a kill in the middle of an import)."""

    def __init__(self, at: int) -> None:
        self.at, self.calls = at, 0

    def extract(self, episode: Episode, context: Sequence[Episode] = ()) -> Extraction:
        self.calls += 1
        if self.calls == self.at:
            raise Killed
        return super().extract(episode, context)


def imported(tg: TemporalGraph) -> dict[str, Any]:
    entities = sorted((e.name, e.aliases) for e in tg.core.store.entities("default"))
    beliefs = sorted((f.subject, f.object, f.valid_at, f.invalid_at) for p in ("Ann", "Bo", "Cy", "Di", "Ed")
                     for f in tg.history(p, "lives in"))
    return {"entities": entities, "beliefs": beliefs}


@pytest.fixture(scope="module")
def clean_import(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[str], dict[str, Any]]:
    log, cities = city_log(tmp_path_factory.mktemp("cities") / "cities.jsonl")
    with TemporalGraph.open(":memory:", clock=ManualClock("2025-01-01")) as tg:
        report = tg.import_file(log, progress=False)
        assert report.episodes_imported == 400
        return log, cities, imported(tg)


def test_an_import_of_400_names_with_digits_merges_none(clean_import: Any) -> None:
    _, cities, clean = clean_import
    assert sorted(name for name, _ in clean["entities"]) == sorted([*cities, "Ann", "Bo", "Cy", "Di", "Ed"])
    assert all(aliases == () for _, aliases in clean["entities"])
    assert sorted({obj for _, obj, _, _ in clean["beliefs"]}) == sorted(cities)


class _DiesWhileEmbedding:
    """The memory's embedder, stopped dead while embedding what the ``at``-th write committed: the
    rows are stored, their vectors are not (a kill between the two)."""

    def __init__(self, inner: Any, at: int) -> None:
        self.inner, self.at, self.writes = inner, at, 0
        self.dimensions = inner.dimensions

    @property
    def tokenizer(self) -> Any:
        return self.inner.tokenizer

    def encode(self, texts: Sequence[str]) -> list[list[float]]:
        if any(": I moved to" in t for t in texts):  # the messages of a committed write
            self.writes += 1
            if self.writes == self.at:
                raise Killed
        return self.inner.encode(texts)


@pytest.mark.parametrize(("where", "cut"), [("extracting", 137), ("embedding", 1), ("embedding", 2)])
def test_an_import_killed_anywhere_and_resumed_equals_a_clean_one(
    clean_import: Any, where: str, cut: int
) -> None:
    log, _, clean = clean_import
    with TemporalGraph.open(":memory:", clock=ManualClock("2025-01-01")) as tg:
        embedder = tg.embedder
        if where == "extracting":
            tg.extractor = _Interrupted(cut)
        else:
            tg.core.embedder_override = _DiesWhileEmbedding(embedder, cut)
        with pytest.raises(Killed):
            tg.import_file(log, progress=False)
        tg.extractor, tg.core.embedder_override = None, embedder
        report = tg.import_file(log, progress=False)
        assert report.episodes_imported + report.episodes_skipped == 400
        assert imported(tg) == clean


# -- the offline extractor keeps numbers and codes -----------------------------------------------------
@pytest.mark.parametrize(("message", "relation", "name"), [
    ("I work at Terminal 1.", "WORKS_AT", "Terminal 1"),
    ("I live in Apartment 3B.", "LIVES_IN", "Apartment 3B"),
    ("We drove to Route 66 last summer.", "VISITED", "Route 66"),
    ("I work at Hangar 13 now.", "WORKS_AT", "Hangar 13"),
    ("I joined Team 7 as a designer.", "WORKS_AT", "Team 7"),
    ("I moved to District 9 in 2021.", "LIVES_IN", "District 9"),
    # a number that is no part of the name stays out of it
    ("I work at Google 5 days a week.", "WORKS_AT", "Google"),
    ("I work at Acme 24/7.", "WORKS_AT", "Acme"),
    ("I visited Paris 3 times.", "VISITED", "Paris"),
])
def test_names_keep_their_numbers(message: str, relation: str, name: str) -> None:
    episode = Episode(id="e", group_id="g", content=message, reference_time=T0, created_at=T0, speaker="Ann")
    found = [(f.relation, f.object) for f in OfflineExtractor().extract(episode).facts]
    assert found[:1] == [(relation, name)]


def test_two_terminals_are_two_places(tg: TemporalGraph) -> None:
    tg.add_episode("I work at Terminal 1.", reference_time="2023-01-01", speaker="Ann")
    tg.add_episode("I work at Terminal 2.", reference_time="2023-06-01", speaker="Bo")
    assert [f.object for f in tg.now("Ann")] == ["Terminal 1"]
    assert [f.object for f in tg.now("Bo")] == ["Terminal 2"]


@given(st.text(max_size=30))
def test_name_keys_ignore_case_width_and_spacing_of_any_text(text: str) -> None:
    # The definition: compatibility forms (full-width letters...), case and runs of spaces ignored.
    assert name_key(text) == " ".join(unicodedata.normalize("NFKC", text).casefold().split())


def test_a_name_is_refused_for_exactly_the_control_characters_and_lone_surrogates() -> None:
    refused = set()
    for code in range(sys.maxunicode + 1):
        try:
            clean_name(f"a{chr(code)}b")
        except InvalidName:
            refused.add(code)
    allowed_controls = {ord(c) for c in "\t\n\r"}  # they separate words, like spaces
    assert refused == {c for c in range(sys.maxunicode + 1)
                       if unicodedata.category(chr(c)) in ("Cc", "Cs") and c not in allowed_controls}
