"""Telegram Desktop exports in HTML: ``messages.html``, ``messages2.html`` ... of one chat, read in
order, each page streamed through the standard library's HTML parser.

The chat's name (the page header) is its group. A message's time is the ``title`` of its date,
"23.08.2023 13:11:23 UTC-08:00", zone included (read in ``tz`` when an old export leaves it out).
A message the export shows "joined" to the one above has no sender of its own: it is the previous
sender's, across pages too. Service entries (date separators, joins, pins) and media without a
caption are counted in the report, never stored as speech; a reply's quote and a forward's header
are not the message's words, a forwarded text is (as in the JSON export).
"""

from __future__ import annotations

import codecs
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import datetime, timedelta, timezone, tzinfo
from html.parser import HTMLParser

from temporal_graph.core.errors import InvalidTime
from temporal_graph.core.time import to_utc

from .files import open_bytes
from .messages import ChatMessage, ReadError, build_message
from .sources import Member
from .tally import EMPTY, MEDIA, SYSTEM, Tally

PAGE = re.compile(r"(?:^|.*/)messages(\d*)\.html")
_TITLE = re.compile(r"(\d{2})\.(\d{2})\.(\d{4}) (\d{2}):(\d{2}):(\d{2})(?: UTC([+-])(\d{2}):(\d{2}))?")
_CHUNK = 1 << 16


def looks_like_telegram_page(head: str) -> bool:
    return "<html" in head.lower() and ('class="page_header"' in head or 'class="history"' in head) \
        and 'class="message' in head


def page_number(member: Member) -> int:
    match = PAGE.fullmatch(member.name)
    return int(match.group(1) or 1) if match else 0


@dataclass
class _Entry:
    id: str
    classes: set[str]
    title: str | None = None
    sender: list[str] = field(default_factory=list)
    text: list[str] = field(default_factory=list)
    media: bool = False


class _Page(HTMLParser):
    """Collects the page's chat name and its message entries, each as its ``div`` closes."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.chat: list[str] = []
        self.done: list[_Entry] = []
        self._divs: list[set[str]] = []  # the classes of each open div
        self._entry: _Entry | None = None
        self._entry_depth = 0
        self._into: list[str] | None = None  # where text goes now, until the div at _into_depth closes
        self._into_depth = 0
        self._header_depth = 0
        self._reply_depth = 0  # inside "In reply to this message": not the message's words
        self._details = 0  # span nesting inside a "details" span (a forward's date, "via @bot")

    @property
    def chat_name(self) -> str | None:
        """The page header's chat name, once its div is closed."""
        name = " ".join("".join(self.chat).split())
        return name if name and not self._header_depth else None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        classes = set((values.get("class") or "").split())
        if tag == "br":
            if self._into is not None:
                self._into.append("\n")
        elif tag == "span":
            if self._details or "details" in classes:
                self._details += 1
        elif tag == "div":
            self._divs.append(classes)
            self._open_div(classes, values.get("id") or "", values.get("title"), len(self._divs))

    def _open_div(self, classes: set[str], div_id: str, title: str | None, depth: int) -> None:
        entry = self._entry
        if "message" in classes and div_id.startswith("message"):
            self._entry, self._entry_depth = _Entry(id=div_id[len("message"):], classes=classes), depth
        elif "page_header" in classes:
            self._header_depth = depth
        elif entry is None:
            if self._header_depth and "text" in classes and self._into is None:
                self._into, self._into_depth = self.chat, depth
        elif "reply_to" in classes:
            self._reply_depth = self._reply_depth or depth
        elif self._reply_depth or self._into is not None:
            return
        elif "date" in classes and "details" in classes and entry.title is None:
            entry.title = title
        elif "from_name" in classes:
            # A forward's from_name names who wrote it first; the sender is the entry's own.
            if not any("forwarded" in c for c in self._divs[self._entry_depth:]):
                self._into, self._into_depth = entry.sender, depth
        elif "text" in classes:
            self._into, self._into_depth = entry.text, depth
        elif "media_wrap" in classes:
            entry.media = True

    def handle_endtag(self, tag: str) -> None:
        if tag == "span":
            self._details = max(0, self._details - 1) if self._details else 0
            return
        if tag != "div" or not self._divs:
            return
        depth = len(self._divs)
        if self._reply_depth == depth:
            self._reply_depth = 0
        if self._into is not None and self._into_depth == depth:
            self._into = None
        if self._header_depth == depth:
            self._header_depth = 0
        if self._entry is not None and self._entry_depth == depth:
            self.done.append(self._entry)
            self._entry = None
        self._divs.pop()

    def handle_data(self, data: str) -> None:
        if self._into is not None and not self._details and not self._reply_depth:
            self._into.append(data)


