"""The ingestion layer as a user meets it: which extractor reads messages, one entity per person
across messages, nothing kept on the memory object, and an import that resumes where it stopped."""

from __future__ import annotations

import json
import zlib
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pytest

from ingestion.batch import BATCH_EPISODES
from temporal_graph import TemporalGraph
from temporal_graph.core.model import Episode
from temporal_graph.extraction import ExtractedFact, Extraction
from temporal_graph.llm.testing import ScriptedLLM
from temporal_graph.times import ManualClock

ALIASES = {"Mel": "Melanie", "Mellie": "Melanie"}  # names the test embedder places on the same point


class NameEmbedder:
    """Deterministic vectors: an alias sits exactly on its full name, anything else far from all."""

    dimensions = 64

    def encode(self, texts: Sequence[str]) -> list[list[float]]:
        out = []
        for text in texts:
            seed = zlib.crc32(ALIASES.get(text, text).encode())
            v = np.random.default_rng(seed).standard_normal(self.dimensions)
            out.append((v / np.linalg.norm(v)).tolist())
        return out


class Told:
    """An extractor that knows one fact per message: ``"<subject> <RELATION> <object>"``."""

    def __init__(self, fail_on: str | None = None) -> None:
        self.fail_on = fail_on
        self.calls = 0

    def extract(self, episode: Episode, context: Sequence[Episode] = ()) -> Extraction:
        self.calls += 1
        if episode.content == self.fail_on:
            raise RuntimeError("the extractor went away")
        subject, relation, obj = episode.content.split(" ", 2)
        return Extraction(facts=[ExtractedFact(subject=subject, relation=relation, object=obj,
                                               text=episode.content)])


@pytest.fixture
def memory():
    clock = ManualClock("2024-07-01")
    with TemporalGraph.open(":memory:", clock=clock, embedder=NameEmbedder()) as tg:
        yield tg


def objects(tg: TemporalGraph, subject: str, relation: str) -> list[str]:
    return [f.object for f in tg.now(subject, relation)]


def test_offline_by_default_the_llm_while_one_is_set(memory):
    memory.add_episode("I live in Hangzhou.", reference_time="2024-01-10", speaker="Zhang Wei")
    assert objects(memory, "Zhang Wei", "LIVES_IN") == ["Hangzhou"]

    moved = ExtractedFact(subject="Zhang Wei", relation="LIVES_IN", object="Shanghai",
                          text="Zhang Wei lives in Shanghai.")
    llm = ScriptedLLM([Extraction(facts=[moved])])
    memory.llm = llm  # the offline rules find nothing in this message; the LLM does
    # (a fact must be grounded in the message: the LLM extractor drops names the text never gives)
    memory.add_episode("Settled in, Shanghai feels like home now.", reference_time="2024-02-10",
                       speaker="Zhang Wei")
    assert llm.usage.calls == 1
    assert objects(memory, "Zhang Wei", "LIVES_IN") == ["Shanghai"]

    memory.llm = None  # back to the offline rules, no more calls
    memory.add_episode("I live in Beijing.", reference_time="2024-03-10", speaker="Zhang Wei")
    assert llm.usage.calls == 1
    assert objects(memory, "Zhang Wei", "LIVES_IN") == ["Beijing"]


def test_an_extractor_set_on_the_memory_reads_every_message_until_unset(tmp_path):
    told = Told()
    with TemporalGraph.open(":memory:", extractor=told, embedder=NameEmbedder()) as tg:
        assert tg.extractor is told
        tg.add_episode("Ann SAILS_ON Aurora", reference_time="2024-01-01")
        assert objects(tg, "Ann", "SAILS_ON") == ["Aurora"]
        tg.extractor = None  # the default again: the offline rules, which cannot read this form
        result = tg.add_episode("Ann SAILS_ON Borealis", reference_time="2024-01-02")
        assert result.added == [] and told.calls == 1
        tg.extractor = told
        tg.add_episode("Ann SAILS_ON Borealis", reference_time="2024-01-03")
        assert sorted(objects(tg, "Ann", "SAILS_ON")) == ["Aurora", "Borealis"]


def test_a_similar_name_is_the_same_person_only_when_the_llm_says_so(memory):
    memory.extractor = Told()
    first = memory.add_episode("Melanie LIKES pottery", reference_time="2024-01-01")
    alone = memory.add_episode("Mel LIKES painting", reference_time="2024-01-02")
    assert [e.name for e in first.entities_created if e.name.startswith("Mel")] == ["Melanie"]
    assert [e.name for e in alone.entities_created if e.name.startswith("Mel")] == ["Mel"]  # similarity alone
    assert objects(memory, "Melanie", "LIKES") == ["pottery"]

    def melanie_is_her(request):  # the disambiguation call picks the candidate named Melanie
        candidates = json.loads(request.messages[-1]["content"])["candidates"]
        return {"choice": next(c["number"] for c in candidates if c["name"] == "Melanie")}

    memory.llm = llm = ScriptedLLM(melanie_is_her)
    told = memory.add_episode("Mellie LIKES chess", reference_time="2024-01-03")
    assert [e.name for e in told.entities_matched] == ["Melanie"] and llm.usage.calls == 1
    melanie = memory.find_entity("Mellie")
    assert melanie is not None and melanie.name == "Melanie" and "Mellie" in melanie.aliases
    assert sorted(objects(memory, "Melanie", "LIKES")) == ["chess", "pottery"]


def test_ingestion_sets_nothing_on_the_memory(memory, tmp_path):
    log = tmp_path / "chat.jsonl"
    message = {"speaker": "Bob", "text": "I live in Oslo.", "timestamp": "2024-01-05"}
    log.write_text(json.dumps(message) + "\n")
    attributes = set(vars(memory))
    memory.add_episode("I live in Lyon.", reference_time="2024-01-01", speaker="Ann")
    memory.import_file(log, progress=False)
    memory.llm = ScriptedLLM([])
    memory.extractor = Told()
    assert set(vars(memory)) == attributes
    assert objects(memory, "Ann", "LIVES_IN") == ["Lyon"] and objects(memory, "Bob", "LIVES_IN") == ["Oslo"]


def test_an_import_that_stopped_resumes_where_it_stopped(memory, tmp_path: Path):
    # 300 messages: the first 256 are committed as one batch before message 270 fails.
    lines = [json.dumps({"speaker": "Ann", "text": f"Ann LIVES_IN City{i}",
                         "timestamp": f"2024-01-01T00:{i // 60:02d}:{i % 60:02d}Z"}) for i in range(300)]
    log = tmp_path / "moves.jsonl"
    log.write_text("\n".join(lines) + "\n")
    memory.extractor = Told(fail_on="Ann LIVES_IN City270")
    with pytest.raises(RuntimeError):
        memory.import_file(log, progress=False)
    assert len(memory.core.store.episodes("default")) == BATCH_EPISODES == 256

    memory.extractor = Told()
    report = memory.import_file(log, progress=False)
    assert (report.episodes_skipped, report.episodes_imported) == (256, 44)
    assert objects(memory, "Ann", "LIVES_IN") == ["City299"]


def test_the_extractor_example_in_the_docs(capsys):
    from tests.doc_examples import first_block

    code = first_block("LLM extraction and local servers")
    exec(compile(code, "docs", "exec"), {})
    assert capsys.readouterr().out.strip() == "[('WORKS_AT', 'Acme'), ('LIVES_IN', 'Oslo')]"
