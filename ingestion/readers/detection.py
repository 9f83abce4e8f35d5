"""Recognising a chat-log file by its content, never by its extension."""

from __future__ import annotations

import csv
import json
from collections.abc import Iterator
from itertools import islice
from typing import Any

from temporal_graph.core.errors import ImportFormatError

from .files import MAX_LINE_BYTES, Readable, decoded_lines, label, load_json, read_head
from .messages import ALIASES, field_names
from .tally import NotReadable
from .telegram_html import looks_like_telegram_page
from .whatsapp import HEADER

FORMATS = ("jsonl", "csv", "locomo", "chatgpt", "whatsapp", "slack", "telegram", "discord", "messenger",
           "claude")
# The formats that are one JSON document (parsed whole), as json_kind names them.
JSON_FORMATS = ("locomo", "chatgpt", "telegram", "discord", "messenger", "claude")

EXPECTED = (
    "expected a chat export (WhatsApp .txt or .zip, a Slack export folder or zip, Telegram Desktop "
    "result.json or messages.html, DiscordChatExporter JSON, Messenger message_1.json, ChatGPT or "
    "Claude conversations.json) or a chat log: JSONL (one JSON message per line), CSV with a header "
    "such as 'speaker,text,timestamp', LoCoMo JSON"
)

# What a format is called in messages: "looks like a WhatsApp chat export, but ...".
NAMES = {
    "jsonl": "a JSONL chat log", "csv": "a CSV chat log", "locomo": "LoCoMo JSON",
    "chatgpt": "a ChatGPT export", "whatsapp": "a WhatsApp chat export", "slack": "a Slack export",
    "telegram": "a Telegram Desktop export", "discord": "a DiscordChatExporter JSON export",
    "messenger": "a Messenger export", "claude": "a Claude.ai export",
}


def json_kind(doc: Any) -> str | None:
    """The format of a parsed JSON document of a known shape (one of JSON_FORMATS), else None."""
    first = doc[0] if isinstance(doc, list) and doc else doc
    if not isinstance(first, dict):
        return None
    # Check the value types too: "conversation" is also a JSONL field naming a conversation id.
    if isinstance(first.get("mapping"), dict):
        return "chatgpt"
    if isinstance(first.get("chat_messages"), list):
        return "claude"
    if isinstance(first.get("conversation"), dict):
        return "locomo"
    if not isinstance(doc, dict):
        return None
    messages = doc.get("messages")
    if isinstance(doc.get("chats"), dict) and isinstance(doc["chats"].get("list"), list):
        return "telegram"
    if not isinstance(messages, list):
        return None
    if isinstance(doc.get("guild"), dict) and isinstance(doc.get("channel"), dict):
        return "discord"
    if isinstance(doc.get("participants"), list):
        return "messenger"
    if "type" in doc and "id" in doc:
        return "telegram"
    return None


# Keys whose presence in a file's first 64 KiB says which JSON export it is, even when it is broken.
_SNIFF = (("chatgpt", ('"mapping"', '"current_node"')), ("claude", ('"chat_messages"',)),
          ("discord", ('"guild"', '"channel"')), ("messenger", ('"participants"', '"timestamp_ms"')),
          ("telegram", ('"date_unixtime"',)), ("telegram", ('"from_id"', '"text_entities"')),
          ("locomo", ('"session_1"',)))


def _sniffed(head: str) -> str | None:
    return next((kind for kind, keys in _SNIFF if all(key in head for key in keys)), None)


