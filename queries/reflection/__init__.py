"""Reflection: insights derived from the facts, with their evidence, that expire when it does."""

from .draft import InsightDraft
from .producers import Evidence, LLMReflector, OfflineReflector, Reflector
from .reflecting import insight_sentence, insights, insights_for, reflect, weightiest

__all__ = ["Evidence", "InsightDraft", "LLMReflector", "OfflineReflector", "Reflector",
           "insight_sentence", "insights", "insights_for", "reflect", "weightiest"]
