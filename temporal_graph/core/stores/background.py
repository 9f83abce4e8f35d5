"""Statements of one transaction run on a second thread while the caller goes on (SQLite bulk loads).

A bulk load derives the rows of its next keys in Python while SQLite inserts the last ones. Python
runs one thread at a time, but SQLite releases the interpreter lock for as long as one statement
runs, so the two overlap when each job is a few long statements (rows passed as one JSON array,
not one call per row: a per-row ``executemany`` on the second thread would wait for the lock at
every row). The caller waits for every job before it runs a statement of its own, so it reads
what the jobs wrote and statements keep their order.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor


class Background:
    """One worker thread running jobs in the order submitted."""

    def __init__(self) -> None:
        self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="tgraph-rows")
        self._jobs: list[Future[None]] = []
        self._here = threading.local()

    def submit(self, job: Callable[[], None]) -> None:
        self._jobs.append(self._pool.submit(self._run, job))

    def _run(self, job: Callable[[], None]) -> None:
        self._here.worker = True
        job()

    def on_worker(self) -> bool:
        """Whether the calling thread is the worker (its statements must not wait for itself)."""
        return getattr(self._here, "worker", False)

    def wait(self) -> BaseException | None:
        """Wait for every job submitted; the first failure among them, if any (then reported once)."""
        jobs, self._jobs = self._jobs, []
        failures = [job.exception() for job in jobs]
        return next((f for f in failures if f is not None), None)

    def close(self) -> None:
        self.wait()
        self._pool.shutdown()
