"""Chat-log readers: each format, malformed lines reported precisely, bad files refused clearly."""

from __future__ import annotations

import itertools
import json
import types
from datetime import datetime, timezone
from pathlib import Path

import pytest

from ingestion.readers import ChatMessage, ReadError, detect_format, read_messages
from temporal_graph.errors import ImportFormatError

DATA = Path(__file__).parent / "data"
LOCOMO = Path("/work/shared/data/locomo/locomo_dev.json")
EXAMPLE = Path(__file__).parent.parent / "examples" / "sample_chat.jsonl"
UTC = timezone.utc


def write(tmp_path: Path, name: str, text: str | bytes) -> Path:
    path = tmp_path / name
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text, encoding="utf-8")
    return path


def jsonl(*records: object) -> str:
    return "".join((r if isinstance(r, str) else json.dumps(r)) + "\n" for r in records)


def split(items: list) -> tuple[list[ChatMessage], list[ReadError]]:
    return [i for i in items if isinstance(i, ChatMessage)], [i for i in items if isinstance(i, ReadError)]


# --- JSONL ---------------------------------------------------------------------------------------


def test_jsonl_accepts_the_documented_field_names(tmp_path):
    path = write(
        tmp_path,
        "chat.log",  # extension says nothing; content decides
        jsonl(
            {"speaker": "Ana", "text": "I live in Lisbon.", "timestamp": "2024-01-02T10:00:00+01:00",
             "conversation": "c1"},
            {"role": "user", "content": "hi", "time": "8 May 2023", "group_id": 7},
            {"author": "Ben", "message": "yo", "date": 1700000000, "id": "m-3"},
            {"name": "Cy", "text": "ok", "created_at": "2023-05-08"},
        ),
    )
    assert detect_format(path) == "jsonl"
    messages = list(read_messages(path))
    assert all(isinstance(m, ChatMessage) for m in messages)
    first, second, third, fourth = messages
    assert (first.speaker, first.content, first.group_id) == ("Ana", "I live in Lisbon.", "c1")
    assert first.timestamp == datetime(2024, 1, 2, 9, 0, tzinfo=UTC)
    assert first.source_id == "line:1" and first.line == 1
    assert (second.speaker, second.group_id, second.timestamp) == (
        "user", "7", datetime(2023, 5, 8, tzinfo=UTC))
    assert third.timestamp == datetime(2023, 11, 14, 22, 13, 20, tzinfo=UTC)
    assert third.source_id == "m-3" and third.group_id is None
    assert fourth.speaker == "Cy" and fourth.timestamp.tzinfo is not None


def test_jsonl_malformed_lines_are_reported_and_reading_goes_on(tmp_path):
    good = {"speaker": "Ana", "text": "fine", "timestamp": "2024-01-01"}
    path = write(
        tmp_path,
        "chats.jsonl",
        jsonl(
            good,                                                             # 1
            "",                                                               # 2 blank: skipped
            '{"speaker": "Ana", "text": "oops"',                              # 3 bad JSON
            {"speaker": "Ana", "timestamp": "2024-01-01"},                    # 4 no text
            {"speaker": "Ana", "text": "   ", "timestamp": "2024-01-01"},     # 5 empty text
            {"speaker": "Ana", "text": "when?", "timestamp": "yesterday-ish"},  # 6 bad time
            {"speaker": "Ana", "text": "no time"},                            # 7 no time
            [1, 2, 3],                                                        # 8 not an object
            {"speaker": "Ana", "text": "May 8?", "timestamp": "May 8"},       # 9 no year
            good,                                                             # 10
        ),
    )
    messages, errors = split(list(read_messages(path)))
    assert [m.line for m in messages] == [1, 10]
    assert {e.line: e.reason for e in errors}.keys() == {3, 4, 5, 6, 7, 8, 9}
    by_line = {e.line: e for e in errors}
    assert "not valid JSON" in by_line[3].reason
    assert "no text" in by_line[4].reason
    assert "empty" in by_line[5].reason
    assert str(by_line[6]).endswith("chats.jsonl:6: timestamp 'yesterday-ish' is not a time")
    assert "no timestamp" in by_line[7].reason
    assert "JSON object" in by_line[8].reason
    assert "no year" in by_line[9].reason


