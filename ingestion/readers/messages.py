"""What every reader yields: a :class:`ChatMessage`, or a :class:`ReadError` for a line or record
that could not be read; and the one place a message is built from a record's fields."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import Any

from pydantic import BaseModel, ConfigDict, field_validator

from temporal_graph.core.errors import InvalidInput
from temporal_graph.core.limits import lone_surrogate
from temporal_graph.core.message_links import check_keys
from temporal_graph.core.time import to_utc

from .timestamps import parse_timestamp


class ChatMessage(BaseModel):
    """One chat turn, as read from a file, before any extraction."""

    model_config = ConfigDict(frozen=True)

    group_id: str | None  # the conversation id found in the file; None when the file has none
    speaker: str | None
    content: str
    timestamp: datetime  # aware UTC
    source_id: str  # stable within the file: "conv-26:D1:3", "line:12", a record's own id
    line: int  # 1-based line (JSONL, CSV) or 1-based conversation index (LoCoMo, ChatGPT)
    # The file it came from when an export has several (a Slack day file, a Telegram page); None:
    # the file the import was given.
    file: str | None = None
    # What the message is the record of (add_episode's key= / keys=), from a JSONL or CSV field.
    keys: tuple[str, ...] = ()

    @field_validator("timestamp", mode="before")
    @classmethod
    def _aware_utc(cls, value: Any) -> datetime:
        return to_utc(value, name="timestamp")


class ReadError(BaseModel):
    """A line or record that could not be read; the reader goes on after it."""

    model_config = ConfigDict(frozen=True)

    file: str
    line: int
    reason: str

    def __str__(self) -> str:
        return f"{self.file}:{self.line}: {self.reason}"


# Field names accepted in JSONL objects and CSV headers (case-insensitive, first match wins).
ALIASES: dict[str, tuple[str, ...]] = {
    "speaker": ("speaker", "role", "author", "name"),
    "content": ("text", "content", "message"),
    "timestamp": ("timestamp", "time", "date", "created_at"),
    "group_id": ("conversation", "conversation_id", "group", "group_id"),
    "source_id": ("id",),
    "keys": ("key", "keys"),
}


# What each field is, for ``tgraph import --help``: (the field, what it says), in the order shown.
_FIELD_HELP = (
    ("content", "the message (required)"),
    ("timestamp", "when it was said (required): ISO 8601, a date such as '8 May 2023', or epoch seconds"),
    ("speaker", "who said it"),
    ("group_id", "its conversation, the group it goes in (--group puts every message in one group "
                 "instead; neither: 'default')"),
    ("source_id", "its id in the file (importing it again is a no-op; default: line:N)"),
    ("keys", "what the message is the record of, e.g. Globex/payment_terms (a JSON list for several): "
             "a later message with the same key replaces it"),
)


def fields_help() -> str:
    """One line per field: its accepted names and what it is."""
    return "\n".join(f"  {' | '.join(ALIASES[field])}: {what}" for field, what in _FIELD_HELP)


def field_names(field: str) -> str:
    """The accepted names of a field, for messages: "text, content or message"."""
    aliases = ALIASES[field]
    return ", ".join(aliases[:-1]) + " or " + aliases[-1]


def pick_fields(record: Mapping[str, Any]) -> dict[str, Any]:
    """Map a JSONL object or CSV row onto the canonical field names (missing ones left out)."""
    lowered = {str(key).strip().lower(): value for key, value in record.items()}
    fields: dict[str, Any] = {}
    for field, aliases in ALIASES.items():
        present = [lowered[a] for a in aliases if a in lowered and lowered[a] is not None]
        # Prefer a non-empty value, but keep an empty one so the error can say "empty".
        filled = [v for v in present if not (isinstance(v, str) and not v.strip())]
        if filled or present:
            fields[field] = (filled or present)[0]
    return fields


def is_text(value: Any) -> bool:
    """A JSON value usable as an id: a string or an integer (not a boolean)."""
    return isinstance(value, (str, int)) and not isinstance(value, bool)


def build_message(
    fields: Mapping[str, Any], *, file: str, line: int, default_source_id: str, label: str = "",
    from_file: bool = False,
) -> ChatMessage | ReadError:
    """Validate canonical fields into a ChatMessage, or say precisely what is wrong. ``from_file``:
    the message keeps ``file`` as its own (an export of several files)."""
    where = f"{label}: " if label else ""

    def error(reason: str) -> ReadError:
        return ReadError(file=file, line=line, reason=where + reason)

    content = fields.get("content")
    if content is None:
        return error(f"no text (expected a field named {field_names('content')})")
    if not isinstance(content, str):
        return error(f"text must be a string, got {type(content).__name__}")
    if not content.strip():
        return error("text is empty")

    if "timestamp" not in fields:
        return error(f"no timestamp (expected a field named {field_names('timestamp')})")
    try:
        timestamp = parse_timestamp(fields["timestamp"])
    except ValueError as exc:
        return error(str(exc))

    try:
        speaker = _optional_text(fields.get("speaker"), "speaker")
        group_id = _group_text(fields.get("group_id"))
        source_id = _optional_text(fields.get("source_id"), "id") or default_source_id
        keys = _keys(fields.get("keys"))
    except ValueError as exc:
        return error(str(exc))

    checked = (("text", content), ("speaker", speaker), ("conversation id", group_id), ("id", source_id))
    for what, text in checked:
        if (surrogate := lone_surrogate(text or "")) is not None:
            return error(f"{what} contains the lone surrogate {surrogate!r}, which is not valid Unicode")

    return ChatMessage(
        group_id=group_id,
        speaker=speaker,
        content=content.strip(),
        timestamp=timestamp,
        source_id=source_id,
        line=line,
        file=file if from_file else None,
        keys=keys,
    )


def _keys(value: Any) -> tuple[str, ...]:
    """A message's keys: one key as text, or a list of them (JSON); each checked as a group id is."""
    if value is None or value == "":
        return ()
    try:
        return check_keys(keys=[value] if isinstance(value, str) else value)
    except InvalidInput as exc:
        raise ValueError(str(exc)) from None


def _group_text(value: Any) -> str | None:
    """A conversation id exactly as the file gives it (an empty one: none). It is never trimmed:
    " alice " is not the group "alice", and the importer refuses it (group ids are checked as
    ``check_group`` documents), so no two ids in a file are filed together by rewriting."""
    if value == "":
        return None
    if isinstance(value, str):
        return value
    return _optional_text(value, "conversation id")


def _optional_text(value: Any, what: str) -> str | None:
    """Text or None; numbers are accepted as text (a numeric conversation id is common)."""
    if value is None:
        return None
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        value = str(value)
    if not isinstance(value, str):
        raise ValueError(f"{what} must be text, got {value!r}"[:120])
    return value.strip() or None
