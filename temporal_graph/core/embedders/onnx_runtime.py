"""The model run by onnxruntime from its ONNX export: the same vectors as sentence-transformers
(checked when the file is made) from a process that never imports torch, so a one-shot command
loads it in well under a second."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import numpy as np

from .model_files import TokenCounter, load_tokenizer, max_seq_length

# Texts per model run, of a length-sorted call. Small runs encode more texts per CPU-second
# (measured on LoCoMo chat turns, 2 cores): 158 at 8 against 101 at 64 and 72 at 128; 4 is as
# fast as 8, 2 slower again (benchmarks/import_floor.py --minibatch 2,4,8,64).
MODEL_BATCH = 8


class OnnxEmbedder:
    """Text in, unit vectors out: WordPiece tokens (the Rust tokenizer), the exported graph
    (transformer, mean pooling, L2 normalisation), length-sorted batches to pad little."""

    dimensions = 384
    runtime = "onnx"

    def __init__(self, onnx_path: Path, model_path: Path, *, batch_size: int = MODEL_BATCH,
                 threads: int | None = None) -> None:
        import onnxruntime

        options = onnxruntime.SessionOptions()
        options.graph_optimization_level = onnxruntime.GraphOptimizationLevel.ORT_ENABLE_ALL
        options.log_severity_level = 3  # errors only: its warnings would land in a CLI's output
        # Idle pool threads sleep instead of spinning: an import writes on its main thread while the
        # model encodes the next batch, and on two cores spinning workers starve that thread (same
        # vectors; measured ~15% more texts per CPU-second on a shared machine).
        options.add_session_config_entry("session.intra_op.allow_spinning", "0")
        if threads:
            options.intra_op_num_threads = threads
        self._session = onnxruntime.InferenceSession(str(onnx_path), options,
                                                     providers=["CPUExecutionProvider"])
        self._tokenizer = load_tokenizer(model_path, max_length=max_seq_length(model_path))
        self.tokenizer = TokenCounter(model_path)
        self.batch_size = batch_size

    def encode(self, texts: Sequence[str]) -> list[list[float]]:
        if not texts:
            return []
        tokens = [e.ids for e in self._tokenizer.encode_batch(list(texts))]
        order = sorted(range(len(tokens)), key=lambda i: -len(tokens[i]))
        vectors = np.empty((len(tokens), self.dimensions), dtype=np.float32)
        for start in range(0, len(order), self.batch_size):
            batch = order[start : start + self.batch_size]
            vectors[batch] = self._run([tokens[i] for i in batch])
        return vectors.tolist()

    def _run(self, batch: list[list[int]]) -> np.ndarray:
        ids = np.zeros((len(batch), max(map(len, batch))), dtype=np.int64)
        mask = np.zeros_like(ids)
        for row, tokens in enumerate(batch):
            ids[row, : len(tokens)] = tokens
            mask[row, : len(tokens)] = 1
        feeds = {"input_ids": ids, "attention_mask": mask, "token_type_ids": np.zeros_like(ids)}
        return self._session.run(None, feeds)[0]