def test_jsonl_bad_bytes_deep_in_a_file_become_one_read_error(tmp_path):
    # Bad bytes at the start mean the file is not UTF-8 (refused whole, see below); one
    # corrupt line deep in a long UTF-8 file is reported alone and the rest is read.
    good = json.dumps({"speaker": "A", "text": "ok", "timestamp": "2024-01-01"}).encode() + b"\n"
    bad = b'{"speaker": "A", "text": "caf\xe9", "timestamp": "2024-01-01"}\n'
    lead = good * 2000  # past the first 64 KiB
    path = write(tmp_path, "mixed.jsonl", lead + bad + good)
    messages, errors = split(list(read_messages(path)))
    assert len(messages) == 2001 and messages[-1].line == 2002
    assert [e.line for e in errors] == [2001]
    offset = len(lead) + bad.index(b"\xe9")
    assert errors[0].reason == f"bytes at offset {offset} are not valid UTF-8"


def test_jsonl_with_a_byte_order_mark_is_read(tmp_path):
    body = jsonl({"text": "hi", "timestamp": "2024-01-01"}).encode()
    path = write(tmp_path, "bom.jsonl", b"\xef\xbb\xbf" + body)
    assert detect_format(path) == "jsonl"
    (message,) = list(read_messages(path))
    assert message.content == "hi"


def test_jsonl_whose_first_line_is_bad_is_still_recognised(tmp_path):
    path = write(tmp_path, "c.jsonl", jsonl("{not json", {"text": "hi", "timestamp": "2024-01-01"}))
    assert detect_format(path) == "jsonl"
    messages, errors = split(list(read_messages(path)))
    assert [e.line for e in errors] == [1] and [m.line for m in messages] == [2]


def test_large_jsonl_is_read_lazily(tmp_path):
    path = tmp_path / "big.jsonl"
    with path.open("w", encoding="utf-8") as handle:
        for i in range(100_000):
            handle.write(f'{{"speaker": "u{i % 3}", "text": "message {i}", "timestamp": {1700000000 + i}}}\n')
    stream = read_messages(path)
    assert isinstance(stream, types.GeneratorType)
    first = next(stream)
    assert isinstance(first, ChatMessage) and first.content == "message 0"
    assert 1 + sum(1 for _ in stream) == 100_000


# --- CSV -----------------------------------------------------------------------------------------


def test_csv_sample_with_a_multiline_field():
    path = DATA / "chat_sample.csv"
    assert detect_format(path) == "csv"
    messages = list(read_messages(path))
    assert all(isinstance(m, ChatMessage) for m in messages)
    assert [m.line for m in messages] == [2, 3, 4, 7]  # the third message spans lines 4-6
    assert messages[2].content.splitlines() == ["My list for the trip:", "- passport", "- charger"]
    assert messages[0].group_id == "trip" and messages[0].speaker == "Ana"
    assert messages[3].timestamp == datetime(2024, 1, 2, 9, 3, tzinfo=UTC)


def test_csv_malformed_rows_keep_correct_line_numbers(tmp_path):
    path = write(
        tmp_path,
        "chats.csv",
        "Speaker,Message,Created_At\n"                          # 1 (header names are case-insensitive)
        'Ana,"first line\nsecond line",2024-01-01 10:00\n'      # 2-3
        "Ana,,2024-01-01\n"                                      # 4 empty text
        "\n"                                                     # 5 blank: skipped
        'Ben,"quoted\n\nwith blank line",not a date\n'           # 6-8 bad time
        "Ben,too,many,fields\n"                                  # 9
        "Ben,good,1704067200000\n",                              # 10 epoch milliseconds
    )
    messages, errors = split(list(read_messages(path)))
    assert [m.line for m in messages] == [2, 10]
    assert messages[1].timestamp == datetime(2024, 1, 1, tzinfo=UTC)
    assert [(e.line, e.file) for e in errors] == [(4, str(path)), (6, str(path)), (9, str(path))]
    assert "empty" in errors[0].reason
    assert "'not a date' is not a time" in errors[1].reason
    assert "4 fields" in errors[2].reason


def test_csv_semicolon_delimited(tmp_path):
    path = write(tmp_path, "c.txt", "author;content;date\nAna;I like tea.;2024-02-03\n")
    assert detect_format(path) == "csv"
    (message,) = list(read_messages(path))
    assert (message.speaker, message.content) == ("Ana", "I like tea.")


