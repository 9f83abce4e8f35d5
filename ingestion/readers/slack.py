"""Slack workspace exports, a folder or its zip: ``users.json`` for names, ``channels.json``,
``groups.json``, ``dms.json`` and ``mpims.json`` for the conversations, and one JSON file per
conversation per day (``general/2024-01-02.json``), read a day file at a time.

Each conversation folder is a group, named exactly as the export names the folder (a channel's
name, a direct message's id). A message's ``ts`` is its time and its id (a thread reply's id names
its thread: ``thread_ts/ts``), so replies stay with their thread and a second import adds nothing.
A speaker is the user's real name (then display name, handle, id); two users of one name are told
apart by their handles. Mentions ``<@U123>`` become ``@Name``, ``<#C123|general>`` ``#general``,
``<url|label>`` its label and ``<url>`` the url. Joins, leaves, topic and channel changes, bots
added, tombstones of deleted thread parents, bot and integration posts, and files shared without a
word are counted in the report, never stored as speech.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Iterator, Mapping
from datetime import datetime, timedelta
from typing import Any

from temporal_graph.core.errors import ImportFormatError
from temporal_graph.core.time import UTC

from .files import load_json
from .messages import ChatMessage, ReadError, build_message
from .sources import Member
from .tally import BOT, DELETED, EMPTY, MEDIA, SYSTEM, Tally

METADATA = ("channels.json", "groups.json", "dms.json", "mpims.json")
DAY_FILE = re.compile(r"([^/]+)/(\d{4}-\d{2}-\d{2})\.json")
_SPEECH = {None, "", "thread_broadcast", "reply_broadcast", "me_message", "file_share", "file_comment"}
_MARKUP = re.compile(r"<([^<>\n]+)>")
_UPLOADED = re.compile(r"<@[A-Z0-9]+(?:\|[^>]*)?> uploaded a file: ")
_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)


def is_slack_root(names: Iterable[str]) -> bool:
    """A folder holding ``users.json`` and one of the conversation lists is a Slack export."""
    found = set(names)
    return "users.json" in found and any(name in found for name in METADATA)


def slack_messages(
    members: list[Member], root: str, *, tally: Tally | None = None
) -> Iterator[ChatMessage | ReadError]:
    """Messages of the Slack export whose files are ``members`` (names under ``root``, "" or "x/").
    Its users and conversation lists are read now: one that cannot be read refuses the export
    (ImportFormatError) before any message is given."""
    tally = tally if tally is not None else Tally()
    files = {m.name[len(root):]: m for m in members if m.name.startswith(root)}
    users, channels = _users(files.get("users.json")), _conversations(files)
    return _messages(files, users, channels, tally)


def _messages(files: Mapping[str, Member], users: Mapping[str, dict[str, Any]], channels: Mapping[str, str],
              tally: Tally) -> Iterator[ChatMessage | ReadError]:
    days: dict[str, list[tuple[str, Member]]] = {}
    left_out = []
    for name, member in sorted(files.items()):
        day = DAY_FILE.fullmatch(name)
        if day:
            days.setdefault(day.group(1), []).append((day.group(2), member))
        elif name != "users.json" and name not in METADATA:
            left_out.append(name)
    if left_out:
        shown = ", ".join(left_out[:3]) + (", ..." if len(left_out) > 3 else "")
        tally.note(f"{len(left_out)} file(s) of the export hold no messages and were not read ({shown})")
    names = _Names(users, tally)
    for folder, dated in sorted(days.items()):
        tally.conversation(folder, _dm_title(folder, channels, names))
        for _, member in sorted(dated, key=lambda pair: pair[0]):
            try:
                doc = load_json(member)
            except ImportFormatError as exc:
                yield ReadError(file=member.label, line=1, reason=str(exc).removeprefix(f"{member.label}: "))
                continue
            if not isinstance(doc, list):
                yield ReadError(file=member.label, line=1,
                                reason=f"a day file holds a list of messages, not a {type(doc).__name__}")
                continue
            for index, record in enumerate(doc, start=1):
                item = _message(record, folder, member.label, index, names, users, channels, tally)
                if item is not None:
                    yield item


class _Names:
    """Speaker names by user id: real name, else display name, else handle, else the id; two users
    of one name are told apart by their handles (said in the report)."""

    def __init__(self, users: Mapping[str, dict[str, Any]], tally: Tally) -> None:
        self.names: dict[str, str] = {}
        counts = Counter(_display(u) for u in users.values())
        for user_id, user in users.items():
            name = _display(user)
            if counts[name] > 1:
                handle = user.get("name") if isinstance(user.get("name"), str) else user_id
                tally.note(f"two Slack users are named {name!r}: kept apart as '{name} ({handle})'")
                name = f"{name} ({handle})"
            self.names[user_id] = name

    def of(self, user_id: str, record: Mapping[str, Any]) -> str:
        if user_id in self.names:
            return self.names[user_id]
        profile = record.get("user_profile")
        if isinstance(profile, dict):
            return _display({"profile": profile, "id": user_id})
        return user_id


def _display(user: Mapping[str, Any]) -> str:
    profile: Mapping[str, Any] = user["profile"] if isinstance(user.get("profile"), dict) else {}
    for value in (profile.get("real_name"), user.get("real_name"), profile.get("display_name"),
                  user.get("name"), user.get("id")):
        if isinstance(value, str) and value.strip():
            return value.strip()
    return "unknown user"


def _users(member: Member | None) -> dict[str, dict[str, Any]]:
    doc = load_json(member) if member is not None else []
    if not isinstance(doc, list):
        raise ImportFormatError(f"{member.label if member else 'users.json'}: expected a list of users")
    return {u["id"]: u for u in doc if isinstance(u, dict) and isinstance(u.get("id"), str)}


def _conversations(files: Mapping[str, Member]) -> dict[str, str]:
    """Folder name -> the conversation's name (channel ids too, so ``<#C123>`` resolves)."""
    out: dict[str, str] = {}
    for listing in METADATA:
        member = files.get(listing)
        doc = load_json(member) if member is not None else []
        for conv in doc if isinstance(doc, list) else []:
            if not isinstance(conv, dict):
                continue
            name, conv_id = conv.get("name"), conv.get("id")
            if isinstance(conv_id, str):
                out[conv_id] = name if isinstance(name, str) else conv_id
            if listing == "dms.json" and isinstance(conv_id, str):
                members = [m for m in conv.get("members") or [] if isinstance(m, str)]
                out[conv_id] = "direct message: " + ", ".join(members)
    return out


