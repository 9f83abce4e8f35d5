"""Recognising a chat-log file by its content, never by its extension."""

from __future__ import annotations

import csv
import json
from pathlib import Path
from typing import Any

from temporal_graph.core.errors import ImportFormatError

from .files import HEAD_BYTES, load_json, read_head
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


def detect(path: str | Path) -> tuple[str, str, Any]:
    """(format, head text, parsed JSON document or None) for a readable file."""
    file = str(path)
    head = read_head(path)
    body = head.lstrip()
    if body[0] not in "[{":
        csv_header(head, file)
        return "csv", head, None
    first_line = body.split("\n", 1)[0]
    try:
        first = json.loads(first_line)
    except json.JSONDecodeError:
        first = None
    if isinstance(first, dict):
        kind = json_kind(first)
        if kind is not None:  # a whole single-sample document on one line
            return kind, head, first
        if _looks_like_message(first):
            return "jsonl", head, None
        raise ImportFormatError(f"{file}: unknown chat-log format; {EXPECTED}")
    try:
        doc = load_json(path)
    except ImportFormatError:
        # Not one JSON document: JSONL whose first line is bad still has good lines after it.
        later = head.splitlines()[1:-1] if len(head) >= HEAD_BYTES else head.splitlines()[1:]
        if any(_looks_like_message(_try_json(line)) for line in later[:50]):
            return "jsonl", head, None
        raise
    kind = json_kind(doc)
    if kind is None:
        if isinstance(doc, list) and not doc:
            raise ImportFormatError(f"{file}: the JSON list is empty; nothing to import")
        raise ImportFormatError(f"{file}: unknown chat-log format; {EXPECTED}")
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
    return detect(path)[0]
