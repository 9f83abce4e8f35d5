"""Reflection: insights derived from the facts, with their evidence, that expire when it does."""

from .draft import InsightDraft
from .producers import Evidence, LLMReflector, OfflineReflector, Reflector
from .reflecting import insights, reflect

__all__ = ["Evidence", "InsightDraft", "LLMReflector", "OfflineReflector", "Reflector",
           "insights", "reflect"]
