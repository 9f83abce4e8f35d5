"""``Ingestion``: messages in, facts out, for one memory.

It owns what ingestion keeps between calls: the extractor (the one given, else the offline rules,
or the LLM extractor while the memory has an LLM) and the entity resolver. It is built from the
:class:`~temporal_graph.core.Core` and never from the facade, which holds one and calls it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from datetime import tzinfo
from functools import partial
from pathlib import Path

from temporal_graph.core import DEFAULT_GROUP, Core
from temporal_graph.core.errors import InvalidInput
from temporal_graph.core.extraction import Extractor
from temporal_graph.core.message_links import check_keys
from temporal_graph.core.model import Entity, Episode, ImportReport, IngestResult, Supersession
from temporal_graph.core.time import TimeLike
from temporal_graph.llm import LLMClient

from .batch import BATCH_EPISODES, import_file
from .pipeline import (
    CONTEXT_EPISODES,
    apply_episode,
    expected_texts,
    extract,
    held_episodes,
    lookalike_warnings,
    make_episode,
    names_and_speakers_read,
    new_names,
    speakers_read,
)
from .resolution import EntityResolver
from .superseding import SUPERSEDE_MATCHES, relink, superseded_messages


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
        key: str | None = None,
        keys: Sequence[str] | None = None,
    ) -> IngestResult:
        """Extract facts from one message and apply them in one transaction; a message already
        stored (same ``source_id``, or same text and time) is skipped. The text is masked first
        (``core.mask``): what is stored, embedded and extracted is the masked text. ``key`` /
        ``keys``: the message takes its place on each key's timeline (see
        :func:`~ingestion.pipeline.link_episode`)."""
        episode, masked = make_episode(
            self.core, content, reference_time=reference_time, speaker=speaker, group_id=group_id,
            source=source, source_id=source_id, created_at=self.core.now(),
        )
        return self._add(episode, masked, keys=check_keys(key, keys))

    def _add(self, episode: Episode, masked: dict[str, int], *, keys: Sequence[str] = (),
             supersedes: Sequence[Episode] = ()) -> IngestResult:
        core, group_id = self.core, episode.group_id
        resolver = self.resolver()
        # Whether it is held is checked here to skip a costly extraction (apply_episode checks again
        # inside the transaction); read with the turns before it, which a server store overlaps, and
        # with its speaker's keys. A write that embeds encodes its new names before it opens, so it
        # reads its names' keys after the extraction, its speaker's with them.
        first: list[Callable[[], object]] = [partial(held_episodes, core.store, group_id, [episode]),
                                             partial(core.store.recent_episodes, group_id,
                                                     episode.reference_time, CONTEXT_EPISODES)]
        if resolver.embed is None:
            first.append(partial(speakers_read, core, group_id, episode.speaker))
        told, context, *read = core.store.at_once(first)
        if (existing := told.get(episode.id)) is not None:
            return IngestResult(episode=existing, skipped=True, masked=masked)
        extraction, warnings = extract(self.extractor, episode, context)
        names = read[0] if read else names_and_speakers_read(core, group_id, extraction, episode.speaker)
        warnings += lookalike_warnings(names, group_id, episode.speaker)
        if resolver.embed is not None:  # which of its names are new is read only to encode them
            resolver.prefetch(new_names(names, group_id, [extraction], [episode.speaker]))
        result = core.write(
            group_id, lambda w: apply_episode(core, w, episode, extraction, resolver, warnings, keys=keys,
                                              supersedes=supersedes),
            texts=expected_texts([episode], [extraction]),
        )
        return result.model_copy(update={"masked": masked})

    def supersede(
        self,
        old: str | Sequence[str],
        content: str,
        *,
        reference_time: TimeLike,
        find: Callable[[str, str, int], list[Episode]],
        speaker: str | None = None,
        group_id: str = DEFAULT_GROUP,
        source: str = "message",
        source_id: str | None = None,
        dry_run: bool = False,
        limit: int = SUPERSEDE_MATCHES,
    ) -> Supersession:
        """Add ``content`` as a message that replaces the messages ``old`` names, from its
        reference time (see :meth:`TemporalGraph.supersede`). ``find(query, group_id, limit)``
        returns the current messages a query matches."""
        episode, masked = make_episode(
            self.core, content, reference_time=reference_time, speaker=speaker, group_id=group_id,
            source=source, source_id=source_id, created_at=self.core.now(),
        )
        matched = superseded_messages(self.core, old, group_id, find, limit)
        if dry_run:
            return Supersession(matched=matched, dry_run=True)
        told = held_episodes(self.core.store, group_id, [episode]).get(episode.id)
        if told is not None and not told.in_recall:
            raise InvalidInput(f"content: this message was told before as {told.id!r} and withdrawn "
                               "since; tell it with another source_id to supersede with it")
        result = self._add(episode, masked, supersedes=matched)
        if result.skipped:  # told before: it replaces what it does not replace yet
            result = self.core.write(group_id, lambda w: relink(w, result, matched))
        return Supersession(matched=matched, episode=result.episode, result=result, ended=result.ended,
                            retracted=result.retracted)

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
