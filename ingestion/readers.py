"""Readers that turn chat-log files into :class:`ChatMessage` values for batch import.

Four formats are understood, recognised by content rather than by file extension:

- ``jsonl``: one JSON object per line (blank lines are skipped);
- ``csv``: a header row naming the columns, then one message per row;
- ``locomo``: the LoCoMo benchmark JSON (a list of samples, or a single sample object);
- ``chatgpt``: a ChatGPT ``conversations.json`` export.

JSONL and CSV are read line by line, so a file of any length is never held in memory at once.
The two JSON formats are single documents and are parsed whole.

A problem with the file as a whole (missing, empty, unknown format, not UTF-8 in its first
64 KiB, broken JSON document) raises :class:`~temporal_graph.core.errors.ImportFormatError` before
anything is yielded. A problem with one line or record (including a line of bad bytes further
into a streamed file) is yielded as a :class:`ReadError` and reading goes on, so one bad line
never costs the rest of an import.

Field names accepted in JSONL objects and CSV headers (case-insensitive, first match wins):

- speaker: ``speaker``, ``role``, ``author``, ``name`` (optional)
- text: ``text``, ``content``, ``message`` (required)
- time: ``timestamp``, ``time``, ``date``, ``created_at`` (required): ISO 8601, a plain date
  such as "8 May 2023", or epoch seconds (values above 1e11 are read as epoch milliseconds)
- conversation: ``conversation``, ``conversation_id``, ``group``, ``group_id`` (optional)
- id: ``id`` (optional; otherwise the source id is ``line:N``)
"""

from __future__ import annotations

import codecs
import csv
import json
import math
import re
from collections.abc import Iterator, Mapping
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

from dateutil import parser as _dateparser
from pydantic import BaseModel, ConfigDict, field_validator

from temporal_graph.core.errors import ImportFormatError, InvalidTime
from temporal_graph.core.times import UTC, to_utc

__all__ = ["FORMATS", "ChatMessage", "ReadError", "detect_format", "read_messages"]

FORMATS = ("jsonl", "csv", "locomo", "chatgpt")


class ChatMessage(BaseModel):
    """One chat turn, as read from a file, before any extraction."""

    model_config = ConfigDict(frozen=True)

    group_id: str | None  # the conversation id found in the file; None when the file has none
    speaker: str | None
    content: str
    timestamp: datetime  # aware UTC
    source_id: str  # stable within the file: "conv-26:D1:3", "line:12", a record's own id
    line: int  # 1-based line (JSONL, CSV) or 1-based conversation index (LoCoMo, ChatGPT)

    @field_validator("timestamp", mode="before")
    @classmethod
    def _aware_utc(cls, value: Any) -> datetime:
        return to_utc(value, name="timestamp")


class ReadError(BaseModel):
    """A line or record that could not be read; the reader goes on after it."""

    model_config = ConfigDict(frozen=True)

    file: str
    line: int
    reason: str

    def __str__(self) -> str:
        return f"{self.file}:{self.line}: {self.reason}"


# --- field names -------------------------------------------------------------------------------

_ALIASES: dict[str, tuple[str, ...]] = {
    "speaker": ("speaker", "role", "author", "name"),
    "content": ("text", "content", "message"),
    "timestamp": ("timestamp", "time", "date", "created_at"),
    "group_id": ("conversation", "conversation_id", "group", "group_id"),
    "source_id": ("id",),
}

_HEAD_BYTES = 64 * 1024  # enough to recognise a format and to check the start decodes
_BOM = codecs.BOM_UTF8
_EPOCH_MILLIS_ABOVE = 1e11  # 1e11 seconds is the year 5138: larger values must be milliseconds
_NUMBER = re.compile(r"[+-]?\d+(\.\d+)?")
_PHOTO_PREFIX = re.compile(r"^\s*an?\s+(photo|photography|picture|image)\s+of\s+", re.IGNORECASE)
_SESSION_KEY = re.compile(r"session_(\d+)")

_EXPECTED = (
    "expected JSONL (one JSON message per line), CSV with a header such as "
    "'speaker,text,timestamp', LoCoMo JSON or a ChatGPT conversations.json"
)


