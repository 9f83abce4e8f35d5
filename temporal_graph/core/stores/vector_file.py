"""The embedded store's vector matrices kept beside the database, so a fresh process's first search
reads one file instead of every stored vector.

One file per (group, kind) in ``<database>.vectors/``, labelled with the group's *vector mark*: a
token the store replaces, in the same transaction, whenever a write adds or removes a searchable
vector of that kind (:data:`sql.BUMP_VECTOR_MARK`). A file whose label is the database's mark now
is used as it is; one a few writes old is brought up to date with the vectors of the records those
writes changed (the store logs them under the mark each write left); any other is not trusted, and
the store loads every vector from the database and writes the file again. The files are derived
data: deleting them costs one load, and ``scrub`` deletes them (so an erased record's vector is in
no file either). The same goes for a damaged file (empty, cut short, not numpy, a matrix whose
width is not what its label says, fewer rows than ids, or a label from before labels gave the width): it
is never used, the vectors are loaded from the database, and the file is written again.

Past the approximate search's crossover the label also names the index's HNSW graph
(:mod:`.ann_index`), saved in a file of its own with its CRC-32, width and vector count; a graph
whose file does not match all three (damaged, cut short, another index's) is never mapped, and the
store builds it again from the matrix. Its keys are the matrix's slots, so the matrix is saved with
its free slots (an empty id) in place, and with spare rows after them (room to grow into).
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import shutil
import uuid
import zipfile
from pathlib import Path

import numpy as np

from .ann_index import ApproximateIndex
from .vector_index import VectorIndex

ROOM = 16  # a saved matrix has one spare zero row per this many rows (at least 64)


def directory(database: str) -> Path | None:
    """Where the files of ``database`` live (None: a throw-away database has none)."""
    return None if database == ":memory:" else Path(f"{database}.vectors")


def _path(folder: Path, group_id: str, kind: str, suffix: str = ".npz") -> Path:
    # Group ids are free text: the file is named by a digest of it, and the group is kept inside.
    digest = hashlib.sha256(group_id.encode("utf-8")).hexdigest()[:24]
    return folder / f"{digest}-{kind}{suffix}"


def read(database: str, group_id: str, kind: str) -> tuple[str, VectorIndex] | None:
    """The label and index stored for (``group_id``, ``kind``); None when there is none to read.
    The matrix is mapped, not read: its pages come in as the first search reads them (and a write
    changes a private copy of a page, never the file)."""
    folder = directory(database)
    if folder is None:
        return None
    try:
        with np.load(_path(folder, group_id, kind), allow_pickle=False) as data:
            if (str(data["group"][0]), str(data["kind"][0])) != (group_id, kind):
                return None
            mark, name = str(data["mark"][0]), str(data["matrix"][0])
            ids_name = str(data["ids_file"][0]) if "ids_file" in data else None
            ids: list[str] | np.ndarray = [] if ids_name else [str(i) for i in data["ids"]]  # older labels
            width = int(data["dimensions"][0])  # a label without it (an older one) is not trusted
            graph_label = (str(data["graph"][0]), int(data["graph_crc"][0])) if "graph" in data else None
        if ids_name is not None:  # mapped: a fresh process reads only the ids a search returns
            mapped = np.load(folder / Path(ids_name).name, mmap_mode="r", allow_pickle=False)
            if mapped.dtype.kind != "S" or mapped.ndim != 1:
                return None
            ids = mapped
        matrix = np.load(folder / Path(name).name, mmap_mode="c", allow_pickle=False)
        if matrix.dtype != np.float32 or matrix.ndim != 2 or len(matrix) < len(ids) \
                or (len(ids) and matrix.shape[1] != width):
            return None  # a matrix replaced under its label: its rows are not the label's vectors
        graph = None
        if graph_label is not None:  # a graph that does not match is rebuilt from the matrix
            graph = ApproximateIndex.load(folder / Path(graph_label[0]).name, crc=graph_label[1],
                                          dimensions=width, count=_live(ids))
        return mark, VectorIndex.from_arrays(ids, matrix, graph)
    except (OSError, EOFError, KeyError, ValueError, TypeError, IndexError, zipfile.BadZipFile):
        # Missing, empty, half-written by a crashed process, or of another format: load instead.
        return None


def _save_with_room(path: Path, matrix: np.ndarray) -> None:
    """The rows of ``matrix`` and as many again as ``ROOM`` says, zero: the rows the next process
    writes first, so its first write does not copy the whole matrix to grow it (4 s at 1M rows)."""
    rows, width = matrix.shape
    out = np.lib.format.open_memmap(path, mode="w+", dtype=np.float32,
                                    shape=(rows + max(64, rows // ROOM), width))
    for start in range(0, rows, 65_536):  # in slices: no second copy of the matrix in memory
        stop = min(rows, start + 65_536)
        out[start:stop] = matrix[start:stop]
    out.flush()
    del out


def _live(ids: list[str] | np.ndarray) -> int:
    if isinstance(ids, np.ndarray):
        return int(np.count_nonzero(ids != b""))
    return sum(1 for i in ids if i)


def write(database: str, group_id: str, kind: str, mark: str, index: VectorIndex) -> None:
    """Store ``index`` labelled ``mark``: the matrix in a file of a new name, then the label and
    ids naming it, written to a temporary name and renamed, so a reader never sees half of either;
    then the matrices no label names any more go. A file that cannot be written is skipped: the
    next process loads again."""
    folder = directory(database)
    if folder is None:
        return
    index.settle_graph()  # the graph saved is the matrix's
    ids, matrix = index.slots()
    target = _path(folder, group_id, kind)
    token = uuid.uuid4().hex[:16]
    name = _path(folder, group_id, kind, f".{token}.npy").name
    graph_name = _path(folder, group_id, kind, f".{token}.usearch").name
    ids_name = _path(folder, group_id, kind, f".{token}.ids.npy").name
    if ids is None:
        return  # an id numpy's bytes cannot keep whole: no file, the next process loads instead
    temporary = target.with_suffix(f".{os.getpid()}.tmp")
    try:
        folder.mkdir(exist_ok=True)
        _save_with_room(folder / name, matrix)
        np.save(folder / ids_name, ids)
        fields: dict[str, np.ndarray] = {
            "group": np.array([group_id]), "kind": np.array([kind]), "mark": np.array([mark]),
            "ids_file": np.array([ids_name]), "matrix": np.array([name]),
            "dimensions": np.array([matrix.shape[1] if len(ids) else index.dimensions or 0])}
        if index.graph is not None:
            fields["graph"] = np.array([graph_name])
            fields["graph_crc"] = np.array([index.graph.save(folder / graph_name)], dtype=np.int64)
        with open(temporary, "wb") as out:
            np.savez(out, **fields)  # type: ignore[arg-type]  # numpy types allow_pickle here
        os.replace(temporary, target)
    except OSError:
        for left in (temporary, folder / name, folder / graph_name, folder / ids_name):
            with contextlib.suppress(OSError):
                left.unlink()
        return
    index.graph_unsaved = False
    index.unsaved = 0
    for pattern in (".*.npy", ".*.usearch"):
        for old in folder.glob(_path(folder, group_id, kind, pattern).name):
            if old.name not in (name, graph_name, ids_name):  # a reader that mapped it keeps its pages
                with contextlib.suppress(OSError):
                    old.unlink()


def remove_all(database: str) -> None:
    """Delete every file of ``database`` (after deletions: no vector outlives its record on disk)."""
    folder = directory(database)
    if folder is not None:
        shutil.rmtree(folder, ignore_errors=True)
