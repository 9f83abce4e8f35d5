"""WhatsApp chat exports ("Export chat"): the ``.txt`` file, alone or in the exported ``.zip``,
streamed line by line.

A message starts with a header line, Android ``date, time - name: text`` or iOS
``[date, time] name: text``, in any of the common locales: ``/``, ``.`` or ``-`` between the date's
parts, 2- or 4-digit years (year first too), 12- or 24-hour times with ``:`` or ``.``, seconds or
not, AM/PM in the forms phones write ("PM", "p. m.", "p.m.", after a space, a no-break space or the
narrow no-break space U+202F), Finnish ``klo`` before the time; direction marks (U+200E) before the
line are ignored. Every line that is not a header belongs to the message above it, blank lines and
lines that merely look like dates included.

The day/month order is settled per file from its own dates: a first number above 12 means day
first, a second one month first; when no date settles it, the order in which the dates run forward
does; when neither does, the dates are read day first and the report says so (``date_order``
forces one). The file has no time zone: times are read in ``tz``.

Lines with no author (someone joined, the group's name changed, the end-to-end encryption notice)
are system lines; with an author, iOS marks its own notices with U+200E (the encryption notice,
"image omitted", missed calls). These, media placeholders ("<Media omitted>", "IMG-...jpg (file
attached)" with no caption) and deleted messages are counted in the report, never stored as speech.
The "<This message was edited>" mark is taken off the text. A message's id is made of its time,
its author and its text (the n-th repeat of all three in one minute gets its own), so importing a
later export of the same chat adds only what is new.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import date, datetime, timedelta, tzinfo

from temporal_graph.core.errors import InvalidTime
from temporal_graph.core.time import UTC, to_utc

from .files import Readable, decoded_lines, label
from .messages import ChatMessage, ReadError, build_message
from .tally import CALL, DELETED, MEDIA, SYSTEM, Tally

DATE_ORDERS = ("auto", "day-first", "month-first")

_MARKS = "\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\ufeff"
_SPACE = "[ \u00a0\u202f]"
_DATE = r"(?P<a>\d{1,4})(?P<sep>[./-])(?P<b>\d{1,2})(?P=sep)(?P<c>\d{1,4})\.?"
_TIME = r"(?P<hour>\d{1,2})[:.](?P<minute>\d{2})(?:[:.](?P<second>\d{2}))?"
_MERIDIEM = rf"(?:[ \u00a0\u202f_]*(?P<ap>[AaPp])\.?{_SPACE}?[Mm]\.?)?"
_STAMP = rf"{_DATE}(?:,{_SPACE}*|{_SPACE}+)(?:klo{_SPACE}+)?{_TIME}{_MERIDIEM}"
# iOS: "[stamp] ", Android: "stamp - " (or "stamp: " in a few locales).
HEADER = re.compile(rf"[{_MARKS}]*(?P<ios>\[)?{_STAMP}(?(ios)\]{_SPACE}?|(?:{_SPACE}-{_SPACE}|:{_SPACE}))")

_EDITED = re.compile(rf"{_SPACE}*[{_MARKS}]*<This message was edited>\s*\Z")
_ATTACHED = re.compile(r"<attached: [^>]+>")
_FILE_ATTACHED = re.compile(r"\S.*\.\w{2,5} \(file attached\)")
_MEDIA = {
    "<media omitted>", "<multimedia omitido>", "<medien ausgeschlossen>", "<médias omis>",
    "<media weggelaten>", "<mídia oculta>", "<media omessi>", "image omitted", "video omitted",
    "audio omitted", "sticker omitted", "gif omitted", "document omitted", "contact card omitted",
    "imagen omitida", "video omitido", "audio omitido", "sticker omitido",
}
_DELETED = {
    "this message was deleted", "you deleted this message", "this message was deleted.",
    "you deleted this message.", "se eliminó este mensaje.", "eliminaste este mensaje.",
    "diese nachricht wurde gelöscht.", "du hast diese nachricht gelöscht.", "ce message a été supprimé.",
    "vous avez supprimé ce message.", "essa mensagem foi apagada", "você apagou esta mensagem",
    "questo messaggio è stato eliminato", "hai eliminato questo messaggio",
}
_ENCRYPTED = ("end-to-end encrypted", "ende-zu-ende-verschlüsselt", "cifrado de extremo a extremo",
              "chiffrés de bout en bout", "criptografia de ponta a ponta", "crittografia end-to-end")


_QUOTES = re.compile('["“”«»]')


@dataclass(slots=True)
class _Message:
    line: int
    when: tuple[datetime, datetime] | str  # (the time, the wall time as written), or why it is no time
    speaker: str | None  # None: a system line
    parts: list[str]
    marked: bool  # iOS put U+200E before the text: a notice of its own, not speech
    size: int = 0
    problem: str | None = None


def whatsapp_messages(
    path: Readable, conversation: str | None, *, tz: tzinfo, zone_label: str, date_order: str = "auto",
    tally: Tally | None = None, max_line_bytes: int,
) -> Iterator[ChatMessage | ReadError]:
    """Messages of a WhatsApp export, in file order (``conversation`` is their conversation id)."""
    tally = tally if tally is not None else Tally()
    file = label(path)
    clock = _Clock(_settle_order(path, date_order, tally, max_line_bytes), tz)
    tally.note(f"times read in {zone_label}")
    repeats: dict[tuple[str, str], int] = {}
    minute: datetime | None = None  # the wall time of the current header
    current: _Message | None = None
    for number, text, problem in decoded_lines(path, max_line_bytes):
        line = text.rstrip("\r\n")
        header = HEADER.match(line) if problem is None or not problem.startswith("the line") else None
        if header is None:
            if current is None:
                if line.strip(_MARKS + " \t") or problem:
                    yield ReadError(file=file, line=number, reason=problem or
                                    "not a WhatsApp message line, and no message above it to continue")
                continue
            current.size += len(line) + 1
            if problem is not None:
                current.problem = current.problem or f"line {number}: {problem}"
            elif current.size > max_line_bytes:
                current.problem = current.problem or \
                    f"longer than {max_line_bytes:,} bytes, more than a message can take"
            else:
                current.parts.append(line)
            continue
        if current is not None:
            item = _finish(current, conversation, file, tally, repeats)
            if item is not None:
                yield item
        when = clock.when(header)
        if not isinstance(when, str) and when[1] != minute:
            minute, repeats = when[1], {}
        speaker, first, marked = _author(line[header.end():])
        current = _Message(number, when, speaker, [first], marked, size=len(line), problem=problem)
    if current is not None:
        item = _finish(current, conversation, file, tally, repeats)
        if item is not None:
            yield item


def _author(rest: str) -> tuple[str | None, str, bool]:
    """(author or None for a system line, the first line of text, whether iOS marked it)."""
    cut = rest.find(": ")
    if cut < 0 and rest.endswith(":"):
        cut = len(rest) - 1
    if cut <= 0:
        return None, rest, False
    author = rest[:cut].strip(_MARKS + " \u00a0\u202f")
    # A system line may hold ": " inside quotes (a group renamed to "Plans: June"): not an author.
    if not author or len(author) > 100 or _QUOTES.search(author):
        return None, rest, False
    text = rest[cut + 2:]
    return author, text.lstrip(_MARKS) if text.startswith("\u200e") else text, text.startswith("\u200e")


def _finish(m: _Message, conversation: str | None, file: str, tally: Tally,
            repeats: dict[tuple[str, str], int]) -> ChatMessage | ReadError | None:
    if isinstance(m.when, str):
        return ReadError(file=file, line=m.line, reason=m.when)
    if m.problem is not None:
        return ReadError(file=file, line=m.line, reason=f"message {m.problem}")
    text = "\n".join(m.parts)
    if m.speaker is None:
        first = text.strip(_MARKS + " ").lower()
        tally.skip(f"{SYSTEM} (encryption notice)" if any(e in first for e in _ENCRYPTED) else SYSTEM)
        return None
    kind = _not_speech(text, m.marked)
    if kind is not None:
        tally.skip(kind)
        return None
    edited = _EDITED.search(text)
    if edited:
        text = text[: edited.start()]
    text = _without_attachment(text)
    if not text.strip():
        tally.skip(MEDIA)
        return None
    when, wall = m.when
    # The id holds the time as the file writes it, not as --tz reads it: imported again in another
    # zone, the same message is a conflict the report names, never a second copy.
    digest = hashlib.blake2b(f"{wall.isoformat()}\n{m.speaker}\n{text}".encode("utf-8", "surrogatepass"),
                             digest_size=10).hexdigest()
    n = repeats[(m.speaker, digest)] = repeats.get((m.speaker, digest), 0) + 1
    fields = {"group_id": conversation, "speaker": m.speaker, "content": text, "timestamp": when}
    source_id = f"wa:{digest}" + (f":{n}" if n > 1 else "")
    return build_message({**fields, "source_id": source_id}, file=file, line=m.line,
                         default_source_id=source_id)


def _not_speech(text: str, marked: bool) -> str | None:
    plain = text.strip(_MARKS + " ").lower()
    if plain in _DELETED:
        return DELETED
    if plain in _MEDIA or _ATTACHED.fullmatch(plain):
        return MEDIA
    if not marked:
        return None
    # iOS marks its own notices with U+200E: the encryption notice, placeholders, missed calls.
    if any(e in plain for e in _ENCRYPTED):
        return f"{SYSTEM} (encryption notice)"
    if "omitted" in plain or _ATTACHED.search(plain):
        return MEDIA
    if "deleted" in plain:
        return DELETED
    if "call" in plain:
        return CALL
    return SYSTEM


def _without_attachment(text: str) -> str:
    """An Android "IMG-...jpg (file attached)" first line is the attachment, not words: the caption
    (the lines under it) is kept."""
    first, _, rest = text.partition("\n")
    if _FILE_ATTACHED.fullmatch(first.strip(_MARKS + " ")):
        return rest
    return text


class _Clock:
    """A header's time: its wall time read in the settled day/month order, then in ``tz``. The
    offset is found once per hour of wall time (zones change offset on the hour), so a file of a
    million lines does not ask the zone a million times."""

    def __init__(self, day_first: bool, tz: tzinfo) -> None:
        self.day_first, self.tz = day_first, tz
        self._offsets: dict[tuple[int, int, int, int], timedelta | str] = {}

    def when(self, header: re.Match[str]) -> tuple[datetime, datetime] | str:
        a, b, c, year_first = _numbers(header)
        if year_first:
            year, month, day = a, b, c
        else:
            year = c + 2000 if c < 100 else c
            day, month = (a, b) if self.day_first else (b, a)
        hour, minute = int(header["hour"]), int(header["minute"])
        second = int(header["second"] or 0)
        meridiem = header["ap"]
        if meridiem is not None:
            if not 1 <= hour <= 12:
                return f"time {_shown(header)!r}: hour {hour} with AM/PM"
            hour = hour % 12 + (12 if meridiem in "Pp" else 0)
        try:
            wall = datetime(year, month, day, hour, minute, second)
        except ValueError as exc:
            order = "year first" if year_first else "day first" if self.day_first else "month first"
            return f"date {_shown(header)!r} read {order} is no date ({exc})"
        key = (year, month, day, hour)
        offset = self._offsets.get(key)
        if offset is None:
            try:
                offset = wall - to_utc(wall, zone=self.tz, name="time").replace(tzinfo=None)
            except InvalidTime as exc:
                offset = str(exc)
            self._offsets[key] = offset
            if len(self._offsets) > 256:  # lines come in time order: a few hours suffice
                self._offsets.clear()
        if isinstance(offset, str):
            return offset
        return (wall - offset).replace(tzinfo=UTC), wall


def _shown(header: re.Match[str]) -> str:
    return header.group(0).strip(_MARKS + "[] -:\u00a0\u202f")


def _numbers(header: re.Match[str]) -> tuple[int, int, int, bool]:
    """The date's three numbers in file order, and whether the first is a 4-digit year."""
    first = header["a"]
    return int(first), int(header["b"]), int(header["c"]), len(first) == 4


