"""The limits every edge checks: how long a text argument may be and which numbers an argument takes.

One table for the library, the fact files, the tools (MCP) and the command line, so each refuses the
same value with the same one-line :class:`InvalidInput`. Nothing is ever cut or clamped: a value
outside its range is refused, naming it and the range. Booleans are never numbers here (``True`` is
an ``int`` to Python, but never a limit of 1 or an importance of 1).
"""

from __future__ import annotations

import math
import re

from .errors import InvalidInput

# Text arguments, in characters (messages have their own, configurable limit: max_message_chars).
MAX_TEXT_CHARS = 10_000  # a fact's text
MAX_QUERY_CHARS = 2_000  # a search query, a context query, an ask question
MAX_SOURCE_CHARS = 200  # an episode's source label ("message", "document", ...)

# Numbers: (lowest, highest) accepted, both included.
RESULTS = (1, 10_000)  # search limit and pool, paths limit
HOPS = (1, 10)  # paths max_hops
BUDGET_TOKENS = (0, 1_000_000)  # context budget_tokens
BATCH = (1, 1_000_000)  # add_facts / reindex batch sizes
IMPORTANCE = (1, 10)


def _shown(value: object) -> str:
    text = repr(value)
    return text if len(text) <= 40 else f"{text[:37]}..."


def whole_number(value: object, name: str, bounds: tuple[int, int]) -> int:
    """``value`` if it is an ``int`` (not a bool) within ``bounds``; else :class:`InvalidInput`."""
    low, high = bounds
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise InvalidInput(f"{name}: {_shown(value)} must be a whole number from {low:,} to {high:,}")
    return value


def switch(value: object, name: str) -> bool:
    """``value`` if it is True or False (not 1, "yes" or None); else :class:`InvalidInput`."""
    if not isinstance(value, bool):
        raise InvalidInput(f"{name}: {_shown(value)} must be True or False")
    return value


def optional_whole_number(value: object, name: str, bounds: tuple[int, int]) -> int | None:
    return None if value is None else whole_number(value, name, bounds)


def positive_number(value: object, name: str, *, most: float = math.inf, unit: str = "") -> float:
    """``value`` as a float if it is a finite number (not a bool) above 0 and at most ``most``."""
    if (isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value)
            or not 0 < value <= most):
        upto = f" up to {most:,g}" if math.isfinite(most) else ""
        raise InvalidInput(f"{name}: {_shown(value)} must be a positive number{unit}{upto}")
    return float(value)


_LONE_SURROGATE = re.compile("[\ud800-\udfff]")


def lone_surrogate(text: str) -> str | None:
    """The first half of a UTF-16 pair standing alone in ``text`` (a JSON escape such as "\\ud800"
    makes one), or None: it is no character, and no UTF-8 store can hold it."""
    found = _LONE_SURROGATE.search(text)
    return found.group() if found else None


def checked_text(value: object, name: str, most: int) -> str:
    """``value`` if it is a string of at most ``most`` characters; else :class:`InvalidInput`
    (never cut: a caller who meant a shorter text must shorten it)."""
    if not isinstance(value, str):
        raise InvalidInput(f"{name}: expected text, got {type(value).__name__} {_shown(value)}")
    if len(value) > most:
        raise InvalidInput(f"{name}: {len(value):,} characters is over the limit of {most:,}; "
                           "shorten it (nothing is cut)")
    if (surrogate := lone_surrogate(value)) is not None:
        raise InvalidInput(f"{name}: contains the lone surrogate {surrogate!r}, which is not valid Unicode")
    return value


def query_text(value: object, name: str) -> str:
    """A search query, context query or question: text of at most :data:`MAX_QUERY_CHARS`."""
    return checked_text(value, name, MAX_QUERY_CHARS)
