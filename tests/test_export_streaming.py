"""A WhatsApp export of 100 MB imports in bounded memory: the file is read line by line, what is not
speech is counted and dropped as it goes, and messages wait in the spool on disk (issue 52)."""

from __future__ import annotations

import gc
import threading
from collections.abc import Iterator
from datetime import datetime, timedelta
from pathlib import Path

import psutil
import pytest

from temporal_graph import TemporalGraph

STORED_EVERY = 2000  # one line in this many is a message worth storing; the rest is the usual noise


def whatsapp_lines(size: int) -> Iterator[str]:
    """An Android export of ``size`` bytes, made as it is written (never held whole): a message
    every 20 seconds, mostly media placeholders, deleted messages and system lines, as big groups
    have them, and now and then someone saying where they live."""
    start, written, i = datetime(2021, 1, 13, 8, 0), 0, 0
    while written < size:
        when = start + timedelta(seconds=20 * i)
        stamp = f"{when.day:02d}/{when.month:02d}/{when.year % 100:02d}, {when.hour:02d}:{when.minute:02d} - "
        k = i % 50
        if i % STORED_EVERY == 0:
            line = f"{stamp}Person {i % 7}: I live in City{i // STORED_EVERY}.\nIt is lovely here.\n"
        elif k < 30:
            line = f"{stamp}Person {i % 7}: <Media omitted>\n"
        elif k < 40:
            line = f"{stamp}Person {i % 7}: This message was deleted\n"
        else:
            line = f"{stamp}Person {i % 7} changed the group description\n"
        yield line
        written += len(line)
        i += 1


@pytest.mark.slow
def test_a_100_mb_whatsapp_export_imports_in_bounded_memory(tmp_path: Path) -> None:
    path = tmp_path / "WhatsApp Chat with Everyone.txt"
    with path.open("w", encoding="utf-8") as out:
        out.writelines(whatsapp_lines(100_000_000))
    small = tmp_path / "WhatsApp Chat with Few.txt"
    with small.open("w", encoding="utf-8") as out:
        out.writelines(whatsapp_lines(20_000))
    process = psutil.Process()
    with TemporalGraph.open(tmp_path / "m.db", embed=False) as tg:
        tg.import_file(small, progress=False, tz="UTC")  # the same code paths, warmed up
        gc.collect()
        base = peak = process.memory_info().rss
        done = threading.Event()

        def watch() -> None:
            nonlocal peak
            while not done.wait(0.05):
                peak = max(peak, process.memory_info().rss)

        watcher = threading.Thread(target=watch)
        watcher.start()
        try:
            report = tg.import_file(path, progress=False, tz="UTC")
        finally:
            done.set()
            watcher.join()
    [counts] = report.files
    lines = sum(counts.skipped.values()) + counts.read
    assert path.stat().st_size >= 100_000_000 and lines > 2_000_000
    assert counts.read == counts.stored == report.episodes_imported == lines // STORED_EVERY + 1
    # Held whole, 100 MB of lines is well over 200 MB of Python strings; streamed, the import's
    # memory does not grow with the file.
    print(f"100 MB WhatsApp import: peak RSS grew by {(peak - base) / 1e6:.1f} MB")
    assert peak - base < 60_000_000, f"the import grew by {(peak - base) / 1e6:.0f} MB"
