"""The LLM path against a local server that behaves like llama.cpp's (the real openai SDK, real HTTP).

Each test reproduces one defect seen with a small local model: json_schema answered with HTTP
500, system messages dropped in JSON mode, lenient answers cached, no max_tokens, one slot with
parallel requests timing out, and an import that saved nothing when the server went away.
"""

from __future__ import annotations

import json
import logging
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime
from pathlib import Path

import pytest
from rich.console import Console

from ingestion.llm_extractor import LLMExtractor
from queries.ask import QuestionPlan
from temporal_graph import TemporalGraph
from temporal_graph.core.model import Episode
from temporal_graph.errors import InvalidInput, LLMOutputError, LLMUnavailable
from temporal_graph.extraction import Extraction
from temporal_graph.interfaces import render
from temporal_graph.llm import LLMClient, ResponseCache
from tests.llama_like_server import LlamaLikeServer, table_model

REF = datetime(2023, 5, 8, 13, 56, tzinfo=UTC)


def _fact(subject: str, relation: str, obj: str) -> dict:
    return {"subject": subject, "relation": relation, "object": obj, "text": f"{subject} {relation} {obj}."}


ANSWERS = {
    f"I live in City{i}.": {"entities": [], "facts": [_fact("Ana", "LIVES_IN", f"City{i}")]} for i in range(8)
}
MODEL = table_model(ANSWERS)


def episode(i: int) -> Episode:
    return Episode(id=f"ep{i}", group_id="g", content=f"I live in City{i}.", reference_time=REF,
                   created_at=REF, speaker="Ana")


def client(server: LlamaLikeServer, tmp_path: Path, **kwargs) -> LLMClient:
    env = kwargs.pop("env", {})
    return LLMClient(base_url=server.base_url, model="gemma-3-270m", cache_dir=tmp_path / "cache",
                     backoff_base=0.01, env=env, **kwargs)


def objects(extraction: Extraction) -> list[str]:
    return [f.object for f in extraction.facts]


@pytest.fixture
def servers():
    started: list[LlamaLikeServer] = []

    def start(**options) -> LlamaLikeServer:
        server = LlamaLikeServer(options.pop("model", MODEL), **options)
        started.append(server)
        return server

    yield start
    for server in started:
        server.close()


def test_rejected_json_schema_falls_back_once_and_says_so(servers, tmp_path, caplog):
    server = servers(reject_json_schema=True, drop_system=False)
    with caplog.at_level(logging.WARNING), client(server, tmp_path) as llm:
        extractor = LLMExtractor(llm)
        assert [objects(extractor.extract(episode(i))) for i in range(3)] == [["City0"], ["City1"], ["City2"]]
        assert llm.usage.retries == 0 and llm.response_format == "json_object"
    # one rejected json_schema request, then JSON mode only: no retry storm
    assert server.formats == ["json_schema", "json_object", "json_object", "json_object"]
    notes = [r.getMessage() for r in caplog.records if "json_schema" in r.getMessage()]
    assert len(notes) == 1 and "json_object" in notes[0]
    # in JSON mode the schema travels in the user message, which every chat template keeps
    last_user = [m for m in server.requests[-1]["messages"] if m["role"] == "user"][-1]["content"]
    assert '"facts"' in last_user and "JSON schema" in last_user


def test_dropped_system_message_is_detected_and_the_rules_move_to_the_user_message(servers, tmp_path, caplog):
    server = servers(reject_json_schema=True, drop_system=True)
    with caplog.at_level(logging.WARNING), client(server, tmp_path) as llm:
        extractor = LLMExtractor(llm)
        assert objects(extractor.extract(episode(0))) == ["City0"]
        assert objects(extractor.extract(episode(1))) == ["City1"]
        assert llm.rules_in_user is True
    # json_schema (500), json_object with a system message (echo: rejected), json_object with the
    # rules in the user message; the next episode goes straight to the last form.
    assert server.formats == ["json_schema", "json_object", "json_object", "json_object"]
    assert [m["role"] for m in server.requests[-1]["messages"]] == ["user"]
    assert sum("system messages" in r.getMessage() for r in caplog.records) == 1


def test_rules_in_user_message_is_settable(servers, tmp_path):
    server = servers(reject_json_schema=False, drop_system=False)
    env = {"TGRAPH_LLM_RULES_IN_USER": "1"}
    with client(server, tmp_path, response_format="json_object", env=env) as llm:
        assert objects(LLMExtractor(llm).extract(episode(3))) == ["City3"]
    [request] = server.requests
    assert [m["role"] for m in request["messages"]] == ["user"]
    assert request["messages"][0]["content"].startswith("INSTRUCTIONS\n")


