"""What the OpenAlex, arXiv and SearXNG fakes share: a GET-only handler on 127.0.0.1 that
records every request, and knobs for the failures a server must explain (any status with a
``Retry-After``, an answer that never comes)."""

from __future__ import annotations

from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler
from typing import Any
from urllib.parse import parse_qs, urlsplit

from tests.fakes.loopback import Served


@dataclass
class Recorded:
    """One request the fake received."""

    path: str
    query: dict[str, str]
    headers: dict[str, str]


@dataclass
class Reply:
    """What to send back: status, body bytes, content type and extra headers."""

    status: int
    body: bytes
    content_type: str
    headers: dict[str, str] = field(default_factory=dict)


@dataclass
class FakeApi(Served):
    """A fake's knobs and request log; subclasses answer with ``respond``."""

    status: int = 200
    """Answer every request with this status (200: answer normally)."""
    retry_after: str | None = None
    """``Retry-After`` sent with a forced status."""
    hold: bool = False
    """Answer nothing until ``stop()`` (or 30 s): an API that hangs."""
    requests: list[Recorded] = field(default_factory=list)

    def forced(self) -> Reply:
        """The reply to send when ``status`` is not 200."""
        headers = {"Retry-After": self.retry_after} if self.retry_after else {}
        return Reply(self.status, b'{"error": "forced"}', "application/json", headers)

    def respond(self, path: str, query: dict[str, str]) -> Reply:
        """The reply to a GET of ``path`` with ``query`` (each parameter's last value)."""
        raise NotImplementedError


class _Handler(BaseHTTPRequestHandler):
    state: FakeApi

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002
        """Quiet: the test output is not the place for an access log."""

    def do_GET(self) -> None:
        parts = urlsplit(self.path)
        query = {k: v[-1] for k, v in parse_qs(parts.query, keep_blank_values=True).items()}
        fake = self.state
        fake.requests.append(Recorded(parts.path, query, dict(self.headers.items())))
        if fake.hold:
            fake._released.wait(timeout=30)
        reply = fake.forced() if fake.status != 200 else fake.respond(parts.path, query)
        try:
            self.send_response(reply.status)
            self.send_header("Content-Type", reply.content_type)
            self.send_header("Content-Length", str(len(reply.body)))
            for name, value in reply.headers.items():
                self.send_header(name, value)
            self.end_headers()
            self.wfile.write(reply.body)
        except (BrokenPipeError, ConnectionResetError):
            pass  # the client gave up (a timeout test); nobody is left to answer


FakeApi.handler = _Handler