def test_csv_header_without_a_time_column_is_refused(tmp_path):
    path = write(tmp_path, "c.csv", "speaker,text\nAna,hello\n")
    with pytest.raises(ImportFormatError, match="no timestamp column"):
        detect_format(path)


# --- LoCoMo --------------------------------------------------------------------------------------


@pytest.mark.skipif(not LOCOMO.exists(), reason="shared LoCoMo data not present")
def test_locomo_conversation_from_the_shared_data_set():
    assert detect_format(LOCOMO) == "locomo"
    items = list(read_messages(LOCOMO))
    messages, errors = split(items)
    assert errors == []
    conv26 = [m for m in messages if m.group_id == "conv-26"]
    assert len(conv26) == 419  # 19 sessions with turns; the later sessions listed only by date are ignored
    assert {m.group_id for m in messages} == {"conv-26", "conv-30", "conv-41", "conv-42", "conv-43",
                                              "conv-44"}
    first = conv26[0]
    assert first.source_id == "conv-26:D1:1" and first.speaker == "Caroline"
    assert first.timestamp == datetime(2023, 5, 8, 13, 56, tzinfo=UTC)
    assert conv26[2].timestamp == datetime(2023, 5, 8, 13, 56, 2, tzinfo=UTC)  # +1 s per turn
    assert all(a.timestamp < b.timestamp for a, b in itertools.pairwise(conv26))
    photo = next(m for m in conv26 if m.source_id == "conv-26:D1:5")
    assert photo.content.endswith("[shares a photo of a dog walking past a wall with a painting of a woman]")


def test_locomo_single_sample_object_and_bad_parts(tmp_path):
    sample = {
        "sample_id": "s1",
        "conversation": {
            "speaker_a": "Ana",
            "speaker_b": "Ben",
            "session_2_date_time": "9:00 am on 2 June, 2023",
            "session_2": [{"speaker": "Ben", "dia_id": "D2:1", "text": "Back again."}],
            "session_1_date_time": "1:56 pm on 8 May, 2023",
            "session_1": [
                {"speaker": "Ana", "dia_id": "D1:1", "text": "Hi Ben!"},
                {"speaker": "Ben", "dia_id": "D1:2"},
                {"speaker": "Ana", "dia_id": "D1:3", "text": "",
                 "blip_caption": "a photography of a red bike"},
            ],
            "session_3_date_time": "sometime",
            "session_3": [{"speaker": "Ana", "dia_id": "D3:1", "text": "lost"}],
        },
    }
    path = write(tmp_path, "one.json", json.dumps(sample, indent=2))
    assert detect_format(path) == "locomo"
    messages, errors = split(list(read_messages(path)))
    assert [m.source_id for m in messages] == ["s1:D1:1", "s1:D1:3", "s1:D2:1"]  # sessions in number order
    assert messages[1].content == "[shares a photo of a red bike]"
    assert messages[1].timestamp == datetime(2023, 5, 8, 13, 56, 2, tzinfo=UTC)
    assert [(e.line, e.reason.split(":")[0]) for e in errors] == [(1, "s1"), (1, "s1 session_3")]
    assert "no text" in errors[0].reason and "D1:2" in errors[0].reason
    assert "'sometime' is not a time" in errors[1].reason and "1 turns were skipped" in errors[1].reason


# --- ChatGPT -------------------------------------------------------------------------------------


def test_chatgpt_export_follows_the_active_branch_in_time_order():
    path = DATA / "chatgpt_conversations.json"
    assert detect_format(path) == "chatgpt"
    messages = list(read_messages(path))
    assert all(isinstance(m, ChatMessage) for m in messages)
    assert [(m.group_id, m.speaker, m.source_id) for m in messages] == [
        ("c-berlin", "user", "u1"),
        ("c-berlin", "assistant", "a1"),
        ("c-berlin", "user", "u2"),
        ("c-berlin", "assistant", "a2"),  # not the regenerated a2old, not the tool call or result
        ("c-cats", "user", "x"),
        ("c-cats", "assistant", "y"),
    ]
    assert messages[0].content == "I moved to Berlin last month."
    assert messages[0].timestamp == datetime(2023, 11, 14, 22, 13, 20, 500000, tzinfo=UTC)
    assert messages[2].content == "Mostly good. \nHere is my flat."  # the image part is dropped
    assert [m.line for m in messages] == [1, 1, 1, 1, 2, 2]


