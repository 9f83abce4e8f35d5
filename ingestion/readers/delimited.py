"""CSV chat logs (also ``;``, tab or ``|`` separated): a header row naming the columns, then one
message per row, streamed. A quoted cell may span lines; errors name the row's first line."""

from __future__ import annotations

import csv
from collections.abc import Iterator
from pathlib import Path

from .files import bad_bytes, decoded_lines
from .messages import ChatMessage, ReadError, build_message, pick_fields


def csv_messages(path: str | Path, file: str, delimiter: str) -> Iterator[ChatMessage | ReadError]:
    bad: dict[int, int] = {}  # line number -> offset of its first bad byte

    def lines() -> Iterator[str]:
        for number, text, bad_offset in decoded_lines(path):
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
            yield ReadError(file=file, line=start, reason=bad_bytes(offsets[0]))
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
        fields = pick_fields(dict(zip(header, row, strict=False)))  # a short row leaves the last fields out
        yield build_message(fields, file=file, line=start, default_source_id=f"line:{start}")
