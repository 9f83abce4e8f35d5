"""Reading a model's answer strictly: JSON (a code fence tolerated), every key known, the schema met."""

from __future__ import annotations

import json
import re
import typing
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

from ..core.errors import LLMOutputError
from .transport import LLMResponse

T = TypeVar("T", bound=BaseModel)


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


_FENCE = re.compile(r"^\s*```(?:json|JSON)?\s*\n?(.*?)\n?\s*```\s*$", re.DOTALL)


def _strip_fences(text: str) -> str:
    """Local models in JSON mode sometimes wrap the object in a Markdown code fence."""
    match = _FENCE.match(text)
    return match.group(1) if match else text


class _Invalid(Exception):
    def __init__(self, problems: list[str]) -> None:
        super().__init__("; ".join(problems))
        self.problems = problems



def parse_answer(response: LLMResponse, schema: type[T], purpose: str) -> T:
    """The answer as a ``schema`` instance; :class:`LLMOutputError` (carrying ``raw_text``) when the
    model refused, or answered something that is not JSON or not strictly a ``schema``."""
    if response.refusal:
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
