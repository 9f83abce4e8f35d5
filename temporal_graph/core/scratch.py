"""Scratch folders named after the process that made them (``<prefix><pid>-<random>``), so a later
process can delete those whose maker was killed (kill -9, a power cut) before it could."""

from __future__ import annotations

import os
import shutil
from pathlib import Path


def sweep_dead(parent: Path, prefix: str) -> None:
    """Delete the folders ``prefix<pid>-*`` in ``parent`` whose process is no longer running."""
    for left in parent.glob(f"{prefix}*-*"):
        pid = left.name[len(prefix):].split("-", 1)[0]
        if pid.isdigit() and int(pid) != os.getpid() and not _alive(int(pid)):
            shutil.rmtree(left, ignore_errors=True)


def folder_prefix(prefix: str) -> str:
    """The name prefix of this process's scratch folders, for :mod:`tempfile`."""
    return f"{prefix}{os.getpid()}-"


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # another user's process: running
        return True
    return True