def telegram_html_messages(
    pages: list[Member], conversation: str | None, *, tz: tzinfo, zone_label: str, tally: Tally | None = None
) -> Iterator[ChatMessage | ReadError]:
    """Messages of a chat's HTML pages, in page order; ``conversation`` is the group when no page
    header names the chat."""
    chat = _Chat(conversation, tz, zone_label, tally if tally is not None else Tally())
    for page in sorted(pages, key=page_number):
        parser = _Page()
        decoder = codecs.getincrementaldecoder("utf-8-sig")(errors="replace")
        with open_bytes(page) as handle:
            while chunk := handle.read(_CHUNK):
                parser.feed(decoder.decode(chunk))
                yield from chat.entries(parser, page.label)
        parser.feed(decoder.decode(b"", final=True))
        parser.close()
        yield from chat.entries(parser, page.label)


class _Chat:
    """One chat across its pages: its group (the header's name) and the last sender seen, whom a
    "joined" message continues."""

    def __init__(self, conversation: str | None, tz: tzinfo, zone_label: str, tally: Tally) -> None:
        self.group, self.named = conversation, False
        self.sender: str | None = None
        self.tz, self.zone_label, self.tally = tz, zone_label, tally

    def entries(self, parser: _Page, file: str) -> Iterator[ChatMessage | ReadError]:
        if not self.named and parser.chat_name:
            self.group, self.named = parser.chat_name, True
        done, parser.done = parser.done, []
        for entry in done:
            item = self._message(entry, file)
            if item is not None:
                yield item

    def _message(self, entry: _Entry, file: str) -> ChatMessage | ReadError | None:
        if "service" in entry.classes:
            if not entry.id.startswith("-"):  # negative ids are the pages' date separators
                self.tally.skip(SYSTEM)
            return None
        own = " ".join("".join(entry.sender).split())
        if own:
            self.sender = own
        elif "joined" not in entry.classes or self.sender is None:
            return ReadError(file=file, line=_line(entry),
                             reason=f"message {entry.id}: no sender, and no message before it to continue")
        text = "".join(entry.text).strip()
        if not text:
            self.tally.skip(MEDIA if entry.media else EMPTY)
            return None
        when = _when(entry.title, self.tz, self.zone_label, self.tally)
        if isinstance(when, str):
            return ReadError(file=file, line=_line(entry), reason=f"message {entry.id}: {when}")
        fields = {"group_id": self.group, "speaker": self.sender, "content": text, "timestamp": when,
                  "source_id": entry.id}
        return build_message(fields, file=file, line=_line(entry), default_source_id=entry.id,
                             label=f"message {entry.id}", from_file=True)


def _line(entry: _Entry) -> int:
    return int(entry.id) if entry.id.isdigit() else 0


def _when(title: str | None, tz: tzinfo, zone_label: str, tally: Tally) -> datetime | str:
    match = _TITLE.match(title or "")
    if match is None:
        return f"its date {title!r} is not a time" if title else "it has no date"
    day, month, year, hour, minute, second, sign, zh, zm = match.groups()
    try:
        wall = datetime(int(year), int(month), int(day), int(hour), int(minute), int(second))
    except ValueError as exc:
        return f"its date {title!r} is no date ({exc})"
    if sign is None:
        tally.note(f"times without a zone read in {zone_label}")
        zone: tzinfo = tz
    else:
        offset = timedelta(hours=int(zh), minutes=int(zm))
        zone = timezone(offset if sign == "+" else -offset)
    try:
        return to_utc(wall, zone=zone, name="date")
    except InvalidTime as exc:
        return str(exc)
