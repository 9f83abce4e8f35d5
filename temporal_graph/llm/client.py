"""The client for structured LLM calls: cache on disk, retry transient failures, validate.

Everything that is policy (caching, retries with backoff, schema validation, usage counting)
lives in :class:`LLMClient`. What actually sends a request is a *transport* (``transport.py``); the
real one, :class:`~temporal_graph.llm.openai.OpenAITransport`, is made from the configuration below.

Configuration (explicit arguments win over the environment):

- ``OPENAI_API_KEY``   the key (a placeholder is used for local servers that need none)
- ``OPENAI_BASE_URL``  e.g. ``https://api.deepseek.com/v1``, ``http://localhost:11434/v1`` (Ollama),
  ``http://localhost:8000/v1`` (vLLM), ``http://localhost:8080/v1`` (llama.cpp)
- ``TGRAPH_LLM_MODEL`` (or ``OPENAI_MODEL``)  the model name, default ``gpt-4o-mini``
- ``TGRAPH_LLM_RESPONSE_FORMAT``  ``json_schema`` (default, strict structured outputs) or
  ``json_object`` for endpoints that only offer JSON mode (e.g. DeepSeek); the schema then goes
  into the prompt and the answer is still validated here
  (with ``json_schema``, a server that rejects it, like llama.cpp's, is detected on the first call
  and the client falls back to ``json_object`` for good, saying so in one log line)
- ``TGRAPH_LLM_RULES_IN_USER`` ``1``: send the instructions inside the user message too (for chat
  templates that drop system messages); ``0``: never; unset: detected (an answer that ignores the
  rules is asked once more with them in the user message, and that choice is kept)
- ``TGRAPH_LLM_MAX_TOKENS`` the answer length limit per call, default 1024
- ``TGRAPH_LLM_TIMEOUT`` seconds per request, default 60; ``TGRAPH_LLM_RETRIES`` retries of a
  transient failure, default 4; ``TGRAPH_LLM_WORKERS`` requests in flight at once, default 4 (halved
  down to 1 whenever a request times out, for servers that answer one request at a time; a timeout
  with one in flight doubles the timeout, up to ten minutes)
- ``TGRAPH_CACHE_DIR`` the response cache directory, default ``~/.cache/temporal-graph/llm``
"""

from __future__ import annotations

import logging
import os
import random
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from typing import Any, Self, TypeVar

from pydantic import BaseModel

from ..core.errors import InvalidInput, LLMError, LLMOutputError, LLMUnavailable
from ..core.limits import positive_number, whole_number
from .cache import DEFAULT_CACHE_DIR, ResponseCache
from .openai import OpenAITransport
from .retry import AdaptiveGate, backoff_delay, is_sdk_error, is_timeout, is_transient
from .transport import LLMRequest, LLMResponse, ResponseFormat, Transport
from .usage import LLMUsage
from .validation import parse_answer

log = logging.getLogger(__name__)

T = TypeVar("T", bound=BaseModel)

DEFAULT_MODEL = "gpt-4o-mini"
DEFAULT_MAX_TOKENS = 1024
DEFAULT_TIMEOUT = 60.0
DEFAULT_RETRIES = 4
DEFAULT_WORKERS = 4


def _env_number(env: Mapping[str, str], name: str, kind: type, default: Any) -> Any:
    raw = env.get(name)
    if raw is None or raw == "":
        return default
    try:
        value = kind(raw)
    except ValueError:
        raise InvalidInput(f"{name}={raw!r} is not a number") from None
    if value < 0 or (kind is int and name != "TGRAPH_LLM_RETRIES" and value < 1):
        raise InvalidInput(f"{name}={raw!r} is out of range")
    return value