def _pick_fields(record: Mapping[str, Any]) -> dict[str, Any]:
    """Map a JSONL object or CSV row onto the canonical field names (missing ones left out)."""
    lowered = {str(key).strip().lower(): value for key, value in record.items()}
    fields: dict[str, Any] = {}
    for field, aliases in _ALIASES.items():
        present = [lowered[a] for a in aliases if a in lowered and lowered[a] is not None]
        # Prefer a non-empty value, but keep an empty one so the error can say "empty".
        filled = [v for v in present if not (isinstance(v, str) and not v.strip())]
        if filled or present:
            fields[field] = (filled or present)[0]
    return fields


# --- the one place a ChatMessage is built --------------------------------------------------------


def _build_message(
    fields: Mapping[str, Any], *, file: str, line: int, default_source_id: str, label: str = ""
) -> ChatMessage | ReadError:
    """Validate canonical fields into a ChatMessage, or say precisely what is wrong."""
    where = f"{label}: " if label else ""

    def error(reason: str) -> ReadError:
        return ReadError(file=file, line=line, reason=where + reason)

    content = fields.get("content")
    if content is None:
        return error(f"no text (expected a field named {_names('content')})")
    if not isinstance(content, str):
        return error(f"text must be a string, got {type(content).__name__}")
    if not content.strip():
        return error("text is empty")

    if "timestamp" not in fields:
        return error(f"no timestamp (expected a field named {_names('timestamp')})")
    try:
        timestamp = _parse_time(fields["timestamp"])
    except ValueError as exc:
        return error(str(exc))

    try:
        speaker = _optional_text(fields.get("speaker"), "speaker")
        group_id = _optional_text(fields.get("group_id"), "conversation id")
        source_id = _optional_text(fields.get("source_id"), "id") or default_source_id
    except ValueError as exc:
        return error(str(exc))

    checked = (("text", content), ("speaker", speaker), ("conversation id", group_id), ("id", source_id))
    for what, text in checked:
        surrogate = next((ch for ch in text or "" if "\ud800" <= ch <= "\udfff"), None)
        if surrogate is not None:  # a JSON escape such as "\ud800" that is not a character
            return error(f"{what} contains the lone surrogate {surrogate!r}, which is not valid Unicode")

    return ChatMessage(
        group_id=group_id,
        speaker=speaker,
        content=content.strip(),
        timestamp=timestamp,
        source_id=source_id,
        line=line,
    )


def _names(field: str) -> str:
    aliases = _ALIASES[field]
    return ", ".join(aliases[:-1]) + " or " + aliases[-1]


def _optional_text(value: Any, what: str) -> str | None:
    """Text or None; numbers are accepted as text (a numeric conversation id is common)."""
    if value is None:
        return None
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        value = str(value)
    if not isinstance(value, str):
        raise ValueError(f"{what} must be text, got {value!r}"[:120])
    return value.strip() or None


def _parse_time(value: Any) -> datetime:
    """Read a timestamp; the ValueError message is the reason shown to the user."""
    if isinstance(value, bool):
        raise ValueError(f"timestamp {value!r} is not a time")
    if isinstance(value, datetime):
        return to_utc(value)
    if isinstance(value, (int, float)):
        return _from_epoch(value, value)
    if not isinstance(value, str):
        raise ValueError(f"timestamp must be text or a number, got {type(value).__name__}")
    text = value.strip()
    if not text:
        raise ValueError("timestamp is empty")
    if _NUMBER.fullmatch(text) and not (text.isdigit() and len(text) == 4):  # 4 digits: a year
        return _from_epoch(float(text), value)
    if not _has_year(text):
        # A chat line from "May 8" of no year is not usable.
        raise ValueError(f"timestamp {value!r} has no year")
    try:
        return to_utc(text, name="timestamp")
    except InvalidTime as exc:
        why = getattr(exc, "reason", "")
        detail = "" if not why or why.startswith("Unknown string format") else f" ({why})"
        reason = f"timestamp {value!r} is not a time{detail}"
        raise ValueError(reason) from None


def _has_year(text: str) -> bool:
    try:
        datetime.fromisoformat(text.replace("Z", "+00:00"))
        return True
    except ValueError:
        pass
    try:
        a = _dateparser.parse(text, default=datetime(2000, 1, 1), ignoretz=True)  # zones: to_utc's job
        b = _dateparser.parse(text, default=datetime(2001, 1, 1), ignoretz=True)
    except (ValueError, OverflowError):
        return True  # to_utc accepted it; nothing more to check
    return a.year == b.year


