"""Test doubles: a transport and a client that answer from a script instead of a server.

For tests and offline demos; they run the very same cache, retry, validation and usage code as
the real client. Not imported by the library itself.
"""

from __future__ import annotations

import json
import os
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from pydantic import BaseModel

from .client import LLMClient
from .transport import LLMRequest, LLMResponse


def approximate_tokens(text: str) -> int:
    """A rough token estimate (about four characters per token), for scripted runs only."""
    return len(text) // 4


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
