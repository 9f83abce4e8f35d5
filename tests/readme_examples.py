"""Run the first Python example under a README heading, as a user would paste it."""

from __future__ import annotations

import re
from pathlib import Path

README = Path(__file__).resolve().parents[1] / "README.md"


def run_example(heading: str) -> dict:
    """The names the first ```python block after ``heading`` leaves defined."""
    section = README.read_text(encoding="utf-8").split(heading, 1)[1]
    code = re.search(r"```python\n(.*?)```", section, re.S).group(1)
    scope: dict = {}
    exec(compile(code, str(README), "exec"), scope)
    return scope
