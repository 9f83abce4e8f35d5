"""``MaskingPolicy``: what ingestion masks in a message before anything keeps it.

The policy is one of the memory's settings (``TemporalGraph.open(..., mask=...)``); the detectors
that apply it live in ``ingestion.masking``. Kept here, in the core, so the settings bundle can hold
it without importing a layer.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from typing import Any

from pydantic import BaseModel, ConfigDict, field_validator

from .errors import InvalidInput

# The built-in kinds, each masked as "[kind]" (in the order their detectors are preferred).
MASK_KINDS = ("password", "secret", "national_id", "card", "iban", "email", "phone", "api_key")
_PATTERN_NAME = re.compile(r"[a-z][a-z0-9_]{0,39}")
# How long one extra pattern may search one message, in seconds (MaskingPolicy.pattern_timeout).
PATTERN_TIMEOUT = 1.0
MAX_PATTERN_TIMEOUT = 60.0


def checked_pattern(name: object, pattern: object) -> tuple[str, str]:
    """An extra masking pattern: a lowercase name (its placeholder is ``[name]``) and a regular
    expression that compiles and cannot match empty text. Patterns run on the ``regex`` package
    (the syntax of ``re``, and a time limit: ``MaskingPolicy.pattern_timeout``)."""
    if not isinstance(name, str) or not _PATTERN_NAME.fullmatch(name):
        raise InvalidInput(f"mask pattern name {name!r}: use 1-40 lowercase letters, digits or '_', "
                           "starting with a letter (it becomes the placeholder [name])")
    if not isinstance(pattern, str) or not pattern:
        raise InvalidInput(f"mask pattern {name}: expected a regular expression, got {pattern!r}")
    import regex  # imported by policies with extra patterns alone (it takes 16 ms)

    try:
        compiled = compile_pattern(pattern)
    except (regex.error, ValueError) as exc:
        raise InvalidInput(f"mask pattern {name}: {pattern!r} is not a regular expression ({exc})") from None
    try:
        empty = compiled.fullmatch("", timeout=PATTERN_TIMEOUT)
    except TimeoutError:
        empty = None  # the time limit applies again to each message
    if empty:
        raise InvalidInput(f"mask pattern {name}: {pattern!r} matches empty text")
    return name, pattern


def compile_pattern(pattern: str) -> Any:
    """An extra pattern compiled by the ``regex`` package: the syntax of ``re``, and searches that
    take a time limit."""
    import regex

    return regex.compile(pattern, regex.VERSION0)


class MaskingPolicy(BaseModel):
    """What is masked in messages (``add_episode``, imports) before they are stored, embedded,
    indexed or sent to an LLM.

    - ``enabled``: False keeps messages exactly as given.
    - ``kinds``: the built-in kinds to mask (default all of :data:`MASK_KINDS`).
    - ``patterns``: extra kinds, ``{"employee_id": r"EMP-\\d{6}"}``: each match (or its group
      named ``v``) becomes ``[employee_id]``; a built-in name adds to that kind.
    - ``allow``: values never masked, e.g. a public support address; compared ignoring case, and
      for numbers and codes ignoring spaces, dashes, dots and brackets.
    - ``pattern_timeout``: how long one extra pattern may search one message, in seconds (default
      1). A pattern that runs longer (``(a+)+$`` on a long run of "a") stops, and the message is
      refused with :class:`~temporal_graph.errors.InvalidInput` naming the pattern: it is never
      stored unmasked (an import reports the line and goes on).

    A bad value raises :class:`~temporal_graph.errors.InvalidInput` naming it (wrapped in pydantic's
    ``ValidationError``, as for :class:`FactInput`).
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    enabled: bool = True
    kinds: frozenset[str] = frozenset(MASK_KINDS)
    patterns: tuple[tuple[str, str], ...] = ()
    allow: frozenset[str] = frozenset()
    pattern_timeout: float = PATTERN_TIMEOUT

    @field_validator("kinds")
    @classmethod
    def _known_kinds(cls, kinds: frozenset[str]) -> frozenset[str]:
        unknown = sorted(kinds - set(MASK_KINDS))
        if unknown:
            raise InvalidInput(f"mask kinds {unknown}: not among {', '.join(MASK_KINDS)}")
        return kinds

    @field_validator("patterns", mode="before")
    @classmethod
    def _checked_patterns(cls, value: Any) -> Any:
        pairs = list(value.items()) if isinstance(value, Mapping) else value
        shape = "expected {name: regex} or (name, regex) pairs"
        if not isinstance(pairs, (tuple, list)):
            raise InvalidInput(f"mask patterns: {shape}, got {pairs!r}")
        bad = next((p for p in pairs if not isinstance(p, (tuple, list)) or len(p) != 2), None)
        if bad is not None:
            raise InvalidInput(f"mask patterns: {shape}, got {bad!r}")
        return tuple(checked_pattern(*pair) for pair in pairs)

    @field_validator("pattern_timeout")
    @classmethod
    def _positive_seconds(cls, seconds: float) -> float:
        if not (math.isfinite(seconds) and 0 < seconds <= MAX_PATTERN_TIMEOUT):
            raise InvalidInput(f"mask pattern_timeout {seconds!r}: expected seconds, more than 0 and at most "
                               f"{MAX_PATTERN_TIMEOUT:g}")
        return seconds

    @field_validator("allow")
    @classmethod
    def _no_blank(cls, allow: frozenset[str]) -> frozenset[str]:
        return frozenset(a.strip() for a in allow if a.strip())


def masking_policy(value: object) -> MaskingPolicy:
    """The policy ``mask=`` names: True (the default policy), False (off) or a policy."""
    if isinstance(value, MaskingPolicy):
        return value
    if isinstance(value, bool):
        return MaskingPolicy(enabled=value)
    raise InvalidInput(f"mask: expected True, False or a MaskingPolicy, got {type(value).__name__}")
