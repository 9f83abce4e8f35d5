"""When to try a request again, how long to wait, and how many to send at once.

Transient failures (connection, timeout, rate limit, server error) are retried with backoff;
everything else is final. The gate bounds requests in flight and shrinks after a timeout.
"""

from __future__ import annotations

import functools
import logging
import random
import threading

from .transport import TransientLLMError

log = logging.getLogger(__name__)


@functools.cache
def _sdk_transient_errors() -> tuple[type[BaseException], ...]:
    import openai

    # APITimeoutError is a subclass of APIConnectionError; listed for clarity.
    return (
        openai.APIConnectionError,
        openai.APITimeoutError,
        openai.RateLimitError,
        openai.InternalServerError,
    )


def is_transient(exc: BaseException) -> bool:
    if isinstance(exc, TransientLLMError):
        return True
    try:
        return isinstance(exc, _sdk_transient_errors())
    except ImportError:  # pragma: no cover - openai is a dependency, but stay usable without it
        return False


def is_sdk_error(exc: BaseException) -> bool:
    try:
        import openai
    except ImportError:  # pragma: no cover
        return False
    return isinstance(exc, openai.OpenAIError)


def is_timeout(exc: BaseException) -> bool:
    try:
        import openai
    except ImportError:  # pragma: no cover
        return False
    return isinstance(exc, openai.APITimeoutError | TimeoutError)


def _retry_after_seconds(exc: BaseException) -> float | None:
    """The server's Retry-After hint on a 429/503, when it gives one in seconds."""
    response = getattr(exc, "response", None)
    headers = getattr(response, "headers", None)
    if not headers:
        return None
    try:
        return float(headers.get("retry-after"))
    except (TypeError, ValueError):
        return None


def backoff_delay(attempt: int, exc: BaseException, *, base: float, ceiling: float,
                  rng: random.Random) -> float:
    """Seconds to wait before retry ``attempt + 1``: exponential with "equal jitter" (half fixed,
    half random, so parallel workers spread out), at least the server's Retry-After hint."""
    top = min(ceiling, base * (2**attempt))
    delay = top / 2 + rng.uniform(0, top / 2)
    hint = _retry_after_seconds(exc)
    if hint is not None:
        delay = max(delay, min(hint, ceiling))
    return delay


class AdaptiveGate:
    """At most ``limit`` requests in flight; a timeout halves the limit (down to one).

    A server with one slot queues parallel requests; the queued ones time out while it works on
    answers no one waits for. Fewer in flight after a timeout lets every request finish.
    """

    def __init__(self, limit: int) -> None:
        self.limit = max(1, limit)
        self._busy = 0
        self._cond = threading.Condition()

    def __enter__(self) -> None:
        with self._cond:
            while self._busy >= self.limit:
                self._cond.wait()
            self._busy += 1

    def __exit__(self, *exc_info: object) -> None:
        with self._cond:
            self._busy -= 1
            self._cond.notify_all()

    def shrink(self) -> bool:
        """Halve the limit; False when it already was one (then only more time can help)."""
        with self._cond:
            if self.limit > 1:
                self.limit //= 2
                log.warning("LLM request timed out with several in flight; sending at most %d at a time",
                            self.limit)
                return True
            return False

