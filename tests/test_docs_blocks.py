"""Every code block of the docs (README.md and docs/) runs in the suite, and the references name
every public name: each Python block runs as a reader would paste it, page by page in one session
(a block may use what an earlier one on its page defined); a shell block runs line by line through
``tgraph``'s main() on the demo memory; a block a dedicated test runs names that test, and a block
no test can run here says why."""

from __future__ import annotations

import io
import shlex
import sys
from pathlib import Path

import pytest

import temporal_graph
from temporal_graph.interfaces.cli import COMMANDS, main
from tests.doc_examples import DOCS, ROOT, Block, blocks, pages, shell_lines, skipped

sys.path.insert(0, str(DOCS / "hooks"))
import cli_reference  # noqa: E402  (the docs build's hook: docs/hooks/ is not a package)

RUNNABLE = {"python", "bash"}


def _page_id(page: Path) -> str:
    return str(page.relative_to(ROOT))


@pytest.mark.parametrize("page", pages(), ids=_page_id)
def test_every_block_is_run_or_says_why_not(page: Path) -> None:
    for block in blocks(page):
        assert block.lang, f"{block.where}: a block without a language (```text for output)"
        if block.lang not in RUNNABLE or block.mark is None:
            continue
        kind, what = block.mark
        assert what, f"{block.where}: a mark without its reason or test"
        if kind == "runs in":
            test = ROOT / what.split("::")[0]
            assert test.is_file(), f"{block.where}: no test file {what}"
            assert "doc_examples" in test.read_text(encoding="utf-8"), f"{what} does not read the docs"


def _unmarked(page: Path, lang: str) -> list[Block]:
    return [b for b in blocks(page, lang) if b.mark is None]


@pytest.fixture
def demo_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A fresh working directory with the examples at hand, as the repository root has them."""
    (tmp_path / "examples").symlink_to(ROOT / "examples")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    return tmp_path


@pytest.mark.slow
@pytest.mark.parametrize("page", [p for p in pages() if _unmarked(p, "python")], ids=_page_id)
def test_the_python_blocks_of_a_page_run(page: Path, demo_dir: Path, capsys) -> None:
    scope: dict = {"__name__": "__docs__"}
    for block in _unmarked(page, "python"):
        try:
            exec(compile(block.code, block.where, "exec"), scope)
        except Exception as exc:  # name the block, not only the line
            raise AssertionError(f"{block.where}: {type(exc).__name__}: {exc}") from exc
    for value in scope.values():  # a memory left open by an example is closed, as the process would
        close = getattr(value, "close", None)
        if isinstance(value, temporal_graph.TemporalGraph) and close:
            close()


@pytest.mark.slow
@pytest.mark.parametrize("page", [p for p in pages() if _unmarked(p, "bash")], ids=_page_id)
def test_the_shell_blocks_of_a_page_run(page: Path, demo_dir: Path, capsys) -> None:
    assert main(["import", "examples/sample_chat.jsonl", "--replay", "--quiet"]) == 0  # the demo memory
    capsys.readouterr()
    for block in _unmarked(page, "bash"):
        for line in shell_lines(block.code):
            argv = shlex.split(line, comments=True)
            if argv[:1] == ["source"]:
                continue
            assert argv[0] == "tgraph", f"{block.where}: {line!r} is not a tgraph line; mark the block"
            if skipped(argv):
                continue
            code = main(argv[1:])
            out, err = capsys.readouterr()
            assert code == 0, f"{block.where}: {line}\n{err}"
            assert (out + err).strip(), f"{block.where}: {line}: printed nothing"


# -- the references ---------------------------------------------------------------------------------
def test_every_public_name_is_in_the_api_reference() -> None:
    reference = (DOCS / "reference" / "api.md").read_text(encoding="utf-8")
    entries = {line.split("::: ", 1)[1].strip().rsplit(".", 1)[-1]
               for line in reference.splitlines() if line.startswith("::: ")}
    missing = sorted(set(temporal_graph.__all__) - entries)
    assert not missing, f"docs/reference/api.md has no entry for {missing}"


def test_every_command_is_in_the_cli_reference() -> None:
    assert cli_reference.MARKER in (DOCS / "reference" / "cli.md").read_text(encoding="utf-8")
    rendered = cli_reference.render()
    missing = [name for name in COMMANDS if f"\n## tgraph {name}\n" not in rendered]
    assert not missing, f"the CLI reference has no section for {missing}"
    assert cli_reference.commands() == list(COMMANDS)


def test_every_page_is_in_the_navigation() -> None:
    nav = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    for page in sorted(DOCS.rglob("*.md")):
        assert str(page.relative_to(DOCS)) in nav, f"{page} is not in mkdocs.yml's nav"
