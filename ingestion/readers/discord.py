"""Discord channels exported with DiscordChatExporter (JSON): ``guild``, ``channel`` and the
channel's ``messages``, parsed whole.

The channel is a group, named by its id exactly; the report gives "guild / channel". A speaker is
the author's nickname, else name; two authors of one name are told apart by their name and
discriminator. Times are ISO 8601 with their offset; an edited message keeps its first time and its
last text. Calls, channel name and icon changes, pins, joins and other non-messages, bot posts and
attachments or stickers without words are counted in the report, never stored as speech; a message
the file holds twice (the same id) is stored once.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from typing import Any

from .messages import ChatMessage, ReadError, build_message, is_text
from .tally import BOT, CALL, EMPTY, MEDIA, SYSTEM, Tally

_SPEECH = {"Default", "Reply", None}


def discord_messages(doc: Any, file: str, *, tally: Tally | None = None) -> Iterator[ChatMessage | ReadError]:
    tally = tally if tally is not None else Tally()
    channel = doc.get("channel") if isinstance(doc.get("channel"), dict) else {}
    guild = doc.get("guild") if isinstance(doc.get("guild"), dict) else {}
    group = str(channel["id"]) if is_text(channel.get("id")) else None
    title = " / ".join(str(part) for part in (guild.get("name"), channel.get("category"), channel.get("name"))
                       if isinstance(part, str) and part)
    tally.conversation(group, title or None)
    names = _names(doc["messages"], tally)
    for index, m in enumerate(doc["messages"], start=1):
        if not isinstance(m, dict):
            yield ReadError(file=file, line=index, reason=f"message {index}: not a JSON object")
            continue
        kind = m.get("type")
        author: dict[str, Any] = m["author"] if isinstance(m.get("author"), dict) else {}
        if kind not in _SPEECH:
            tally.skip(CALL if kind == "Call" else f"{SYSTEM} ({kind})")
            continue
        if author.get("isBot"):
            tally.skip(BOT)
            continue
        content = m.get("content")
        if isinstance(content, str) and not content.strip():
            tally.skip(MEDIA if m.get("attachments") or m.get("stickers") or m.get("embeds") else EMPTY)
            continue
        message_id = str(m["id"]) if is_text(m.get("id")) else None
        speaker = names.get(str(author.get("id")), _display(author))
        fields = {"group_id": group, "speaker": speaker, "content": content, "timestamp": m.get("timestamp"),
                  "source_id": message_id}
        if fields["timestamp"] is None:
            del fields["timestamp"]
        yield build_message(fields, file=file, line=index, default_source_id=message_id or f"message {index}",
                            label=f"message {message_id or index}")


def _display(author: dict[str, Any]) -> str | None:
    for key in ("nickname", "name"):
        if isinstance(author.get(key), str) and author[key].strip():
            return str(author[key])
    return None


def _names(messages: list[Any], tally: Tally) -> dict[str, str]:
    """Author id -> speaker, with "name#discriminator" added when two ids share a nickname."""
    authors: dict[str, dict[str, Any]] = {}
    for m in messages:
        author = m.get("author") if isinstance(m, dict) else None
        if isinstance(author, dict) and is_text(author.get("id")):
            authors.setdefault(str(author["id"]), author)
    counts = Counter(_display(a) for a in authors.values())
    out = {}
    for author_id, author in authors.items():
        name = _display(author)
        if name is None:
            continue
        if counts[name] > 1:
            tag = f"{author.get('name')}#{author.get('discriminator')}" if author.get("discriminator") \
                not in (None, "0000") else author_id
            tally.note(f"two Discord authors are named {name!r}: kept apart as '{name} ({tag})'")
            name = f"{name} ({tag})"
        out[author_id] = name
    return out
