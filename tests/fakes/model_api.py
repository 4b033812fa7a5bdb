"""What the model-API fakes (OpenAI chat completions, Anthropic messages) share: a POST-JSON
server on 127.0.0.1 that records each request body and answers from a script, so the real
provider packages run against it.

A test scripts the replies: a list (one per request, in order) or a function of the request
body. Each reply says what the model "does": answer with text or content blocks, give a
structured answer (sent where the request asked for it: a tool call when it offered tools, the
message text otherwise), stop at the output bound, fail with an HTTP status in the API's own
error shape, or never answer.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler
from typing import Any

from tests.fakes.loopback import Served


@dataclass
class Reply:
    """What the model does with one request."""

    text: str | None = None
    """The answer's text."""
    data: dict[str, Any] | None = None
    """A structured answer: a tool call when the request offered tools, else the text as JSON."""
    arguments: str | None = None
    """A tool call's arguments exactly as sent (OpenAI), e.g. broken JSON."""
    blocks: list[dict[str, Any]] | None = None
    """Content blocks as sent (Anthropic: thinking then text)."""
    status: int = 200
    """Not 200: an error in the API's own shape, with ``error`` as its message."""
    error: str = "forced error"
    cut: bool = False
    """Stopped at the output bound (max_tokens): finish reason length / max_tokens."""
    hold: bool = False
    """Never answer (until the fake stops): a hung server."""
    input_tokens: int = 50
    output_tokens: int = 20


Script = list[Reply] | Callable[[dict[str, Any]], Reply]


@dataclass
class ModelApi(Served):
    """A fake model API; subclasses render a ``Reply`` in their API's shape."""

    script: Script = field(default_factory=list)
    bodies: list[dict[str, Any]] = field(default_factory=list)
    """Every request body received, in order."""
    path: str = "/"

    def next_reply(self, body: dict[str, Any]) -> Reply:
        """The scripted reply to ``body``; a script that ran out fails the request loudly."""
        if callable(self.script):
            return self.script(body)
        if not self.script:
            return Reply(
                status=500, error=f"the script has no reply for request {len(self.bodies)}"
            )
        return self.script.pop(0)

    def render(self, body: dict[str, Any], reply: Reply) -> tuple[int, dict[str, Any]]:
        """(status, JSON body) of ``reply`` to the request ``body``."""
        raise NotImplementedError


class _Handler(BaseHTTPRequestHandler):
    state: ModelApi

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002
        """Quiet: the test output is not the place for an access log."""

    def do_POST(self) -> None:  # noqa: N802 (http.server's name)
        fake = self.state
        length = int(self.headers.get("Content-Length", "0"))
        body = json.loads(self.rfile.read(length) or b"{}")
        fake.bodies.append(body)
        if self.path.rstrip("/") != fake.path:
            status, payload = 404, {"error": {"message": f"no route {self.path}"}}
        else:
            reply = fake.next_reply(body)
            if reply.hold:
                fake._released.wait(timeout=30)
                return  # the client gave up long ago
            status, payload = fake.render(body, reply)
        data = json.dumps(payload).encode()
        try:
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)
        except (BrokenPipeError, ConnectionResetError):
            pass  # the client gave up (a timeout test); nobody is left to answer


ModelApi.handler = _Handler
