"""A progress bar on a terminal (stderr), silent elsewhere: imports and reindexing use it."""

from __future__ import annotations

import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any


@contextmanager
def progress_bar(enabled: bool, label: str, total: int | None) -> Iterator[Callable[..., None]]:
    """Yields ``advance(n, **fields)``. Shows the count, the rate, and (with a ``total``) the ETA;
    ``fields`` update the bar's note (e.g. ``note="embedding"``)."""
    if not enabled or not sys.stderr.isatty():
        yield lambda n, **fields: None
        return
    from rich.console import Console
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TaskProgressColumn,
        TextColumn,
        TimeRemainingColumn,
    )

    columns = (TextColumn(label), BarColumn(), MofNCompleteColumn(), TaskProgressColumn(),
               TextColumn("{task.fields[rate]}/s"), TextColumn("{task.fields[note]}"), TimeRemainingColumn())
    started = time.perf_counter()
    with Progress(*columns, console=Console(stderr=True), transient=True) as bar:
        task = bar.add_task(label, total=total, rate="-", note="")

        def advance(n: int, **fields: str) -> None:
            done = bar.tasks[0].completed + n
            # rich takes any keyword as a task field; the note is one of them
            task_fields: dict[str, Any] = {
                "rate": f"{done / max(time.perf_counter() - started, 1e-6):.0f}", **fields}
            bar.update(task, advance=n, **task_fields)

        yield advance