def _from_epoch(number: float, shown: Any) -> datetime:
    if math.isnan(number) or math.isinf(number):
        raise ValueError(f"timestamp {shown!r} is not a time")
    seconds = number / 1000 if abs(number) > _EPOCH_MILLIS_ABOVE else number
    try:
        return datetime(1970, 1, 1, tzinfo=UTC) + timedelta(seconds=seconds)
    except OverflowError:
        raise ValueError(f"timestamp {shown!r} is out of range") from None


# --- files, bytes and format detection -----------------------------------------------------------


def _read_head(path: str | Path) -> str:
    """Check the file exists, is not empty and starts as UTF-8; return its first chunk as text."""
    file = str(path)
    p = Path(path)
    if not p.exists():
        raise ImportFormatError(f"{file}: no such file; check the path")
    if not p.is_file():
        raise ImportFormatError(f"{file}: not a regular file; give the path of a chat-log file")
    try:
        with p.open("rb") as handle:
            raw = handle.read(_HEAD_BYTES)
            more = bool(handle.read(1))
    except OSError as exc:
        raise ImportFormatError(f"{file}: cannot be read ({exc.strerror}); check its permissions") from None
    if raw.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        raise ImportFormatError(f"{file}: file is UTF-16; re-save it as UTF-8 and import again")
    skip = len(_BOM) if raw.startswith(_BOM) else 0
    try:
        # Incremental so a multi-byte character cut at the end of the chunk is not an error.
        head = codecs.getincrementaldecoder("utf-8")().decode(raw[skip:], final=not more)
    except UnicodeDecodeError as exc:
        raise _not_utf8(file, raw[skip:], exc, skip) from None
    if not head.strip():
        raise ImportFormatError(f"{file}: file is empty; nothing to import (check the export step)")
    return head


def _not_utf8(file: str, data: bytes, exc: UnicodeDecodeError, base: int) -> ImportFormatError:
    offset = base + exc.start
    return ImportFormatError(
        f"{file}: byte 0x{data[exc.start]:02x} at offset {offset} is not valid UTF-8; "
        "re-save the file as UTF-8 and import again"
    )


def _load_json(path: str | Path) -> Any:
    """Parse a whole JSON document, turning bad bytes or bad JSON into one ImportFormatError."""
    file = str(path)
    raw = Path(path).read_bytes()
    skip = len(_BOM) if raw.startswith(_BOM) else 0
    try:
        text = raw[skip:].decode("utf-8")
    except UnicodeDecodeError as exc:
        raise _not_utf8(file, raw[skip:], exc, skip) from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise ImportFormatError(
            f"{file}: not valid JSON at line {exc.lineno} column {exc.colno} ({exc.msg}); "
            "fix the file or export it again"
        ) from None


def _json_kind(doc: Any) -> str | None:
    """'locomo' or 'chatgpt' for a parsed document of that shape, else None."""
    first = doc[0] if isinstance(doc, list) and doc else doc
    if not isinstance(first, dict):
        return None
    # Check the value types too: "conversation" is also a JSONL field naming a conversation id.
    if isinstance(first.get("mapping"), dict):
        return "chatgpt"
    if isinstance(first.get("conversation"), dict):
        return "locomo"
    return None


def _looks_like_message(obj: Any) -> bool:
    return isinstance(obj, dict) and any(str(k).strip().lower() in _ALIASES["content"] for k in obj)


def _csv_header(head: str, file: str) -> tuple[str, list[str]]:
    """The delimiter and normalised column names of a CSV header, or ImportFormatError."""
    first = next((line for line in head.splitlines() if line.strip()), "")
    best: tuple[str, list[str]] | None = None
    for delimiter in (",", ";", "\t", "|"):
        columns = [c.strip().lower() for c in next(csv.reader([first], delimiter=delimiter), [])]
        if any(c in _ALIASES["content"] for c in columns):
            best = (delimiter, columns)
            break
    if best is None:
        raise ImportFormatError(f"{file}: unknown chat-log format; {_EXPECTED}")
    missing = [f for f in ("content", "timestamp") if not any(c in _ALIASES[f] for c in best[1])]
    if missing:
        raise ImportFormatError(
            f"{file}: the CSV header has no {missing[0]} column; name one {_names(missing[0])}"
        )
    return best


