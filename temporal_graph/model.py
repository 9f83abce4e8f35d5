"""The typed records users see and stores keep (pydantic v2, frozen)."""

from __future__ import annotations

from datetime import datetime
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

_FROZEN = ConfigDict(frozen=True)


def _covers(start: datetime | None, end: datetime | None, moment: datetime) -> bool:
    """Half-open ``[start, end)``; a ``None`` start is "since forever", a ``None`` end is open."""
    return (start is None or start <= moment) and (end is None or moment < end)


class Episode(BaseModel):
    """One message or document the memory was told."""

    model_config = _FROZEN

    id: str
    group_id: str
    content: str
    reference_time: datetime
    created_at: datetime
    speaker: str | None = None
    source: str = "message"
    source_id: str | None = None  # e.g. a LoCoMo dia_id or a line number of an imported file


class Entity(BaseModel):
    model_config = _FROZEN

    id: str
    group_id: str
    name: str
    type: str = "Entity"
    aliases: tuple[str, ...] = ()
    summary: str = ""
    created_at: datetime


class Fact(BaseModel):
    """One version of a fact: immutable except that ``expired_at`` is set once."""

    model_config = _FROZEN

    id: str
    fact_id: str
    group_id: str
    subject: str
    relation: str
    object: str
    subject_id: str
    object_id: str
    text: str
    valid_at: datetime | None
    invalid_at: datetime | None
    created_at: datetime
    expired_at: datetime | None = None
    episode_ids: tuple[str, ...] = ()
    confidence: float = 1.0
    attributes: dict[str, Any] = Field(default_factory=dict)

    @property
    def claimed_by(self) -> str | None:
        """The speaker this fact is attributed to when someone said it about another person
        (see ``trust``); None for the memory's own belief."""
        value = self.attributes.get("claimed_by")
        return value if isinstance(value, str) else None

    def valid_at_time(self, moment: datetime) -> bool:
        return _covers(self.valid_at, self.invalid_at, moment)

    def known_at(self, moment: datetime) -> bool:
        return self.created_at <= moment and (self.expired_at is None or moment < self.expired_at)


AssertionKind = Literal["start", "end", "retract"]


class Assertion(BaseModel):
    """What one write told the memory about (subject, relation): the input the timeline is derived from.

    ``start``: ``object`` held from ``at`` (``None``: since forever) until ``until`` (``None``: open).
    ``end``: ``object`` (``None``: whatever held) stopped holding at ``at``.
    ``retract``: every earlier assertion about ``object`` was wrong.
    Assertions are append-only; rows (facts) are a pure function of the live assertions.
    """

    model_config = _FROZEN

    id: str
    group_id: str
    subject_id: str
    relation: str
    object_id: str | None
    kind: AssertionKind
    at: datetime | None = None
    until: datetime | None = None
    created_at: datetime
    seq: int = 0  # arrival order within the same created_at, for deterministic ties
    episode_id: str | None = None
    text: str = ""
    confidence: float = 1.0
    attributes: dict[str, Any] = Field(default_factory=dict)


class Diff(BaseModel):
    """What changed in valid time between two moments, as currently believed."""

    model_config = _FROZEN

    start: datetime
    end: datetime
    started: list[Fact]  # valid_at in [start, end)
    ended: list[Fact]  # invalid_at in [start, end)
    revised: list[Fact]  # versions written in [start, end) that replaced an earlier version


class Path(BaseModel):
    """A chain of facts, each hop's object being the next hop's subject."""

    model_config = _FROZEN

    hops: list[Fact]

    @property
    def start(self) -> str:
        return self.hops[0].subject

    @property
    def end(self) -> str:
        return self.hops[-1].object

    def __len__(self) -> int:
        return len(self.hops)


class SearchHit(BaseModel):
    model_config = _FROZEN

    kind: Literal["fact", "entity", "episode"]
    score: float
    reasons: list[str]  # why it matched, e.g. ["bm25 #1", "embedding #3", "neighbour of Alice"]
    fact: Fact | None = None
    entity: Entity | None = None
    episode: Episode | None = None

    @property
    def text(self) -> str:
        if self.fact is not None:
            return self.fact.text
        if self.entity is not None:
            return self.entity.name
        assert self.episode is not None
        return self.episode.content


class Answer(BaseModel):
    model_config = _FROZEN

    question: str
    text: str
    facts: list[Fact] = Field(default_factory=list)
    known: bool = True  # False when the memory does not know; the text then says so


class IngestResult(BaseModel):
    """What one ``add_episode`` did."""

    model_config = _FROZEN

    episode: Episode
    added: list[Fact] = Field(default_factory=list)
    merged: list[Fact] = Field(default_factory=list)
    ended: list[Fact] = Field(default_factory=list)
    retracted: list[Fact] = Field(default_factory=list)
    entities_created: list[Entity] = Field(default_factory=list)
    entities_matched: list[Entity] = Field(default_factory=list)
    skipped: bool = False  # the episode was already in the memory
    warnings: list[str] = Field(default_factory=list)


class ImportLineError(BaseModel):
    """A line or record of an import file that was reported and skipped."""

    model_config = _FROZEN

    file: str
    line: int  # 1-based line, or record index for JSON files
    reason: str


class ImportReport(BaseModel):
    """What one ``import_file`` did."""

    path: str
    format: str
    episodes_read: int = 0
    episodes_imported: int = 0
    episodes_skipped: int = 0
    facts_added: int = 0
    facts_ended: int = 0
    facts_retracted: int = 0
    facts_merged: int = 0
    entities_created: int = 0
    errors: list[ImportLineError] = Field(default_factory=list)
    # Reused message ids whose text differs from the message already stored under that id.
    conflicts: list[ImportLineError] = Field(default_factory=list)
    groups: dict[str, int] = Field(default_factory=dict)  # group written -> messages of the file in it
    seconds: float = 0.0
