"""Time, in one package: everything inside is an aware UTC ``datetime``.

- :mod:`.absolute`: the one strict parser of absolute times (``to_utc``), for the library, the
  import readers and the CLI alike;
- :mod:`.clock`: where "now" comes from (``system_clock``, ``ManualClock``, ``fixed_clock``);
- :mod:`.phrases`: the one grammar of relative and natural phrases ("last March", "two weeks ago"),
  shared by messages and questions, over the words of :mod:`.vocabulary` and the calendar periods
  of :mod:`.spans`; :mod:`.finder` finds such phrases inside a sentence;
- :mod:`.storage`: ISO text and integer microseconds, the forms a time is stored in.
"""

from .absolute import (
    ACCEPTED_FORMATS,
    ACCEPTED_RANGE,
    EARLIEST,
    LATEST,
    NO_YEAR,
    UTC,
    TimeLike,
    optional_utc,
    to_utc,
)
from .clock import Clock, ManualClock, fixed_clock, system_clock
from .finder import TimeMatch, find_time_expressions
from .phrases import resolve_range, resolve_time
from .spans import Granularity, Prefer, TimeSpan
from .storage import from_iso, from_micros, iso, to_micros

__all__ = [
    "ACCEPTED_FORMATS", "ACCEPTED_RANGE", "EARLIEST", "LATEST", "NO_YEAR", "UTC", "Clock", "Granularity",
    "ManualClock", "Prefer", "TimeLike",
    "TimeMatch", "TimeSpan", "find_time_expressions", "fixed_clock", "from_iso", "from_micros", "iso",
    "optional_utc", "resolve_range", "resolve_time", "system_clock", "to_micros", "to_utc",
]
