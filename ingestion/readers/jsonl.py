"""JSONL chat logs: one JSON message object per line, streamed (blank lines are skipped)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

from .files import bad_bytes, decoded_lines
from .messages import ChatMessage, ReadError, build_message, pick_fields


def jsonl_messages(path: str | Path, file: str) -> Iterator[ChatMessage | ReadError]:
    for number, text, bad_offset in decoded_lines(path):
        if bad_offset is not None:
            yield ReadError(file=file, line=number, reason=bad_bytes(bad_offset))
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
        yield build_message(pick_fields(record), file=file, line=number, default_source_id=f"line:{number}")
