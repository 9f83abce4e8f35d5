"""The real transport: any OpenAI-compatible endpoint through the official ``openai`` SDK.

Local servers differ from the hosted API; what this module absorbs: a server that rejects
``json_schema`` (llama.cpp answers HTTP 500) is asked in ``json_object`` mode with the schema in the
prompt from then on, and with the schema in ``response_format`` too, which llama.cpp and
llama-cpp-python turn into a grammar the answer must follow (a small model then cannot answer
off-schema; a server that refuses the extra key gets plain JSON mode); chat templates that drop
system messages get the rules in the user message; a server slower than its timeout gets a longer
one.
"""

from __future__ import annotations

import json
import logging
import threading
from typing import Any

from pydantic import BaseModel

from ..core.extras import missing
from .transport import LLMRequest, LLMResponse, ResponseFormat

log = logging.getLogger(__name__)

MAX_TIMEOUT = 600.0  # a per-request timeout grows (after timeouts) up to this


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


def _require_all(node: Any) -> None:
    """Every property of every object subschema required (as strict structured outputs have it)."""
    if not isinstance(node, dict):
        return
    properties = node.get("properties")
    if isinstance(properties, dict):
        node["required"] = list(properties)
        for child in properties.values():
            _require_all(child)
    for key in ("$defs", "definitions"):
        for child in (node.get(key) or {}).values():
            _require_all(child)
    _require_all(node.get("items"))
    for key in ("anyOf", "allOf", "oneOf"):
        for variant in node.get(key) or []:
            _require_all(variant)


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
        self.schema_in_json_mode = True  # until a server refuses it

    def _format_param(self, schema: type[BaseModel], response_format: ResponseFormat) -> dict[str, Any]:
        if response_format == "json_object":
            if self.schema_in_json_mode:
                grammar = schema.model_json_schema()
                _require_all(grammar)  # a grammar from it may not leave out a key the answer must have
                return {"type": "json_object", "schema": grammar}
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

    def _create_json_mode(self, request: LLMRequest) -> Any:
        """JSON mode, with the schema in ``response_format`` while the server accepts it."""
        import openai

        try:
            return self._create(request, "json_object")
        except openai.APIStatusError as exc:
            if not self.schema_in_json_mode or not _rejects_format(exc):
                raise
            self.schema_in_json_mode = False
            log.warning("the LLM endpoint rejects a schema in JSON mode (HTTP %s); "
                        "plain JSON mode from now on", exc.status_code)
            return self._create(request, "json_object")

    def _create_with_fallback(self, request: LLMRequest) -> Any:
        """``json_schema`` first; a server that rejects it (llama.cpp answers HTTP 500) is asked the
        same in ``json_object`` mode at once, and when that works, JSON mode is used from then on."""
        import openai

        fmt = self.response_format
        if fmt == "json_object":
            return self._create_json_mode(request)
        try:
            return self._create(request, fmt)
        except openai.APIStatusError as exc:
            if fmt != "json_schema" or not _rejects_format(exc):
                raise
            try:
                completion = self._create_json_mode(request)
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

