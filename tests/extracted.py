"""What the offline extractor reads from one message told at a fixed moment, after earlier turns:
the opening every extraction test would otherwise write again."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime

from ingestion.offline import OfflineExtractor
from temporal_graph.core.extraction import ExtractedFact
from temporal_graph.core.model import Episode

REF = datetime(2024, 5, 8, 12, tzinfo=UTC)
EXTRACTOR = OfflineExtractor()


def extracted(text: str, speaker: str | None, earlier: Sequence[tuple[str | None, str]] = (),
              at: datetime = REF) -> list[ExtractedFact]:
    """The facts read from ``text`` said by ``speaker`` at ``at``, after the (speaker, text) turns."""
    turns = [Episode(id=f"c{i}", group_id="g", content=t, reference_time=at, created_at=at, speaker=s)
             for i, (s, t) in enumerate(earlier)]
    episode = Episode(id="e", group_id="g", content=text, reference_time=at, created_at=at, speaker=speaker)
    return EXTRACTOR.extract(episode, turns).facts
