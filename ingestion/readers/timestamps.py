"""A message's timestamp as chat logs write it: what the one absolute parser reads
(:func:`temporal_graph.core.time.to_utc`), or epoch seconds / milliseconds, which exports use
and the library's API does not accept as a time."""

from __future__ import annotations

import math
import re
from datetime import datetime, timedelta
from typing import Any

from temporal_graph.core.errors import InvalidTime
from temporal_graph.core.time import NO_YEAR, UTC, to_utc

_EPOCH_MILLIS_ABOVE = 1e11  # 1e11 seconds is the year 5138: larger values must be milliseconds
_NUMBER = re.compile(r"[+-]?\d+(\.\d+)?")


def _shown(value: Any) -> str:
    """A value as a reason quotes it: a line of megabytes is not repeated back whole."""
    if isinstance(value, int) and abs(value) > 10**40:
        return f"{str(value)[:12]}... ({len(str(abs(value)))} digits)" if abs(value) < 10**4000 \
            else "a number of over 4,000 digits"
    text = repr(value)
    return text if len(text) <= 60 else f"{text[:57]}..."


def parse_timestamp(value: Any) -> datetime:
    """Read a timestamp; the ValueError message is the reason shown to the user."""
    if isinstance(value, bool):
        raise ValueError(f"timestamp {_shown(value)} is not a time")
    if isinstance(value, datetime):
        return to_utc(value)
    if isinstance(value, (int, float)):
        return _from_epoch(value, value)
    if not isinstance(value, str):
        raise ValueError(f"timestamp must be text or a number, got {type(value).__name__}")
    text = value.strip()
    if not text:
        raise ValueError("timestamp is empty")
    if _NUMBER.fullmatch(text) and not (text.isdigit() and len(text) == 4):  # 4 digits: a year
        return _from_epoch(float(text), value)
    try:
        return to_utc(text, name="timestamp")
    except InvalidTime as exc:
        why = getattr(exc, "reason", "")
        if why == NO_YEAR:  # a chat line from "May 8" of no year is not usable
            raise ValueError(f"timestamp {_shown(value)} has no year") from None
        detail = "" if not why or why.startswith("Unknown string format") else f" ({why})"
        raise ValueError(f"timestamp {_shown(value)} is not a time{detail}"[:300]) from None


def _from_epoch(number: float, shown: Any) -> datetime:
    try:
        number = float(number)  # an integer of 400 digits is no float
    except OverflowError:
        raise ValueError(f"timestamp {_shown(shown)} is out of range") from None
    if math.isnan(number) or math.isinf(number):
        raise ValueError(f"timestamp {_shown(shown)} is not a time")
    seconds = number / 1000 if abs(number) > _EPOCH_MILLIS_ABOVE else number
    try:
        return datetime(1970, 1, 1, tzinfo=UTC) + timedelta(seconds=seconds)
    except OverflowError:
        raise ValueError(f"timestamp {_shown(shown)} is out of range") from None
