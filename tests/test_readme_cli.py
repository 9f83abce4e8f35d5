"""The README's command-line block runs as written, line by line, in a fresh directory: every line
exits 0 and prints something, and every read finds something (the block names the sample's group)."""

from __future__ import annotations

import io
import json
import re
import shlex
from pathlib import Path
from typing import Any

from temporal_graph.interfaces.cli import main

ROOT = Path(__file__).resolve().parents[1]
# Lines the test cannot run here, and why.
NOT_RUN = {
    "--neo4j": "needs a Neo4j server",
    "mcp": "a server that runs until stopped (tests/test_mcp.py serves it)",
    "--port": "tgraph view serves until stopped (tests/test_view.py serves it)",
}
# Commands whose --json answer must hold at least one fact, hit, path or line.
READS = {"now", "as-of", "history", "show", "audit", "diff", "paths", "search", "ask", "context"}


def readme_lines() -> list[str]:
    section = (ROOT / "README.md").read_text(encoding="utf-8").split("## Command line", 1)[1]
    block = re.search(r"```bash\n(.*?)```", section, re.S).group(1)
    return [line for line in block.splitlines() if line.strip() and not line.lstrip().startswith("#")]


def _command(argv: list[str]) -> str:
    """The subcommand of ``tgraph [global options] COMMAND ...``."""
    words = iter(argv[1:])
    for word in words:
        if word in ("--group", "--db", "--neo4j"):
            next(words)
        elif not word.startswith("-"):
            return word
    raise AssertionError(f"no command in {argv}")


def _has_content(value: Any) -> bool:
    if isinstance(value, list):
        return bool(value)
    if isinstance(value, dict):
        parts = [v for k, v in value.items() if isinstance(v, (list, dict)) or k in ("context", "text")]
        return any(_has_content(v) if not isinstance(v, str) else bool(v.strip()) for v in parts)
    return bool(value)


def test_the_readme_cli_block_runs_as_written(tmp_path, monkeypatch, capsys):
    (tmp_path / "examples").symlink_to(ROOT / "examples")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr("sys.stdin", io.StringIO(""))  # the interactive console reads no statement
    lines = readme_lines()
    assert lines[0].split("#")[0].split() == ["source", ".venv/bin/activate"]
    ran = 0
    episode_id: str | None = None
    for line in lines[1:]:
        argv = shlex.split(line, comments=True)
        assert argv[0] == "tgraph", line
        command = _command(argv)
        if any(word in NOT_RUN for word in (command, *argv)):
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
        if "-o" in argv:
            assert (tmp_path / argv[argv.index("-o") + 1]).stat().st_size > 0, line
        if command in READS:
            assert main([*argv[1:], *([] if "--json" in argv else ["--json"])]) == 0
            answer = json.loads(capsys.readouterr().out)
            assert _has_content(answer), f"{line}: found nothing"
        ran += 1
    assert ran >= 20
