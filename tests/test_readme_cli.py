"""The docs' command-line blocks run as written, line by line, in a fresh directory: every line
exits 0 and prints something, and every read finds something (the blocks name the sample's group).
The command line page's block is the big one; the README's and the getting-started page's are the
short tours."""

from __future__ import annotations

import io
import json
import shlex
from pathlib import Path
from typing import Any

import pytest

from temporal_graph.interfaces.cli import main
from tests.doc_examples import (
    DOCS,
    README,
    READS,
    ROOT,
    blocks,
    command_of,
    first_block,
    shell_lines,
    skipped,
)


def _has_content(value: Any) -> bool:
    if isinstance(value, list):
        return bool(value)
    if isinstance(value, dict):
        parts = [v for k, v in value.items() if isinstance(v, (list, dict)) or k in ("context", "text")]
        return any(_has_content(v) if not isinstance(v, str) else bool(v.strip()) for v in parts)
    return bool(value)


def run_lines(lines: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> int:
    """Run a block's lines after its first (``source .venv/bin/activate``); how many ran."""
    assert lines[0].split("#")[0].split() == ["source", ".venv/bin/activate"]
    ran = 0
    episode_id: str | None = None
    for line in lines[1:]:
        argv = shlex.split(line, comments=True)
        assert argv[0] == "tgraph", line
        command = command_of(argv)
        if skipped(argv):
            continue
        if "FACT_ID" in argv:  # the placeholder: a fact id as tables show it
            main(["--group", "demo", "--json", "history", "Zhang Wei"])
            argv[argv.index("FACT_ID")] = json.loads(capsys.readouterr().out)[0]["fact_id"][:8]
        if "EPISODE_ID" in argv:  # the message the search line finds, looked up before it is retracted
            if episode_id is None:
                main(["--group", "kb", "--json", "search", "Berlin", "--kind", "episode"])
                episode_id = json.loads(capsys.readouterr().out)[0]["episode"]["id"]
            argv[argv.index("EPISODE_ID")] = episode_id
        code = main(argv[1:])
        out, err = capsys.readouterr()
        assert code == 0, f"{line}\n{err}"
        assert (out + err).strip(), f"{line}: printed nothing"
        assert "holds nothing" not in err and "no entity named" not in err, f"{line}: {err}"
        for flag in ("-o", "--svg"):
            if flag in argv:
                assert (tmp_path / argv[argv.index(flag) + 1]).stat().st_size > 0, line
        if command in READS:
            assert main([*argv[1:], *([] if "--json" in argv else ["--json"])]) == 0
            answer = json.loads(capsys.readouterr().out)
            assert _has_content(answer), f"{line}: found nothing"
        ran += 1
    return ran


@pytest.fixture
def fresh(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    (tmp_path / "examples").symlink_to(ROOT / "examples")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr("sys.stdin", io.StringIO(""))  # the interactive console reads no statement
    return tmp_path


def test_the_cli_page_block_runs_as_written(fresh: Path, capsys) -> None:
    assert run_lines(shell_lines(first_block("Command line", "bash")), fresh, capsys) >= 20


@pytest.mark.parametrize("page", [README, DOCS / "getting-started.md"], ids=lambda p: p.name)
def test_the_short_cli_tours_run_as_written(page: Path, fresh: Path, capsys) -> None:
    tour = next(b for b in blocks(page, "bash") if "tgraph import" in b.code)
    assert run_lines(shell_lines(tour.code), fresh, capsys) >= 6
