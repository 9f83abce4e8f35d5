"""A local OpenAI-compatible HTTP server that behaves like llama.cpp's with a small model.

What it reproduces (each switchable):
- ``response_format`` ``json_schema`` is answered with HTTP 500 (only ``text`` / ``json_object`` work);
- in ``json_object`` mode system messages are dropped (the "gemma" chat format has no system role),
  and a model that never saw the instructions echoes its input as JSON;
- one slot: requests are served one at a time, each taking ``delay`` seconds (queued ones wait);
- ``fail_after``: after that many answers every request gets HTTP 503 (the server went away).

The "model" is a function of the messages it sees (after any dropping); it answers from a
table of sentences when the instructions are visible, and echoes otherwise.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable, Mapping
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

RULES_MARK = "You read one message from a conversation"

Model = Callable[[list[dict[str, str]]], str]


def table_model(answers: Mapping[str, Any]) -> Model:
    """Answers ``answers[sentence]`` (a dict) when the rules are visible and the sentence is in the input."""

    def model(messages: list[dict[str, str]]) -> str:
        seen = "\n".join(m["content"] for m in messages)
        if RULES_MARK not in seen:
            user = next((m["content"] for m in messages if m["role"] == "user"), "")
            return json.dumps({"speaker": "echo", "message": {"text": user[:80]}})
        for sentence, answer in answers.items():
            if sentence in seen:
                return json.dumps(answer)
        return json.dumps({"entities": [], "facts": []})

    return model


class LlamaLikeServer:
    def __init__(
        self,
        model: Model,
        *,
        reject_json_schema: bool = True,
        drop_system: bool = True,
        slots: int = 1,
        delay: float = 0.0,
        fail_after: int | None = None,
    ) -> None:
        self.model = model
        self.reject_json_schema = reject_json_schema
        self.drop_system = drop_system
        self.delay = delay
        self.fail_after = fail_after
        self.requests: list[dict[str, Any]] = []
        self.answered = 0
        self._slots = threading.Semaphore(slots)
        self._lock = threading.Lock()
        server = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: object) -> None:  # keep test output quiet
                pass

            def do_POST(self) -> None:
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                status, payload = server.handle(body)
                data = json.dumps(payload).encode()
                try:
                    self.send_response(status)
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Length", str(len(data)))
                    self.end_headers()
                    self.wfile.write(data)
                except (BrokenPipeError, ConnectionResetError):
                    pass  # the client stopped waiting (timeout); the work was done anyway

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.httpd.daemon_threads = True
        self.base_url = f"http://127.0.0.1:{self.httpd.server_address[1]}/v1"
        self._thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)
        self._thread.start()

    @property
    def formats(self) -> list[str]:
        return [r.get("response_format", {}).get("type", "text") for r in self.requests]

    def handle(self, body: dict[str, Any]) -> tuple[int, dict[str, Any]]:
        with self._lock:
            self.requests.append(body)
            if self.fail_after is not None and self.answered >= self.fail_after:
                gone = {"code": 503, "message": "server unavailable", "type": "unavailable_error"}
                return 503, {"error": gone}
        fmt = body.get("response_format", {}).get("type", "text")
        if self.reject_json_schema and fmt not in ("text", "json_object"):
            return 500, {"error": {"code": 500, "type": "server_error",
                                   "message": "response_format type must be one of 'text' or 'json_object'"}}
        messages = [m for m in body["messages"] if not (self.drop_system and m["role"] == "system")]
        with self._slots:  # one request at a time, like a single-slot server
            time.sleep(self.delay)
            content = self.model(messages)
        with self._lock:
            self.answered += 1
        return 200, {
            "id": f"chatcmpl-{len(self.requests)}", "object": "chat.completion", "created": 0,
            "model": body.get("model", "local"),
            "choices": [{"index": 0, "finish_reason": "stop",
                         "message": {"role": "assistant", "content": content}}],
            "usage": {"prompt_tokens": 100, "completion_tokens": 20, "total_tokens": 120},
        }

    def close(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()
