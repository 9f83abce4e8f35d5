"""The documentation's code blocks, as a reader sees them: README.md and every page under docs/.

Tests find an example by the heading it sits under (at any level, on whichever page holds it) or
by what it contains, and run it as a user would paste it."""

from __future__ import annotations

import re
import textwrap
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
DOCS = ROOT / "docs"
# A block a test cannot run says why on the line before it: <!-- not run: REASON -->; a block a
# dedicated test runs (with its own assertions) names it: <!-- runs in tests/test_x.py -->.
MARK = re.compile(r"<!--\s*(not run:|runs in)\s*(.*?)\s*-->")
FENCE = re.compile(r"^( *)```(\w*)\n(.*?)^\1```\s*$", re.S | re.M)


@dataclass(frozen=True)
class Block:
    page: Path
    line: int
    lang: str
    code: str
    mark: tuple[str, str] | None  # ("not run:" | "runs in", reason or test file)

    @property
    def where(self) -> str:
        return f"{self.page.relative_to(ROOT)}:{self.line}"


def pages() -> list[Path]:
    """README.md, CONTRIBUTING.md and CHANGELOG.md, then the docs pages in file order."""
    return [README, ROOT / "CONTRIBUTING.md", ROOT / "CHANGELOG.md", *sorted(DOCS.rglob("*.md"))]


def docs_text() -> str:
    """Every page, one after the other (for examples found by what they contain)."""
    return "\n".join(page.read_text(encoding="utf-8") for page in pages())


def blocks(page: Path, lang: str | None = None) -> list[Block]:
    text = page.read_text(encoding="utf-8")
    found = []
    for match in FENCE.finditer(text):
        if lang is not None and match.group(2) != lang:
            continue
        before = text[:match.start()].rstrip().rsplit("\n", 1)[-1]
        mark = MARK.search(before)
        found.append(Block(page, text.count("\n", 0, match.start()) + 1, match.group(2),
                           textwrap.dedent(match.group(3)), (mark.group(1), mark.group(2)) if mark else None))
    return found


def section(heading: str) -> str:
    """The text after ``heading`` (``"### Entity summaries"`` or ``"Entity summaries"``: any level, the
    start of the heading's words) on the one page that holds it."""
    words = heading.lstrip("#").strip()
    pattern = re.compile(rf"^#+ {re.escape(words)}.*$", re.M)
    hits = [(page, m) for page in pages() for m in [pattern.search(page.read_text(encoding="utf-8"))] if m]
    assert hits, f"no heading {words!r} in README.md or docs/"
    assert len(hits) == 1, f"heading {words!r} on {len(hits)} pages: {[str(p) for p, _ in hits]}"
    page, match = hits[0]
    return page.read_text(encoding="utf-8")[match.end():]


def first_block(heading: str, lang: str = "python") -> str:
    """The first ``lang`` block after ``heading``, dedented."""
    match = re.search(rf"^( *)```{lang}\n(.*?)^\1```", section(heading), re.S | re.M)
    assert match, f"no {lang} block after {heading!r}"
    return textwrap.dedent(match.group(2))


def block_with(text: str, lang: str = "python") -> str:
    """The one ``lang`` block of the docs that contains ``text``."""
    found = [b.code for page in pages() for b in blocks(page, lang) if text in b.code]
    assert len(found) == 1, f"{len(found)} {lang} blocks hold {text!r}"
    return found[0]


def run_example(heading: str) -> dict:
    """The names the first Python block after ``heading`` leaves defined."""
    scope: dict = {}
    exec(compile(first_block(heading), f"docs: {heading}", "exec"), scope)
    return scope


# -- shell blocks: `tgraph` lines run through the CLI's main(), in-process -------------------------
# Lines a test cannot run here, and why.
NOT_RUN = {
    "--neo4j": "needs a Neo4j server",
    "mcp": "a server that runs until stopped (tests/test_mcp.py serves it)",
    "--port": "tgraph view serves until stopped (tests/test_view.py serves it)",
    "--file": "reads a Cypher file of your own (tests/test_cypher_console.py runs files)",
}
# Commands whose --json answer must hold at least one fact, hit, path or line.
READS = {"now", "as-of", "history", "show", "audit", "diff", "paths", "search", "ask", "context"}


def shell_lines(code: str) -> list[str]:
    """A block's commands, one a line (comment lines left out)."""
    return [line for line in code.splitlines() if line.strip() and not line.lstrip().startswith("#")]


def command_of(argv: list[str]) -> str:
    """The subcommand of ``tgraph [global options] COMMAND ...``."""
    words = iter(argv[1:])
    for word in words:
        if word in ("--group", "--db", "--neo4j"):
            next(words)
        elif not word.startswith("-"):
            return word
    raise AssertionError(f"no command in {argv}")


def skipped(argv: list[str]) -> bool:
    command = command_of(argv)
    serves = command == "view" and "--svg" not in argv  # a web page served until stopped
    return serves or any(word in NOT_RUN for word in (command, *argv))
