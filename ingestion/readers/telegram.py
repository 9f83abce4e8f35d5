"""Telegram Desktop exports in JSON (``result.json``): one chat, or the whole account's export with
its chats under ``chats.list`` (and ``left_chats.list``). Parsed whole.

Each chat is a group named by its id, exactly; the report gives the chat's name. ``text`` is a
string or a list of parts (strings and ``{"type": ..., "text": ...}`` entities), joined as shown.
``date_unixtime`` is the time; an older export's ``date`` has no zone and is read in ``tz``.
Service messages (joins, pins, calls, title changes) and media without a caption are counted in
the report, never stored as speech; a message's id is its id in the chat. Two senders of one name
are told apart by their ids.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from datetime import datetime, timedelta, tzinfo
from typing import Any

from temporal_graph.core.errors import InvalidTime
from temporal_graph.core.time import UTC, to_utc

from .messages import ChatMessage, ReadError, build_message, is_text
from .tally import CALL, EMPTY, MEDIA, SYSTEM, Tally

_MEDIA_KEYS = ("photo", "file", "media_type", "sticker_emoji", "location_information", "poll",
               "contact_information", "live_location_period_seconds", "game_title", "invoice_information")
_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)


def telegram_chats(doc: Any) -> list[Any]:
    """The chats of a ``result.json``: the whole export's lists, or the one chat it is."""
    if isinstance(doc, dict) and isinstance(doc.get("chats"), dict):
        chats = list(doc["chats"].get("list") or [])
        left = doc.get("left_chats")
        if isinstance(left, dict):
            chats += list(left.get("list") or [])
        return chats
    return [doc]


def telegram_messages(
    doc: Any, file: str, *, tz: tzinfo, zone_label: str, tally: Tally | None = None
) -> Iterator[ChatMessage | ReadError]:
    tally = tally if tally is not None else Tally()
    for index, chat in enumerate(telegram_chats(doc), start=1):
        if not isinstance(chat, dict) or not isinstance(chat.get("messages"), list):
            yield ReadError(file=file, line=index, reason="chat has no 'messages' list")
            continue
        group = str(chat["id"]) if is_text(chat.get("id")) else None
        tally.conversation(group, chat.get("name") if isinstance(chat.get("name"), str) else None)
        names = _names(chat["messages"], tally)
        for message in chat["messages"]:
            item = _message(message, group, file, index, names, tz, zone_label, tally)
            if item is not None:
                yield item


def _names(messages: list[Any], tally: Tally) -> dict[str, str]:
    """from_id -> speaker: the sender's name, with the id after it when two ids share a name."""
    seen: dict[str, str] = {}
    for m in messages:
        if isinstance(m, dict) and isinstance(m.get("from_id"), str):
            name = m["from"] if isinstance(m.get("from"), str) else f"Deleted Account ({m['from_id']})"
            seen.setdefault(m["from_id"], name)
    counts = Counter(seen.values())
    out = {}
    for sender_id, name in seen.items():
        if counts[name] > 1:
            tally.note(f"two Telegram senders are named {name!r}: kept apart as '{name} ({sender_id})'")
            name = f"{name} ({sender_id})"
        out[sender_id] = name
    return out


def message_text(value: Any) -> str | None:
    """Telegram's ``text``: a string, or a list of strings and entity objects with a ``text``."""
    if isinstance(value, str):
        return value
    if isinstance(value, list):
        parts = [p if isinstance(p, str) else p.get("text") if isinstance(p, dict) else None for p in value]
        if all(isinstance(p, str) for p in parts):
            return "".join(p for p in parts if isinstance(p, str))
    return None


def _message(m: Any, group: str | None, file: str, index: int, names: dict[str, str], tz: tzinfo,
             zone_label: str, tally: Tally) -> ChatMessage | ReadError | None:
    if not isinstance(m, dict):
        return ReadError(file=file, line=index, reason="a message is not a JSON object")
    label = f"message {m.get('id')}"
    if m.get("type") == "service":
        action = m.get("action")
        tally.skip(CALL if action in ("phone_call", "group_call") else
                   f"{SYSTEM} ({action})" if isinstance(action, str) else SYSTEM)
        return None
    text = message_text(m.get("text"))
    if text is None:
        return ReadError(file=file, line=index, reason=f"{label}: 'text' is neither text nor a list of parts")
    if not text.strip():
        tally.skip(MEDIA if any(m.get(k) for k in _MEDIA_KEYS) else EMPTY)
        return None
    when = _when(m, tz, zone_label, tally)
    if isinstance(when, str):
        return ReadError(file=file, line=index, reason=f"{label}: {when}")
    sender = m.get("from_id")
    speaker = names.get(sender) if isinstance(sender, str) else None
    if speaker is None:
        speaker = m.get("from") if isinstance(m.get("from"), str) else "Deleted Account"
    source_id = str(m["id"]) if is_text(m.get("id")) else None
    fields = {"group_id": group, "speaker": speaker, "content": text, "timestamp": when,
              "source_id": source_id}
    return build_message(fields, file=file, line=index, default_source_id=source_id or f"{index}:{when}",
                         label=label)


def _when(m: dict[str, Any], tz: tzinfo, zone_label: str, tally: Tally) -> datetime | str:
    stamp = m.get("date_unixtime")
    if isinstance(stamp, (str, int)) and not isinstance(stamp, bool) and str(stamp).isdigit():
        try:
            return _EPOCH + timedelta(seconds=int(stamp))
        except OverflowError:
            return f"date_unixtime {stamp!r} is out of range"
    date = m.get("date")
    if not isinstance(date, str):
        return "no 'date_unixtime' or 'date'"
    try:
        naive = datetime.fromisoformat(date)
    except ValueError:
        return f"date {date[:40]!r} is not a time"
    if naive.tzinfo is None:
        tally.note(f"times without date_unixtime read in {zone_label}")
    try:
        return to_utc(naive, zone=tz, name="date")
    except InvalidTime as exc:
        return str(exc)
