"""The one absolute time parser: every time the library, the import readers and the CLI accept
becomes an aware UTC ``datetime`` here.

Inputs may be aware or naive datetimes, dates, or strings. Strings are read strictly, so a value
is never guessed: ISO 8601 (``2023-05-08``, ``2023-05-08T13:56:00+08:00``), a year (``2023``), or a
plain date that names its year (``8 May 2023``, ``May 8, 2023``, ``May 2023``: its first instant).
A zone may follow as an offset, ``UTC``/``GMT``/``Z``, an unambiguous abbreviation (``PST``,
``CET`` ...) or an IANA name (``Europe/Berlin``). Strings without a year ("May", "1", "Monday"),
day/month orders that could be read both ways ("05/06/2023"), ambiguous abbreviations (``CST``,
``IST``, ``BST``) and wall times that do not exist in their zone (a DST gap) raise
:class:`InvalidTime` naming the value and the accepted formats. A wall time that occurs twice (the
hour clocks go back) is read as its first occurrence. Naive values are read in a configured zone,
UTC unless the caller says otherwise.

The range is what a ``datetime`` holds in UTC, :data:`EARLIEST` to :data:`LATEST` (0001-01-01 to
9999-12-31T23:59:59.999999Z): every time in it can be stored, ended and compared (code that steps
past a time checks the ends, ``core.affected``); one outside it, such as 9999-12-31T23:00-05:00
(year 10000 in UTC), raises ``InvalidTime`` naming the range.
"""

from __future__ import annotations

import re
from datetime import date, datetime, timedelta, timezone, tzinfo
from typing import TypeAlias
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from dateutil import parser as _dateparser

from ..errors import InvalidTime

UTC = timezone.utc
TimeLike: TypeAlias = "datetime | date | str"

EARLIEST = datetime.min.replace(tzinfo=UTC)  # 0001-01-01T00:00:00Z
LATEST = datetime.max.replace(tzinfo=UTC)  # 9999-12-31T23:59:59.999999Z
ACCEPTED_RANGE = "0001-01-01T00:00:00Z to 9999-12-31T23:59:59.999999Z"

# Missing fields of a plain date ("May 2023") fall back to the first instant of the period.
_PARSE_DEFAULT = datetime(2000, 1, 1, 0, 0, 0)
_OTHER_DEFAULT = datetime(2001, 2, 2, 0, 0, 0)  # a second default shows which fields the text lacked

ACCEPTED_FORMATS = (
    "ISO 8601 (2023-05-08, 2023-05-08T13:56:00+08:00), a year (2023), or a date naming its year "
    "(8 May 2023, May 8, 2023, May 2023); optionally followed by a zone: an offset (+08:00), UTC, "
    "an abbreviation such as PST or CET, or an IANA name such as Europe/Berlin"
)

# Abbreviations read as fixed offsets (hours). Ones that name several zones are refused below.
_ABBREVIATIONS: dict[str, float] = {
    "UTC": 0, "GMT": 0, "Z": 0, "UT": 0, "WET": 0, "WEST": 1, "CET": 1, "CEST": 2, "MET": 1, "MEST": 2,
    "EET": 2, "EEST": 3, "MSK": 3, "PST": -8, "PDT": -7, "MST": -7, "MDT": -6, "EST": -5, "EDT": -4,
    "AKST": -9, "AKDT": -8, "HST": -10, "JST": 9, "KST": 9, "HKT": 8, "SGT": 8, "AEST": 10, "AEDT": 11,
    "ACST": 9.5, "AWST": 8, "NZST": 12, "NZDT": 13,
}
_AMBIGUOUS = {"CST": "US Central or China", "IST": "India, Ireland or Israel",
              "BST": "British Summer or Bangladesh", "AST": "Atlantic or Arabia", "CDT": "US Central or Cuba",
              "ADT": "Atlantic or Arabia"}
_IANA_SUFFIX = re.compile(r"\s+([A-Za-z_]+(?:/[A-Za-z0-9_+\-]+)+)\s*\Z")
_POSIX_OFFSET = re.compile(r"\b(?:GMT|UTC)\s*[+-]\s*\d", re.IGNORECASE)
_NUMERIC_DATE = re.compile(r"(\d{1,2})[/.](\d{1,2})[/.]\d{2,4}")

# The short cause (``InvalidTime.reason``) of a date string that leaves its year out ("May 8"):
# readers report it in their own words.
NO_YEAR = "it names no year"