class LLMClient:
    """Structured calls to an OpenAI-compatible endpoint, cached, retried and validated.

    ``structured(messages, Schema, purpose=...)`` returns a ``Schema`` instance or raises:
    :class:`~temporal_graph.core.errors.LLMOutputError` when the answer does not validate (the caller
    decides what to keep), :class:`~temporal_graph.core.errors.LLMUnavailable` when transient failures
    outlast the retries, :class:`~temporal_graph.core.errors.LLMError` when the endpoint rejects the
    request (bad key, unknown model, unsupported response format).

    Safe to share between threads (batch import extracts in parallel).
    """

    def __init__(
        self,
        *,
        model: str | None = None,
        api_key: str | None = None,
        base_url: str | None = None,
        transport: Transport | None = None,
        cache_dir: str | os.PathLike[str] | None = None,
        cache: bool = True,
        max_retries: int | None = None,
        backoff_base: float = 0.5,
        backoff_max: float = 30.0,
        timeout: float | None = None,
        temperature: float | None = 0.0,
        response_format: ResponseFormat | None = None,
        max_tokens: int | None = None,
        concurrency: int | None = None,
        rules_in_user: bool | None = None,
        env: Mapping[str, str] | None = None,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        env = os.environ if env is None else env
        if max_retries is None:
            max_retries = _env_number(env, "TGRAPH_LLM_RETRIES", int, DEFAULT_RETRIES)
        max_retries = whole_number(max_retries, "LLM max_retries", (0, 100))
        if timeout is None:
            timeout = _env_number(env, "TGRAPH_LLM_TIMEOUT", float, DEFAULT_TIMEOUT)
        max_tokens = max_tokens if max_tokens is not None else _env_number(
            env, "TGRAPH_LLM_MAX_TOKENS", int, DEFAULT_MAX_TOKENS)
        self.concurrency = concurrency if concurrency is not None else _env_number(
            env, "TGRAPH_LLM_WORKERS", int, DEFAULT_WORKERS)
        self.concurrency = whole_number(self.concurrency, "LLM concurrency", (1, 256))
        max_tokens = whole_number(max_tokens, "LLM max_tokens", (1, 1_000_000))
        timeout = positive_number(timeout, "LLM timeout", most=86_400, unit=" of seconds")
        if rules_in_user is None and env.get("TGRAPH_LLM_RULES_IN_USER", "") != "":
            rules_in_user = env["TGRAPH_LLM_RULES_IN_USER"].strip().lower() in ("1", "true", "yes", "on")
        self.rules_in_user = rules_in_user
        self.timeout = timeout
        self.max_tokens = max_tokens
        self._gate = AdaptiveGate(self.concurrency)
        self._told_rules = False
        self.model = model or env.get("TGRAPH_LLM_MODEL") or env.get("OPENAI_MODEL") or DEFAULT_MODEL
        self.max_retries = max_retries
        self.backoff_base = backoff_base
        self.backoff_max = backoff_max
        self.usage = LLMUsage()
        self._sleep = sleep
        self._random = random.Random()

        if transport is None:
            base_url = base_url or env.get("OPENAI_BASE_URL") or None
            api_key = api_key or env.get("OPENAI_API_KEY") or None
            if api_key is None and base_url is None:
                raise LLMError(
                    "no LLM configured: set OPENAI_API_KEY (and optionally OPENAI_BASE_URL, "
                    "TGRAPH_LLM_MODEL) or pass api_key=/base_url= to LLMClient"
                )
            fmt = response_format or env.get("TGRAPH_LLM_RESPONSE_FORMAT") or "json_schema"
            if fmt not in ("json_schema", "json_object"):
                raise LLMError(f"response format {fmt!r} is not 'json_schema' or 'json_object'")
            transport = OpenAITransport(
                api_key=api_key or "not-needed",  # local servers (Ollama, llama.cpp) ignore it
                base_url=base_url,
                timeout=timeout,
                temperature=temperature,
                response_format=fmt,  # type: ignore[arg-type]
                max_tokens=max_tokens,
            )
            self.base_url = base_url
        else:
            self.base_url = base_url
        self.transport: Transport = transport

        if cache:
            directory = cache_dir or env.get("TGRAPH_CACHE_DIR") or DEFAULT_CACHE_DIR
            self.cache: ResponseCache | None = ResponseCache(directory)
        else:
            self.cache = None

    # -- configuration helpers

    @staticmethod
    def configured(env: Mapping[str, str] | None = None) -> bool:
        """Whether the environment names an endpoint (a key or a base URL)."""
        env = os.environ if env is None else env
        return bool(env.get("OPENAI_API_KEY") or env.get("OPENAI_BASE_URL"))

    @classmethod
    def from_env_or_none(cls, **kwargs: Any) -> LLMClient | None:
        """A client from the environment, or None when no LLM is configured (offline mode)."""
        return cls(**kwargs) if cls.configured(kwargs.get("env")) else None

    # -- the one call

    @property
    def response_format(self) -> str:
        """What the endpoint is asked for now (``json_object`` after a detected fallback)."""
        return getattr(self.transport, "response_format", "json_schema")

    def _key(
        self, messages: tuple[Mapping[str, str], ...], schema: type[BaseModel], rules_in_user: bool
    ) -> str:
        return ResponseCache.key(self.model, messages, schema, self.response_format, rules_in_user)

    def structured(self, messages: Sequence[Mapping[str, str]], schema: type[T], *, purpose: str) -> T:
        """Ask for an answer shaped like ``schema``; served from the cache when possible.

        An invalid answer is never cached. When it may come from a server that dropped the system
        message (JSON mode, rules not yet placed), it is asked once more with the rules in the user
        message; if that answer is valid, every later call does the same.
        """
        messages = tuple({"role": m["role"], "content": m["content"]} for m in messages)
        folded = bool(self.rules_in_user)
        if self.cache is not None:
            cached = self.cache.get(self._key(messages, schema, folded), schema)
            if cached is not None:
                self.usage._add(cache_hits=1)
                return cached

        request = LLMRequest(model=self.model, messages=messages, schema=schema, purpose=purpose,
                             rules_in_user=folded)
        response = self._send(request)
        try:
            value = self._validate(response, schema, purpose)
        except LLMOutputError:
            has_rules = any(m["role"] == "system" for m in messages)
            if self.rules_in_user is not None or not has_rules or self.response_format != "json_object":
                raise
            folded = True
            value = self._validate(self._send(replace(request, rules_in_user=True)), schema, purpose)
            if self.rules_in_user is None:
                self.rules_in_user = True
                log.warning("the LLM endpoint seems to ignore system messages in JSON mode; the instructions "
                            "now go in the user message (set TGRAPH_LLM_RULES_IN_USER to choose)")
        if self.cache is not None:
            self.cache.put(self._key(messages, schema, folded), value, model=self.model, purpose=purpose)
        return value

    def _send(self, request: LLMRequest) -> LLMResponse:
        attempt = 0
        while True:
            self.usage._count_call(request.purpose)
            try:
                with self._gate:
                    response = self.transport(request)
            except Exception as exc:
                if is_timeout(exc) and not self._gate.shrink():
                    # One request at a time and still too slow: give the server longer next time.
                    grow = getattr(self.transport, "grow_timeout", None)
                    if callable(grow):
                        grow()
                if not is_transient(exc):
                    if is_sdk_error(exc):
                        raise LLMError(
                            f"{request.purpose}: the LLM endpoint rejected the request "
                            f"(model {self.model!r}): {exc}"
                        ) from exc
                    raise
                if attempt >= self.max_retries:
                    raise LLMUnavailable(
                        f"{request.purpose}: the LLM endpoint failed {attempt + 1} time(s) in a row, "
                        f"giving up; last error: {type(exc).__name__}: {exc}"
                    ) from exc
                delay = backoff_delay(attempt, exc, base=self.backoff_base, ceiling=self.backoff_max,
                                      rng=self._random)
                log.info(
                    "%s: transient LLM error (%s), retry %d/%d in %.2fs",
                    request.purpose,
                    type(exc).__name__,
                    attempt + 1,
                    self.max_retries,
                    delay,
                )
                self.usage._add(retries=1)
                self._sleep(delay)
                attempt += 1
                continue
            self.usage._add(
                prompt_tokens=response.prompt_tokens, completion_tokens=response.completion_tokens
            )
            return response

    def _validate(self, response: LLMResponse, schema: type[T], purpose: str) -> T:
        try:
            return parse_answer(response, schema, purpose)
        except LLMOutputError:
            self.usage._add(invalid_outputs=1)
            raise

    # -- lifecycle

    def close(self) -> None:
        closer = getattr(self.transport, "close", None)
        if callable(closer):
            closer()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def __repr__(self) -> str:
        where = f" at {self.base_url}" if self.base_url else ""
        return f"{type(self).__name__}(model={self.model!r}{where})"