def _settle_order(path: Readable, date_order: str, tally: Tally, max_line_bytes: int) -> bool:
    """Whether the file's dates are day first: forced by ``date_order``, else settled by a date
    that can be read one way only, else by the order in which the dates run forward; the report
    says how (and when nothing settles it, that day first was assumed)."""
    if date_order != "auto":
        tally.note(f"dates read {date_order} (as asked)")
        return date_order == "day-first"
    backwards = {True: 0, False: 0}
    last: dict[bool, date | None] = {True: None, False: None}
    ambiguous = False
    for number, text, problem in decoded_lines(path, max_line_bytes):
        header = HEADER.match(text) if problem is None else None
        if header is None:
            continue
        a, b, c, year_first = _numbers(header)
        if not year_first and a != b:
            if a > 12 >= b:
                tally.note(f"dates read day first (line {number} settles it: {a} can only be a day)")
                return True
            if b > 12 >= a:
                tally.note(f"dates read month first (line {number} settles it: {b} can only be a day)")
                return False
            ambiguous = True
        for day_first in (True, False):
            try:
                if year_first:
                    when = date(a, b, c)
                else:
                    year = c + 2000 if c < 100 else c
                    when = date(year, b, a) if day_first else date(year, a, b)
            except ValueError:
                continue
            seen = last[day_first]
            if seen is not None and when < seen:
                backwards[day_first] += 1
            last[day_first] = when
    if not ambiguous:
        return True  # every date reads the same either way
    if backwards[True] != backwards[False] and min(backwards.values()) == 0:
        day_first = backwards[True] == 0
        order = "day first" if day_first else "month first"
        tally.note(f"dates read {order}: no date settles it, but only {order} do they run forward")
        return day_first
    tally.note("the day/month order could not be settled from the file's dates (none above 12, and "
               "they run forward either way): read day first; if that is wrong, import again into a "
               "fresh memory with --date-order month-first (date_order='month-first')")
    return True
