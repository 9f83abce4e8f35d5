"""Claude.ai exports (``conversations.json``): a list of conversations, each with its
``chat_messages`` (sender "human" or "assistant"), parsed whole.

Each conversation is a group named by its uuid; the report gives its name. The human's messages
are stored with the speaker "user", as ChatGPT exports name them, so both exports of one person
share a speaker (an identities file can name them). A message's text is its ``text`` (or the text
parts of its ``content``); an attachment's extracted text is what a file said, not what the
speaker said, and is left out (counted in the report's notes).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from .messages import ChatMessage, ReadError, build_message, is_text
from .tally import EMPTY, MEDIA, Tally

_SPEAKERS = {"human": "user", "assistant": "assistant"}


def claude_messages(doc: Any, file: str, *, tally: Tally | None = None) -> Iterator[ChatMessage | ReadError]:
    tally = tally if tally is not None else Tally()
    attachments = 0
    for index, conversation in enumerate(doc if isinstance(doc, list) else [doc], start=1):
        if not isinstance(conversation, dict) or not isinstance(conversation.get("chat_messages"), list):
            yield ReadError(file=file, line=index, reason="conversation has no 'chat_messages' list")
            continue
        group = str(conversation["uuid"]) if is_text(conversation.get("uuid")) else None
        name = conversation.get("name")
        tally.conversation(group, name if isinstance(name, str) and name.strip() else None)
        for message in conversation["chat_messages"]:
            if not isinstance(message, dict):
                yield ReadError(file=file, line=index, reason="a message is not a JSON object")
                continue
            attached = [a for a in message.get("attachments") or [] if isinstance(a, dict)]
            attachments += sum(1 for a in attached if a.get("extracted_content"))
            sender = message.get("sender")
            label = f"message {message.get('uuid')}"
            if sender not in _SPEAKERS:
                yield ReadError(file=file, line=index, reason=f"{label}: sender {sender!r} is neither "
                                "'human' nor 'assistant'"[:200])
                continue
            text = _text(message)
            if not text.strip():
                tally.skip(MEDIA if attached or message.get("files") else EMPTY)
                continue
            source_id = str(message["uuid"]) if is_text(message.get("uuid")) else None
            fields = {"group_id": group, "speaker": _SPEAKERS[sender], "content": text,
                      "timestamp": message.get("created_at"), "source_id": source_id}
            if fields["timestamp"] is None:
                del fields["timestamp"]
            yield build_message(fields, file=file, line=index, default_source_id=source_id or label,
                                label=label)
    if attachments:
        tally.note(f"the extracted text of {attachments} attachment(s) left out: a file's words, not "
                   "the speaker's")
    tally.note("the sender 'human' is stored as the speaker 'user', as in ChatGPT exports")


def _text(message: dict[str, Any]) -> str:
    text = message.get("text")
    if isinstance(text, str) and text.strip():
        return text
    parts = message.get("content")
    if isinstance(parts, list):
        return "\n".join(p["text"] for p in parts if isinstance(p, dict) and p.get("type") == "text"
                         and isinstance(p.get("text"), str))
    return ""
