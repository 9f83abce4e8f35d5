"""The README's Python example runs and does what its comments say."""

from __future__ import annotations

import re
from pathlib import Path

README = Path(__file__).resolve().parents[1] / "README.md"


def test_the_python_example_in_the_readme(tmp_path, monkeypatch):
    code = re.search(r"```python\n(.*?)```", README.read_text(encoding="utf-8"), re.S).group(1)
    monkeypatch.chdir(tmp_path)  # the example writes memory.db in the working directory
    scope: dict = {}
    exec(compile(code, str(README), "exec"), scope)

    assert [(f.object, f.valid_at.date().isoformat()) for f in scope["now"]] == [("Shanghai", "2024-03-01")]
    assert sorted(f.object for f in scope["then"]) == ["Go backend engineer", "Hangzhou"]
    assert [(f.object, f.invalid_at) for f in scope["believed"]] == [("Hangzhou", None)]
    assert [f.object for f in scope["history"]] == ["Hangzhou", "Shanghai"]
    assert scope["history"][0].invalid_at == scope["history"][1].valid_at
    assert len(scope["versions"]) == 2 and scope["versions"][0].expired_at is not None
    assert any("engineer" in h.text for h in scope["hits"][:3])
    assert any(p.hops[-1].object == "Hangzhou" for p in scope["chains"])
    assert "Go backend engineer" in scope["block"]
    assert scope["answer"].known and "Hangzhou" in scope["answer"].text
