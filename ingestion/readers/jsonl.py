"""JSONL chat logs: one JSON message object per line, streamed (blank lines are skipped)."""

from __future__ import annotations

import json
from collections.abc import Iterator

from .files import MAX_LINE_BYTES, NESTED, Readable, decoded_lines
from .messages import ChatMessage, ReadError, build_message, pick_fields


def jsonl_messages(
    path: Readable, file: str, max_line_bytes: int = MAX_LINE_BYTES
) -> Iterator[ChatMessage | ReadError]:
    for number, text, problem in decoded_lines(path, max_line_bytes):
        if problem is not None:
            yield ReadError(file=file, line=number, reason=problem)
            continue
        if not text.strip():
            continue
        yield _message(text, file, number)


def _message(text: str, file: str, number: int) -> ChatMessage | ReadError:
    """One line's message, or why it is a bad line: whatever the line holds (nesting deeper than
    the parser goes, numbers no time or id can be), it costs that line only."""
    try:
        record = json.loads(text)
    except json.JSONDecodeError as exc:
        return ReadError(file=file, line=number, reason=f"not valid JSON ({exc.msg} at column {exc.colno})")
    except RecursionError:
        return ReadError(file=file, line=number, reason=NESTED)
    except ValueError as exc:  # a number of more digits than Python converts
        return ReadError(file=file, line=number, reason=f"not valid JSON ({exc})"[:200])
    if not isinstance(record, dict):
        kind = type(record).__name__
        return ReadError(file=file, line=number, reason=f"expected a JSON object, got {kind}")
    try:
        return build_message(pick_fields(record), file=file, line=number, default_source_id=f"line:{number}")
    except (RecursionError, OverflowError, ValueError) as exc:
        return ReadError(file=file, line=number, reason=f"cannot be read ({type(exc).__name__})")
