"""Time is read in one place: questions understand every phrase messages do, the import readers
and the library refuse the same strings, "now" is a kind of its own, and the Cypher console reads
"now" from the memory's clock."""

from __future__ import annotations

import io
import json
from datetime import UTC, datetime

import pytest
from rich.console import Console

import temporal_graph.times
from ingestion.readers import ReadError, read_messages
from queries.question_time import question_time
from temporal_graph.core.time import resolve_time
from temporal_graph.errors import InvalidTime
from temporal_graph.interfaces.console import Command, ConsoleState
from temporal_graph.times import ManualClock, to_utc

REF = datetime(2021, 1, 10, tzinfo=UTC)


@pytest.mark.parametrize("phrase", ["last sept", "a few weeks ago", "a fortnight ago", "eleven years ago",
                                    "a couple of years ago", "in Sept 2020"])
def test_a_question_reads_a_phrase_as_a_message_would(phrase):
    asked = question_time(f"Where did Kenji live {phrase}?", REF)
    told = resolve_time(phrase, REF)
    assert told is not None
    assert (asked.kind, asked.start, asked.end) == ("during", told.start, told.end)


def test_a_phrase_only_messages_used_to_understand_now_answers_a_question(tg, tick):
    tick()
    tg.add_fact("Kenji", "lives in", "Osaka", valid_at="2020-06-01", invalid_at="2020-11-01")
    tg.add_fact("Kenji", "lives in", "Kyoto", valid_at="2020-11-01")
    answer = tg.ask("Where did Kenji live last sept?", reference_time=REF)
    assert answer.known and [f.object for f in answer.facts] == ["Osaka"]
    assert answer.plan.time == "during"


def test_now_is_a_kind_of_its_own(tg, tick):
    tick()
    tg.add_fact("Kenji", "lives in", "Kyoto", valid_at="2020-11-01")
    assert question_time("Where does Kenji live?", REF).kind == "now"
    assert question_time("Where did Kenji live?", REF).kind == "ever"
    answer = tg.ask("Where does Kenji live now?", reference_time=REF)
    assert answer.plan.time == "now" and [f.object for f in answer.facts] == ["Kyoto"]
    assert "now" not in answer.text  # the word "now" is not repeated as if it were a date


def test_readers_and_the_library_refuse_a_date_without_a_year_alike(tg, tmp_path):
    with pytest.raises(InvalidTime, match="names no year"):
        tg.add_fact("Kenji", "lives in", "Kyoto", valid_at="May 8 Europe/Berlin")
    path = tmp_path / "chat.jsonl"
    path.write_text(json.dumps({"speaker": "Kenji", "text": "hi", "timestamp": "May 8 Europe/Berlin"}) + "\n")
    [error] = list(read_messages(path))
    assert isinstance(error, ReadError) and error.reason == "timestamp 'May 8 Europe/Berlin' has no year"


def test_the_cypher_console_reads_now_from_the_memory_clock():
    out = Console(file=io.StringIO(), width=120, color_system=None)
    clock = ManualClock("2024-03-01T12:00:00+00:00")
    state = ConsoleState(params={"group_id": "default"}, clock=clock)
    state.handle(Command("now", ""), out, to_utc)
    assert state.params["now"] == datetime(2024, 3, 1, 12, tzinfo=UTC)
    clock.set("2024-04-01")
    state.handle(Command("asof", "2023-05-01"), out, to_utc)
    assert state.params["k"] == datetime(2024, 4, 1, tzinfo=UTC)  # K defaults to the clock's now


def test_the_public_time_module_keeps_its_names():
    assert set(temporal_graph.times.__all__) == {
        "ACCEPTED_FORMATS", "ACCEPTED_RANGE", "EARLIEST", "LATEST", "UTC", "Clock", "ManualClock", "TimeLike",
        "fixed_clock", "from_iso",
        "from_micros", "iso", "optional_utc", "system_clock", "to_micros", "to_utc",
    }
