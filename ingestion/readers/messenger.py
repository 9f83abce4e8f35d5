"""Facebook Messenger and Instagram chats from "Download your information" (JSON): one thread's
``message_1.json``, ``message_2.json`` ... read together, each parsed whole.

The thread is a group named by its ``thread_path`` ("inbox/alice_1234"); the report gives its
title. Messages come newest first, with ``timestamp_ms``; the newer export's camel-case fields
(``senderName``, ``text``, ``timestamp``, ``isUnsent``) are read too. Facebook writes text as
UTF-8 bytes escaped one by one (mojibake: "CafÃ©"), repaired here where the text is such bytes.
Photos, videos, voice notes, files, stickers and GIFs without words, unsent messages, calls and
joins are counted in the report, never stored as speech. Messages have no ids: one is made of the
time, the sender and the text.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterator
from typing import Any

from temporal_graph.core.errors import ImportFormatError

from .files import load_json
from .messages import ChatMessage, ReadError, build_message
from .sources import Member
from .tally import CALL, DELETED, EMPTY, MEDIA, SYSTEM, Tally

PART = re.compile(r"(?:^|.*/)message_(\d+)\.json")
_MEDIA_KEYS = ("photos", "videos", "audio_files", "files", "gifs", "sticker", "media")
_ATTACHMENT_NOTICE = re.compile(
    r".* sent (?:an attachment|a photo|a video|a voice message|a GIF|a sticker)\.", re.DOTALL)


def part_number(member: Member) -> int:
    match = PART.fullmatch(member.name)
    return int(match.group(1)) if match else 0


def repaired(text: str) -> str:
    """Facebook's mojibake undone: text whose every character is a byte (U+0000-U+00FF) and whose
    bytes are UTF-8 is decoded; any other text is returned as it is."""
    if text.isascii():
        return text
    try:
        return text.encode("latin-1").decode("utf-8")
    except (UnicodeEncodeError, UnicodeDecodeError):
        return text


def messenger_messages(
    parts: list[Member], conversation: str | None, *, tally: Tally | None = None,
    docs: dict[str, Any] | None = None,
) -> Iterator[ChatMessage | ReadError]:
    """Messages of one thread's parts (``docs``: parts already parsed, by label)."""
    tally = tally if tally is not None else Tally()
    repeats: dict[str, int] = {}
    fixed = 0
    for part in sorted(parts, key=part_number):
        try:
            doc = (docs or {}).get(part.label) or load_json(part)
        except ImportFormatError as exc:
            yield ReadError(file=part.label, line=1, reason=str(exc).removeprefix(f"{part.label}: "))
            continue
        if not isinstance(doc, dict) or not isinstance(doc.get("messages"), list):
            yield ReadError(file=part.label, line=1, reason="no 'messages' list: not a Messenger thread")
            continue
        group = doc.get("thread_path") if isinstance(doc.get("thread_path"), str) else conversation
        title = doc.get("title", doc.get("threadName"))
        tally.conversation(group, repaired(title) if isinstance(title, str) else None)
        messages = doc["messages"]
        for index in range(len(messages), 0, -1):  # oldest first, so repeated texts number alike
            m = messages[index - 1]
            if not isinstance(m, dict):
                yield ReadError(file=part.label, line=index, reason=f"message {index}: not a JSON object")
                continue
            item = _message(m, group, part.label, index, repeats, tally)
            if isinstance(item, tuple):
                message, mended = item
                fixed += mended
                yield message
            elif item is not None:
                yield item
    if fixed:
        tally.note(f"the text of {fixed} message(s) repaired from Facebook's byte-by-byte escaping "
                   "(mojibake)")


def _message(m: dict[str, Any], group: str | None, file: str, index: int, repeats: dict[str, int],
             tally: Tally) -> tuple[ChatMessage | ReadError, bool] | ReadError | None:
    if m.get("is_unsent") or m.get("isUnsent"):
        tally.skip(DELETED)
        return None
    kind = m.get("type")
    if kind == "Call" or "call_duration" in m:
        tally.skip(CALL)
        return None
    if kind in ("Subscribe", "Unsubscribe"):
        tally.skip(f"{SYSTEM} ({kind.lower()})")
        return None
    raw = m.get("content", m.get("text"))
    if raw is not None and not isinstance(raw, str):
        return ReadError(file=file, line=index, reason=f"message {index}: its text is not a string")
    text = repaired(raw or "")
    media = any(m.get(key) for key in _MEDIA_KEYS)
    if not text.strip() or (media and _ATTACHMENT_NOTICE.fullmatch(text.strip())):
        tally.skip(MEDIA if media else EMPTY)
        return None
    sender = m.get("sender_name", m.get("senderName"))
    speaker = repaired(sender) if isinstance(sender, str) else None
    stamp = m.get("timestamp_ms", m.get("timestamp"))
    digest = hashlib.blake2b(f"{stamp}\n{speaker}\n{text}".encode("utf-8", "surrogatepass"),
                             digest_size=10).hexdigest()
    n = repeats[digest] = repeats.get(digest, 0) + 1
    source_id = f"fb:{digest}" + (f":{n}" if n > 1 else "")
    fields = {"group_id": group, "speaker": speaker, "content": text, "timestamp": stamp,
              "source_id": source_id}
    if stamp is None:
        del fields["timestamp"]
    message = build_message(fields, file=file, line=index, default_source_id=source_id,
                            label=f"message {index}", from_file=True)
    return message, text != raw
