"""A period in words, at the unit it was named in: ``in January 2024``, ``on 2024-01-05``.

Used where a time is stated rather than measured: a plan's target ("move to Lyon in January 2024").
"""

from __future__ import annotations

from datetime import datetime

_SEASON_OF_MONTH = {3: "spring", 6: "summer", 9: "autumn", 12: "winter"}


def period_words(start: datetime, granularity: str | None) -> str:
    """``in 2024`` / ``in the 2020s`` / ``in spring 2024`` / ``in January 2024`` /
    ``in the week of 2024-01-08`` / ``on 2024-01-05``."""
    if granularity == "decade":
        return f"in the {start.year}s"
    if granularity == "year":
        return f"in {start.year}"
    if granularity == "season" and start.month in _SEASON_OF_MONTH:
        return f"in {_SEASON_OF_MONTH[start.month]} {start.year}"
    if granularity in ("month", "season"):
        return f"in {start:%B} {start.year}"
    if granularity == "week":
        return f"in the week of {start.date().isoformat()}"
    return f"on {start.date().isoformat()}"
