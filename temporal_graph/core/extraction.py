"""What an extractor returns for one episode, and the protocol extractors implement.

The schema is what the LLM is asked to fill (structured outputs) and what the offline extractor
produces, so the rest of the pipeline cannot tell them apart. Times are kept *as written*
("last March", "in 2019"); the pipeline resolves them in code against the episode's reference time.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any, Literal, Protocol, runtime_checkable

from pydantic import BaseModel, ConfigDict, Field, field_validator

from .model import Episode

StatementKind = Literal["state", "ending", "correction", "denial"]


class ExtractedEntity(BaseModel):
    model_config = ConfigDict(frozen=True)

    name: str = Field(description="The entity's name as written; the speaker's own name for I/me/my.")
    type: str = Field(default="Entity",
                      description="Person, Place, Organization, Role, Animal, Activity, Thing, ...")


class ExtractedFact(BaseModel):
    model_config = ConfigDict(frozen=True)

    subject: str = Field(description="Who or what the fact is about (an entity name).")
    relation: str = Field(description="UPPER_SNAKE relation, e.g. LIVES_IN, WORKS_AT, LIKES.")
    object: str = Field(description="The other entity or value.")
    text: str = Field(description="The fact as one short sentence in the third person.")
    kind: StatementKind = Field(
        default="state",
        description="state: the fact holds (from its start); ending: it stopped holding; "
        "correction: an earlier statement of this relation was wrong and this object is right; "
        "denial: the subject says it never held or does not hold ('I never worked at Globex').",
    )
    time_text: str | None = Field(
        default=None, description="When it started (or ended, for an ending), exactly as written."
    )
    end_time_text: str | None = Field(
        default=None, description="When it stopped holding, as written, if the same sentence says so."
    )
    replaces: str | None = Field(
        default=None, description="For a correction: the object that was wrong."
    )
    future: bool = Field(
        default=False,
        description="True when the sentence tells what is still to come (a plan, a move it schedules): "
        "its time then names the next such time ('in January' said in December is next January).",
    )
    subject_type: str | None = None
    object_type: str | None = None
    confidence: float = Field(default=1.0, ge=0.0, le=1.0)
    importance: int | None = Field(
        default=None,
        description="How much the fact matters to the person, 1 (trivia) to 10 (life-changing).",
    )

    @field_validator("importance", mode="before")
    @classmethod
    def _rating(cls, value: Any) -> int | None:
        """A model's rating is a hint: off the scale it is clamped, unreadable it is dropped
        (the ontology's table rates the fact instead), never a reason to lose the extraction."""
        if isinstance(value, bool) or not isinstance(value, (int, float, str)):
            return None
        try:
            number = float(value)
        except ValueError:
            return None
        return None if math.isnan(number) else min(10, max(1, round(number)))


class Extraction(BaseModel):
    model_config = ConfigDict(frozen=True)

    entities: list[ExtractedEntity] = Field(default_factory=list)
    facts: list[ExtractedFact] = Field(default_factory=list)


class Extractor(Protocol):
    """Turns one episode (with a few earlier ones of the same group as context) into facts."""

    def extract(self, episode: Episode, context: Sequence[Episode] = ()) -> Extraction: ...


# How a note about an LLM answer that could not be used begins (in ``IngestResult.warnings``; an
# import lists those messages in ``ImportReport.llm_failures``).
LLM_FAILED = "the LLM's answer for this message was not usable"


@runtime_checkable
class NotingExtractor(Extractor, Protocol):
    """An extractor that also says what went wrong reading a message (an LLM answer it could not
    use, facts it dropped); the ingestion pipeline puts the notes into ``IngestResult.warnings``."""

    def extract_with_notes(
        self, episode: Episode, context: Sequence[Episode] = ()
    ) -> tuple[Extraction, list[str]]: ...
