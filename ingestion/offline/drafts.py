"""A fact being assembled by the offline rules, before it becomes an immutable ExtractedFact."""

from __future__ import annotations

from dataclasses import dataclass, field

from temporal_graph.core.extraction import StatementKind
from temporal_graph.core.time import TimeMatch


@dataclass
class Draft:
    """A fact being assembled; ``extra`` carries what the wording needs ("kin", "species") and marks
    ("unnamed": a relative the chat did not name, "Priya's sister")."""

    subject: str
    relation: str
    object: str
    object_type: str
    kind: StatementKind = "state"
    time: TimeMatch | None = None
    replaces: str | None = None
    det: str | None = None
    extra: dict[str, str] = field(default_factory=dict)
    confidence: float = 0.9
    future: bool = False  # told as still to come: its time phrase names the next such time
    subject_type: str = "Person"
