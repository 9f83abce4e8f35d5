"""An HNSW graph built in the background, in a child process, while searches take the exact path.

Building the graph of a million vectors takes minutes of a core, and a build killed midway must
leave nothing half-built behind in the process that searches. So the rows are written to a
snapshot folder (by a thread: numpy writes without the GIL) and a child process builds the graph
from it on one core (:func:`.ann_index._build_file`), leaving the other to the process that
searches; one build at a time, the others wait their turn. The caller records the slots written
after the snapshot and applies them once it takes the graph (:meth:`GraphBuild.take`).

The snapshot folder, ``tgraph-build-<pid>-*``, lives beside the database's saved vectors (or in the
system's temporary folder): it is deleted when the graph is taken or the build stopped, by the
child if the parent is gone, and by the next build in that folder if both died.
"""

from __future__ import annotations

import atexit
import contextlib
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import weakref
from pathlib import Path

import numpy as np

from ..scratch import folder_prefix, sweep_dead
from . import ann_index
from .ann_index import ApproximateIndex

PREFIX = "tgraph-build-"
_running: weakref.WeakSet[GraphBuild] = weakref.WeakSet()
# One build at a time in a process (two cores: one for it, one for the searches); others queue.
_one_at_a_time = threading.Lock()


class GraphBuild:
    """The graph of ``matrix``'s rows ``slots`` (keyed by slot), being built in a child process.
    With ``base`` (a build that succeeded), its graph brought up to date instead: ``matrix`` then
    holds the rows of ``slots`` in their order, a zero row for a slot whose vector is gone."""

    def __init__(self, matrix: np.ndarray, slots: np.ndarray, folder: Path | None = None, *,
                 base: GraphBuild | None = None) -> None:
        self.dimensions = matrix.shape[1]
        self.count: int = len(slots) + (base.count if base is not None else 0)  # at most, in the graph
        self._base = base
        self.error: str | None = None
        self._lock = threading.Lock()
        self._stopped = False
        self._process: subprocess.Popen[bytes] | None = None
        self._dir = _snapshot_folder(folder)
        self._thread = threading.Thread(target=self._run, args=(matrix, slots), daemon=True,
                                        name="tgraph-graph-build")
        _running.add(self)
        self._thread.start()

    def _run(self, matrix: np.ndarray, slots: np.ndarray) -> None:
        while not _one_at_a_time.acquire(timeout=0.05):
            if self._stopped:
                return
        try:
            self._build(matrix, slots)
        finally:
            _one_at_a_time.release()

    def _build(self, matrix: np.ndarray, slots: np.ndarray) -> None:
        if self._stopped:
            return
        try:
            np.save(self._dir / "slots.npy", slots.astype(np.int64))
            if self._base is not None:
                os.replace(self._base._dir / "graph.usearch", self._dir / "base.usearch")
                self._base._remove()
                np.save(self._dir / "rows.npy", matrix)
            else:  # rows written meanwhile are the caller's to redo
                np.save(self._dir / "matrix.npy", matrix)
            with self._lock:
                if self._stopped:
                    return
                self._process = subprocess.Popen(
                    [sys.executable, "-I", ann_index.__file__, str(self._dir), str(os.getpid())],
                    stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
            _, err = self._process.communicate()
            if self._process.returncode != 0 and not self._stopped:
                self.error = f"exit {self._process.returncode}: {err.decode(errors='replace')[-2000:]}"
        except OSError as error:  # no room for the snapshot, no process to run it
            self.error = str(error)

    def done(self) -> bool:
        return not self._thread.is_alive()

    def built(self) -> bool:
        """Over, with a graph to take (or to bring up to date: ``base`` of the next build)."""
        return self.done() and self.error is None and (self._dir / "graph.usearch").exists()

    def wait(self, timeout: float | None = None) -> bool:
        """Whether the build is over (built or failed) after waiting up to ``timeout`` seconds."""
        self._thread.join(timeout)
        return self.done()

    def take(self) -> ApproximateIndex | None:
        """The graph built (waiting for it); None when the build failed (:attr:`error` says why).
        The snapshot folder goes either way."""
        self.wait()
        graph = None
        if self.error is None:
            try:  # what the child added: the snapshot's slots but those removed as it was written
                count = int((self._dir / "graph.count").read_text(encoding="ascii"))
            except (OSError, ValueError):
                count = -1
            if 0 <= count <= self.count:
                graph = ApproximateIndex.read_built(self._dir / "graph.usearch", self.dimensions, count)
            if graph is None:
                self.error = "the graph built is not the one asked for (damaged or missing)"
        self._remove()
        return graph

    def stop(self) -> None:
        """End the build now, leaving no file behind (nothing is ever saved half-built)."""
        with self._lock:
            self._stopped = True
            if self._process is not None and self._process.poll() is None:
                self._process.kill()
        self._thread.join()
        if self._base is not None:
            self._base._remove()
        self._remove()

    def _remove(self) -> None:
        _running.discard(self)
        shutil.rmtree(self._dir, ignore_errors=True)


def _snapshot_folder(folder: Path | None) -> Path:
    """A new snapshot folder in ``folder`` (made if missing; the system's temporary folder when it
    cannot be), after deleting those left there by processes no longer running."""
    if folder is not None:
        try:
            folder.mkdir(parents=True, exist_ok=True)
        except OSError:
            folder = None
    parent = folder or Path(tempfile.gettempdir())
    sweep_dead(parent, PREFIX)
    return Path(tempfile.mkdtemp(prefix=folder_prefix(PREFIX), dir=parent))


@atexit.register
def _stop_all() -> None:
    """A process ending mid-build takes its builds with it (the children would notice, later)."""
    for build in list(_running):
        with contextlib.suppress(Exception):
            build.stop()
