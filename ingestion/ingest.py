"""``Ingestion``: messages in, facts out, for one memory.

It owns what ingestion keeps between calls: the extractor (the one given, else the offline rules,
or the LLM extractor while the memory has an LLM) and the entity resolver. It is built from the
:class:`~temporal_graph.core.Core` and never from the facade, which holds one and calls it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import tzinfo
from pathlib import Path

from temporal_graph.core import DEFAULT_GROUP, Core
from temporal_graph.core.extraction import Extractor
from temporal_graph.core.model import Entity, ImportReport, IngestResult
from temporal_graph.core.time import TimeLike
from temporal_graph.llm import LLMClient

from .batch import BATCH_EPISODES, import_file
from .pipeline import (
    CONTEXT_EPISODES,
    apply_episode,
    expected_texts,
    extract,
    lookalike_warnings,
    make_episode,
    new_names,
)
from .resolution import EntityResolver


class Ingestion:
    """The write side from text: :meth:`add_episode` for one message, :meth:`import_file` for a log."""

    def __init__(self, core: Core, extractor: Extractor | None = None) -> None:
        self.core = core
        self._chosen = extractor
        self._default: tuple[LLMClient | None, Extractor] | None = None  # for the LLM it was made for
        self._resolver: tuple[LLMClient | None, EntityResolver] | None = None  # for the LLM it was made for

    # -- what it keeps -------------------------------------------------------------------------
    @property
    def extractor(self) -> Extractor:
        """The extractor in use: the one set, else the LLM extractor while the memory has an LLM,
        else the offline rules."""
        if self._chosen is not None:
            return self._chosen
        llm = self.core.llm
        if self._default is None or self._default[0] is not llm:
            self._default = (llm, default_extractor(self.core))
        return self._default[1]

    @extractor.setter
    def extractor(self, value: Extractor | None) -> None:
        """Use ``value`` from now on (None: back to the default choice)."""
        self._chosen = value

    def resolver(self, embed: bool | None = None) -> EntityResolver:
        """The entity resolver: by name only when embedding is off (a bulk load); else by name, and
        with an LLM also by its choice among the names close in the store's entity vector index
        (one resolver per LLM, kept across calls)."""
        if not (self.core.embed if embed is None else embed):
            return EntityResolver(embed=None)
        llm = self.core.llm
        if self._resolver is None or self._resolver[0] is not llm:
            resolver = EntityResolver(embed=self._encode, nearest=self._nearest,
                                      disambiguate=self._disambiguate if llm is not None else None)
            self._resolver = (llm, resolver)
        return self._resolver[1]

    def _encode(self, names: list[str]) -> list[list[float]]:
        return self.core.embedder.encode(names)

    def _nearest(self, group_id: str, vector: Sequence[float], k: int) -> list[tuple[str, float]]:
        return self.core.store.vector_search(group_id, "entity", vector, k)

    def _disambiguate(self, name: str, candidates: list[Entity]) -> str | None:
        """One LLM call when names stay ambiguous; without an LLM, no match."""
        if self.core.llm is None:
            return None
        from .llm_extractor import disambiguate

        return disambiguate(self.core.llm, name, candidates)

    # -- the verbs -----------------------------------------------------------------------------
    def add_episode(
        self,
        content: str,
        *,
        reference_time: TimeLike,
        speaker: str | None = None,
        group_id: str = DEFAULT_GROUP,
        source: str = "message",
        source_id: str | None = None,
    ) -> IngestResult:
        """Extract facts from one message and apply them in one transaction; a message already
        stored (same ``source_id``, or same text and time) is skipped. The text is masked first
        (``core.mask``): what is stored, embedded and extracted is the masked text."""
        core = self.core
        episode, masked = make_episode(
            core, content, reference_time=reference_time, speaker=speaker, group_id=group_id,
            source=source, source_id=source_id, created_at=core.now(),
        )
        # Checked here to skip a costly extraction; apply_episode checks again inside the transaction.
        existing = core.store.episodes(group_id, ids=[episode.id])
        if existing:
            return IngestResult(episode=existing[0], skipped=True, masked=masked)
        context = core.store.recent_episodes(group_id, episode.reference_time, CONTEXT_EPISODES)
        extraction, warnings = extract(self.extractor, episode, context)
        warnings += lookalike_warnings(core, group_id, episode.speaker)
        resolver = self.resolver()
        resolver.prefetch(new_names(core, group_id, [extraction], [episode.speaker]))
        result = core.write(
            group_id, lambda w: apply_episode(core, w, episode, extraction, resolver, warnings),
            texts=expected_texts([episode], [extraction]),
        )
        return result.model_copy(update={"masked": masked})

    def import_file(
        self,
        path: str | Path,
        *,
        format: str = "auto",
        group_id: str | None = None,
        progress: bool = True,
        strict: bool = False,
        replay: bool = False,
        embed: bool | None = None,
        summaries: bool | None = None,
        batch_size: int = BATCH_EPISODES,
        speaker_aliases: Mapping[str, str] | None = None,
        tz: str | tzinfo | None = None,
        identities: str | Path | None = None,
        date_order: str = "auto",
    ) -> ImportReport:
        """Import a chat log or export: ordered, idempotent, resumable (see
        :func:`ingestion.batch.import_file`)."""
        return import_file(self.core, path, extractor=self.extractor, resolver=self.resolver(embed),
                           format=format, group_id=group_id, progress=progress, strict=strict,
                           replay=replay, embed=embed, summaries=summaries, batch_size=batch_size,
                           speaker_aliases=speaker_aliases, tz=tz, identities=identities,
                           date_order=date_order)


def default_extractor(core: Core) -> Extractor:
    """The LLM extractor when the memory has an LLM, else the offline rules."""
    if core.llm is not None:
        from .llm_extractor import LLMExtractor
        from .offline import OfflineExtractor

        # what the model returns unusable is read by the offline rules
        return LLMExtractor(core.llm, relations=sorted(core.ontology.cardinalities),
                            fallback=OfflineExtractor())
    from .offline import OfflineExtractor

    return OfflineExtractor()