def to_utc(value: TimeLike, *, zone: tzinfo = UTC, name: str = "time") -> datetime:
    """Read ``value`` as an aware UTC datetime, or raise :class:`InvalidTime` naming it."""
    if isinstance(value, datetime):
        moment = value
    elif isinstance(value, date):
        moment = datetime(value.year, value.month, value.day)
    elif isinstance(value, str):
        moment = _parse_string(value, name)
    else:
        hint = " (numbers are no times: write a year as '2020')" if isinstance(value, (int, float)) else ""
        raise InvalidTime(f"{name}: expected a datetime, date or string, got {value!r}{hint}"[:300])
    if moment.tzinfo is None or moment.utcoffset() is None:
        moment = moment.replace(tzinfo=zone)
    _check_wall_time(moment, value, name)
    try:
        return moment.astimezone(UTC)
    except (OverflowError, ValueError):
        why = f"outside the range of times, {ACCEPTED_RANGE} (UTC)"
        raise _because(InvalidTime(f"{name}: {value!r} is {why}"), why) from None


def optional_utc(value: TimeLike | None, *, zone: tzinfo = UTC, name: str = "time") -> datetime | None:
    return None if value is None else to_utc(value, zone=zone, name=name)


def _check_wall_time(moment: datetime, shown: object, name: str) -> None:
    """A wall time in a DST gap does not exist: refuse it rather than shift it silently."""
    zone = moment.tzinfo
    if not isinstance(zone, ZoneInfo):
        return
    try:
        back = moment.astimezone(UTC).astimezone(zone)
    except (OverflowError, ValueError):
        return  # out of range: reported by the caller's conversion
    if back.replace(tzinfo=None, fold=0) != moment.replace(tzinfo=None, fold=0):
        why = f"it does not exist in {zone.key}: the clocks skipped that hour"
        raise _because(InvalidTime(f"{name}: {shown!r}: {why}; give an offset such as +01:00"), why)


def _refuse(text: str, name: str, why: str) -> InvalidTime:
    message = f"{name}: cannot read {text!r} as a time ({why}); accepted: {ACCEPTED_FORMATS}"
    return _because(InvalidTime(message), why)


def _because(error: InvalidTime, why: str) -> InvalidTime:
    error.reason = why  # type: ignore[attr-defined]  # the short cause, for per-line import reports
    return error


def _parse_string(text: str, name: str) -> datetime:
    cleaned = text.strip()
    if not cleaned:
        raise InvalidTime(f"{name}: empty time string; accepted: {ACCEPTED_FORMATS}")
    if any(not ch.isprintable() for ch in cleaned):
        raise _refuse(text, name, "it contains control characters")
    try:
        return datetime.fromisoformat(cleaned.replace("Z", "+00:00"))
    except ValueError:
        pass
    if cleaned.isdigit() and len(cleaned) == 4:  # a bare year
        return datetime(int(cleaned), 1, 1)
    zone: tzinfo | None = None
    iana = _IANA_SUFFIX.search(cleaned)
    if iana:
        try:
            zone = ZoneInfo(iana.group(1))
        except (ZoneInfoNotFoundError, ValueError):
            raise _refuse(text, name, f"unknown time zone {iana.group(1)!r}") from None
        cleaned = cleaned[: iana.start()]
        try:
            return datetime.fromisoformat(cleaned).replace(tzinfo=zone)
        except ValueError:
            pass
    if _POSIX_OFFSET.search(cleaned):
        raise _refuse(text, name,
                      "'GMT+2' style offsets are read with opposite signs by some tools; write +02:00")
    numeric = _NUMERIC_DATE.search(cleaned)
    if (numeric and int(numeric.group(1)) <= 12 and int(numeric.group(2)) <= 12
            and numeric.group(1) != numeric.group(2)):
        raise _refuse(text, name, "day and month could be read either way")
    try:
        first = _dateparser.parse(cleaned, default=_PARSE_DEFAULT,
                                  tzinfos=lambda n, o: _zone_named(n, o, text, name))
        other = _dateparser.parse(cleaned, default=_OTHER_DEFAULT,
                                  tzinfos=lambda n, o: _zone_named(n, o, text, name))
    except InvalidTime:
        raise
    except (ValueError, OverflowError) as exc:
        raise _refuse(text, name, str(exc)) from None
    if first.year != other.year:
        raise _refuse(text, name, NO_YEAR)
    if first.month != other.month and first.day != other.day:
        raise _refuse(text, name, "it names a day but no month")
    if zone is not None:
        if first.tzinfo is not None:
            raise _refuse(text, name, "it names two zones")
        first = first.replace(tzinfo=zone)
    return first


def _zone_named(zone_name: str | None, offset: int | None, text: str, name: str) -> tzinfo | None:
    """dateutil's zone callback: offsets as given, known abbreviations, everything else refused."""
    if zone_name is None:
        return None if offset is None else timezone(timedelta(seconds=offset))
    upper = zone_name.upper()
    if upper in _AMBIGUOUS:
        raise _refuse(text, name,
                      f"{zone_name} is ambiguous ({_AMBIGUOUS[upper]}); give an offset such as -06:00")
    if upper in _ABBREVIATIONS:
        return timezone(timedelta(hours=_ABBREVIATIONS[upper]), upper)
    raise _refuse(text, name, f"unknown time zone {zone_name!r}")
