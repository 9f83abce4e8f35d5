"""Where an import keeps the messages it has read until it writes them: a throw-away SQLite file,
so memory stays bounded whatever the size of the log.

A chat log is applied per group in reference-time order, which needs every message of a group
before the first is written; held as objects, a 70 MB log took 3 GB. The spool holds each checked
message as one row (its group by first appearance in the file, its time in microseconds, its line)
and gives them back a batch at a time in the order they are applied. It also remembers the episode
id of each message handed out, so a message id reused further on is caught as a conflict with the
line that used it first, without holding the ids in memory.

The spool's file is deleted as soon as it is opened (where the system allows it): the import
keeps using it through its open handle, no other process can open it, and the system frees it
when the import ends, however it ends. So an import killed with ``kill -9`` leaves no copy of the
file's messages beside the database, and a message erased afterwards is erased everywhere the
memory kept it. Where an open file cannot be deleted (Windows), the spool's folder stays until the
import closes it, and the next import sweeps one a killed import left.
"""

from __future__ import annotations

import os
import shutil
import sqlite3
import tempfile
from collections.abc import Iterable, Iterator
from contextlib import AbstractContextManager
from datetime import datetime, timedelta
from pathlib import Path
from types import TracebackType

from temporal_graph.core.scratch import folder_prefix, sweep_dead
from temporal_graph.core.time import UTC

from .readers import ChatMessage

_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
_MICROSECOND = timedelta(microseconds=1)
_WRITE_ROWS = 5_000  # rows per insert statement batch while reading

_SCHEMA = """
CREATE TABLE groups (seq INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE);
CREATE TABLE messages (grp INTEGER NOT NULL, micros INTEGER NOT NULL, line INTEGER NOT NULL,
                       speaker TEXT, content TEXT NOT NULL, timestamp TEXT NOT NULL,
                       source_id TEXT NOT NULL, group_id TEXT, file INTEGER, keys TEXT);
CREATE TABLE seen (grp INTEGER NOT NULL, episode_id TEXT NOT NULL, line INTEGER NOT NULL,
                   digest TEXT NOT NULL, PRIMARY KEY (grp, episode_id)) WITHOUT ROWID;
"""


_PREFIX = ".tgraph-import-"


def _unlink_open(path: Path) -> bool:
    """Delete the open spool file and its folder before a message is written into it; False where
    the system keeps an open file (the folder then goes on close, or with the next import's sweep)."""
    try:
        os.unlink(path)
        os.rmdir(path.parent)
    except OSError:
        return False
    return True


def _sweep(directory: str | Path | None) -> None:
    """Remove the spools that importers killed before they could (kill -9, a power cut) left in
    ``directory``."""
    sweep_dead(Path(directory if directory is not None else tempfile.gettempdir()), _PREFIX)


class Spool(AbstractContextManager["Spool"]):
    """Messages by group, in a file under ``directory`` (None: the system's temporary directory)
    that no name leads to once it is open (see the module doc)."""

    def __init__(self, directory: str | Path | None = None) -> None:
        _sweep(directory)
        self._folder = Path(tempfile.mkdtemp(prefix=folder_prefix(_PREFIX), dir=directory))
        self._conn = sqlite3.connect(self._folder / "spool.db", isolation_level=None)
        self._conn.execute("PRAGMA journal_mode = OFF")  # no journal: the file is the only one
        self._conn.execute("PRAGMA synchronous = OFF")
        self._conn.executescript(_SCHEMA)
        self.unlinked = _unlink_open(self._folder / "spool.db")
        self._conn.execute("BEGIN")
        self._groups: dict[str, int] = {}
        self._files: dict[str | None, int] = {}  # a message's file (an export of several), by number
        self._file_names: list[str | None] = []
        self._pending: list[tuple[object, ...]] = []
        self._indexed = False

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.close()

    def close(self) -> None:
        self._conn.close()
        if not self.unlinked:
            shutil.rmtree(self._folder, ignore_errors=True)

    # -- reading the file in --------------------------------------------------------------------
    def add(self, group: str, message: ChatMessage, file: str | None = None) -> None:
        """Keep ``message`` in ``group``; ``file``: the file it came from, when it does not say."""
        seq = self._groups.get(group)
        if seq is None:
            seq = self._groups[group] = len(self._groups) + 1
            self._conn.execute("INSERT INTO groups (seq, name) VALUES (?, ?)", (seq, group))
        micros = (message.timestamp - _EPOCH) // _MICROSECOND
        name = message.file or file
        number = self._files.get(name)
        if number is None:
            number = self._files[name] = len(self._file_names)
            self._file_names.append(name)
        self._pending.append((seq, micros, message.line, message.speaker, message.content,
                              message.timestamp.isoformat(), message.source_id, message.group_id, number,
                              "\x1f".join(message.keys) or None))
        if len(self._pending) >= _WRITE_ROWS:
            self._flush()

    def _flush(self) -> None:
        self._conn.executemany("INSERT INTO messages VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", self._pending)
        self._pending = []

    def groups(self) -> list[str]:
        """The groups read, in the order the file first names them."""
        return list(self._groups)

    # -- handing them out ------------------------------------------------------------------------
    def batches(self, group: str, size: int) -> Iterator[list[ChatMessage]]:
        """The group's messages in (time, line) order, ``size`` at a time."""
        if not self._indexed:
            self._flush()
            self._conn.execute("CREATE INDEX by_time ON messages (grp, micros, line)")
            self._indexed = True
        cursor = self._conn.execute(
            "SELECT line, speaker, content, timestamp, source_id, group_id, file, keys FROM messages "
            "WHERE grp = ? ORDER BY micros, line", (self._groups[group],))
        names = self._file_names
        while rows := cursor.fetchmany(size):
            yield [ChatMessage(line=line, speaker=speaker, content=content,
                               timestamp=datetime.fromisoformat(timestamp), source_id=source_id,
                               group_id=group_id, file=names[file],
                               keys=tuple(keys.split("\x1f")) if keys else ())
                   for line, speaker, content, timestamp, source_id, group_id, file, keys in rows]

    def first_seen(self, group: str, ids: Iterable[str]) -> dict[str, tuple[int, str]]:
        """Of ``ids``, those already handed out in ``group``: (the line that had it, its digest)."""
        seq = self._groups[group]
        found: dict[str, tuple[int, str]] = {}
        for episode_id in ids:
            row = self._conn.execute("SELECT line, digest FROM seen WHERE grp = ? AND episode_id = ?",
                                     (seq, episode_id)).fetchone()
            if row is not None:
                found[episode_id] = (row[0], row[1])
        return found

    def mark_seen(self, group: str, items: Iterable[tuple[str, int, str]]) -> None:
        """Remember (episode id, line, digest) of messages handed out in ``group``."""
        seq = self._groups[group]
        self._conn.executemany("INSERT OR IGNORE INTO seen VALUES (?, ?, ?, ?)",
                               [(seq, episode_id, line, digest) for episode_id, line, digest in items])

    def forget_seen(self) -> None:
        """Start the record of handed-out ids afresh (after a checking pass that wrote nothing)."""
        self._conn.execute("DELETE FROM seen")
