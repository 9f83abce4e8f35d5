"""Recognising a chat-log file by its content, never by its extension."""

from __future__ import annotations

import csv
import json
from collections.abc import Iterator
from itertools import islice
from pathlib import Path
from typing import Any

from temporal_graph.core.errors import ImportFormatError

from .files import MAX_LINE_BYTES, decoded_lines, load_json, read_head
from .messages import ALIASES, field_names

FORMATS = ("jsonl", "csv", "locomo", "chatgpt")

EXPECTED = (
    "expected JSONL (one JSON message per line), CSV with a header such as "
    "'speaker,text,timestamp', LoCoMo JSON or a ChatGPT conversations.json"
)


def json_kind(doc: Any) -> str | None:
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
    return isinstance(obj, dict) and any(str(k).strip().lower() in ALIASES["content"] for k in obj)


def csv_header(head: str, file: str) -> tuple[str, list[str]]:
    """The delimiter and normalised column names of a CSV header, or ImportFormatError."""
    first = next((line for line in head.splitlines() if line.strip()), "")
    best: tuple[str, list[str]] | None = None
    for delimiter in (",", ";", "\t", "|"):
        columns = [c.strip().lower() for c in next(csv.reader([first], delimiter=delimiter), [])]
        if any(c in ALIASES["content"] for c in columns):
            best = (delimiter, columns)
            break
    if best is None:
        raise ImportFormatError(f"{file}: unknown chat-log format; {EXPECTED}")
    missing = [f for f in ("content", "timestamp") if not any(c in ALIASES[f] for c in best[1])]
    if missing:
        raise ImportFormatError(
            f"{file}: the CSV header has no {missing[0]} column; name one {field_names(missing[0])}"
        )
    return best


def detect(path: str | Path, max_line_bytes: int = MAX_LINE_BYTES) -> tuple[str, str, Any]:
    """(format, head text, parsed JSON document or None) for a readable file.

    The first line is read whole however long it is (up to ``max_line_bytes``), never judged by the
    first chunk of the file: a long first message is still one JSON line."""
    file = str(path)
    head = read_head(path)
    body = head.lstrip()
    if body[0] not in "[{":
        csv_header(head, file)
        return "csv", head, None
    lines = _lines(path, max_line_bytes)
    number, first_line, problem = next(lines, (0, "", None))
    first = None if problem is not None else _try_json(first_line)
    if isinstance(first, dict):
        kind = json_kind(first)
        if kind is not None:  # a whole single-sample document on one line
            return kind, head, first
        if _looks_like_message(first):
            return "jsonl", head, None
        raise ImportFormatError(f"{file}: unknown chat-log format; {EXPECTED}")
    if problem is not None and _messages_follow(lines):  # a first line too long or of bad bytes
        return "jsonl", head, None
    try:
        doc = load_json(path)
    except ImportFormatError:
        # Not one JSON document: JSONL whose first line is bad still has good lines after it.
        if _messages_follow(_lines(path, max_line_bytes, after=number)):
            return "jsonl", head, None
        raise
    kind = json_kind(doc)
    if kind is None:
        if isinstance(doc, list) and not doc:
            raise ImportFormatError(f"{file}: the JSON list is empty; nothing to import")
        raise ImportFormatError(f"{file}: unknown chat-log format; {EXPECTED}")
    return kind, head, doc


_LOOK_AHEAD = 50  # lines after a bad first one that may show the file is JSONL


def _lines(path: str | Path, max_line_bytes: int, after: int = 0) -> Iterator[tuple[int, str, str | None]]:
    """The non-blank lines after line ``after``, each read whole (or refused as too long)."""
    for number, text, problem in decoded_lines(path, max_line_bytes):
        if number > after and (problem is not None or text.strip()):
            yield number, text, problem


def _messages_follow(lines: Iterator[tuple[int, str, str | None]]) -> bool:
    return any(problem is None and _looks_like_message(_try_json(text))
               for _, text, problem in islice(lines, _LOOK_AHEAD))


def _try_json(text: str) -> Any:
    try:
        return json.loads(text)
    except (ValueError, RecursionError):  # JSONDecodeError is a ValueError, so are 5,000-digit numbers
        return None


def detect_format(path: str | Path, max_line_bytes: int = MAX_LINE_BYTES) -> str:
    """Recognise a chat-log file by its content: one of ``FORMATS``.

    Raises ImportFormatError, with a one-line message saying what to do, when the file is
    missing, empty, not UTF-8 (the byte offset is given) or of no known format.
    """
    return detect(path, max_line_bytes)[0]