def _detect(path: str | Path) -> tuple[str, str, Any]:
    """(format, head text, parsed JSON document or None) for a readable file."""
    file = str(path)
    head = _read_head(path)
    body = head.lstrip()
    if body[0] not in "[{":
        _csv_header(head, file)
        return "csv", head, None
    first_line = body.split("\n", 1)[0]
    try:
        first = json.loads(first_line)
    except json.JSONDecodeError:
        first = None
    if isinstance(first, dict):
        kind = _json_kind(first)
        if kind is not None:  # a whole single-sample document on one line
            return kind, head, first
        if _looks_like_message(first):
            return "jsonl", head, None
        raise ImportFormatError(f"{file}: unknown chat-log format; {_EXPECTED}")
    try:
        doc = _load_json(path)
    except ImportFormatError:
        # Not one JSON document: JSONL whose first line is bad still has good lines after it.
        later = head.splitlines()[1:-1] if len(head) >= _HEAD_BYTES else head.splitlines()[1:]
        if any(_looks_like_message(_try_json(line)) for line in later[:50]):
            return "jsonl", head, None
        raise
    kind = _json_kind(doc)
    if kind is None:
        if isinstance(doc, list) and not doc:
            raise ImportFormatError(f"{file}: the JSON list is empty; nothing to import")
        raise ImportFormatError(f"{file}: unknown chat-log format; {_EXPECTED}")
    return kind, head, doc


def _try_json(text: str) -> Any:
    try:
        return json.loads(text)
    except json.JSONDecodeError:
        return None


def detect_format(path: str | Path) -> str:
    """Recognise a chat-log file by its content: one of ``FORMATS``.

    Raises ImportFormatError, with a one-line message saying what to do, when the file is
    missing, empty, not UTF-8 (the byte offset is given) or of no known format.
    """
    return _detect(path)[0]


# --- reading -----------------------------------------------------------------------------------


def read_messages(path: str | Path, format: str = "auto") -> Iterator[ChatMessage | ReadError]:
    """Yield each message of a chat-log file, and a ReadError for each line or record that is bad.

    File-level problems raise ImportFormatError here, before iteration starts. ``format`` is
    "auto" (recognise by content) or one of ``FORMATS``. JSONL and CSV are streamed.
    """
    file = str(path)
    if format == "auto":
        format, head, doc = _detect(path)
    elif format in FORMATS:
        head, doc = _read_head(path), None
    else:
        raise ImportFormatError(f"unknown format {format!r}; use 'auto' or one of {', '.join(FORMATS)}")

    if format == "jsonl":
        return _jsonl_messages(path, file)
    if format == "csv":
        delimiter, _ = _csv_header(head, file)  # a bad header fails now, not at first next()
        return _csv_messages(path, file, delimiter)
    if doc is None:
        doc = _load_json(path)
    if _json_kind(doc) != format:
        raise ImportFormatError(f"{file}: not a {format} file; {_EXPECTED}")
    if format == "locomo":
        return _locomo_messages(doc, file)
    return _chatgpt_messages(doc, file)


def _decoded_lines(path: str | Path) -> Iterator[tuple[int, str, int | None]]:
    """(1-based line number, text with its line ending, byte offset of a bad byte or None).

    Bad bytes are replaced rather than raised so one bad line does not end the stream.
    """
    offset = 0
    with Path(path).open("rb") as handle:
        for number, raw in enumerate(handle, start=1):
            data = raw[len(_BOM):] if number == 1 and raw.startswith(_BOM) else raw
            base = offset + len(raw) - len(data)
            offset += len(raw)
            try:
                yield number, data.decode("utf-8"), None
            except UnicodeDecodeError as exc:
                yield number, data.decode("utf-8", errors="replace"), base + exc.start


def _bad_bytes(offset: int) -> str:
    return f"bytes at offset {offset} are not valid UTF-8"


def _jsonl_messages(path: str | Path, file: str) -> Iterator[ChatMessage | ReadError]:
    for number, text, bad_offset in _decoded_lines(path):
        if bad_offset is not None:
            yield ReadError(file=file, line=number, reason=_bad_bytes(bad_offset))
            continue
        if not text.strip():
            continue
        try:
            record = json.loads(text)
        except json.JSONDecodeError as exc:
            reason = f"not valid JSON ({exc.msg} at column {exc.colno})"
            yield ReadError(file=file, line=number, reason=reason)
            continue
        if not isinstance(record, dict):
            kind = type(record).__name__
            yield ReadError(file=file, line=number, reason=f"expected a JSON object, got {kind}")
            continue
        yield _build_message(_pick_fields(record), file=file, line=number, default_source_id=f"line:{number}")