def test_an_echo_is_no_answer_and_is_never_cached(servers, tmp_path):
    server = servers(reject_json_schema=False, drop_system=True)
    with client(server, tmp_path, response_format="json_object", rules_in_user=False) as llm:
        extractor = LLMExtractor(llm)
        for _ in range(2):
            with pytest.raises(LLMOutputError, match="unknown key"):
                extractor.extract(episode(0))
    assert len(server.requests) == 2  # asked again: nothing was cached
    assert not list((tmp_path / "cache").rglob("*.json"))


@pytest.mark.parametrize("answer", [{}, {"facts": []}, {"entities": [], "facts": [], "speaker": "Ana"},
                                    {"entities": [],
                                     "facts": [{**_fact("Ana", "LIKES", "jazz"), "mood": "x"}]}])
def test_extraction_answers_need_their_keys_and_no_others(servers, tmp_path, answer):
    server = servers(reject_json_schema=False, drop_system=False, model=lambda messages: json.dumps(answer))
    with client(server, tmp_path) as llm, pytest.raises(LLMOutputError):
        LLMExtractor(llm).extract(episode(0))


def test_ask_plan_answers_need_their_keys(servers, tmp_path):
    full = QuestionPlan(relations=["LIVES_IN"], time="now").model_dump(mode="json")
    partial = {"subject": "Ana"}
    for n, (answer, ok) in enumerate(((full, True), (partial, False), ({**full, "extra": 1}, False))):
        server = servers(reject_json_schema=False, drop_system=False,
                         model=lambda messages, a=answer: json.dumps(a))
        with client(server, tmp_path / str(n)) as llm:
            ask = [{"role": "system", "content": "plan"}, {"role": "user", "content": "where does Ana live?"}]
            if ok:
                assert llm.structured(ask, QuestionPlan, purpose="ask-plan").relations == ["LIVES_IN"]
            else:
                with pytest.raises(LLMOutputError):
                    llm.structured(ask, QuestionPlan, purpose="ask-plan")


def test_max_tokens_is_always_sent_and_settable(servers, tmp_path):
    server = servers(reject_json_schema=False, drop_system=False)
    with client(server, tmp_path / "a") as llm:
        LLMExtractor(llm).extract(episode(0))
    with client(server, tmp_path / "b", env={"TGRAPH_LLM_MAX_TOKENS": "300"}) as llm:
        LLMExtractor(llm).extract(episode(0))
    with client(server, tmp_path / "c", max_tokens=77) as llm:
        LLMExtractor(llm).extract(episode(0))
    assert [r["max_tokens"] for r in server.requests] == [1024, 300, 77]


def test_settings_are_checked(tmp_path):
    with pytest.raises(InvalidInput, match="TGRAPH_LLM_TIMEOUT"):
        LLMClient(base_url="http://127.0.0.1:9/v1", env={"TGRAPH_LLM_TIMEOUT": "soon"}, cache=False)
    with pytest.raises(InvalidInput, match="concurrency"):
        LLMClient(base_url="http://127.0.0.1:9/v1", env={}, concurrency=0, cache=False)


def test_cache_key_covers_the_response_format(servers, tmp_path):
    keys = {ResponseCache.key("m", [], Extraction, fmt) for fmt in ("json_schema", "json_object")}
    assert len(keys) == 2
    server = servers(reject_json_schema=False, drop_system=False)
    with client(server, tmp_path, response_format="json_schema") as llm:
        LLMExtractor(llm).extract(episode(0))
    with client(server, tmp_path, response_format="json_object") as llm:
        LLMExtractor(llm).extract(episode(0))
        assert llm.usage.cache_hits == 0
    with client(server, tmp_path, response_format="json_object") as llm:
        LLMExtractor(llm).extract(episode(0))
        assert llm.usage.cache_hits == 1
    assert server.formats == ["json_schema", "json_object"]


