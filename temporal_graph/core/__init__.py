"""The ground floor: the model, time, the bi-temporal rules, the writer, the stores and the
:class:`Core` bundle the layers receive. Nothing here imports ``ingestion``, ``queries``, the
facade or an interface (``tests/test_layers.py`` holds that)."""

from .bundle import (
    DEFAULT_GROUP,
    MAX_MESSAGE_CHARS,
    SUMMARY_CHARS,
    SUMMARY_LLM_EVERY,
    TRUST_MODES,
    Core,
    fact_order,
)

__all__ = [
    "DEFAULT_GROUP",
    "MAX_MESSAGE_CHARS",
    "SUMMARY_CHARS",
    "SUMMARY_LLM_EVERY",
    "TRUST_MODES",
    "Core",
    "fact_order",
]
