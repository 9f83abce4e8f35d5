"""Stored text on its way to a terminal: characters that could act instead of show are escaped.

A fact's text or a message may hold anything it was told, including ESC sequences (colours, cursor
moves, an OSC 52 clipboard write), NUL, C1 controls, bidi overrides that reorder what is shown, and
invisible characters that make two names look alike. None of them reaches a terminal raw: in tables
and plain text they are shown as Python-style escapes (``\\x1b``, ``\\u202e``), and in JSON as
``\\u`` escapes (the same data once parsed). Newlines and tabs stay (tables and blocks use them);
joiners (U+200C, U+200D) stay, as scripts and emoji need them.
"""

from __future__ import annotations

import json
import re
from typing import Any

from rich.console import Console
from rich.text import Text

# C0 controls but tab and newline, DEL and C1 controls, lone surrogates, the Arabic letter mark,
# zero-width space, LRM/RLM, line/paragraph separators, bidi embeddings/overrides/isolates, the
# invisible operators and deprecated format characters, BOM, interlinear annotations,
# noncharacters U+FFFE/U+FFFF, and the invisible tag characters ("ASCII smuggling").
UNSAFE = re.compile(
    "[\x00-\x08\x0b-\x1f\x7f-\x9f\ud800-\udfff\u061c\u200b\u200e\u200f\u2028-\u202e\u2060-\u206f"
    "\ufeff\ufff9-\ufffb\ufffe\uffff\U000e0000-\U000e007f]"
)


def escape(ch: str) -> str:
    """One character as a visible escape: ``\\x1b``, ``\\u202e``, ``\\U000e0041``."""
    code = ord(ch)
    if code <= 0xFF:
        return f"\\x{code:02x}"
    return f"\\u{code:04x}" if code <= 0xFFFF else f"\\U{code:08x}"


def visible(text: str) -> str:
    """``text`` with every unsafe character shown as its escape."""
    return UNSAFE.sub(lambda m: escape(m.group()), text)


def json_text(data: Any) -> str:
    """``data`` as indented JSON whose unsafe characters are ``\\uXXXX`` escapes (valid JSON, the
    same values once parsed; ``json`` itself escapes only C0 controls)."""
    text = json.dumps(data, indent=2, ensure_ascii=False)
    return UNSAFE.sub(lambda m: "".join(f"\\u{unit:04x}" for unit in _utf16(m.group())), text)


def _utf16(ch: str) -> list[int]:
    data = ch.encode("utf-16-be", "surrogatepass")
    return [int.from_bytes(data[i:i + 2], "big") for i in range(0, len(data), 2)]


class SafeConsole(Console):
    """A rich console that shows every string it is given with :func:`visible`: table cells, titles
    and printed lines alike go through :meth:`render_str`, before their width is measured."""

    def render_str(self, text: str, **options: Any) -> Text:
        return super().render_str(visible(text), **options)


def console(**options: Any) -> SafeConsole:
    """The console ``tgraph`` prints with: no markup and no emoji codes (names and messages are data:
    ``[/x]`` and ``:smile:`` print as written)."""
    return SafeConsole(markup=False, emoji=False, **options)