def test_slow_single_slot_server_gets_every_answer(servers, tmp_path):
    # Each answer takes 0.3 s and the client waits 0.5 s: four requests at once cannot all finish.
    server = servers(reject_json_schema=False, drop_system=False, slots=1, delay=0.3)
    with client(server, tmp_path, timeout=0.5, concurrency=4, max_retries=6) as llm:
        extractor = LLMExtractor(llm)
        with ThreadPoolExecutor(max_workers=4) as pool:
            results = list(pool.map(extractor.extract, [episode(i) for i in range(6)]))
        assert [objects(r) for r in results] == [[f"City{i}"] for i in range(6)]
        assert llm._gate.limit < 4  # it learned to send fewer at once


def test_a_server_slower_than_the_timeout_gets_more_time(servers, tmp_path):
    server = servers(reject_json_schema=False, drop_system=False, slots=1, delay=0.5)
    with client(server, tmp_path, timeout=0.2, concurrency=1, max_retries=3) as llm:
        assert objects(LLMExtractor(llm).extract(episode(0))) == ["City0"]
        assert llm.transport.timeout >= 0.8  # doubled after each timeout until the answer came


def test_import_keeps_what_was_extracted_before_the_server_went_away(servers, tmp_path):
    log = tmp_path / "chat.jsonl"
    log.write_text("".join(
        json.dumps({"id": f"m{i}", "group": "g", "speaker": "Ana", "text": f"I live in City{i}.",
                    "timestamp": f"2023-05-0{i + 1}T10:00:00Z"}) + "\n" for i in range(6)))
    server = servers(reject_json_schema=False, drop_system=False, fail_after=3)
    llm = client(server, tmp_path, max_retries=1, concurrency=1)
    with TemporalGraph.open(tmp_path / "memory.db", llm=llm) as tg:
        with pytest.raises(LLMUnavailable):
            tg.import_file(log, progress=False)
        assert len(tg.core.store.episodes("g")) == 3
    # a re-run against a working server skips the saved ones and finishes the rest
    server.fail_after = None
    with TemporalGraph.open(tmp_path / "memory.db", llm=client(server, tmp_path)) as tg:
        report = tg.import_file(log, progress=False)
        assert (report.episodes_skipped, report.episodes_imported) == (3, 3)


def test_cli_flags_reach_the_client(tmp_path, monkeypatch):
    from temporal_graph.interfaces.cli import build_parser, open_graph

    monkeypatch.setenv("OPENAI_BASE_URL", "http://127.0.0.1:9/v1")
    monkeypatch.setenv("TGRAPH_LLM_RETRIES", "2")
    args = build_parser().parse_args(["import", "chat.jsonl", "--llm", "--llm-workers", "1", "--llm-timeout",
                                      "300", "--llm-max-tokens", "256", "--db", str(tmp_path / "m.db")])
    with open_graph(args) as tg:
        llm = tg.llm
        assert (llm.concurrency, llm.transport.timeout, llm.max_tokens, llm.max_retries) == (1, 300.0, 256, 2)


def test_a_message_the_llm_failed_on_says_so_when_the_offline_rules_read_it(servers, tmp_path):
    """A small model echoing the prompt instead of answering: the memory's fallback (the offline
    rules) reads the message, and the result and the import report say the LLM failed on it (issue
    54: only a log line told)."""
    server = servers(reject_json_schema=False, drop_system=True)
    llm = client(server, tmp_path, response_format="json_object", rules_in_user=False)
    log = tmp_path / "chat.jsonl"
    lines = [{"id": f"m{i}", "group": "g", "speaker": "Ana", "text": f"I live in City{i}.",
              "timestamp": f"2023-05-0{i + 1}T10:00:00Z"} for i in (1, 2)]
    log.write_text("".join(json.dumps(line) + "\n" for line in lines))
    with TemporalGraph.open(tmp_path / "memory.db", llm=llm, embed=False) as tg:
        result = tg.add_episode("I live in City0.", reference_time=REF, speaker="Ana", group_id="g")
        assert [f.object for f in result.added] == ["City0"]  # read by the offline rules
        (warning,) = result.warnings
        assert warning.startswith("the LLM's answer for this message was not usable (extract: ")
        assert warning.endswith("the fallback extractor read the message instead")
        report = tg.import_file(log, progress=False)
    assert report.facts_added == 2
    assert [e.line for e in report.llm_failures] == [1, 2]
    assert all(e.reason.startswith("the LLM's answer for this message") for e in report.llm_failures)
    console = Console(record=True, width=300)
    render.import_report(console, report, [])
    printed = console.export_text()
    assert "LLM answers not usable (see below)" in printed and f"{log}:2: the LLM's answer" in printed
