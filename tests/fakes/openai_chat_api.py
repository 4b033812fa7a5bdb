"""A local server speaking OpenAI's chat-completions API, so the real langchain-openai client
runs: it records each request body and answers with a fixed message, or holds the request
until released (a server that never answers)."""

from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler
from typing import Any, ClassVar


class ChatCompletions(BaseHTTPRequestHandler):
    """POST /v1/chat/completions. Set ``answer`` for the reply; ``hold`` to never answer."""

    bodies: ClassVar[list[dict[str, Any]]] = []
    answer: ClassVar[str] = "ok"
    hold: ClassVar[threading.Event | None] = None

    def do_POST(self) -> None:  # noqa: N802 (http.server's name)
        length = int(self.headers.get("Content-Length", "0"))
        self.bodies.append(json.loads(self.rfile.read(length) or b"{}"))
        if self.hold is not None:
            self.hold.wait(30)  # released by the test; bounded so the thread always ends
            return
        body = json.dumps(
            {
                "id": "chatcmpl-1",
                "object": "chat.completion",
                "created": 0,
                "model": "fake",
                "choices": [
                    {
                        "index": 0,
                        "message": {"role": "assistant", "content": self.answer},
                        "finish_reason": "stop",
                    }
                ],
                "usage": {"prompt_tokens": 5, "completion_tokens": 1, "total_tokens": 6},
            }
        ).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002
        return
