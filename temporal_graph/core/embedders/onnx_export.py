"""The ONNX file of the embedding model: exported from the packaged model once per install, kept
in the user cache (:func:`~.model_files.cache_dir`), and trusted only after it gave the same vectors
as sentence-transformers.

The export needs torch, transformers and the ``onnx`` package (all installed with the project) and
takes up to a minute; every later process just opens the file. A failed export leaves a note
beside the file so that later processes fall back to torch at once instead of retrying; deleting
the note retries.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import logging
import os
import warnings
from collections.abc import Iterator
from pathlib import Path

import numpy as np

from .model_files import cache_dir, offline_hub

log = logging.getLogger("temporal_graph.embeddings")

EXPORT_RECIPE = 1  # bump when the export below changes: older files are then left unused
MIN_COSINE = 0.9999  # every probe's ONNX vector against sentence-transformers'
INPUTS = ("input_ids", "attention_mask", "token_type_ids")
# Short and long (past the 256-token cut), several scripts, empty: one mixed batch also checks padding.
PROBES = (
    "", "   ", "Hi!", "I live in Hangzhou.", "Zhang Wei works at Acme as a Go backend engineer since 2021.",
    "Next month I move to Shanghai!", "Ich wohne seit 2019 in Zürich.", "我住在杭州。",
    "Caroline 🏳️‍🌈 loves art",
    "Melanie: Hey Caroline! Good to see you! I'm swamped with the kids & work. What's up with you?",
    "2023-05-08T13:56:00+08:00 -- meeting moved to room 4B, bring the Q3 numbers (≈ $1.2M).",
    " ".join(["The memory keeps every statement, with when it held and when it was learned."] * 30),
)


class ExportFailed(RuntimeError):
    """No usable ONNX file: the export or its check failed (now or in an earlier process)."""


def onnx_file(model_path: Path) -> Path:
    """The checked ONNX export of the model at ``model_path``; made now when the cache has none."""
    target = cache_dir() / f"sentence-embedding-{fingerprint(model_path)}.onnx"
    if target.exists():
        return target
    note = target.with_suffix(".failed")
    target.parent.mkdir(parents=True, exist_ok=True)
    with _exclusive(target.with_suffix(".lock")):  # one exporter at a time; the others then find the file
        if target.exists():
            return target
        if note.exists():
            raise ExportFailed(f"the ONNX export failed before ({note.read_text().strip()}); "
                               f"delete {note} to try again")
        log.warning("temporal-graph: preparing the embedding model once: exporting it to ONNX in %s "
                    "(up to a minute)", target.parent)
        partial = target.with_suffix(f".{os.getpid()}.partial")
        try:
            export(model_path, partial)
            check(model_path, partial)
            os.replace(partial, target)
        except Exception as exc:
            reason = " ".join(f"{type(exc).__name__}: {exc}".split())[:500]
            note.write_text(reason + "\n")
            raise ExportFailed(f"the ONNX export failed ({reason}); delete {note} to try again") from exc
        finally:
            partial.unlink(missing_ok=True)
    return target


def fingerprint(model_path: Path) -> str:
    """Names the export of this model install: its weights file (path, size, time), its config and
    the export recipe. Reinstalling the model or changing the recipe makes a new file."""
    weights = next((model_path / name for name in ("model.safetensors", "pytorch_model.bin")
                    if (model_path / name).exists()), model_path)
    stat = weights.stat()
    config = model_path / "config.json"
    parts = [str(weights.resolve()), stat.st_size, stat.st_mtime_ns,
             config.read_text() if config.exists() else "", EXPORT_RECIPE]
    return hashlib.sha256(json.dumps(parts).encode()).hexdigest()[:16]


def export(model_path: Path, destination: Path) -> None:
    """Trace the transformer with mean pooling and L2 normalisation into one ONNX graph."""
    offline_hub()
    import torch
    from transformers import AutoModel
    from transformers.utils import logging as transformers_logging

    transformers_logging.set_verbosity_error()
    transformers_logging.disable_progress_bar()
    # Eager attention traces into plain MatMul/Softmax nodes, which onnxruntime optimises well.
    bert = AutoModel.from_pretrained(str(model_path), attn_implementation="eager").eval()

    class Pooled(torch.nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.bert = bert

        def forward(self, input_ids: torch.Tensor, attention_mask: torch.Tensor,
                    token_type_ids: torch.Tensor) -> torch.Tensor:
            hidden = self.bert(input_ids=input_ids, attention_mask=attention_mask,
                               token_type_ids=token_type_ids).last_hidden_state
            mask = attention_mask.unsqueeze(-1).to(hidden.dtype)
            mean = (hidden * mask).sum(1) / mask.sum(1).clamp(min=1e-9)
            return torch.nn.functional.normalize(mean, p=2, dim=1)

    sample = torch.ones((2, 8), dtype=torch.long)
    axes = {name: {0: "batch", 1: "tokens"} for name in INPUTS}
    with torch.no_grad(), warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the tracer's shape warnings: check() below is the judge
        torch.onnx.export(Pooled().eval(), (sample, sample, torch.zeros_like(sample)), str(destination),
                          input_names=list(INPUTS), output_names=["sentence_embedding"],
                          dynamic_axes={**axes, "sentence_embedding": {0: "batch"}}, opset_version=17,
                          dynamo=False)


def check(model_path: Path, onnx_path: Path) -> float:
    """The lowest cosine between the ONNX file's vectors and sentence-transformers' on the probes;
    raises when it is under :data:`MIN_COSINE`."""
    from .onnx_runtime import OnnxEmbedder
    from .torch_runtime import SentenceTransformerEmbedder

    got = np.asarray(OnnxEmbedder(onnx_path, model_path).encode(PROBES))
    want = np.asarray(SentenceTransformerEmbedder(model_path).encode(PROBES))
    cosine = float(((got * want).sum(1) / np.linalg.norm(got, axis=1) / np.linalg.norm(want, axis=1)).min())
    if not cosine >= MIN_COSINE:
        raise ExportFailed(f"its vectors differ from sentence-transformers' (lowest cosine {cosine:.6f})")
    log.info("ONNX export checked: lowest cosine %.7f on %d probes", cosine, len(PROBES))
    return cosine


@contextlib.contextmanager
def _exclusive(lock_path: Path) -> Iterator[None]:
    try:
        import fcntl
    except ImportError:  # not POSIX: the atomic rename alone keeps the file whole
        yield
        return
    with open(lock_path, "a") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)
