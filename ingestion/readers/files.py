"""Bytes of a chat-log file: the start checked (exists, not empty, UTF-8), whole JSON documents
parsed, and lines decoded one by one so a bad byte costs only its own line."""

from __future__ import annotations

import codecs
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from temporal_graph.core.errors import ImportFormatError

HEAD_BYTES = 64 * 1024  # enough to recognise a format and to check the start decodes
_BOM = codecs.BOM_UTF8


def read_head(path: str | Path) -> str:
    """Check the file exists, is not empty and starts as UTF-8; return its first chunk as text."""
    file = str(path)
    p = Path(path)
    if not p.exists():
        raise ImportFormatError(f"{file}: no such file; check the path")
    if not p.is_file():
        raise ImportFormatError(f"{file}: not a regular file; give the path of a chat-log file")
    try:
        with p.open("rb") as handle:
            raw = handle.read(HEAD_BYTES)
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


def load_json(path: str | Path) -> Any:
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


def decoded_lines(path: str | Path) -> Iterator[tuple[int, str, int | None]]:
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


def bad_bytes(offset: int) -> str:
    return f"bytes at offset {offset} are not valid UTF-8"
