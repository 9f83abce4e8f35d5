"""The zone an import reads times in when the export gives none (WhatsApp, a Telegram ``date``
without ``date_unixtime``): the one asked for, else this machine's, named so the report can say it."""

from __future__ import annotations

import os
import re
from datetime import datetime, timedelta, timezone, tzinfo
from pathlib import Path
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from temporal_graph.core.errors import InvalidInput

_OFFSET = re.compile(r"(?:UTC|GMT)?([+-])(\d{1,2})(?::?(\d{2}))?")


def import_zone(tz: str | tzinfo | None) -> tuple[tzinfo, str]:
    """(the zone, how the report names it). ``tz``: an IANA name ("Europe/Berlin"), "UTC", an offset
    ("+05:30"), a tzinfo, or None for this machine's zone. A name no zone has raises InvalidInput."""
    if tz is None:
        zone, name = machine_zone()
        return zone, f"{name} (this machine's zone; --tz to choose another)"
    if isinstance(tz, tzinfo):
        return tz, str(getattr(tz, "key", None) or tz)
    if not isinstance(tz, str):
        raise InvalidInput(f"tz: expected a zone name such as 'Europe/Berlin', got {type(tz).__name__}")
    text = tz.strip()
    if text.upper() in ("UTC", "Z", "GMT"):
        return timezone.utc, "UTC"
    offset = _OFFSET.fullmatch(text)
    if offset:
        sign, hours, minutes = offset.groups()
        delta = timedelta(hours=int(hours), minutes=int(minutes or 0))
        if delta < timedelta(hours=15):
            return timezone(delta if sign == "+" else -delta), text
    try:
        return ZoneInfo(text), text
    except (ZoneInfoNotFoundError, ValueError):
        raise InvalidInput(f"tz: {tz!r} is not a time zone; give an IANA name such as 'Europe/Berlin', "
                           "'UTC' or an offset such as '+05:30'"[:300]) from None


def machine_zone() -> tuple[tzinfo, str]:
    """This machine's zone, with DST rules when it can be found (TZ, /etc/localtime, /etc/timezone),
    else its current UTC offset."""
    setting = os.environ.get("TZ", "").strip().lstrip(":")
    candidates: list[str] = [setting] if setting else []
    local = Path("/etc/localtime")
    try:
        target = str(local.resolve())
        if "zoneinfo/" in target:
            candidates.append(target.split("zoneinfo/", 1)[1])
    except OSError:
        pass
    try:
        candidates.append(Path("/etc/timezone").read_text(encoding="utf-8").strip())
    except OSError:
        pass
    for name in candidates:
        try:
            if name.startswith("/"):
                with open(name, "rb") as handle:
                    return ZoneInfo.from_file(handle, key=name), name
            return ZoneInfo(name), name
        except (ZoneInfoNotFoundError, ValueError, OSError):
            continue
    now = datetime.now().astimezone()
    offset = now.utcoffset() or timedelta(0)
    return timezone(offset), f"UTC{now.strftime('%z')} (this machine's offset now; its DST rules unknown)"