def _dm_title(folder: str, channels: Mapping[str, str], names: _Names) -> str:
    title = channels.get(folder, folder)
    if title.startswith("direct message: "):
        ids = title.removeprefix("direct message: ").split(", ")
        return "direct message: " + ", ".join(names.of(i, {}) for i in ids)
    return title


def _message(record: Any, folder: str, file: str, index: int, names: _Names,
             users: Mapping[str, dict[str, Any]], channels: Mapping[str, str],
             tally: Tally) -> ChatMessage | ReadError | None:
    if not isinstance(record, dict):
        return ReadError(file=file, line=index, reason=f"message {index}: not a JSON object")
    subtype = record.get("subtype")
    if record.get("type", "message") != "message":
        tally.skip(f"{SYSTEM} ({record.get('type')})")
        return None
    if subtype == "tombstone":
        tally.skip(f"{DELETED} (tombstone)")
        return None
    if subtype not in _SPEECH and subtype != "bot_message":
        tally.skip(f"{SYSTEM} ({subtype})")  # joins, topics, a bot added to the channel ...
        return None
    author = record.get("user")
    if subtype == "bot_message" or record.get("bot_id") or \
            (isinstance(author, str) and users.get(author, {}).get("is_bot")):
        tally.skip(BOT)
        return None
    user, text = record.get("user"), record.get("text")
    if subtype == "file_comment" and isinstance(record.get("comment"), dict):
        user, text = record["comment"].get("user"), record["comment"].get("comment")
    if not isinstance(text, str) or not text.strip() or _UPLOADED.match(text or ""):
        tally.skip(MEDIA if record.get("files") or record.get("file") or record.get("attachments") else EMPTY)
        return None
    ts, thread = record.get("ts"), record.get("thread_ts")
    if not isinstance(ts, str):
        return ReadError(file=file, line=index, reason=f"message {index}: no 'ts' (its time and id)")
    try:
        when = _EPOCH + timedelta(seconds=float(ts))
    except (ValueError, OverflowError):
        return ReadError(file=file, line=index, reason=f"message {index}: 'ts' {ts[:40]!r} is not a time")
    source_id = f"{thread}/{ts}" if isinstance(thread, str) and thread != ts else ts
    speaker = names.of(user, record) if isinstance(user, str) else record.get("username")
    fields = {"group_id": folder, "speaker": speaker, "content": resolve_markup(text, names, channels),
              "timestamp": when, "source_id": source_id}
    return build_message(fields, file=file, line=index, default_source_id=source_id, label=f"message {ts}",
                         from_file=True)


def resolve_markup(text: str, names: _Names, channels: Mapping[str, str]) -> str:
    """Slack's markup as a reader sees it: mentions by name, links by their label."""

    def one(match: re.Match[str]) -> str:
        target, _, shown = match.group(1).partition("|")
        if target.startswith("@"):
            return "@" + (names.of(target[1:], {}) if target[1:] in names.names or not shown else shown)
        if target.startswith("#"):
            return "#" + (shown or channels.get(target[1:], target[1:]))
        if target.startswith("!"):
            special = target[1:].split("^")[0]
            return shown or (f"@{special}" if special in ("here", "channel", "everyone") else match.group(0))
        return shown or target.removeprefix("mailto:")

    resolved = _MARKUP.sub(one, text)
    return resolved.replace("&lt;", "<").replace("&gt;", ">").replace("&amp;", "&")
