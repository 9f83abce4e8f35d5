"""Readers that turn chat logs and chat exports into :class:`ChatMessage` values for batch import.

Formats, recognised by content rather than by file extension (``--format`` says which):

- ``jsonl``: one JSON object per line (blank lines are skipped);
- ``csv``: a header row naming the columns, then one message per row;
- ``locomo``: the LoCoMo benchmark JSON (a list of samples, or a single sample object);
- ``chatgpt``: a ChatGPT ``conversations.json`` export;
- ``whatsapp``: WhatsApp's "Export chat" ``.txt`` (Android or iOS, any common locale), or its zip;
- ``slack``: a Slack workspace export, its folder or zip;
- ``telegram``: Telegram Desktop's ``result.json`` (one chat or the whole export) or its HTML pages;
- ``discord``: a channel exported by DiscordChatExporter (JSON);
- ``messenger``: a Facebook Messenger or Instagram thread's ``message_N.json``;
- ``claude``: a Claude.ai ``conversations.json`` export.

An import's path may be a file, a folder or a zip (:mod:`.exports` finds the exports in it).
JSONL, CSV, WhatsApp and Telegram's HTML pages are read line by line or chunk by chunk, so a file
of any length is never held in memory at once; a Slack export a day file at a time; the other JSON
formats are single documents and are parsed whole.

A problem with a file as a whole (missing, empty, unknown format, not UTF-8 in its first 64 KiB,
broken JSON document) raises :class:`~temporal_graph.core.errors.ImportFormatError` (a
:class:`.tally.NotReadable` says what the file looked like) before anything is yielded. A problem
with one line or record (including a line of bad bytes further into a streamed file, a line longer
than ``max_line_bytes``, JSON nested deeper than the parser goes) is yielded as a
:class:`ReadError` and reading goes on, so one bad line never costs the rest of an import. What an
export holds that is not a message (system lines, media without words, bots, calls) is counted in a
:class:`.tally.Tally`, never yielded as speech. A conversation id is given exactly as the file has
it (never trimmed); the importer checks it as a group id.

Field names accepted in JSONL objects and CSV headers (case-insensitive, first match wins):

- speaker: ``speaker``, ``role``, ``author``, ``name`` (optional)
- text: ``text``, ``content``, ``message`` (required)
- time: ``timestamp``, ``time``, ``date``, ``created_at`` (required): ISO 8601, a plain date
  such as "8 May 2023", or epoch seconds (values above 1e11 are read as epoch milliseconds)
- conversation: ``conversation``, ``conversation_id``, ``group``, ``group_id`` (optional)
- id: ``id`` (optional; otherwise the source id is ``line:N``)

One module per format (:mod:`.jsonl`, :mod:`.delimited`, :mod:`.locomo`, :mod:`.chatgpt`,
:mod:`.whatsapp`, :mod:`.slack`, :mod:`.telegram`, :mod:`.telegram_html`, :mod:`.discord`,
:mod:`.messenger`, :mod:`.claude`), beside :mod:`.detection`, :mod:`.sources` (a file, a folder or
a zip as members), :mod:`.exports` (the exports a path holds), :mod:`.files` (bytes and decoding),
:mod:`.messages` (what is yielded, built in one place), :mod:`.tally` (what is counted besides),
:mod:`.timestamps` (times, through the library's one absolute parser) and :mod:`.zones` (the zone
of times an export gives without one).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass
from datetime import tzinfo
from pathlib import Path
from typing import Any

from temporal_graph.core.errors import ImportFormatError
from temporal_graph.core.time import UTC

from .chatgpt import chatgpt_messages
from .claude import claude_messages
from .delimited import csv_messages
from .detection import EXPECTED, FORMATS, NAMES, csv_header, detect, detect_format, json_kind, whatsapp_lines
from .discord import discord_messages
from .exports import Plan, Unit, apart, conversation_name, plan
from .files import MAX_LINE_BYTES, Readable, label, line_limit, load_json, read_head
from .jsonl import jsonl_messages
from .locomo import locomo_messages
from .messages import ChatMessage, ReadError, fields_help
from .messenger import messenger_messages
from .slack import slack_messages
from .sources import Member, Source, file_member, is_zip, open_source
from .tally import NotReadable, Tally
from .telegram import telegram_messages
from .telegram_html import looks_like_telegram_page, telegram_html_messages
from .whatsapp import DATE_ORDERS, whatsapp_messages
from .zones import import_zone

__all__ = ["DATE_ORDERS", "FORMATS", "MAX_LINE_BYTES", "ChatMessage", "NotReadable", "Plan", "ReadError",
           "ReadOptions", "Tally", "Unit", "detect_format", "file_help", "line_limit", "open_export",
           "planned_as", "read_messages", "read_options", "read_unit"]

# What each format is, for ``file_help``.
_FORMAT_HELP = {
    "jsonl": 'one JSON object per line, e.g. {"id": "m1", "group": "demo", "speaker": "Bob", '
             '"timestamp": "2023-01-14T10:03:10+08:00", "text": "I live in Hangzhou."}',
    "csv": "a header row naming the columns (the same names), then one message per row",
    "locomo": "the LoCoMo benchmark JSON (a list of samples, or one sample)",
    "chatgpt": "a ChatGPT conversations.json export",
    "whatsapp": "WhatsApp's 'Export chat' .txt (Android or iOS, any common locale) or its .zip; no zone "
                "in it: --tz",
    "slack": "a Slack workspace export: its folder or zip (users.json, channels.json, a folder per channel)",
    "telegram": "Telegram Desktop's result.json (one chat or the whole export) or its messages*.html",
    "discord": "a channel exported by DiscordChatExporter (JSON)",
    "messenger": "a Messenger or Instagram thread's message_1.json (its folder reads every part)",
    "claude": "a Claude.ai conversations.json export",
}


def file_help() -> str:
    """The formats a chat log may have and the field names of JSONL objects and CSV headers."""
    formats = "\n".join(f"  {name}: {_FORMAT_HELP[name]}" for name in FORMATS)
    return (f"formats (recognised from the content; --format to say which); a folder or a zip imports "
            f"every export in it:\n{formats}\n"
            f"fields of a JSONL object or CSV header (any of the names; case-insensitive):\n{fields_help()}")


@dataclass(frozen=True)
class ReadOptions:
    """How to read: the longest line taken whole, the zone of times an export gives without one
    (and how the report names it), and the day/month order of WhatsApp dates."""

    max_line_bytes: int = MAX_LINE_BYTES
    tz: tzinfo = UTC
    zone_label: str = "UTC"
    date_order: str = "auto"


def read_options(max_line_bytes: int = MAX_LINE_BYTES, tz: str | tzinfo | None = None,
                 date_order: str = "auto") -> ReadOptions:
    """Options checked: ``tz`` a zone name, offset or tzinfo (None: this machine's zone);
    ``date_order`` one of DATE_ORDERS. A bad value raises InvalidInput naming it."""
    if date_order not in DATE_ORDERS:
        raise ImportFormatError(f"date_order {date_order!r} is not one of {', '.join(DATE_ORDERS)}")
    zone, zone_label = import_zone(tz)
    return ReadOptions(max_line_bytes, zone, zone_label, date_order)


def _check_format(format: str) -> None:
    if format != "auto" and format not in FORMATS:
        raise ImportFormatError(f"unknown format {format!r}; use 'auto' or one of {', '.join(FORMATS)}")


@contextmanager
def open_export(path: str | Path, format: str = "auto") -> Iterator[tuple[Source, Plan]]:
    """The exports under ``path`` (a file, a folder or a zip; a zip in a folder is opened too), kept
    open while they are read."""
    _check_format(format)
    if not Path(path).exists():
        raise ImportFormatError(f"{path}: no such file; check the path")
    with ExitStack() as stack:
        source = stack.enter_context(open_source(path))
        found = plan(source, format)
        if source.kind == "folder":
            units: list[Unit] = []
            for unit in found.units:
                disk = unit.members[0].disk
                if len(unit.members) == 1 and disk is not None and is_zip(disk):
                    inner = plan(stack.enter_context(open_source(disk)), format)
                    units += inner.units
                    found.ignored.update(inner.ignored)
                else:
                    units.append(unit)
            found.units = sorted(units, key=lambda u: u.label)
        apart(found.units, source.label)
        yield source, found


def planned_as(unit: Unit) -> str | None:
    """What a unit was taken for from its files' names (a Slack export's folder, a Telegram chat's
    pages, a Messenger thread's parts), for the report of a unit refused; None when nothing yet."""
    kind = unit.format.removesuffix("-html").removesuffix("-parts")
    return NAMES.get(kind) if unit.format != "auto" else None


def read_unit(
    unit: Unit, options: ReadOptions, tally: Tally
) -> tuple[str, Iterator[ChatMessage | ReadError]]:
    """(the unit's format, its messages). A unit refused as a whole raises ImportFormatError here."""
    if unit.format == "slack":
        return "slack", slack_messages(unit.members, unit.root, tally=tally)
    if unit.format == "telegram-html":
        return "telegram", telegram_html_messages(unit.members, unit.conversation, tz=options.tz,
                                                  zone_label=options.zone_label, tally=tally)
    if unit.format == "messenger-parts":
        first = unit.members[0]
        doc = load_json(first)
        if json_kind(doc) != "messenger":
            raise NotReadable(first.label, "it is not a Messenger thread (no 'participants' and 'messages')",
                              looks_like="a part of a Messenger export (message_N.json)")
        return "messenger", messenger_messages(unit.members, unit.conversation, tally=tally,
                                               docs={first.label: doc})
    found = read_file(unit.members[0], unit.format, options, tally, unit.conversation)
    if unit.note and found[0] == "whatsapp":  # the one format named by its file
        tally.note(unit.note)
    return found


def read_file(path: Readable, format: str, options: ReadOptions, tally: Tally,
              conversation: str | None = None) -> tuple[str, Iterator[ChatMessage | ReadError]]:
    """(the file's format, its messages); ``conversation`` is the conversation id of a format whose
    file has none (WhatsApp)."""
    _check_format(format)
    file = label(path)
    doc: Any = None
    if isinstance(path, Member) and path.disk is None and is_zip(path):
        raise NotReadable(file, "a zip inside a zip is not opened: unzip the outer one and import its folder",
                          looks_like="a zip file")
    if format == "auto":
        format, head, doc = detect(path, options.max_line_bytes)
    else:
        head = read_head(path)
    if format == "slack":
        raise NotReadable(file, "a Slack export is read whole: give its folder or zip (users.json, "
                          "channels.json and a folder per channel)", looks_like=None)
    if format == "whatsapp":
        if not whatsapp_lines(head)[1]:
            raise NotReadable(file, "none of its first lines is a WhatsApp message line such as "
                              "'12/31/23, 9:41 PM - Name: text' or '[31.12.23, 21:41:00] Name: text'")
        return format, whatsapp_messages(path, conversation, tz=options.tz, zone_label=options.zone_label,
                                         date_order=options.date_order, tally=tally,
                                         max_line_bytes=options.max_line_bytes)
    if format == "telegram" and head.lstrip("\ufeff \t\r\n").startswith("<"):
        if not looks_like_telegram_page(head):
            raise NotReadable(file, "an HTML page that is not a Telegram Desktop chat page", looks_like=None)
        member = path if isinstance(path, Member) else file_member(path)
        return format, telegram_html_messages([member], conversation, tz=options.tz,
                                              zone_label=options.zone_label, tally=tally)
    if format == "jsonl":
        return format, jsonl_messages(path, file, options.max_line_bytes)
    if format == "csv":
        delimiter, _ = csv_header(head, file)  # a bad header fails now, not at first next()
        return format, csv_messages(path, file, delimiter, options.max_line_bytes)
    if doc is None:
        doc = load_json(path)
    kind = json_kind(doc)
    if kind != format:
        seen = NAMES.get(kind or "")
        raise NotReadable(file, f"not a {format} file; {EXPECTED}" if seen is None else
                          f"it is not a {format} file (--format {format})", looks_like=seen)
    if format == "locomo":
        return format, locomo_messages(doc, file)
    if format == "chatgpt":
        return format, chatgpt_messages(doc, file)
    if format == "telegram":
        return format, telegram_messages(doc, file, tz=options.tz, zone_label=options.zone_label, tally=tally)
    if format == "discord":
        return format, discord_messages(doc, file, tally=tally)
    if format == "messenger":
        member = path if isinstance(path, Member) else file_member(path)
        return format, messenger_messages([member], conversation, tally=tally, docs={member.label: doc})
    return format, claude_messages(doc, file, tally=tally)


def read_messages(
    path: str | Path, format: str = "auto", max_line_bytes: int = MAX_LINE_BYTES, *,
    tz: str | tzinfo | None = None, date_order: str = "auto", tally: Tally | None = None,
) -> Iterator[ChatMessage | ReadError]:
    """Yield each message of a chat log or export, and a ReadError for each line or record that is bad.

    For a file, file-level problems raise ImportFormatError here, before iteration starts; in a
    folder or zip, a file refused is one ReadError (line 0) and the others are read. ``format`` is
    "auto" (recognise by content) or one of ``FORMATS``; ``tz`` and ``date_order`` as
    :func:`read_options`; ``tally`` collects what is not a message.
    """
    options = read_options(max_line_bytes, tz, date_order)
    tally = tally if tally is not None else Tally()
    _check_format(format)
    p = Path(path)
    if not p.exists() or (p.is_file() and not is_zip(p)):
        member = file_member(path)
        source = Source(str(path), "file", [member])
        return read_file(path, format, options, tally, conversation_name(member, source))[1]
    return _read_all(path, format, options, tally)


def _read_all(path: str | Path, format: str, options: ReadOptions, tally: Tally
              ) -> Iterator[ChatMessage | ReadError]:
    with open_export(path, format) as (_, found):
        for unit in found.units:
            try:
                _, items = read_unit(unit, options, tally)
            except ImportFormatError as exc:
                yield ReadError(file=unit.label, line=0, reason=str(exc).removeprefix(f"{unit.label}: "))
                continue
            yield from items

