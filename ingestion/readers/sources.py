"""What an import's path holds: one file, or the files of a folder or a zip, each a :class:`Member`
that readers open the same way (a zip is read in place, never unpacked to disk)."""

from __future__ import annotations

import os
import zipfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import IO

from temporal_graph.core.errors import ImportFormatError

_ZIP_MAGIC = (b"PK\x03\x04", b"PK\x05\x06")


@dataclass(frozen=True)
class Member:
    """One file to read: a file on disk, or a file inside the folder or zip given to the import."""

    label: str  # how reports name it: "chat.txt", "export.zip/general/2024-01-02.json"
    name: str  # its path inside the folder or zip ("/"-separated), or its own name for a lone file
    size: int
    opener: Callable[[], IO[bytes]]
    disk: Path | None = None  # where it is on disk, when it is a file of its own (not in a zip)

    def open(self) -> IO[bytes]:
        return self.opener()

    @property
    def path(self) -> PurePosixPath:
        return PurePosixPath(self.name)


@dataclass(frozen=True)
class Source:
    """The files under an import's path: ``kind`` "file" (one member), "folder" or "zip"."""

    label: str
    kind: str
    members: list[Member]


def file_member(path: str | Path) -> Member:
    """A file on disk as a member (its label is the path as given)."""
    p = Path(path)
    return Member(label=str(path), name=p.name, size=p.stat().st_size if p.is_file() else 0,
                  opener=lambda: p.open("rb"), disk=p)


def is_zip(path: Path | Member) -> bool:
    """A zip by its first bytes, whatever its name."""
    try:
        with (path.open() if isinstance(path, Member) else path.open("rb")) as handle:
            return handle.read(4) in _ZIP_MAGIC
    except OSError:
        return False


@contextmanager
def open_source(path: str | Path) -> Iterator[Source]:
    """The members of ``path``: a folder's files (hidden ones and ``__MACOSX`` left out, symlinked
    folders not followed), a zip's files (kept open while reading), or the file itself."""
    p = Path(path)
    label = str(path)
    if p.is_dir():
        yield Source(label, "folder", _folder_members(p, label))
    elif p.is_file() and is_zip(p):
        try:
            archive = zipfile.ZipFile(p)
        except (zipfile.BadZipFile, OSError) as exc:
            raise ImportFormatError(f"{label}: looks like a zip file but cannot be opened ({exc}); "
                                    "export it again") from None
        with archive:
            yield Source(label, "zip", _zip_members(archive, label))
    else:
        yield Source(label, "file", [file_member(path)])


def _hidden(parts: tuple[str, ...]) -> bool:
    return any(part.startswith(".") or part == "__MACOSX" for part in parts)


def _folder_members(root: Path, label: str) -> list[Member]:
    members = []
    for folder, dirs, files in os.walk(root):
        dirs[:] = sorted(d for d in dirs if not _hidden((d,)))
        for name in sorted(files):
            full = Path(folder) / name
            relative = full.relative_to(root).as_posix()
            if _hidden(tuple(relative.split("/"))) or not full.is_file():
                continue
            members.append(Member(label=f"{label.rstrip('/')}/{relative}", name=relative,
                                  size=full.stat().st_size, opener=_opener(full), disk=full))
    return members


def _opener(path: Path) -> Callable[[], IO[bytes]]:
    return lambda: path.open("rb")


def _zip_members(archive: zipfile.ZipFile, label: str) -> list[Member]:
    members = []
    for info in sorted(archive.infolist(), key=lambda i: i.filename):
        if info.is_dir() or _hidden(tuple(info.filename.split("/"))):
            continue
        members.append(Member(label=f"{label}/{info.filename}", name=info.filename, size=info.file_size,
                              opener=_zip_opener(archive, info)))
    return members


def _zip_opener(archive: zipfile.ZipFile, info: zipfile.ZipInfo) -> Callable[[], IO[bytes]]:
    return lambda: archive.open(info)
