"""The model run by sentence-transformers on torch: the reference the ONNX export is checked
against, and the fallback when onnxruntime cannot be used. Importing torch and loading the model
takes several seconds, so it happens on first use."""

from __future__ import annotations

import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from .model_files import offline_hub, packaged_model_path


class SentenceTransformerEmbedder:
    """A sentence-transformers model from a local path; encodes in batches."""

    dimensions = 384
    runtime = "torch"

    def __init__(self, model_path: str | Path | None = None, *, batch_size: int = 64) -> None:
        self.model_path = model_path
        self.batch_size = batch_size
        self._model: Any = None
        self._lock = threading.Lock()

    def _load(self) -> Any:  # a SentenceTransformer
        with self._lock:
            if self._model is None:
                offline_hub()
                from sentence_transformers import SentenceTransformer
                from transformers.utils import logging as transformers_logging

                transformers_logging.disable_progress_bar()  # no loading bars in a CLI's output
                transformers_logging.set_verbosity_error()
                path = self.model_path or packaged_model_path()
                self._model = SentenceTransformer(str(path), device="cpu")
                dimension = (getattr(self._model, "get_embedding_dimension", None)
                             or self._model.get_sentence_embedding_dimension)
                self.dimensions = dimension() or 384
        return self._model

    @property
    def tokenizer(self) -> Any:  # a Hugging Face tokenizer
        return self._load().tokenizer

    def encode(self, texts: Sequence[str]) -> list[list[float]]:
        if not texts:
            return []
        vectors = self._load().encode(
            list(texts), batch_size=self.batch_size, normalize_embeddings=True, show_progress_bar=False
        )
        return [v.tolist() for v in vectors]
