"""Structured facts from a file (``tgraph import-facts``): CSV with a header, or JSON Lines.

Columns / keys: the fields of :class:`~temporal_graph.core.model.FactInput`: ``subject``,
``relation``, ``object`` (required), ``valid_at``, ``invalid_at``, ``text``, ``confidence``,
``importance`` (1-10), ``episode_id``, ``subject_type``, ``object_type`` and, in JSON Lines,
``attributes`` (an object) (optional; empty means none). Other columns are refused, so a typo in a
header is an error rather than a silently dropped time. A UTF-8 BOM is accepted; a line with invalid
UTF-8, a cell too long for its field or any other fault is reported with file and line and the rest
is loaded. Loaded through :func:`temporal_graph.core.bulk.add_facts` (``TemporalGraph.add_facts``),
so the result equals adding each fact one by one, in file order. ``TemporalGraph.import_facts`` calls it.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from temporal_graph.core import DEFAULT_GROUP, Core
from temporal_graph.core.bulk import add_facts
from temporal_graph.core.errors import ImportFormatError, InvalidInput
from temporal_graph.core.model import FactFileReport, FactInput, ImportLineError

from .readers.delimited import csv_rows
from .readers.files import NESTED, decoded_lines

COLUMNS = tuple(FactInput.model_fields)


def read_fact_rows(path: Path) -> Iterator[tuple[int, dict[str, Any] | str]]:
    """``(line, fields)`` per fact, or ``(line, reason)`` for a line that cannot be read (a bad UTF-8
    byte, bad JSON, a CSV row that does not fit the header): file and line go in the report."""
    if path.suffix.lower() == ".csv":
        yield from _csv_facts(path)
        return
    for line, text, problem in decoded_lines(path):
        if problem is not None:
            yield line, problem
        elif text.strip():
            try:
                fields = json.loads(text)
            except json.JSONDecodeError as exc:
                yield line, f"not JSON ({exc.msg})"
                continue
            except RecursionError:
                yield line, NESTED
                continue
            except ValueError as exc:  # a number of more digits than Python converts
                yield line, f"not JSON ({exc})"[:200]
                continue
            yield line, fields if isinstance(fields, dict) else "not a JSON object"


def _csv_facts(path: Path) -> Iterator[tuple[int, dict[str, Any] | str]]:
    rows = csv_rows(path)
    first = next(rows, None)
    if first is None:
        raise ImportFormatError(f"{path}: empty; expected a header naming {', '.join(COLUMNS)}")
    line, header = first
    if isinstance(header, str):
        raise ImportFormatError(f"{path}:{line}: the header cannot be read: {header}")
    names = [cell.strip() for cell in header]
    unknown = [c for c in names if c not in COLUMNS]
    twice = sorted({c for c in names if names.count(c) > 1})
    if unknown or twice:
        problem = f"unknown column(s) {unknown}" if unknown else f"column(s) named twice {twice}"
        raise ImportFormatError(f"{path}: header has {problem}; expected {', '.join(COLUMNS)}")
    for line, row in rows:
        if isinstance(row, str):
            yield line, row
        elif len(row) > len(names):
            yield line, "more fields than the header names"
        else:  # a short row leaves its last fields out; an empty cell means none
            yield line, {k: v for k, v in zip(names, row, strict=False) if v != ""}


def import_facts(
    core: Core, path: str | Path, *, group_id: str = DEFAULT_GROUP, strict: bool = False,
    embed: bool | None = None, progress: bool = False, summaries: bool | None = None,
) -> FactFileReport:
    """Load a CSV or JSONL file of structured facts; bad lines are reported with file and line
    and skipped (``strict``: the first one raises and nothing is written)."""
    path = Path(path)
    if not path.is_file():
        raise ImportFormatError(f"{path}: no such file")
    report = FactFileReport(path=str(path))
    lines: list[int] = []
    items: list[dict[str, Any]] = []
    for line, fields in read_fact_rows(path):
        if isinstance(fields, str):
            if strict:
                raise InvalidInput(f"{path}:{line}: {fields} (--strict: stopped; nothing was imported)")
            report.errors.append(ImportLineError(file=str(path), line=line, reason=fields))
            continue
        lines.append(line)
        items.append(fields)
    try:
        bulk = add_facts(core, items, group_id=group_id, strict=strict, embed=embed, summaries=summaries,
                         progress=progress)
    except InvalidInput as exc:  # strict: "item N: ..." names the line instead
        index, _, reason = str(exc).partition(": ")
        line = lines[int(index.removeprefix("item "))] if index.startswith("item ") else 0
        raise InvalidInput(f"{path}:{line}: {reason} (--strict: stopped; nothing was imported)") from None
    report.items = bulk.items + len(report.errors)
    report.rows_written, report.entities_created = bulk.rows_written, bulk.entities_created
    report.seconds = bulk.seconds
    report.errors += [ImportLineError(file=str(path), line=lines[e.index], reason=e.reason)
                      for e in bulk.errors]
    report.errors.sort(key=lambda e: e.line)
    return report
