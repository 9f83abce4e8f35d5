"""Structured LLM calls: ``LLMClient`` asks for an answer shaped like a pydantic model.

- ``client.py``      :class:`LLMClient`, the policy (configuration, cache, retries, validation, usage)
- ``transport.py``   what a transport is (:class:`LLMRequest` in, :class:`LLMResponse` out)
- ``openai.py``      the real transport (OpenAI-compatible endpoints, local servers' quirks)
- ``retry.py``       which failures are retried, the backoff, the in-flight gate
- ``cache.py``       :class:`ResponseCache`, validated answers on disk
- ``validation.py``  the strict reading of an answer
- ``usage.py``       :class:`LLMUsage`, the counters
- ``testing.py``     test doubles (``ScriptedLLM``, ``ScriptedTransport``); never imported here
"""

from .cache import ResponseCache
from .client import LLMClient
from .openai import OpenAITransport
from .transport import LLMRequest, LLMResponse, ResponseFormat, TransientLLMError, Transport
from .usage import LLMUsage

__all__ = [
    "LLMClient",
    "LLMRequest",
    "LLMResponse",
    "LLMUsage",
    "OpenAITransport",
    "ResponseCache",
    "ResponseFormat",
    "Transport",
    "TransientLLMError",
]
