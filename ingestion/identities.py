"""Identities files: which speaker ids are one person, for an import (``--identities FILE``).

The same person speaks as a phone number in one WhatsApp chat, a display name in another and a
user id or a real name in Slack. An identities file names each person once with the ids they speak
under, and the import declares those ids the person (as :meth:`alias_speaker` does) in each group
where one of them speaks, before its messages are written. Two forms:

- JSON: ``{"Alice Martin": ["+41 79 555 01 02", "alice.m", "Alice"], "Bob": "bobby"}``
  (a person, then one id or a list of ids);
- CSV with a header naming the columns ``id`` and ``person`` (other columns are ignored).

An id given two different people, an empty name or a file of neither form is refused as a whole,
naming the file and the entry; nothing is imported then.
"""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path
from typing import Any

from temporal_graph.core.errors import ImportFormatError
from temporal_graph.core.names import clean_name


def load_identities(path: str | Path) -> dict[str, str]:
    """{speaker id: person} from an identities file (JSON or CSV, recognised by content)."""
    file = str(path)
    try:
        text = Path(path).read_text(encoding="utf-8-sig")
    except FileNotFoundError:
        raise ImportFormatError(f"{file}: no such identities file; check the path") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise ImportFormatError(f"{file}: the identities file cannot be read ({exc})") from None
    if not text.strip():
        raise ImportFormatError(f"{file}: the identities file is empty")
    pairs = _json_pairs(text, file) if text.lstrip()[0] in "{[" else _csv_pairs(text, file)
    out: dict[str, str] = {}
    for where, person, alias in pairs:
        try:
            person, alias = clean_name(person, "person"), clean_name(alias, "id")
        except ValueError as exc:
            raise ImportFormatError(f"{file}: {where}: {exc}") from None
        if alias == person:
            continue  # a person's own name among their ids: nothing to declare
        if out.get(alias, person) != person:
            raise ImportFormatError(f"{file}: {where}: id {alias!r} is given to both {out[alias]!r} and "
                                    f"{person!r}; an id is one person")
        out[alias] = person
    return out


def _json_pairs(text: str, file: str) -> list[tuple[str, Any, Any]]:
    try:
        doc = json.loads(text)
    except (ValueError, RecursionError) as exc:
        raise ImportFormatError(f"{file}: the identities file is not valid JSON ({exc})"[:300]) from None
    if not isinstance(doc, dict):
        raise ImportFormatError(f'{file}: an identities file is a JSON object such as {{"Alice": ["+41 79 '
                                f'555 01 02", "alice.m"]}}, not a {type(doc).__name__}')
    pairs = []
    for person, ids in doc.items():
        listed = [ids] if isinstance(ids, str) else ids
        if not isinstance(listed, list) or not all(isinstance(i, str) for i in listed):
            raise ImportFormatError(f"{file}: {person!r}: expected an id or a list of ids (strings)"[:300])
        pairs += [(repr(person), person, alias) for alias in listed]
    return pairs


def _csv_pairs(text: str, file: str) -> list[tuple[str, Any, Any]]:
    rows = csv.reader(io.StringIO(text))
    header = [cell.strip().lower() for cell in next(rows, [])]
    if "id" not in header or "person" not in header:
        raise ImportFormatError(f"{file}: a CSV identities file has a header naming the columns 'id' and "
                                "'person' (or write JSON: {\"person\": [\"id\", ...]})")
    at_id, at_person = header.index("id"), header.index("person")
    pairs = []
    for number, row in enumerate(rows, start=2):
        if not any(cell.strip() for cell in row):
            continue
        if len(row) <= max(at_id, at_person):
            raise ImportFormatError(f"{file}: line {number}: the row has no 'id' or 'person' cell")
        pairs.append((f"line {number}", row[at_person], row[at_id]))
    return pairs
