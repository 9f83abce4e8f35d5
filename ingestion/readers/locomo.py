"""LoCoMo benchmark JSON: a list of samples (or a single sample object), parsed whole."""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from datetime import timedelta
from typing import Any

from .messages import ChatMessage, ReadError, build_message, is_text
from .timestamps import parse_timestamp

_PHOTO_PREFIX = re.compile(r"^\s*an?\s+(photo|photography|picture|image)\s+of\s+", re.IGNORECASE)
_SESSION_KEY = re.compile(r"session_(\d+)")


def locomo_messages(doc: Any, file: str) -> Iterator[ChatMessage | ReadError]:
    """Turns of LoCoMo samples, session by session.

    Each turn takes its session's time plus one second per turn index, so turns keep their
    order. A turn that shares a photo has its ``blip_caption`` appended to the text as
    "[shares a photo of ...]", since the caption often carries the fact the turn is about.
    ``line`` is the 1-based index of the sample in the file; reasons name the turn.
    """
    samples = doc if isinstance(doc, list) else [doc]
    for index, sample in enumerate(samples, start=1):
        if not isinstance(sample, dict) or not isinstance(sample.get("conversation"), dict):
            yield ReadError(file=file, line=index, reason="sample has no 'conversation' object")
            continue
        raw_id = sample.get("sample_id")
        sample_id = str(raw_id) if is_text(raw_id) else None
        prefix = sample_id or f"sample-{index}"
        conversation = sample["conversation"]
        for number, turns in _locomo_sessions(conversation):
            label = f"{prefix} session_{number}"
            raw_time = conversation.get(f"session_{number}_date_time")
            try:
                if raw_time is None:
                    raise ValueError(f"no session_{number}_date_time")
                start = parse_timestamp(raw_time)
            except ValueError as exc:
                reason = f"{label}: {exc}; its {len(turns)} turns were skipped"
                yield ReadError(file=file, line=index, reason=reason)
                continue
            for position, turn in enumerate(turns):
                if not isinstance(turn, dict):
                    reason = f"{label}: turn {position + 1} is not an object"
                    yield ReadError(file=file, line=index, reason=reason)
                    continue
                dia_id = turn.get("dia_id") or f"D{number}:{position + 1}"
                source_id = f"{prefix}:{dia_id}"
                fields = {
                    "group_id": sample_id,
                    "speaker": turn.get("speaker"),
                    "content": _locomo_text(turn),
                    "timestamp": start + timedelta(seconds=position),
                    "source_id": source_id,
                }
                yield build_message(
                    fields, file=file, line=index, default_source_id=source_id, label=source_id
                )


def _locomo_sessions(conversation: Mapping[str, Any]) -> list[tuple[int, list[Any]]]:
    """(session number, turns) in numeric order; sessions listed only by date are ignored."""
    sessions = []
    for key, value in conversation.items():
        match = _SESSION_KEY.fullmatch(key)
        if match and isinstance(value, list):
            sessions.append((int(match.group(1)), value))
    return sorted(sessions, key=lambda item: item[0])


def _locomo_text(turn: Mapping[str, Any]) -> Any:
    text = turn.get("text")
    caption = turn.get("blip_caption")
    if not isinstance(caption, str) or not caption.strip():
        return text
    shared = f"[shares a photo of {_PHOTO_PREFIX.sub('', caption.strip())}]"
    if isinstance(text, str) and text.strip():
        return f"{text.strip()} {shared}"
    return shared