def _csv_messages(path: str | Path, file: str, delimiter: str) -> Iterator[ChatMessage | ReadError]:
    bad: dict[int, int] = {}  # line number -> offset of its first bad byte

    def lines() -> Iterator[str]:
        for number, text, bad_offset in _decoded_lines(path):
            if bad_offset is not None:
                bad[number] = bad_offset
            yield text

    reader = csv.reader(lines(), delimiter=delimiter)
    header: list[str] | None = None
    end = 0  # last physical line of the previous row; a row starts on the line after it
    while True:
        try:
            row = next(reader)
        except StopIteration:
            return
        except csv.Error as exc:
            yield ReadError(file=file, line=end + 1, reason=f"unreadable CSV row ({exc})")
            end = reader.line_num
            continue
        start, end = end + 1, reader.line_num  # line_num counts physical lines, quoted newlines too
        offsets = [bad.pop(n) for n in range(start, end + 1) if n in bad]
        if offsets:
            yield ReadError(file=file, line=start, reason=_bad_bytes(offsets[0]))
            continue
        if not any(cell.strip() for cell in row):
            continue
        if header is None:
            header = [cell.strip().lower() for cell in row]
            continue
        if len(row) > len(header):
            reason = f"row has {len(row)} fields but the header names {len(header)}"
            yield ReadError(file=file, line=start, reason=reason)
            continue
        fields = _pick_fields(dict(zip(header, row, strict=False)))  # a short row leaves the last fields out
        yield _build_message(fields, file=file, line=start, default_source_id=f"line:{start}")


def _locomo_messages(doc: Any, file: str) -> Iterator[ChatMessage | ReadError]:
    """Turns of LoCoMo samples, session by session.

    Each turn takes its session's time plus one second per turn index, so turns keep their
    order. A turn that shares a photo has its ``blip_caption`` appended to the text as
    "[shares a photo of ...]", since the caption often carries the fact the turn is about.
    ``line`` is the 1-based index of the sample in the file; reasons name the turn.
    """
    samples = doc if isinstance(doc, list) else [doc]
    for index, sample in enumerate(samples, start=1):
        if not isinstance(sample, dict) or not isinstance(sample.get("conversation"), dict):
            yield ReadError(file=file, line=index, reason="sample has no 'conversation' object")
            continue
        raw_id = sample.get("sample_id")
        sample_id = str(raw_id) if _is_text(raw_id) else None
        prefix = sample_id or f"sample-{index}"
        conversation = sample["conversation"]
        for number, turns in _locomo_sessions(conversation):
            label = f"{prefix} session_{number}"
            raw_time = conversation.get(f"session_{number}_date_time")
            try:
                if raw_time is None:
                    raise ValueError(f"no session_{number}_date_time")
                start = _parse_time(raw_time)
            except ValueError as exc:
                reason = f"{label}: {exc}; its {len(turns)} turns were skipped"
                yield ReadError(file=file, line=index, reason=reason)
                continue
            for position, turn in enumerate(turns):
                if not isinstance(turn, dict):
                    reason = f"{label}: turn {position + 1} is not an object"
                    yield ReadError(file=file, line=index, reason=reason)
                    continue
                dia_id = turn.get("dia_id") or f"D{number}:{position + 1}"
                source_id = f"{prefix}:{dia_id}"
                fields = {
                    "group_id": sample_id,
                    "speaker": turn.get("speaker"),
                    "content": _locomo_text(turn),
                    "timestamp": start + timedelta(seconds=position),
                    "source_id": source_id,
                }
                yield _build_message(
                    fields, file=file, line=index, default_source_id=source_id, label=source_id
                )


def _is_text(value: Any) -> bool:
    return isinstance(value, (str, int)) and not isinstance(value, bool)


def _locomo_sessions(conversation: Mapping[str, Any]) -> list[tuple[int, list[Any]]]:
    """(session number, turns) in numeric order; sessions listed only by date are ignored."""
    sessions = []
    for key, value in conversation.items():
        match = _SESSION_KEY.fullmatch(key)
        if match and isinstance(value, list):
            sessions.append((int(match.group(1)), value))
    return sorted(sessions, key=lambda item: item[0])


def _locomo_text(turn: Mapping[str, Any]) -> Any:
    text = turn.get("text")
    caption = turn.get("blip_caption")
    if not isinstance(caption, str) or not caption.strip():
        return text
    shared = f"[shares a photo of {_PHOTO_PREFIX.sub('', caption.strip())}]"
    if isinstance(text, str) and text.strip():
        return f"{text.strip()} {shared}"
    return shared


