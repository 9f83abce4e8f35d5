"""What a transport is: the request it is given, the response it returns, the error worth a retry.

A transport is any callable from :class:`LLMRequest` to :class:`LLMResponse`; :class:`LLMClient`
(``client.py``) adds every policy around it (cache, retries, validation, usage counts).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Literal

from pydantic import BaseModel

ResponseFormat = Literal["json_schema", "json_object"]


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

