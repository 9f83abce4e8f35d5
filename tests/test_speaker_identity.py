"""Speaker identity is exact (issue 22): a speaker id that only looks like Bob's ("bob", "BOB",
fullwidth, an invisible character, a trailing dot, Cyrillic letters) is another person. Its "I"
never speaks as Bob, its words about Bob are its claim, and asking about Bob never answers with
them. Two ids are one person only when declared so (``alias_speaker``, ``--speaker-alias``), and an
import lists the lookalike ids it kept apart."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

import pytest

from ingestion.offline import OfflineExtractor
from temporal_graph import TemporalGraph
from temporal_graph.errors import InvalidInput
from temporal_graph.interfaces.cli import main
from temporal_graph.llm.testing import ScriptedLLM
from temporal_graph.times import ManualClock

LOOKALIKES = ["bob", "BOB", "Ｂｏｂ", "Bob\u200b", "Bob.", "Воb"]  # the last is Cyrillic В and о


def own_places(tg: TemporalGraph, who: str) -> list[str]:
    """Where ``who`` lives by their own word (no claims)."""
    return [f.object for f in tg.now(who, "lives in") if f.claimed_by is None]


@pytest.fixture
def bob(clock: ManualClock) -> TemporalGraph:
    tg = TemporalGraph.open(":memory:", clock=clock)  # embeddings on: similarity must not merge either
    tg.add_episode("I live in Paris.", reference_time="2023-01-01", speaker="Bob")
    return tg


@dataclass(frozen=True)
class Row:
    speaker: str
    message: str
    expected: str  # "own": a fact of the speaker's own entity; "claim": a claim about Bob; "bob": Bob's own


ROWS = [
    Row("Bob", "I live in Berlin.", "bob"),  # the control: Bob himself moves
    *(Row(s, "I live in Berlin.", "own") for s in LOOKALIKES),
    *(Row(s, "Bob lives in Berlin.", "claim") for s in ("Bob.", "bob", "Ｂｏｂ", "Воb")),
]


@pytest.mark.parametrize("row", ROWS, ids=lambda r: f"{r.speaker!r}:{r.expected}")
def test_a_lookalike_speaker_is_another_person(bob: TemporalGraph, row: Row) -> None:
    result = bob.add_episode(row.message, reference_time="2023-06-01", speaker=row.speaker)
    answer = bob.ask("Where does Bob live?")
    if row.expected == "bob":
        assert own_places(bob, "Bob") == ["Berlin"] and "Berlin" in answer.text
        return
    assert own_places(bob, "Bob") == ["Paris"]  # Bob's own word stands, untouched
    assert answer.text.startswith("Bob lives in Paris")
    first, second = sorted(("Bob", row.speaker))  # and the message says so
    assert f"speakers {first!r} and {second!r} look alike but are two people" in " ".join(result.warnings)
    if row.expected == "own":
        assert "Berlin" not in answer.text
        assert row.speaker in [e.name for e in result.entities_created]
        entity = bob.find_entity(row.speaker)  # named exactly, the lookalike's own entity
        assert entity is not None and entity.name == row.speaker
        assert [f.object for f in bob.now(row.speaker, "lives in")] == ["Berlin"]
        assert [f.claimed_by for f in bob.now(row.speaker)] == [None]
    else:
        # Bob's own fact covers that time, so the claim shows only when claims are asked for.
        claims = bob.now("Bob", "lives in", claims="only")
        assert [(f.object, f.claimed_by) for f in claims] == [("Berlin", row.speaker)]
        assert "Berlin" not in answer.text
        claimed = bob.ask("Where does Bob live?", claims="only")
        assert f"[claimed by {row.speaker}" in claimed.text  # shown as theirs


def test_an_llm_never_makes_a_lookalike_speaker_bob(bob: TemporalGraph) -> None:
    llm = ScriptedLLM(lambda request: {"choice": 1})  # would merge any name it is asked about
    bob.llm, bob.extractor = llm, OfflineExtractor()
    bob.add_episode("I live in Berlin.", reference_time="2023-06-01", speaker="bob")
    assert own_places(bob, "Bob") == ["Paris"] and own_places(bob, "bob") == ["Berlin"]
    assert bob.find_entity("Bob").aliases == () and llm.usage.calls == 0


def test_a_lookalike_ending_ends_nothing_of_bob(bob: TemporalGraph) -> None:
    bob.add_episode("I moved out of Paris.", reference_time="2023-06-01", speaker="Bob.")
    assert own_places(bob, "Bob") == ["Paris"]
    assert bob.history("Bob", "lives in")[0].invalid_at is None


def test_names_still_match_case_insensitively_when_nobody_looks_alike(tg: TemporalGraph) -> None:
    tg.add_episode("I live in Paris.", reference_time="2023-01-01", speaker="Bob")
    assert [f.object for f in tg.now("BOB")] == ["Paris"] and tg.find_entity("bob").name == "Bob"
    tg.add_fact("alice", "lives in", "paris")  # a name in a fact is the entity of that name
    assert {f.subject for f in tg.now(object="Paris")} == {"Bob", "alice"}


# -- declaring two ids one person -------------------------------------------------------------------
def test_an_alias_makes_two_ids_one_person(bob: TemporalGraph) -> None:
    person = bob.alias_speaker("bob", "Bob")
    assert person.name == "Bob" and "bob" in person.aliases
    bob.add_episode("I live in Berlin.", reference_time="2023-06-01", speaker="bob")
    assert own_places(bob, "Bob") == ["Berlin"] and bob.find_entity("bob").name == "Bob"
    assert bob.alias_speaker("bob", "Bob").aliases == person.aliases  # declaring it again changes nothing


def test_an_alias_is_refused_once_the_id_has_an_entity_of_its_own(bob: TemporalGraph) -> None:
    bob.add_episode("I live in Berlin.", reference_time="2023-06-01", speaker="bob")
    with pytest.raises(InvalidInput, match="'bob'.*entity of its own"):
        bob.alias_speaker("bob", "Bob")
    assert own_places(bob, "Bob") == ["Paris"] and bob.find_entity("Bob").aliases == ()


def chat(path: Path, *lines: tuple[str, str, str]) -> Path:
    path.write_text("".join(json.dumps({"speaker": s, "text": t, "timestamp": ts}, ensure_ascii=False) + "\n"
                            for s, t, ts in lines), encoding="utf-8")
    return path


def test_an_alias_is_stored_and_later_imports_honour_it(tmp_path: Path) -> None:
    db = tmp_path / "memory.db"
    with TemporalGraph.open(db) as tg:
        tg.add_episode("I live in Paris.", reference_time="2023-01-01", speaker="Bob")
        tg.alias_speaker("bob", "Bob")
    log = chat(tmp_path / "later.jsonl", ("bob", "I live in Berlin.", "2023-06-01"))
    with TemporalGraph.open(db) as tg:
        report = tg.import_file(log, group_id="default", progress=False)
        assert own_places(tg, "Bob") == ["Berlin"] and report.lookalike_speakers == []


def test_an_import_reports_lookalikes_and_takes_aliases(tmp_path: Path) -> None:
    log = chat(tmp_path / "chat.jsonl", ("Bob", "I live in Paris.", "2023-01-01"),
               ("bob", "I live in Rome.", "2023-02-01"), ("Bob.", "I live in Berlin.", "2023-03-01"),
               ("Ann", "I live in Oslo.", "2023-03-02"))
    with TemporalGraph.open(":memory:") as tg:
        report = tg.import_file(log, progress=False)
        assert [(p.group_id, p.speakers) for p in report.lookalike_speakers] == [
            ("default", ("Bob", "Bob.")), ("default", ("Bob", "bob")), ("default", ("Bob.", "bob"))]
        assert own_places(tg, "Bob") == ["Paris"]
    with TemporalGraph.open(":memory:") as tg:
        report = tg.import_file(log, progress=False, speaker_aliases={"bob": "Bob"})
        assert [p.speakers for p in report.lookalike_speakers] == [("Bob", "Bob."), ("Bob.", "bob")]
        assert own_places(tg, "Bob") == ["Rome"] and own_places(tg, "Bob.") == ["Berlin"]


def test_the_command_line_declares_aliases_and_prints_lookalikes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = str(tmp_path / "memory.db")
    log = chat(tmp_path / "chat.jsonl", ("Bob", "I live in Paris.", "2023-01-01"),
               ("bob", "I live in Rome.", "2023-02-01"), ("Bob\u200b", "I live in Oslo.", "2023-03-01"))
    assert main(["--db", db, "import", "--quiet", "--speaker-alias", "bob", "Bob", str(log)]) == 0
    out = capsys.readouterr().out
    assert "lookalike speakers in group 'default': 'Bob' and 'Bob\\u200b'" in out  # shown, not hidden
    assert "'Bob' and 'bob'" not in out  # declared one person
    assert main(["--db", db, "alias-speaker", "Bob\u200b", "Bob"]) == 2  # it has spoken: refused
    assert "entity of its own" in capsys.readouterr().err
    assert main(["--db", db, "alias-speaker", "BOB", "Bob"]) == 0
    assert "'BOB' is 'Bob'" in capsys.readouterr().out
    with TemporalGraph.open(db) as tg:
        assert own_places(tg, "Bob") == ["Rome"] and own_places(tg, "Bob\u200b") == ["Oslo"]


def test_the_speaker_example_in_the_docs() -> None:
    from tests.doc_examples import docs_text

    section = docs_text().split("**Who a speaker is.**", 1)[1]
    code = section.split("```python\n", 1)[1].split("```", 1)[0]
    exec(compile(code, "docs", "exec"), {})  # its asserts are the checks