def _chatgpt_messages(doc: Any, file: str) -> Iterator[ChatMessage | ReadError]:
    """Messages of a ChatGPT ``conversations.json`` export, in create_time order.

    Only the branch the conversation ended on (``current_node`` back to the root) is read, so
    answers the user regenerated or edited away are left out; without ``current_node`` every
    node is read. System and tool messages, assistant calls addressed to a tool, hidden context
    messages and empty messages are skipped. ``speaker`` is the author role, "user" or
    "assistant"; rename "user" to the person's name before ingestion if facts should be about
    them by name. ``line`` is the 1-based index of the conversation in the file.
    """
    conversations = doc if isinstance(doc, list) else [doc]
    for index, conversation in enumerate(conversations, start=1):
        if not isinstance(conversation, dict) or not isinstance(conversation.get("mapping"), dict):
            yield ReadError(file=file, line=index, reason="conversation has no 'mapping' object")
            continue
        raw_id = conversation.get("conversation_id") or conversation.get("id")
        group_id = str(raw_id) if _is_text(raw_id) else None
        picked = []
        for key, message in _chatgpt_branch(conversation["mapping"], conversation.get("current_node")):
            text = _chatgpt_text(message)
            if isinstance(text, ReadError):
                yield ReadError(file=file, line=index, reason=f"message {key!r}: {text.reason}")
            elif text is not None:
                picked.append((_sort_time(message.get("create_time")), key, message, text))
        if not picked:
            yield ReadError(file=file, line=index,
                            reason="conversation has no user or assistant message with text")
        picked.sort(key=lambda item: item[0])  # stable: ties keep branch order
        for _, key, message, text in picked:
            source_id = str(message.get("id") or key)
            fields = {
                "group_id": group_id,
                "speaker": message["author"]["role"],
                "content": text,
                "timestamp": message.get("create_time"),
                "source_id": source_id,
            }
            if fields["timestamp"] is None:
                del fields["timestamp"]  # so the error says "no timestamp"
            yield _build_message(fields, file=file, line=index, default_source_id=source_id, label=source_id)


def _chatgpt_branch(mapping: Mapping[str, Any], current: Any) -> list[tuple[str, dict[str, Any]]]:
    """(node key, message) for the nodes of the active branch, root first."""
    keys: list[str] = []
    if isinstance(current, str) and current in mapping:
        seen: set[str] = set()
        node_key: Any = current
        while isinstance(node_key, str) and node_key in mapping and node_key not in seen:
            seen.add(node_key)
            keys.append(node_key)
            node = mapping[node_key]
            node_key = node.get("parent") if isinstance(node, dict) else None
        keys.reverse()
    else:
        keys = list(mapping)
    found = []
    for key in keys:
        node = mapping[key]
        message = node.get("message") if isinstance(node, dict) else None
        if isinstance(message, dict):
            found.append((key, message))
    return found


def _chatgpt_text(message: Mapping[str, Any]) -> str | ReadError | None:
    """The visible text of a user or assistant message, None to skip it (system, tool, hidden,
    empty), or a ReadError (reason only) when the message is malformed."""
    author = message.get("author")
    if not isinstance(author, dict) or not isinstance(author.get("role"), str):
        return ReadError(file="", line=0, reason="has no author role")
    role = author["role"]
    if role not in ("user", "assistant"):
        return None
    if message.get("recipient", "all") != "all":  # a call to a tool, not a reply to the user
        return None
    metadata = message.get("metadata")
    if isinstance(metadata, dict) and metadata.get("is_visually_hidden_from_conversation"):
        return None
    content = message.get("content")
    if not isinstance(content, dict):
        return ReadError(file="", line=0, reason=f"{role} message has no content object")
    parts = content.get("parts")
    if isinstance(parts, list):
        text = "\n".join(part for part in parts if isinstance(part, str))  # images are dicts
    elif isinstance(content.get("text"), str):
        text = content["text"]
    elif content.get("content_type") not in (None, "text", "multimodal_text"):
        return None  # code, browsing results and the like: not chat text
    else:
        return ReadError(file="", line=0, reason=f"{role} message content has no 'parts' list or 'text'")
    return text if text.strip() else None


def _sort_time(value: Any) -> float:
    if isinstance(value, (int, float)) and not isinstance(value, bool) and not math.isnan(value):
        return float(value)
    return math.inf  # unknown times last; they become ReadErrors anyway
