"""``Core``: the small typed bundle the layers build on.

``ingestion`` and ``queries`` receive a :class:`Core` (the store, the clock and time parsing, the
ontology, the embedder, the LLM and the memory's settings), never the ``TemporalGraph`` facade:
the facade imports the layers, the layers import the core, and nothing points back up.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime, tzinfo
from typing import TYPE_CHECKING, Any, TypeVar

from .embeddings import Embedder, embedding_changes, encode_texts, item_text
from .errors import InvalidInput
from .identity import entities_named, entity_named
from .mask_policy import MaskingPolicy
from .model import Entity, Episode, Fact
from .names import check_group
from .ontology import Ontology
from .stores.protocol import Store
from .time import UTC, Clock, TimeLike, optional_utc, system_clock, to_utc
from .writer import FactWriter

if TYPE_CHECKING:  # the LLM client sits beside the core, not in it
    from ..llm import LLMClient

T = TypeVar("T")
DEFAULT_GROUP = "default"
# Longest message add_episode / import accept, in characters; longer ones are refused per message.
MAX_MESSAGE_CHARS = 250_000
TRUST_MODES = ("speaker", "all")
SUMMARY_CHARS = 600
SUMMARY_LLM_EVERY = 3


def fact_order(fact: Fact) -> tuple:
    """Valid-time order ("since forever" first), then transaction time, then names."""
    return (
        fact.valid_at is not None,
        fact.valid_at or datetime.min.replace(tzinfo=UTC),
        fact.created_at,
        fact.subject,
        fact.relation,
        fact.object,
        fact.id,
    )


@dataclass
class Core:
    """What every layer needs from the memory, and nothing else."""

    store: Store
    clock: Clock = system_clock
    ontology: Ontology = field(default_factory=Ontology.default_personal)
    llm: LLMClient | None = None
    zone: tzinfo = UTC
    # Embed what each write adds, in its transaction (False: leave it to reindex()).
    embed: bool = True
    max_message_chars: int = MAX_MESSAGE_CHARS
    # "speaker": what a speaker says about another person is a claim attributed to them;
    # "all": every statement counts alike, whoever says it.
    trust: str = "speaker"
    embedder_override: Embedder | None = None
    # Entity summaries (queries/summaries.py): longest summary in characters, and how many facts
    # an entity must gain before the LLM (when set) rewrites its summary.
    summary_chars: int = SUMMARY_CHARS
    summary_llm_every: int = SUMMARY_LLM_EVERY
    # Entity summaries are refreshed inside each write (False: leave them to refresh_summaries()),
    # by ``summarizer`` (the facade hands in queries.summaries'; the core never imports a layer).
    summaries: bool = True
    summarizer: Callable[[FactWriter], None] | None = None
    # What ingestion masks in messages before anything keeps them (ingestion/masking.py applies it).
    mask: MaskingPolicy = field(default_factory=MaskingPolicy)

    def __post_init__(self) -> None:
        if isinstance(self.max_message_chars, bool) or not isinstance(self.max_message_chars, int) \
                or self.max_message_chars < 1:
            raise InvalidInput(f"max_message_chars: {self.max_message_chars!r} is not a positive integer")
        for name in ("summary_chars", "summary_llm_every"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise InvalidInput(f"{name}: {value!r} is not a positive integer")
        if self.trust not in TRUST_MODES:
            raise InvalidInput(f"trust: {self.trust!r} is not one of {', '.join(TRUST_MODES)}")

    @property
    def embedder(self) -> Embedder:
        """The embedding model; loaded on first use (the offline all-MiniLM-L6-v2 by default)."""
        if self.embedder_override is None:
            from .embeddings import default_embedder

            self.embedder_override = default_embedder()
        return self.embedder_override

    # -- time ------------------------------------------------------------------------------------
    def now(self) -> datetime:
        """The clock's reading in UTC: the one place "now" is read."""
        return to_utc(self.clock())

    def time(self, value: TimeLike, name: str = "time") -> datetime:
        return to_utc(value, zone=self.zone, name=name)

    def optional_time(self, value: TimeLike | None, name: str = "time") -> datetime | None:
        return optional_utc(value, zone=self.zone, name=name)

    def time_or_now(self, value: TimeLike | None, name: str = "time") -> datetime:
        """``value`` read in the memory's zone, or now when it is None."""
        return self.now() if value is None else self.time(value, name)

    # -- reading and writing ---------------------------------------------------------------------
    def find_entity(self, name: str, group_id: str = DEFAULT_GROUP) -> Entity | None:
        """The entity ``name`` refers to: spelled exactly so, else case- and space-insensitively."""
        return entity_named(self.store, check_group(group_id), name)

    def find_entities(self, names: Iterable[str], group_id: str = DEFAULT_GROUP) -> dict[str, Entity | None]:
        """:meth:`find_entity` of each name, read together (two round trips at most on a server)."""
        return entities_named(self.store, check_group(group_id), names)

    def write(
        self, group_id: str, fn: Callable[[FactWriter], T], *, embed: bool | None = None,
        summaries: bool | None = None, texts: Iterable[str] = (),
        encoded: Mapping[str, Sequence[float]] | None = None,
    ) -> T:
        """Run ``fn`` with a writer in one transaction of the store, at one transaction time, and
        keep what is derived from its rows in that same transaction: the vectors of what it added
        (unless ``embed`` or the memory's ``embed`` setting is False) and the summaries of the
        entities whose facts it changed (unless ``summaries`` / the memory's setting is False). A
        crash at any point leaves either all of it or none of it.

        ``texts``: what the write is expected to embed (fact texts, names, episodes), encoded in
        one batch before the transaction opens, so the model does not run while the write lock is
        held; whatever else it adds is encoded inside the transaction. ``encoded``: vectors by text
        already computed (an import encodes its next batch while this one is written)."""
        check_group(group_id)
        embedding = self.embed if embed is None else embed
        summarize = self.summarizer if (self.summaries if summaries is None else summaries) else None
        ready: dict[str, Sequence[float]] = dict(encoded or {}) if embedding else {}
        if embedding:
            ready.update(encode_texts(self.embedder, (t for t in texts if t not in ready)))
        writers: list[FactWriter] = []

        def run(tx: Any) -> T:
            # A store may run this again (a retried transaction): each attempt has a fresh writer.
            writers[:] = [FactWriter(tx, group_id, self.now(), self.ontology,
                                     summarizing=summarize is not None)]
            w = writers[0]
            result = fn(w)
            if embedding:
                self._embed_written(w, ready)
            if summarize is not None and w.touched:
                w.read_ahead_summaries()
                summarize(w)
            elif w.touched:
                w.summaries_due(list(w.touched))
            return result

        result = self.store.write(run)
        for later in writers[0].after_commit if writers else ():
            later()
        return result

    def _embed_written(self, w: FactWriter, ready: Mapping[str, Sequence[float]]) -> None:
        """Store the vectors of what ``w`` added, in its transaction: from ``ready`` (encoded before
        it), the entity resolver's, an earlier version's with the same text, else encoded now."""
        records = w.written()
        if not records:
            return
        by_text = dict(ready)
        lacking = [r.fact_id for r in records if isinstance(r, Fact) and item_text(r) not in by_text]
        by_text.update(w.stored_fact_vectors(lacking))
        w.write_vectors(embedding_changes(self.embedder, records, known=w.entity_vectors, by_text=by_text))

    def embed_records(
        self, records: Sequence[Fact | Entity | Episode], known: Mapping[str, Sequence[float]] | None = None
    ) -> int:
        """Embed ``records`` in one batch and store their vectors; returns how many."""
        if not records:
            return 0
        changes = embedding_changes(self.embedder, records, known)
        self.store.write(lambda tx: tx.apply(changes))
        return len(records)
