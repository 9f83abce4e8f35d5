"""What a reader reports besides messages: the non-messages it skipped, by reason (counted, never
stored as speech), how it read the file (notes such as the day/month order it settled), and the
names of the conversations it found; and the error that refuses a file, saying what it looked like."""

from __future__ import annotations

from collections import Counter

from temporal_graph.core.errors import ImportFormatError

# Why a record of an export is not a message; a reader may add a detail in parentheses.
SYSTEM = "system message"  # no author: joins, group changes, encryption notices, service messages
MEDIA = "media without text"  # a photo, file, sticker or voice note with no words of the sender's
DELETED = "deleted message"
BOT = "bot message"
CALL = "call"
EMPTY = "empty message"


class Tally:
    """Filled by a reader as it goes; read once the reader is exhausted."""

    def __init__(self) -> None:
        self.skipped: Counter[str] = Counter()
        self.notes: list[str] = []
        self.conversations: dict[str, str] = {}  # conversation id -> its name in the export

    def skip(self, reason: str, count: int = 1) -> None:
        self.skipped[reason] += count

    def note(self, text: str) -> None:
        if text not in self.notes:
            self.notes.append(text)

    def conversation(self, conversation_id: str | None, name: str | None) -> None:
        if conversation_id and name and conversation_id != name:
            self.conversations[conversation_id] = name


class NotReadable(ImportFormatError):
    """A file refused as a whole: what it looked like (None: nothing we read) and why."""

    def __init__(self, file: str, reason: str, looks_like: str | None = None) -> None:
        self.file, self.reason, self.looks_like = file, reason, looks_like
        seen = f"looks like {looks_like}, but " if looks_like else ""
        super().__init__(f"{file}: {seen}{reason}")
