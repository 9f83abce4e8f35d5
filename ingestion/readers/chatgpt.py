"""ChatGPT ``conversations.json`` exports, parsed whole."""

from __future__ import annotations

import math
from collections.abc import Iterator, Mapping
from typing import Any

from .messages import ChatMessage, ReadError, build_message, is_text


def chatgpt_messages(doc: Any, file: str) -> Iterator[ChatMessage | ReadError]:
    """Messages of a ChatGPT ``conversations.json`` export, in create_time order.

    Only the branch the conversation ended on (``current_node`` back to the root) is read, so
    answers the user regenerated or edited away are left out; without ``current_node`` every
    node is read. System and tool messages, assistant calls addressed to a tool, hidden context
    messages and empty messages are skipped. ``speaker`` is the author role, "user" or
    "assistant"; rename "user" to the person's name before ingestion if facts should be about
    them by name. ``line`` is the 1-based index of the conversation in the file.
    """
    conversations = doc if isinstance(doc, list) else [doc]
    for index, conversation in enumerate(conversations, start=1):
        if not isinstance(conversation, dict) or not isinstance(conversation.get("mapping"), dict):
            yield ReadError(file=file, line=index, reason="conversation has no 'mapping' object")
            continue
        raw_id = conversation.get("conversation_id") or conversation.get("id")
        group_id = str(raw_id) if is_text(raw_id) else None
        picked = []
        for key, message in _chatgpt_branch(conversation["mapping"], conversation.get("current_node")):
            text = _chatgpt_text(message)
            if isinstance(text, ReadError):
                yield ReadError(file=file, line=index, reason=f"message {key!r}: {text.reason}")
            elif text is not None:
                picked.append((_sort_time(message.get("create_time")), key, message, text))
        if not picked:
            yield ReadError(file=file, line=index,
                            reason="conversation has no user or assistant message with text")
        picked.sort(key=lambda item: item[0])  # stable: ties keep branch order
        for _, key, message, text in picked:
            source_id = str(message.get("id") or key)
            fields = {
                "group_id": group_id,
                "speaker": message["author"]["role"],
                "content": text,
                "timestamp": message.get("create_time"),
                "source_id": source_id,
            }
            if fields["timestamp"] is None:
                del fields["timestamp"]  # so the error says "no timestamp"
            yield build_message(fields, file=file, line=index, default_source_id=source_id, label=source_id)


def _chatgpt_branch(mapping: Mapping[str, Any], current: Any) -> list[tuple[str, dict[str, Any]]]:
    """(node key, message) for the nodes of the active branch, root first."""
    keys: list[str] = []
    if isinstance(current, str) and current in mapping:
        seen: set[str] = set()
        node_key: Any = current
        while isinstance(node_key, str) and node_key in mapping and node_key not in seen:
            seen.add(node_key)
            keys.append(node_key)
            node = mapping[node_key]
            node_key = node.get("parent") if isinstance(node, dict) else None
        keys.reverse()
    else:
        keys = list(mapping)
    found = []
    for key in keys:
        node = mapping[key]
        message = node.get("message") if isinstance(node, dict) else None
        if isinstance(message, dict):
            found.append((key, message))
    return found


def _chatgpt_text(message: Mapping[str, Any]) -> str | ReadError | None:
    """The visible text of a user or assistant message, None to skip it (system, tool, hidden,
    empty), or a ReadError (reason only) when the message is malformed."""
    author = message.get("author")
    if not isinstance(author, dict) or not isinstance(author.get("role"), str):
        return ReadError(file="", line=0, reason="has no author role")
    role = author["role"]
    if role not in ("user", "assistant"):
        return None
    if message.get("recipient", "all") != "all":  # a call to a tool, not a reply to the user
        return None
    metadata = message.get("metadata")
    if isinstance(metadata, dict) and metadata.get("is_visually_hidden_from_conversation"):
        return None
    content = message.get("content")
    if not isinstance(content, dict):
        return ReadError(file="", line=0, reason=f"{role} message has no content object")
    parts = content.get("parts")
    if isinstance(parts, list):
        text = "\n".join(part for part in parts if isinstance(part, str))  # images are dicts
    elif isinstance(content.get("text"), str):
        text = content["text"]
    elif content.get("content_type") not in (None, "text", "multimodal_text"):
        return None  # code, browsing results and the like: not chat text
    else:
        return ReadError(file="", line=0, reason=f"{role} message content has no 'parts' list or 'text'")
    return text if text.strip() else None


def _sort_time(value: Any) -> float:
    if isinstance(value, (int, float)) and not isinstance(value, bool) and not math.isnan(value):
        return float(value)
    return math.inf  # unknown times last; they become ReadErrors anyway
