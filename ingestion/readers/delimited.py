"""CSV chat logs (also ``;``, tab or ``|`` separated): a header row naming the columns, then one
message per row, streamed. A quoted cell may span lines; errors name the row's first line.
:func:`csv_rows` reads the rows, for structured fact files too."""

from __future__ import annotations

import csv
import threading
from collections.abc import Iterator
from contextlib import contextmanager

from .files import MAX_LINE_BYTES, Readable, decoded_lines
from .messages import ChatMessage, ReadError, build_message, pick_fields


def csv_messages(
    path: Readable, file: str, delimiter: str, max_line_bytes: int = MAX_LINE_BYTES
) -> Iterator[ChatMessage | ReadError]:
    header: list[str] | None = None
    for start, row in csv_rows(path, delimiter, max_line_bytes):
        if isinstance(row, str):
            yield ReadError(file=file, line=start, reason=row)
            continue
        if header is None:
            header = [cell.strip().lower() for cell in row]
            continue
        if len(row) > len(header):
            reason = f"row has {len(row)} fields but the header names {len(header)}"
            yield ReadError(file=file, line=start, reason=reason)
            continue
        fields = pick_fields(dict(zip(header, row, strict=False)))  # a short row leaves the last fields out
        yield build_message(fields, file=file, line=start, default_source_id=f"line:{start}")


def csv_rows(
    path: Readable, delimiter: str = ",", max_line_bytes: int = MAX_LINE_BYTES
) -> Iterator[tuple[int, list[str] | str]]:
    """``(first line, cells)`` per row of a CSV file, or ``(first line, reason)`` for a row that cannot
    be read (a bad UTF-8 byte, a CSV error): one bad row never costs the others. Blank rows are
    skipped; a UTF-8 BOM before the header is dropped. Cells may be of any length (the callers'
    own limits refuse what is too long, by row; a line over ``max_line_bytes`` is a bad row)."""
    bad: dict[int, str] = {}  # line number -> why it cannot be read

    def lines() -> Iterator[str]:
        for number, text, problem in decoded_lines(path, max_line_bytes):
            if problem is not None:
                bad[number] = problem
            yield text

    with _any_field_size():
        reader = csv.reader(lines(), delimiter=delimiter)
        end = 0  # last physical line of the previous row; a row starts on the line after it
        while True:
            try:
                row = next(reader)
            except StopIteration:
                return
            except csv.Error as exc:
                yield end + 1, f"unreadable CSV row ({exc})"
                end = reader.line_num
                continue
            start, end = end + 1, reader.line_num  # line_num counts physical lines, quoted newlines too
            problems = [bad.pop(n) for n in range(start, end + 1) if n in bad]
            if problems:
                yield start, problems[0]
            elif any(cell.strip() for cell in row):
                yield start, row


_field_lock = threading.Lock()
_field_users = 0
_field_limit = 0


@contextmanager
def _any_field_size() -> Iterator[None]:
    """Lift the csv module's cell limit (131,072 characters unless changed; one setting for the whole
    process) while a file is read, restoring it after the last reader: a long cell is then refused
    by the limit of what it holds, on its own row, instead of breaking the row apart."""
    global _field_users, _field_limit
    with _field_lock:
        if _field_users == 0:
            _field_limit = csv.field_size_limit(2**31 - 1)
        _field_users += 1
    try:
        yield
    finally:
        with _field_lock:
            _field_users -= 1
            if _field_users == 0:
                csv.field_size_limit(_field_limit)
