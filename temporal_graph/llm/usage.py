"""Usage counters for cost reports, shared by every thread of one client."""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from typing import Any


@dataclass
class LLMUsage:
    """Counters for cost reports. ``calls`` counts every request sent, retries included."""

    calls: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    cache_hits: int = 0
    retries: int = 0
    invalid_outputs: int = 0
    calls_by_purpose: dict[str, int] = field(default_factory=dict)
    # True when token counts are estimates (len(text) // 4) rather than reported by a server.
    approximate_tokens: bool = False
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False, compare=False)

    def _add(self, **deltas: int) -> None:
        with self._lock:
            for name, delta in deltas.items():
                setattr(self, name, getattr(self, name) + delta)

    def _count_call(self, purpose: str) -> None:
        with self._lock:
            self.calls += 1
            self.calls_by_purpose[purpose] = self.calls_by_purpose.get(purpose, 0) + 1

    @property
    def total_tokens(self) -> int:
        return self.prompt_tokens + self.completion_tokens

    def as_dict(self) -> dict[str, Any]:
        with self._lock:
            return {
                "calls": self.calls,
                "prompt_tokens": self.prompt_tokens,
                "completion_tokens": self.completion_tokens,
                "total_tokens": self.prompt_tokens + self.completion_tokens,
                "cache_hits": self.cache_hits,
                "retries": self.retries,
                "invalid_outputs": self.invalid_outputs,
                "calls_by_purpose": dict(self.calls_by_purpose),
                "approximate_tokens": self.approximate_tokens,
            }

    def reset(self) -> None:
        with self._lock:
            self.calls = self.prompt_tokens = self.completion_tokens = 0
            self.cache_hits = self.retries = self.invalid_outputs = 0
            self.calls_by_purpose = {}

