"""What a producer of insights hands back: a draft, before it is stored as an :class:`Insight`."""

from __future__ import annotations

from datetime import datetime

from pydantic import BaseModel, ConfigDict, Field

from temporal_graph.core.model import DEFAULT_IMPORTANCE, Importance


class InsightDraft(BaseModel):
    """An insight a producer derived: its words, whom it is about, what it cites (fact version ids,
    episode ids), how much it matters and the valid-time span it speaks about. ``pattern`` names
    the rule and what it is about ("changes LIVES_IN"): a later draft with the same pattern and
    subjects revises it."""

    model_config = ConfigDict(frozen=True)

    text: str = Field(min_length=1)
    subject_ids: tuple[str, ...]
    subjects: tuple[str, ...]
    derived_from: tuple[str, ...] = Field(min_length=1)
    importance: Importance = DEFAULT_IMPORTANCE
    valid_at: datetime | None = None
    invalid_at: datetime | None = None
    pattern: str

    @property
    def key(self) -> tuple[str, tuple[str, ...]]:
        """What a revision shares with the insight it replaces."""
        return self.pattern, tuple(sorted(self.subject_ids))
