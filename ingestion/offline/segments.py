"""A message cut into bounded segments before any rule reads it, so extraction is linear in its length.

Every pattern of the offline rules (quotes, frames, names, clauses) then runs on a piece of at most
:data:`MAX_SEGMENT_CHARS` characters whose words are at most :data:`MAX_TOKEN_CHARS` long: a name
pattern that would scan a 200 KB run of capitals (or a DNA string, a pasted key) from every position
sees a short placeholder instead, and a quote pattern never looks past its segment. Ordinary chat
messages are one segment, unchanged but for such runs.

A message longer than the limit is cut at a line break, else at the end of a sentence, else at a space,
else anywhere; never inside a double quote that opens before the cut when it can be cut before that
quote instead (so quoted words stay the quoted person's, not the speaker's).
"""

from __future__ import annotations

import re
from collections.abc import Iterator

MAX_SEGMENT_CHARS = 2_000
MAX_TOKEN_CHARS = 40
# A run of characters without a space longer than any word: a DNA string, a key, a URL, "!!!!...".
_LONG_TOKEN = re.compile(r"\S{%d,}" % (MAX_TOKEN_CHARS + 1))
PLACEHOLDER = "\u2026"  # what a run too long to be a word reads as: no letter, no quote, no name
_SENTENCE_END = re.compile(r"[.!?]\s")
_QUOTE_MARKS = re.compile(r"[\"“”]")


def without_long_tokens(text: str) -> str:
    """``text`` with each run of more than MAX_TOKEN_CHARS characters without a space replaced by
    :data:`PLACEHOLDER` (no word of any language is that long; no fact is ever read from one)."""
    return _LONG_TOKEN.sub(PLACEHOLDER, text)


def bounded_segments(text: str, limit: int = MAX_SEGMENT_CHARS) -> Iterator[str]:
    """The message in pieces of at most ``limit`` characters, long tokens replaced; a message within
    the limit is one piece."""
    text = without_long_tokens(text)
    while len(text) > limit:
        window = text[:limit]
        cut = window.rfind("\n")
        if cut < limit // 4:
            ends = [m.end() for m in _SENTENCE_END.finditer(window, limit // 4)]
            cut = ends[-1] if ends else window.rfind(" ")
        if cut < limit // 4:
            cut = limit
        marks = [m.start() for m in _QUOTE_MARKS.finditer(text, 0, cut)]
        if len(marks) % 2 and marks[-1] >= limit // 4:
            # a quote opened before the cut: cut before the sentence that opens it (its frame, "Bob told
            # me:", stays with it), else right before the quote
            ends = [m.end() for m in _SENTENCE_END.finditer(text, limit // 4, marks[-1])]
            cut = ends[-1] if ends else marks[-1]
        yield text[:cut]
        text = text[cut:]
    if text.strip():
        yield text
