"""Where one sentence of a chat message ends and the next begins: one rule for the reading rules
(:mod:`.change_cues`) and for the vector that stands for a message (:mod:`.embeddings`)."""

from __future__ import annotations

import re

# A spaced dash before words ends a sentence as a full stop does: chat writes "my doctor is Dr Nakamura
# - anyway, can you help me ...?" for two sentences (not "10 - 12", a range).
SENTENCE_BREAK = re.compile(r"(?<=[.!?])\s+|\n+|\s[-–—]\s(?=[^\W\d_])")


def split_sentences(text: str) -> list[str]:
    """The sentences of ``text``, in order, without the spaces around them."""
    return [s.strip() for s in SENTENCE_BREAK.split(text) if s.strip()]
