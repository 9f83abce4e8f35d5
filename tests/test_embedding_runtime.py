"""The embedding runtime: onnxruntime on a checked ONNX export gives sentence-transformers' vectors
and token counts, is made once into the user cache, and when it cannot be made the memory embeds
with torch after one log line instead of failing."""

from __future__ import annotations

import logging
import shutil
import sys
from pathlib import Path

import numpy as np
import pytest

from temporal_graph.core.embedders import (
    OnnxEmbedder,
    SentenceTransformerEmbedder,
    TokenCounter,
    load_packaged_model,
    onnx_export,
    onnx_file,
    packaged_model_path,
)

MODEL = packaged_model_path()
TEXTS = ["Zhang Wei: I live in Hangzhou.", "Alice works at Acme", "Next month I move to Shanghai!",
         "Caroline: I went to a LGBTQ support group yesterday and it was so powerful.",
         "Ich wohne in Zürich 🙂", "我住在杭州。", "a", "",
         "Melanie: " + "We spent the whole weekend camping by the lake with the kids. " * 40]


def cosines(a: list[list[float]], b: list[list[float]]) -> np.ndarray:
    x, y = np.asarray(a), np.asarray(b)
    return (x * y).sum(1) / np.linalg.norm(x, axis=1) / np.linalg.norm(y, axis=1)


@pytest.mark.slow
def test_onnx_vectors_are_the_torch_vectors() -> None:
    onnx = OnnxEmbedder(onnx_file(MODEL), MODEL)
    torch = SentenceTransformerEmbedder(MODEL)
    assert cosines(onnx.encode(TEXTS), torch.encode(TEXTS)).min() >= 0.9999
    # One text alone or in a batch of any order: the same vector (padding does not leak in).
    alone = [onnx.encode([t])[0] for t in TEXTS]
    assert cosines(alone, onnx.encode(TEXTS[::-1])[::-1]).min() >= 0.9999
    assert all(abs(float(np.linalg.norm(v)) - 1) < 1e-5 for v in alone)


@pytest.mark.slow
def test_token_counts_are_the_hugging_face_tokenizers() -> None:
    from transformers import AutoTokenizer

    reference = AutoTokenizer.from_pretrained(str(MODEL))
    counter = TokenCounter(MODEL)
    for text in TEXTS:  # the long one runs past 256 tokens: counted whole, never cut
        assert counter.encode(text, add_special_tokens=False) == reference.encode(
            text, add_special_tokens=False, verbose=False)


def test_a_failed_export_falls_back_to_torch_once_per_process_and_is_not_retried(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    monkeypatch.setenv("TGRAPH_CACHE_DIR", str(tmp_path))
    calls: list[Path] = []

    def broken_export(model_path: Path, destination: Path) -> None:
        calls.append(destination)
        destination.write_bytes(b"half a file")
        raise RuntimeError("the exporter crashed")

    monkeypatch.setattr(onnx_export, "export", broken_export)
    with caplog.at_level(logging.WARNING, logger="temporal_graph.embeddings"):
        first = load_packaged_model(MODEL)
        second = load_packaged_model(MODEL)
    assert isinstance(first, SentenceTransformerEmbedder) and isinstance(second, SentenceTransformerEmbedder)
    assert len(calls) == 1  # the note it left spares the next process a minute of retrying
    fallbacks = [r.getMessage() for r in caplog.records if "embedding with torch" in r.getMessage()]
    assert len(fallbacks) == 2 and all("the exporter crashed" in m for m in fallbacks)
    assert "delete" in fallbacks[1] and "to try again" in fallbacks[1]
    assert [p.suffix for p in tmp_path.iterdir() if p.suffix != ".lock"] == [".failed"]  # no half file

    next(tmp_path.glob("*.failed")).unlink()  # as the message says: delete the note to retry
    load_packaged_model(MODEL)
    assert len(calls) == 2


def test_without_onnxruntime_torch_runs_the_model_and_nothing_is_exported(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    monkeypatch.setenv("TGRAPH_CACHE_DIR", str(tmp_path))
    monkeypatch.setitem(sys.modules, "onnxruntime", None)  # as if it were not installed
    monkeypatch.setattr(onnx_export, "export", lambda *args: pytest.fail("exported without onnxruntime"))
    with caplog.at_level(logging.WARNING, logger="temporal_graph.embeddings"):
        assert isinstance(load_packaged_model(MODEL), SentenceTransformerEmbedder)
    [line] = [r.getMessage() for r in caplog.records]
    assert "embedding with torch" in line and "onnxruntime" in line
    assert list(tmp_path.iterdir()) == []  # no note: installing onnxruntime is enough to use it


def test_an_export_whose_vectors_differ_is_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    good = onnx_file(MODEL)
    monkeypatch.setenv("TGRAPH_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setattr(onnx_export, "export", lambda model_path, destination: shutil.copy(good, destination))
    # The reference disagrees (as a broken export would): the file must not be trusted.
    monkeypatch.setattr(SentenceTransformerEmbedder, "encode",
                        lambda self, texts: np.roll(np.eye(len(texts), 384), 1, axis=0).tolist())
    assert isinstance(load_packaged_model(MODEL), SentenceTransformerEmbedder)
    assert not list((tmp_path / "cache").glob("*.onnx"))
    assert "differ" in next((tmp_path / "cache").glob("*.failed")).read_text()


@pytest.mark.slow
def test_a_fresh_cache_gets_a_checked_export(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """What the first embedding command on a new machine does (it takes up to a minute, once)."""
    monkeypatch.setenv("TGRAPH_CACHE_DIR", str(tmp_path / "fresh"))
    embedder = load_packaged_model(MODEL)
    assert isinstance(embedder, OnnxEmbedder)
    made = sorted(p.suffix for p in (tmp_path / "fresh").iterdir())
    assert made == [".lock", ".onnx"]  # no partial file, no failure note
    assert onnx_file(MODEL).parent == tmp_path / "fresh"  # found there from now on
    assert cosines(embedder.encode(TEXTS), SentenceTransformerEmbedder(MODEL).encode(TEXTS)).min() >= 0.9999
