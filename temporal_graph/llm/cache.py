"""Validated answers on disk, so a repeated request costs nothing."""

from __future__ import annotations

import hashlib
import json
import logging
import os
import tempfile
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TypeVar

from pydantic import BaseModel, ValidationError

log = logging.getLogger(__name__)

T = TypeVar("T", bound=BaseModel)

DEFAULT_CACHE_DIR = Path("~/.cache/temporal-graph/llm")
# Bump when the cache file layout or key recipe changes, so old entries are simply missed.
# 2: the key covers the response format and where the rules went; answers are validated strictly.
_CACHE_VERSION = 2


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

