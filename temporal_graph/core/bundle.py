"""``Core``: the small typed bundle the layers build on.

``ingestion`` and ``queries`` receive a :class:`Core` (the store, the clock and time parsing, the
ontology, the embedder, the LLM and the memory's settings), never the ``TemporalGraph`` facade:
the facade imports the layers, the layers import the core, and nothing points back up.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime, tzinfo
from typing import TYPE_CHECKING, Any, TypeVar

from .embeddings import Embedder, embedding_changes
from .errors import InvalidInput
from .identity import entity_named
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
    # Embed what each write adds, right after it commits (False: leave it to reindex()).
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
    # Called after each write commits, with its group and writer (the facade refreshes entity
    # summaries here); the layers never import the facade, so it hands them in.
    after_write: list[Callable[[str, FactWriter], None]] = field(default_factory=list)

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

    def write(
        self, group_id: str, fn: Callable[[FactWriter], T], *, embed: bool | None = None, hooks: bool = True
    ) -> T:
        """Run ``fn`` with a writer in one transaction of the store, at one transaction time; then
        (unless ``embed`` or the memory's ``embed`` setting is False) embed what it added, in one
        batch, so no read ever has to."""
        check_group(group_id)
        writers: list[FactWriter] = []

        def run(tx: Any) -> T:
            writers[:] = [FactWriter(tx, group_id, self.now(), self.ontology)]
            return fn(writers[0])

        result = self.store.write(run)
        if (self.embed if embed is None else embed) and writers:
            self.embed_records(writers[0].written(), known=writers[0].entity_vectors)
        for hook in self.after_write if writers and hooks else ():
            hook(group_id, writers[0])
        return result

    def embed_records(
        self, records: Sequence[Fact | Entity | Episode], known: Mapping[str, Sequence[float]] | None = None
    ) -> int:
        """Embed ``records`` in one batch and store their vectors; returns how many."""
        if not records:
            return 0
        changes = embedding_changes(self.embedder, records, known)
        self.store.write(lambda tx: tx.apply(changes))
        return len(records)
