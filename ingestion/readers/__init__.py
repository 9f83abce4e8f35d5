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
into a streamed file, a line longer than ``max_line_bytes``, JSON nested deeper than the parser
goes) is yielded as a :class:`ReadError` and reading goes on, so one bad line never costs the rest
of an import. A conversation id is given exactly as the file has it (never trimmed); the importer
checks it as a group id.

Field names accepted in JSONL objects and CSV headers (case-insensitive, first match wins):

- speaker: ``speaker``, ``role``, ``author``, ``name`` (optional)
- text: ``text``, ``content``, ``message`` (required)
- time: ``timestamp``, ``time``, ``date``, ``created_at`` (required): ISO 8601, a plain date
  such as "8 May 2023", or epoch seconds (values above 1e11 are read as epoch milliseconds)
- conversation: ``conversation``, ``conversation_id``, ``group``, ``group_id`` (optional)
- id: ``id`` (optional; otherwise the source id is ``line:N``)

One module per format (:mod:`.jsonl`, :mod:`.delimited`, :mod:`.locomo`, :mod:`.chatgpt`), beside
:mod:`.detection`, :mod:`.files` (bytes and decoding), :mod:`.messages` (what is yielded, built in
one place) and :mod:`.timestamps` (times, through the library's one absolute parser).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from temporal_graph.core.errors import ImportFormatError

from .chatgpt import chatgpt_messages
from .delimited import csv_messages
from .detection import EXPECTED, FORMATS, csv_header, detect, detect_format, json_kind
from .files import MAX_LINE_BYTES, line_limit, load_json, read_head
from .jsonl import jsonl_messages
from .locomo import locomo_messages
from .messages import ChatMessage, ReadError, fields_help

__all__ = ["FORMATS", "MAX_LINE_BYTES", "ChatMessage", "ReadError", "detect_format", "file_help",
           "line_limit", "read_messages"]

# What each format is, for ``file_help``.
_FORMAT_HELP = {
    "jsonl": 'one JSON object per line, e.g. {"id": "m1", "group": "demo", "speaker": "Bob", '
             '"timestamp": "2023-01-14T10:03:10+08:00", "text": "I live in Hangzhou."}',
    "csv": "a header row naming the columns (the same names), then one message per row",
    "locomo": "the LoCoMo benchmark JSON (a list of samples, or one sample)",
    "chatgpt": "a ChatGPT conversations.json export",
}


def file_help() -> str:
    """The formats a chat log may have and the field names of JSONL objects and CSV headers."""
    formats = "\n".join(f"  {name}: {_FORMAT_HELP[name]}" for name in FORMATS)
    return (f"formats (recognised from the content; --format to say which):\n{formats}\n"
            f"fields of a JSONL object or CSV header (any of the names; case-insensitive):\n{fields_help()}")


def read_messages(
    path: str | Path, format: str = "auto", max_line_bytes: int = MAX_LINE_BYTES
) -> Iterator[ChatMessage | ReadError]:
    """Yield each message of a chat-log file, and a ReadError for each line or record that is bad.

    File-level problems raise ImportFormatError here, before iteration starts. ``format`` is
    "auto" (recognise by content) or one of ``FORMATS``. JSONL and CSV are streamed; a line longer
    than ``max_line_bytes`` is a bad line, skipped without being held in memory.
    """
    file = str(path)
    if format == "auto":
        format, head, doc = detect(path, max_line_bytes)
    elif format in FORMATS:
        head, doc = read_head(path), None
    else:
        raise ImportFormatError(f"unknown format {format!r}; use 'auto' or one of {', '.join(FORMATS)}")

    if format == "jsonl":
        return jsonl_messages(path, file, max_line_bytes)
    if format == "csv":
        delimiter, _ = csv_header(head, file)  # a bad header fails now, not at first next()
        return csv_messages(path, file, delimiter, max_line_bytes)
    if doc is None:
        doc = load_json(path)
    if json_kind(doc) != format:
        raise ImportFormatError(f"{file}: not a {format} file; {EXPECTED}")
    if format == "locomo":
        return locomo_messages(doc, file)
    return chatgpt_messages(doc, file)
