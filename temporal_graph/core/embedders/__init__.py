"""Running the embedding model: onnxruntime on the model's ONNX export by default (about half a
second to load, no torch in the process), sentence-transformers on torch as the reference and the
fallback. Both give the same vectors (cosine >= 0.9999, checked when the export is made), so
databases written by either are read by the other without a reindex."""

from __future__ import annotations

import logging
from pathlib import Path

from .model_files import TokenCounter, cache_dir, packaged_model_path
from .onnx_export import ExportFailed, onnx_file
from .onnx_runtime import OnnxEmbedder
from .torch_runtime import SentenceTransformerEmbedder

log = logging.getLogger("temporal_graph.embeddings")

__all__ = ["ExportFailed", "OnnxEmbedder", "SentenceTransformerEmbedder", "TokenCounter", "cache_dir",
           "load_packaged_model", "onnx_file", "packaged_model_path"]


def load_packaged_model(model_path: Path | None = None) -> OnnxEmbedder | SentenceTransformerEmbedder:
    """The model, loaded: on onnxruntime (exporting it first when the cache has no ONNX file), or on
    torch with one log line saying why when that cannot be done."""
    path = model_path or packaged_model_path()
    try:
        import onnxruntime  # noqa: F401 - first: without it, an export would be wasted (and noted as failed)

        return OnnxEmbedder(onnx_file(path), path)
    except Exception as exc:  # onnxruntime missing, export failed, unreadable cache: torch still works
        log.warning("temporal-graph: embedding with torch (slower to start): %s",
                    " ".join(f"{type(exc).__name__}: {exc}".split())[:300])
        return SentenceTransformerEmbedder(path)
