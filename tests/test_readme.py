"""The README's Python example, and the same example on the getting-started page, run and do what
their comments say."""

from __future__ import annotations

import pytest

from tests.doc_examples import DOCS, README, blocks


@pytest.mark.parametrize("page", [README, DOCS / "getting-started.md"], ids=lambda p: p.name)
def test_the_python_example_in_the_readme(page, tmp_path, monkeypatch):
    code = blocks(page, "python")[0].code
    monkeypatch.chdir(tmp_path)  # the example writes memory.db in the working directory
    scope: dict = {}
    exec(compile(code, str(page), "exec"), scope)

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


def test_the_readme_is_a_front_page() -> None:
    """Short, set-up commands first, links into the docs; the manual lives in docs/."""
    text = README.read_text(encoding="utf-8")
    assert len(text.encode("utf-8")) <= 10_000
    assert README.read_text(encoding="utf-8").split("```bash\n", 1)[1].startswith("bash scripts/demo.sh")
    assert "docs/" in text and "docs/img/zhang-wei.svg" in text
