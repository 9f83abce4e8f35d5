"""Structured facts from a file (``tgraph import-facts``): CSV with a header, or JSON Lines.

Columns / keys: the fields of :class:`~temporal_graph.core.model.FactInput`: ``subject``,
``relation``, ``object`` (required), ``valid_at``, ``invalid_at``, ``text``, ``confidence``,
``importance`` (1-10), ``episode_id``, ``subject_type``, ``object_type`` and, in JSON Lines,
``attributes`` (an object) (optional; empty means none). Other columns are refused, so a typo in a
header is an error rather than a silently dropped time. Loaded through
:func:`temporal_graph.core.bulk.add_facts` (``TemporalGraph.add_facts``), so the result equals adding
each fact one by one, in file order. ``TemporalGraph.import_facts`` calls it.
"""

from __future__ import annotations

import csv
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from temporal_graph.core import DEFAULT_GROUP, Core
from temporal_graph.core.bulk import add_facts
from temporal_graph.core.errors import ImportFormatError, InvalidInput
from temporal_graph.core.model import FactFileReport, FactInput, ImportLineError

COLUMNS = tuple(FactInput.model_fields)


def read_fact_rows(path: Path) -> Iterator[tuple[int, dict[str, Any] | str]]:
    """``(line, fields)`` per fact, or ``(line, reason)`` for a line that cannot be read."""
    if path.suffix.lower() == ".csv":
        with path.open(newline="", encoding="utf-8", errors="replace") as handle:
            reader = csv.DictReader(handle)
            unknown = [c for c in reader.fieldnames or [] if c not in COLUMNS]
            if unknown or not reader.fieldnames:
                raise ImportFormatError(
                    f"{path}: header has unknown column(s) {unknown}; expected {', '.join(COLUMNS)}"
                )
            for row in reader:
                if None in row:
                    yield reader.line_num, "more fields than the header names"
                    continue
                yield reader.line_num, {k: v for k, v in row.items() if v not in ("", None)}
        return
    with path.open(encoding="utf-8", errors="replace") as handle:
        for line_number, line in enumerate(handle, start=1):
            if not line.strip():
                continue
            try:
                fields = json.loads(line)
            except json.JSONDecodeError as exc:
                yield line_number, f"not JSON ({exc.msg})"
                continue
            yield line_number, fields if isinstance(fields, dict) else "not a JSON object"


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