def looks_like(doc: Any) -> tuple[str, str] | None:
    """(what a JSON document we do not read on its own looks like, what to give instead), or None."""
    first = doc[0] if isinstance(doc, list) and doc else None
    if isinstance(first, dict):
        if "ts" in first and first.get("type") == "message":
            return ("one day of a Slack channel", "a Slack export is read whole: give its folder or zip "
                    "(with users.json and channels.json)")
        if "profile" in first and ("real_name" in first or "is_bot" in first):
            return ("Slack's users.json", "give the whole Slack export's folder or zip")
        if "members" in first and "created" in first and "name" in first:
            return ("a Slack export's list of channels", "give the whole Slack export's folder or zip")
    if isinstance(doc, dict) and isinstance(doc.get("messages"), list):
        return ("a chat export with a 'messages' list", "it has none of the fields of the exports "
                "read (Telegram 'type' and 'id', Discord 'guild' and 'channel', Messenger 'participants')")
    return None


def _refuse_json(doc: Any, file: str) -> NotReadable:
    if isinstance(doc, list) and not doc:
        return NotReadable(file, "the JSON list is empty; nothing to import")
    hint = looks_like(doc)
    if hint is not None:
        return NotReadable(file, hint[1], looks_like=hint[0])
    return NotReadable(file, f"unknown chat-log format; {EXPECTED}")


def _looks_like_message(obj: Any) -> bool:
    return isinstance(obj, dict) and any(str(k).strip().lower() in ALIASES["content"] for k in obj)


def whatsapp_lines(head: str) -> tuple[bool, bool]:
    """(whether the first non-blank line of ``head`` is a WhatsApp message line, whether any of its
    first 50 lines is one)."""
    lines = [line for line in head.splitlines()[:50] if line.strip()]
    if not lines:
        return False, False
    return HEADER.match(lines[0].lstrip("\ufeff")) is not None, any(HEADER.match(line) for line in lines)


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


def detect(path: Readable, max_line_bytes: int = MAX_LINE_BYTES) -> tuple[str, str, Any]:
    """(format, head text, parsed JSON document or None) for a readable file.

    The first line is read whole however long it is (up to ``max_line_bytes``), never judged by the
    first chunk of the file: a long first message is still one JSON line. A file refused says what
    it looked like (:class:`NotReadable`)."""
    file = label(path)
    head = read_head(path)
    body = head.lstrip("\ufeff \t\r\n")
    first_is_whatsapp, some_whatsapp = whatsapp_lines(head)
    if first_is_whatsapp:  # before JSON: an iOS line starts with "["
        return "whatsapp", head, None
    if body.startswith("<"):
        if looks_like_telegram_page(head):
            return "telegram", head, None
        raise NotReadable(file, "an HTML page that is not a Telegram Desktop chat page (messages.html)",
                          looks_like="an HTML page")
    if body[0] not in "[{":
        try:
            csv_header(head, file)
        except ImportFormatError:
            if some_whatsapp:
                return "whatsapp", head, None
            raise
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
        raise _refuse_json(first, file)
    if problem is not None and _messages_follow(lines):  # a first line too long or of bad bytes
        return "jsonl", head, None
    try:
        doc = load_json(path)
    except ImportFormatError as exc:
        # Not one JSON document: JSONL whose first line is bad still has good lines after it.
        if _messages_follow(_lines(path, max_line_bytes, after=number)):
            return "jsonl", head, None
        seen = _sniffed(head)
        if seen is not None:  # a broken export says which export it is
            raise NotReadable(file, str(exc).removeprefix(f"{file}: "), looks_like=NAMES[seen]) from None
        raise
    kind = json_kind(doc)
    if kind is None:
        raise _refuse_json(doc, file)
    return kind, head, doc


_LOOK_AHEAD = 50  # lines after a bad first one that may show the file is JSONL


def _lines(path: Readable, max_line_bytes: int, after: int = 0) -> Iterator[tuple[int, str, str | None]]:
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


def detect_format(path: Readable, max_line_bytes: int = MAX_LINE_BYTES) -> str:
    """Recognise a chat-log file by its content: one of ``FORMATS``.

    Raises ImportFormatError, with a one-line message saying what to do, when the file is
    missing, empty, not UTF-8 (the byte offset is given) or of no known format.
    """
    return detect(path, max_line_bytes)[0]
