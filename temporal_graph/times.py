"""Public home of the time helpers (they live in the :mod:`temporal_graph.core.time` package)."""

from .core.time import (
    ACCEPTED_FORMATS,
    ACCEPTED_RANGE,
    EARLIEST,
    LATEST,
    UTC,
    Clock,
    ManualClock,
    TimeLike,
    fixed_clock,
    from_iso,
    from_micros,
    iso,
    optional_utc,
    system_clock,
    to_micros,
    to_utc,
)

__all__ = [
    "ACCEPTED_FORMATS", "ACCEPTED_RANGE", "EARLIEST", "LATEST", "UTC", "Clock", "ManualClock", "TimeLike",
    "fixed_clock", "from_iso", "from_micros",
    "iso", "optional_utc", "system_clock", "to_micros", "to_utc",
]
