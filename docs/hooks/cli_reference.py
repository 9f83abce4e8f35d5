"""The command-line reference, written from the argparse parser itself at every docs build, so it
cannot drift from the code: reference/cli.md holds a marker this hook replaces."""

from __future__ import annotations

import argparse
import os
from typing import Any

MARKER = "<!-- cli-reference -->"


def _subcommands(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    action = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return dict(action.choices)


def render() -> str:
    """Markdown for ``tgraph --help`` and every ``tgraph COMMAND --help``, in the parser's order."""
    from temporal_graph.interfaces.cli import GLOBAL_HELP, TIME_HELP, build_parser

    os.environ["COLUMNS"] = "100"  # argparse wraps to the terminal: one width for every build
    parser = build_parser()
    parts = ["## tgraph", "", "```text", parser.format_help().rstrip(), "```", ""]
    for name, command in _subcommands(parser).items():
        # The global options and time formats are printed once above, not under every command.
        text = command.format_help().replace(GLOBAL_HELP, "").replace(TIME_HELP, "").rstrip()
        parts += [f"## tgraph {name}", "", command.description or "", "", "```text", text, "```", ""]
    return "\n".join(parts)


def commands() -> list[str]:
    from temporal_graph.interfaces.cli import build_parser

    return list(_subcommands(build_parser()))


def on_page_markdown(markdown: str, page: Any, **_: Any) -> str:
    if MARKER in markdown:
        return markdown.replace(MARKER, render())
    return markdown