def test_chatgpt_message_without_time_is_a_read_error(tmp_path):
    conversation = {
        "id": "c1",
        "mapping": {
            "a": {"message": {"id": "a", "author": {"role": "user"}, "create_time": None,
                              "content": {"content_type": "text", "parts": ["hello"]}}, "parent": None},
            "b": {"message": {"id": "b", "author": {"role": "assistant"}, "create_time": 1700000000,
                              "content": {"content_type": "text", "parts": ["hi"]}}, "parent": "a"},
        },
    }
    path = write(tmp_path, "conversations.json", json.dumps([conversation]))
    messages, errors = split(list(read_messages(path)))
    assert [m.source_id for m in messages] == ["b"]
    assert errors[0].line == 1 and errors[0].reason.startswith("a: no timestamp")


# --- example file --------------------------------------------------------------------------------


def test_example_chat_reads_cleanly():
    messages, errors = split(list(read_messages(EXAMPLE)))
    assert errors == [] and 30 <= len(messages) <= 40
    assert {m.speaker for m in messages} == {"Zhang Wei", "Li Na"}
    assert {m.group_id for m in messages} == {"demo"}
    assert messages[0].timestamp.year == 2023 and messages[-1].timestamp.year == 2024
    assert all(a.timestamp < b.timestamp for a, b in itertools.pairwise(messages))


# --- bad files -----------------------------------------------------------------------------------


def test_missing_file(tmp_path):
    with pytest.raises(ImportFormatError, match="no such file"):
        detect_format(tmp_path / "nope.jsonl")
    with pytest.raises(ImportFormatError, match="no such file"):
        read_messages(tmp_path / "nope.jsonl")  # raised at the call, before iteration


@pytest.mark.parametrize("content", ["", "\n\n  \n"])
def test_empty_file(tmp_path, content):
    path = write(tmp_path, "empty.jsonl", content)
    with pytest.raises(ImportFormatError, match="empty"):
        read_messages(path)


@pytest.mark.parametrize(
    "content",
    [
        "Dear diary, today I went to the park.\n",
        '{"foo": 1, "bar": 2}\n',
        '{"users": [1, 2]}',
        "[1, 2, 3]",
    ],
)
def test_unknown_format(tmp_path, content):
    path = write(tmp_path, "notes.txt", content)
    with pytest.raises(ImportFormatError, match="unknown chat-log format; expected a chat export"):
        detect_format(path)


def test_broken_json_document_names_the_position(tmp_path):
    path = write(tmp_path, "conversations.json", '[\n  {"mapping": {}},\n  {"mapping": \n')
    with pytest.raises(ImportFormatError, match="not valid JSON at line 4"):
        detect_format(path)


def test_bad_encoding_gives_the_byte_offset(tmp_path):
    latin1 = "speaker,text,timestamp\nJosé,olá,2024-01-01\n".encode("latin-1")
    path = write(tmp_path, "latin1.csv", latin1)
    offset = latin1.index(b"\xe9")
    with pytest.raises(ImportFormatError, match=f"byte 0xe9 at offset {offset} is not valid UTF-8"):
        detect_format(path)


def test_utf16_file_is_refused_with_advice(tmp_path):
    path = write(tmp_path, "u16.jsonl", jsonl({"text": "hi", "timestamp": "2024-01-01"}).encode("utf-16"))
    with pytest.raises(ImportFormatError, match="UTF-16; re-save it as UTF-8"):
        read_messages(path)


def test_unknown_format_name_and_mismatched_format(tmp_path):
    path = write(tmp_path, "c.jsonl", jsonl({"text": "hi", "timestamp": "2024-01-01"}))
    with pytest.raises(ImportFormatError, match="unknown format 'xml'"):
        read_messages(path, format="xml")
    with pytest.raises(ImportFormatError, match="not a locomo file"):
        read_messages(DATA / "chatgpt_conversations.json", format="locomo")


def test_explicit_format_skips_detection(tmp_path):
    path = write(tmp_path, "c.data", jsonl({"text": "hi", "timestamp": "2024-01-01"}))
    (message,) = list(read_messages(path, format="jsonl"))
    assert message.content == "hi"


def test_read_error_text_is_file_line_reason():
    error = ReadError(file="chats.jsonl", line=17, reason="timestamp 'yesterday-ish' is not a time")
    assert str(error) == "chats.jsonl:17: timestamp 'yesterday-ish' is not a time"
