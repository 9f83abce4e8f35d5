"""Bytes of a chat-log file: the start checked (exists, not empty, UTF-8), whole JSON documents
parsed, and lines decoded one by one so a bad byte costs only its own line. A file is a path or a
:class:`~.sources.Member` (a file inside a folder or zip), read alike."""

from __future__ import annotations

import codecs
import json
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any

from temporal_graph.core.errors import ImportFormatError

from .sources import Member

Readable = str | Path | Member  # a file to read: a path, or a member of a folder or zip

HEAD_BYTES = 64 * 1024  # enough to recognise a format and to check the start decodes
_BOM = codecs.BOM_UTF8
NESTED = "JSON nested too deeply to read"


def label(path: Readable) -> str:
    """How reports name the file."""
    return path.label if isinstance(path, Member) else str(path)


def open_bytes(path: Readable) -> IO[bytes]:
    return path.open() if isinstance(path, Member) else Path(path).open("rb")


def read_raw_head(path: Readable) -> tuple[bytes, bool]:
    """The first HEAD_BYTES of the file and whether more follow; ImportFormatError when it cannot be read."""
    file = label(path)
    if not isinstance(path, Member):
        p = Path(path)
        if not p.exists():
            raise ImportFormatError(f"{file}: no such file; check the path")
        if not p.is_file():
            raise ImportFormatError(f"{file}: not a regular file; give the path of a chat-log file")
    try:
        with open_bytes(path) as handle:
            return handle.read(HEAD_BYTES), bool(handle.read(1))
    except OSError as exc:
        raise ImportFormatError(f"{file}: cannot be read ({exc.strerror}); check its permissions") from None


def read_head(path: Readable) -> str:
    """Check the file exists, is not empty and starts as UTF-8; return its first chunk as text."""
    file = label(path)
    raw, more = read_raw_head(path)
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


def load_json(path: Readable) -> Any:
    """Parse a whole JSON document, turning bad bytes or bad JSON into one ImportFormatError."""
    file = label(path)
    with open_bytes(path) as handle:
        raw = handle.read()
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
    except RecursionError:
        raise ImportFormatError(f"{file}: {NESTED}; fix the file or export it again") from None
    except ValueError as exc:  # a number of more digits than Python converts
        raise ImportFormatError(f"{file}: not valid JSON ({exc}); fix the file or export it again") from None


def line_limit(max_message_chars: int) -> int:
    """The longest line, in bytes, a reader takes whole: what a message of ``max_message_chars``
    characters can take written out at the worst (a JSON escaped surrogate pair, 12 bytes for one
    character), plus room for the other fields. A longer line is a bad line, never held in memory."""
    return 12 * max_message_chars + 64 * 1024


MAX_LINE_BYTES = line_limit(250_000)  # core.bundle.MAX_MESSAGE_CHARS; an import passes its own
_CHUNK = 1 << 20  # how much of an over-long line is read at a time while it is skipped


def decoded_lines(path: Readable, max_bytes: int = MAX_LINE_BYTES) -> Iterator[tuple[int, str, str | None]]:
    """(1-based line number, text with its line ending, why the line is bad or None).

    Bad bytes are replaced rather than raised, and a line longer than ``max_bytes`` is skipped
    (read in chunks, never whole) and given as "", so one bad line does not end the stream.
    """
    offset = 0
    with open_bytes(path) as handle:
        number = 0
        while raw := handle.readline(max_bytes + 1):
            number += 1
            start = offset
            offset += len(raw)
            if len(raw) > max_bytes and not raw.endswith(b"\n"):
                while (rest := handle.readline(_CHUNK)) and not rest.endswith(b"\n"):
                    offset += len(rest)
                offset += len(rest)
                yield number, "", too_long(start, max_bytes)
                continue
            data = raw[len(_BOM):] if number == 1 and raw.startswith(_BOM) else raw
            base = start + len(raw) - len(data)
            try:
                yield number, data.decode("utf-8"), None
            except UnicodeDecodeError as exc:
                yield number, data.decode("utf-8", errors="replace"), bad_bytes(base + exc.start)


def bad_bytes(offset: int) -> str:
    return f"bytes at offset {offset} are not valid UTF-8"


def too_long(offset: int, max_bytes: int) -> str:
    return (f"the line at offset {offset} is longer than {max_bytes:,} bytes, more than a message within "
            "max_message_chars can take; skipped without reading it whole")
