"""An import's path as the exports it holds: one file, or a folder or zip holding one export (a
Slack workspace, a WhatsApp chat and its media, a Telegram chat's pages, a Messenger inbox) or
several. Each export found is a :class:`Unit`, read on its own and reported on its own.

In a folder or zip: a folder with ``users.json`` and ``channels.json`` (or ``groups.json``,
``dms.json``, ``mpims.json``) is a Slack export, read whole; the ``messages*.html`` pages of one
folder are one Telegram chat; the ``message_N.json`` of one folder are one Messenger thread; every
other file is recognised by its content, alone. Media and attachments (photos, voice notes, the
pages' stylesheets) are not read, only counted; so are the other pages of a Telegram HTML export.
"""

from __future__ import annotations

import unicodedata
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import PurePosixPath

from .messenger import PART, part_number
from .slack import METADATA, is_slack_root
from .sources import Member, Source
from .telegram_html import PAGE, page_number

# Files a chat export holds beside its messages; never read, only counted.
MEDIA_SUFFIXES = frozenset(
    "jpg jpeg png gif webp heic heif bmp tif tiff svg ico avif mp4 mov avi mkv webm 3gp m4v mp3 m4a aac "
    "ogg oga opus wav amr flac wma pdf doc docx xls xlsx ppt pptx odt ods vcf css js map woff woff2 ttf "
    "otf eot tgs rar 7z gz apk exe dmg".split())
MEDIA = "media and attachments"
OTHER_PAGES = "pages of a Telegram HTML export that hold no messages"


@dataclass
class Unit:
    """One export to read: its members (several for a Slack export, a Telegram chat's pages, a
    Messenger thread's parts), the format planned ("auto": recognise it by content) and the
    conversation id its file names give (WhatsApp has none inside)."""

    label: str
    format: str
    members: list[Member]
    conversation: str | None = None
    root: str = ""  # Slack: the export's folder inside the source ("" or "name/")
    note: str | None = None  # how the conversation id was chosen, when that needs saying


@dataclass
class Plan:
    units: list[Unit]
    ignored: Counter[str] = field(default_factory=Counter)  # files not read, by why


def plan(source: Source, format: str = "auto") -> Plan:
    """The exports in ``source``, in a stable order (by path)."""
    if source.kind == "file":
        member = source.members[0]
        return Plan([Unit(member.label, format, [member], conversation_name(member, source))])
    members = list(source.members)
    units: list[Unit] = []
    ignored: Counter[str] = Counter()
    if format in ("auto", "slack"):
        for root in _slack_roots(members):
            claimed = [m for m in members if m.name.startswith(root)]
            members = [m for m in members if not m.name.startswith(root)]
            units.append(Unit(f"{source.label.rstrip('/')}/{root}".rstrip("/") if root else source.label,
                              "slack", claimed, root=root))
    pages: dict[str, list[Member]] = {}
    parts: dict[str, list[Member]] = {}
    for member in members:
        folder = str(PurePosixPath(member.name).parent)
        suffix = PurePosixPath(member.name).suffix.lower().lstrip(".")
        if PAGE.fullmatch(member.name) and format in ("auto", "telegram"):
            pages.setdefault(folder, []).append(member)
        elif PART.fullmatch(member.name) and format in ("auto", "messenger"):
            parts.setdefault(folder, []).append(member)
        elif suffix in MEDIA_SUFFIXES:
            ignored[MEDIA] += 1
        elif suffix in ("html", "htm") and format in ("auto", "telegram"):
            ignored[OTHER_PAGES] += 1
        else:
            units.append(Unit(member.label, format, [member], conversation_name(member, source)))
    for folder, found in pages.items():
        found.sort(key=page_number)
        units.append(Unit(_folder_label(source, folder), "telegram-html", found,
                          _clean(PurePosixPath(folder).name if folder != "." else _stem(source.label))))
    for folder, found in parts.items():
        found.sort(key=part_number)
        units.append(Unit(_folder_label(source, folder), "messenger-parts", found,
                          _clean(PurePosixPath(folder).name if folder != "." else _stem(source.label))))
    units.sort(key=lambda u: u.label)
    return Plan(units, ignored)


def apart(units: list[Unit], root: str) -> None:
    """Two files of one import whose names give the same conversation id (two "whatsapp_chat.txt"
    in different folders) are two chats: each is named by its path under ``root`` instead, and says so."""
    named = Counter(u.conversation for u in units if u.conversation)
    for unit in units:
        if unit.conversation and named[unit.conversation] > 1:
            path = PurePosixPath(unit.label.replace("\\", "/").removeprefix(root.rstrip("/") + "/"))
            if path.stem.lower() in ("_chat", "chat") and len(path.parts) > 1:
                path = path.parent
            unit.conversation = _clean(str(path.with_suffix("")) if path.suffix == ".txt" else str(path))
            unit.note = (f"conversation named {unit.conversation!r} by its path: another file of the import "
                         "has the same name")


def _slack_roots(members: list[Member]) -> Iterator[str]:
    by_folder: dict[str, set[str]] = {}
    for member in members:
        path = PurePosixPath(member.name)
        if path.name == "users.json" or path.name in METADATA:
            folder = "" if str(path.parent) == "." else f"{path.parent}/"
            by_folder.setdefault(folder, set()).add(path.name)
    roots = sorted(folder for folder, names in by_folder.items() if is_slack_root(names))
    for root in roots:  # an export inside another's folder belongs to the outer one
        if not any(root != other and root.startswith(other) for other in roots):
            yield root


def _folder_label(source: Source, folder: str) -> str:
    return source.label if folder == "." else f"{source.label.rstrip('/')}/{folder}"


def _stem(label: str) -> str:
    return PurePosixPath(label.replace("\\", "/")).stem


def conversation_name(member: Member, source: Source) -> str | None:
    """The conversation id a file's name gives: WhatsApp's "WhatsApp Chat with Alice.txt" names
    the chat; an iOS export's "_chat.txt" is named by its zip or folder."""
    path = PurePosixPath(member.name)
    if path.stem.lower() not in ("_chat", "chat"):
        return _clean(path.stem)
    if str(path.parent) not in (".", ""):
        return _clean(path.parent.name)
    if source.kind != "file":
        return _clean(_stem(source.label))
    parent = PurePosixPath(member.label.replace("\\", "/")).parent.name
    return _clean(parent) or _clean(path.stem)


def _clean(name: str) -> str | None:
    """A file name as a conversation id: NFC, without control or invisible characters, trimmed, at
    most 128 characters (the name is the importer's choice, not an id the export wrote)."""
    text = unicodedata.normalize("NFC", name)
    text = "".join(ch for ch in text if unicodedata.category(ch) not in ("Cc", "Cf", "Cs", "Co", "Zl", "Zp"))
    text = " ".join(text.split())[:128].strip()
    return text or None
