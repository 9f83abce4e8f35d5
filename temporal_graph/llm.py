"""A small client for structured LLM calls: cache on disk, retry transient failures, validate.

Everything that is policy (caching, retries with backoff, schema validation, usage counting)
lives in :class:`LLMClient`. What actually sends a request is a *transport*: a callable taking an
:class:`LLMRequest` and returning an :class:`LLMResponse` with the raw text. The real transport
(:class:`OpenAITransport`) talks to any OpenAI-compatible endpoint through the official ``openai``
SDK; :class:`ScriptedLLM` plugs in a transport that replays fixed answers, so tests and offline
demos run the very same cache, retry and validation code.

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

import functools
import hashlib
import json
import logging
import os
import random
import re
import tempfile
import threading
import time
import typing
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Literal, Self, TypeVar

from pydantic import BaseModel, ValidationError

from .core.errors import InvalidInput, LLMError, LLMOutputError, LLMUnavailable
from .core.extras import missing

log = logging.getLogger(__name__)

T = TypeVar("T", bound=BaseModel)
ResponseFormat = Literal["json_schema", "json_object"]

DEFAULT_MODEL = "gpt-4o-mini"
DEFAULT_CACHE_DIR = Path("~/.cache/temporal-graph/llm")
DEFAULT_MAX_TOKENS = 1024
DEFAULT_TIMEOUT = 60.0
DEFAULT_RETRIES = 4
DEFAULT_WORKERS = 4
MAX_TIMEOUT = 600.0  # a per-request timeout grows (after timeouts) up to this
# Bump when the cache file layout or key recipe changes, so old entries are simply missed.
# 2: the key covers the response format and where the rules went; answers are validated strictly.
_CACHE_VERSION = 2


# --------------------------------------------------------------------------- requests / responses


@dataclass(frozen=True)
class LLMRequest:
    """One structured call, as a transport sees it."""

    model: str
    messages: tuple[Mapping[str, str], ...]
    schema: type[BaseModel]
    purpose: str
    # Instructions (system messages) folded into the user message, for servers that drop them.
    rules_in_user: bool = False


@dataclass(frozen=True)
class LLMResponse:
    """What came back: the raw text (validated by the client, not the transport) and token counts."""

    text: str
    prompt_tokens: int = 0
    completion_tokens: int = 0
    finish_reason: str | None = None
    refusal: str | None = None


Transport = Callable[[LLMRequest], LLMResponse]


class TransientLLMError(Exception):
    """A failure worth retrying (raised by custom or scripted transports; the SDK has its own)."""


# --------------------------------------------------------------------------- usage


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


def approximate_tokens(text: str) -> int:
    """A rough token estimate (about four characters per token), for scripted runs only."""
    return len(text) // 4


# --------------------------------------------------------------------------- cache


class ResponseCache:
    """Validated answers on disk, one JSON file per request, keyed by a hash of the request.

    The key covers the model, the exact messages and the schema's JSON schema, so a changed
    prompt or schema is a miss, never a stale hit. Writes are atomic (temp file + rename), so
    parallel extraction and a crash mid-write leave no half-written entry.
    """

    def __init__(self, directory: str | os.PathLike[str]) -> None:
        self.directory = Path(directory).expanduser()

    @staticmethod
    def key(
        model: str, messages: Sequence[Mapping[str, str]], schema: type[BaseModel],
        response_format: str = "json_schema", rules_in_user: bool = False,
    ) -> str:
        material = {
            "v": _CACHE_VERSION,
            "model": model,
            "messages": [dict(m) for m in messages],
            "schema": schema.model_json_schema(),
            "format": response_format,
            "rules_in_user": rules_in_user,
        }
        blob = json.dumps(material, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
        return hashlib.sha256(blob.encode("utf-8")).hexdigest()

    def _path(self, key: str) -> Path:
        return self.directory / key[:2] / f"{key}.json"

    def get(self, key: str, schema: type[T]) -> T | None:
        path = self._path(key)
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
            return schema.model_validate(data["response"])
        except FileNotFoundError:
            return None
        except (OSError, ValueError, KeyError, TypeError, ValidationError) as exc:
            # A damaged entry is a miss; the fresh answer will overwrite it.
            log.warning("ignoring unreadable LLM cache entry %s: %s", path, exc)
            return None

    def put(self, key: str, value: BaseModel, *, model: str, purpose: str) -> None:
        path = self._path(key)
        entry = {
            "model": model,
            "purpose": purpose,
            "schema": type(value).__name__,
            "saved_at": time.time(),
            "response": value.model_dump(mode="json"),
        }
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".tmp-", suffix=".json")
            try:
                with os.fdopen(fd, "w", encoding="utf-8") as handle:
                    json.dump(entry, handle, ensure_ascii=False)
                os.replace(tmp, path)
            except BaseException:
                Path(tmp).unlink(missing_ok=True)
                raise
        except OSError as exc:
            # A read-only or full disk costs money on the next run, not correctness now.
            log.warning("could not write LLM cache entry %s: %s", path, exc)


# --------------------------------------------------------------------------- the client


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


def _is_transient(exc: BaseException) -> bool:
    if isinstance(exc, TransientLLMError):
        return True
    try:
        return isinstance(exc, _sdk_transient_errors())
    except ImportError:  # pragma: no cover - openai is a dependency, but stay usable without it
        return False


def _is_sdk_error(exc: BaseException) -> bool:
    try:
        import openai
    except ImportError:  # pragma: no cover
        return False
    return isinstance(exc, openai.OpenAIError)


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


def _strict_problems(data: Any, model: type[BaseModel], path: str = "", *, root: bool = True) -> list[str]:
    """What a lenient parse would let through: unknown keys anywhere, missing keys at the top.

    An answer that is valid JSON but not an answer (an echo of the input, ``{}``) must fail, not
    pass as "nothing to report" and be cached for good.
    """
    if not isinstance(data, dict):
        return [f"{path or '(root)'}: expected a JSON object"]
    fields = model.model_fields
    names = {f.alias or name for name, f in fields.items()}
    problems = [f"{path}{key}: unknown key" for key in data if key not in names]
    wanted = names if root else {f.alias or n for n, f in fields.items() if f.is_required()}
    problems += [f"{path}{key}: missing" for key in sorted(wanted - data.keys())]
    for name, f in fields.items():
        value = data.get(f.alias or name)
        inner = _model_in(f.annotation)
        if inner is None or value is None:
            continue
        items = value if isinstance(value, list) else [value]
        for i, item in enumerate(items):
            key = f.alias or name
            where = f"{path}{key}.{i}." if isinstance(value, list) else f"{path}{key}."
            problems += _strict_problems(item, inner, where, root=False)
    return problems


def _model_in(annotation: Any) -> type[BaseModel] | None:
    """The pydantic model inside ``Model``, ``list[Model]`` or ``Model | None``, if any."""
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return annotation
    for arg in typing.get_args(annotation):
        found = _model_in(arg)
        if found is not None:
            return found
    return None


class _AdaptiveGate:
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


def _is_timeout(exc: BaseException) -> bool:
    try:
        import openai
    except ImportError:  # pragma: no cover
        return False
    return isinstance(exc, openai.APITimeoutError | TimeoutError)


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


_FENCE = re.compile(r"^\s*```(?:json|JSON)?\s*\n?(.*?)\n?\s*```\s*$", re.DOTALL)


def _strip_fences(text: str) -> str:
    """Local models in JSON mode sometimes wrap the object in a Markdown code fence."""
    match = _FENCE.match(text)
    return match.group(1) if match else text


class _Invalid(Exception):
    def __init__(self, problems: list[str]) -> None:
        super().__init__("; ".join(problems))
        self.problems = problems


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
        if max_retries < 0:
            raise ValueError(f"max_retries must be >= 0, got {max_retries!r}")
        if timeout is None:
            timeout = _env_number(env, "TGRAPH_LLM_TIMEOUT", float, DEFAULT_TIMEOUT)
        max_tokens = max_tokens if max_tokens is not None else _env_number(
            env, "TGRAPH_LLM_MAX_TOKENS", int, DEFAULT_MAX_TOKENS)
        self.concurrency = concurrency if concurrency is not None else _env_number(
            env, "TGRAPH_LLM_WORKERS", int, DEFAULT_WORKERS)
        for name, value, low in (("concurrency", self.concurrency, 1), ("max_tokens", max_tokens, 1)):
            if value < low:
                raise InvalidInput(f"LLM {name} must be >= {low}, got {value!r}")
        if timeout <= 0:
            raise InvalidInput(f"LLM timeout must be > 0 seconds, got {timeout!r}")
        if rules_in_user is None and env.get("TGRAPH_LLM_RULES_IN_USER", "") != "":
            rules_in_user = env["TGRAPH_LLM_RULES_IN_USER"].strip().lower() in ("1", "true", "yes", "on")
        self.rules_in_user = rules_in_user
        self.timeout = timeout
        self.max_tokens = max_tokens
        self._gate = _AdaptiveGate(self.concurrency)
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
                if _is_timeout(exc) and not self._gate.shrink():
                    # One request at a time and still too slow: give the server longer next time.
                    grow = getattr(self.transport, "grow_timeout", None)
                    if callable(grow):
                        grow()
                if not _is_transient(exc):
                    if _is_sdk_error(exc):
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
                delay = self._backoff(attempt, exc)
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

    def _backoff(self, attempt: int, exc: BaseException) -> float:
        # Exponential with "equal jitter": half fixed, half random, so parallel workers spread out.
        ceiling = min(self.backoff_max, self.backoff_base * (2**attempt))
        delay = ceiling / 2 + self._random.uniform(0, ceiling / 2)
        hint = _retry_after_seconds(exc)
        if hint is not None:
            delay = max(delay, min(hint, self.backoff_max))
        return delay

    def _validate(self, response: LLMResponse, schema: type[T], purpose: str) -> T:
        if response.refusal:
            self.usage._add(invalid_outputs=1)
            raise LLMOutputError(f"{purpose}: the model refused to answer: {response.refusal}")
        text = _strip_fences(response.text or "")
        try:
            try:
                data = json.loads(text)
            except ValueError as exc:
                raise _Invalid([f"(root): not JSON ({exc})"]) from None
            strict = _strict_problems(data, schema)
            if strict:
                raise _Invalid(strict)
            return schema.model_validate(data)
        except (ValidationError, _Invalid) as exc:
            self.usage._add(invalid_outputs=1)
            if isinstance(exc, _Invalid):
                problems = "; ".join(exc.problems[:3])
            else:
                problems = "; ".join(
                    f"{'.'.join(str(p) for p in err['loc']) or '(root)'}: {err['msg']}"
                    for err in exc.errors()[:3]
                )
            cut = " (the answer was cut off at the token limit)" if response.finish_reason == "length" else ""
            error = LLMOutputError(
                f"{purpose}: the model's answer is not a valid {schema.__name__}{cut}: {problems}; "
                f"answer began {text[:160]!r}"
            )
            error.raw_text = response.text  # type: ignore[attr-defined]
            raise error from exc

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


# --------------------------------------------------------------------------- the real transport


def _rejects_format(exc: Any) -> bool:
    """An HTTP error that names the response format (a plain 500 "overloaded" stays transient)."""
    text = str(exc).lower()
    return exc.status_code in (400, 404, 415, 422, 500, 501) and any(
        word in text for word in ("response_format", "json_schema", "schema", "format"))


def _first_line(text: str, limit: int = 160) -> str:
    line = text.strip().splitlines()[0] if text.strip() else ""
    return line if len(line) <= limit else line[: limit - 1] + "…"


def _drop_defaults(node: Any) -> None:
    """Remove the ``default`` keyword from every subschema (not properties that happen to be
    called "default")."""
    if not isinstance(node, dict):
        return
    node.pop("default", None)
    for key in ("properties", "$defs", "definitions"):
        children = node.get(key)
        if isinstance(children, dict):
            for child in children.values():
                _drop_defaults(child)
    items = node.get("items")
    if isinstance(items, dict):
        _drop_defaults(items)
    for key in ("anyOf", "allOf", "oneOf"):
        variants = node.get(key)
        if isinstance(variants, list):
            for variant in variants:
                _drop_defaults(variant)


class OpenAITransport:
    """Sends a request through the official ``openai`` SDK (chat completions).

    The SDK's own retries are off (``max_retries=0``): :class:`LLMClient` retries, in one place.
    The raw text is returned unparsed so the client validates it and can report what was wrong.
    """

    def __init__(
        self,
        *,
        api_key: str,
        base_url: str | None = None,
        timeout: float = 60.0,
        temperature: float | None = 0.0,
        response_format: ResponseFormat = "json_schema",
        max_tokens: int | None = None,
    ) -> None:
        try:
            import openai
        except ImportError as exc:
            raise missing("llm", "the LLM client", exc) from None

        self._client = openai.OpenAI(api_key=api_key, base_url=base_url, timeout=timeout, max_retries=0)
        self._lock = threading.Lock()
        self.timeout = timeout
        self.temperature = temperature
        self.response_format = response_format
        self.max_tokens = max_tokens

    def _format_param(self, schema: type[BaseModel], response_format: ResponseFormat) -> dict[str, Any]:
        if response_format == "json_object":
            return {"type": "json_object"}
        from openai.lib._parsing import type_to_response_format_param

        # The SDK's own converter makes the schema "strict" the way the API wants it; it keeps
        # non-null defaults, which some providers (Azure) reject, and strict mode makes every
        # property required anyway, so they go.
        param: dict[str, Any] = dict(type_to_response_format_param(schema))  # type: ignore[arg-type]
        _drop_defaults(param["json_schema"]["schema"])
        return param

    def _messages(self, request: LLMRequest, response_format: ResponseFormat) -> list[dict[str, str]]:
        messages = [dict(m) for m in request.messages]
        if request.rules_in_user:
            # Some chat templates (llama.cpp's "gemma") drop system messages: the rules go first in
            # the user turn instead, so every server keeps them.
            rules = "\n\n".join(m["content"] for m in messages if m["role"] == "system")
            messages = [m for m in messages if m["role"] != "system"]
            users = [i for i, m in enumerate(messages) if m["role"] == "user"]
            if rules and users:
                first = users[0]
                content = f"INSTRUCTIONS\n{rules}\n\nINPUT\n{messages[first]['content']}"
                messages[first] = {"role": "user", "content": content}
            elif rules:
                messages.insert(0, {"role": "user", "content": rules})
        if response_format == "json_object":
            # JSON mode does not carry the schema, so it travels in the prompt, in the last user
            # message (kept by every chat template).
            schema = json.dumps(request.schema.model_json_schema(), ensure_ascii=False)
            note = ("Reply with a single JSON object (no prose, no code fence) matching this JSON schema, "
                    f"with every top-level key present and no other keys:\n{schema}")
            users = [i for i, m in enumerate(messages) if m["role"] == "user"]
            if users:
                last = users[-1]
                messages[last] = {"role": "user", "content": f"{messages[last]['content']}\n\n{note}"}
            else:
                messages.append({"role": "user", "content": note})
        return messages

    def _create(self, request: LLMRequest, response_format: ResponseFormat) -> Any:
        kwargs: dict[str, Any] = {
            "model": request.model,
            "messages": self._messages(request, response_format),
            "response_format": self._format_param(request.schema, response_format),
        }
        if self.temperature is not None:
            kwargs["temperature"] = self.temperature
        if self.max_tokens is not None:
            kwargs["max_tokens"] = self.max_tokens
        return self._client.with_options(timeout=self.timeout).chat.completions.create(**kwargs)

    def _create_with_fallback(self, request: LLMRequest) -> Any:
        """``json_schema`` first; a server that rejects it (llama.cpp answers HTTP 500) is asked the
        same in ``json_object`` mode at once, and when that works, JSON mode is used from then on."""
        import openai

        fmt = self.response_format
        try:
            return self._create(request, fmt)
        except openai.APIStatusError as exc:
            if fmt != "json_schema" or not _rejects_format(exc):
                raise
            try:
                completion = self._create(request, "json_object")
            except openai.APIStatusError:
                raise exc from None  # JSON mode fails too: not a format problem
            with self._lock:
                if self.response_format == "json_schema":
                    self.response_format = "json_object"
                    log.warning("the LLM endpoint rejects response_format json_schema (HTTP %s: %s); "
                                "using json_object with the schema in the prompt from now on",
                                exc.status_code, _first_line(str(exc)))
            return completion

    def __call__(self, request: LLMRequest) -> LLMResponse:
        completion = self._create_with_fallback(request)
        usage = completion.usage
        if not completion.choices:
            return LLMResponse(text="", prompt_tokens=usage.prompt_tokens if usage else 0)
        choice = completion.choices[0]
        message = choice.message
        return LLMResponse(
            text=message.content or "",
            prompt_tokens=(usage.prompt_tokens or 0) if usage else 0,
            completion_tokens=(usage.completion_tokens or 0) if usage else 0,
            finish_reason=choice.finish_reason,
            refusal=getattr(message, "refusal", None),
        )

    def grow_timeout(self) -> None:
        """Double the per-request timeout (up to ten minutes), for a server slower than it was given."""
        with self._lock:
            if self.timeout < MAX_TIMEOUT:
                self.timeout = min(self.timeout * 2, MAX_TIMEOUT)
                log.warning("LLM request timed out with one in flight; waiting up to %.0f s from now on",
                            self.timeout)

    def close(self) -> None:
        self._client.close()


# --------------------------------------------------------------------------- scripted (no network)

ScriptItem = str | BaseModel | Mapping[str, Any] | BaseException
Script = Sequence[ScriptItem] | Callable[[LLMRequest], ScriptItem]


class ScriptExhausted(LookupError):
    """A scripted client was asked more often than its script has answers."""


class ScriptedTransport:
    """Replays fixed answers: a list consumed in order, or a function of the request.

    An answer may be a pydantic model or a dict (sent as JSON), a string (sent as is, so invalid
    JSON can be scripted) or an exception instance (raised, e.g. ``TransientLLMError`` or an
    ``openai.APIConnectionError``, to exercise retries). Every request is recorded in
    ``requests``. Token counts are approximate (``len(text) // 4``).
    """

    def __init__(self, script: Script) -> None:
        self._script = script
        self._position = 0
        self._lock = threading.Lock()
        self.requests: list[LLMRequest] = []

    def _next(self, request: LLMRequest) -> ScriptItem:
        if callable(self._script):
            return self._script(request)
        with self._lock:
            if self._position >= len(self._script):
                raise ScriptExhausted(
                    f"scripted LLM has {len(self._script)} answer(s) and was asked for another "
                    f"(purpose {request.purpose!r})"
                )
            item = self._script[self._position]
            self._position += 1
            return item

    def __call__(self, request: LLMRequest) -> LLMResponse:
        with self._lock:
            self.requests.append(request)
        item = self._next(request)
        if isinstance(item, BaseException):
            raise item
        if isinstance(item, BaseModel):
            text = item.model_dump_json()
        elif isinstance(item, str):
            text = item
        else:
            text = json.dumps(item, ensure_ascii=False)
        prompt = "".join(m["content"] for m in request.messages)
        return LLMResponse(
            text=text,
            prompt_tokens=approximate_tokens(prompt),
            completion_tokens=approximate_tokens(text),
            finish_reason="stop",
        )


class ScriptedLLM(LLMClient):
    """A drop-in :class:`LLMClient` that answers from a script instead of a server.

    For tests and offline demos. Same cache, retry, validation and usage code as the real client;
    the disk cache is off unless ``cache_dir`` is given (so scripted answers never land in the
    user's real cache), and retries do not sleep unless ``backoff_base`` is set.
    """

    def __init__(
        self,
        script: Script,
        *,
        model: str = "scripted",
        cache_dir: str | os.PathLike[str] | None = None,
        max_retries: int = 2,
        backoff_base: float = 0.0,
        backoff_max: float = 1.0,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        self.scripted = ScriptedTransport(script)
        super().__init__(
            model=model,
            transport=self.scripted,
            cache_dir=cache_dir,
            cache=cache_dir is not None,
            max_retries=max_retries,
            backoff_base=backoff_base,
            backoff_max=backoff_max,
            env={},
            sleep=sleep,
        )
        self.usage.approximate_tokens = True

    @property
    def requests(self) -> list[LLMRequest]:
        """Every request that reached the script (cache hits never do)."""
        return self.scripted.requests
