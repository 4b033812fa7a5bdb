"""A local HTTP server speaking OpenAI's and Ollama's embedding APIs, so HttpEmbedder runs for real.

``POST /embeddings`` answers like OpenAI (``{"data": [{"index": i, "embedding": [...]}]}``)
and ``POST /api/embed`` like Ollama (``{"embeddings": [[...]]}``). Vectors are not
unit length, so the client's normalisation shows. Knobs: a forced status code and
answering OpenAI's ``data`` list in reverse order (the API only promises ``index``).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from tests.fakes.loopback import base_url, close, serve


def vector_for(text: str) -> list[float]:
    """The fake's embedding of a text: deterministic, distinct for these tests, not unit length."""
    return [float(len(text)), float(sum(map(ord, text)) % 97), 3.0]


@dataclass
class Recorded:
    """One request the fake received."""

    path: str
    headers: dict[str, str]
    body: dict[str, Any]


@dataclass
class FakeEmbeddings:
    """The fake's state and knobs."""

    status: int = 200
    """Answer every request with this status (200 means: normal vectors)."""
    drop_last: bool = False
    """Answer with one vector fewer than the texts sent (a broken server)."""
    reverse_data: bool = False
    """Send OpenAI's ``data`` items last-first; their ``index`` still says where each belongs."""
    requests: list[Recorded] = field(default_factory=list)
    _server: ThreadingHTTPServer | None = None

    @property
    def url(self) -> str:
        """Base URL (for the openai provider append nothing: it posts to ``{url}/embeddings``)."""
        return base_url(self._server)

    def start(self) -> FakeEmbeddings:
        """Listen on a free port of 127.0.0.1 in a background thread."""
        fake = self

        class Handler(_EmbeddingsHandler):
            state = fake

        self._server = serve(Handler)
        return self

    def stop(self) -> None:
        """Close the socket."""
        close(self._server)


class _EmbeddingsHandler(BaseHTTPRequestHandler):
    state: FakeEmbeddings

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002
        """Quiet: the test output is not the place for an access log."""

    def do_POST(self) -> None:
        length = int(self.headers.get("Content-Length") or 0)
        body = json.loads(self.rfile.read(length) or b"{}")
        fake = self.state
        fake.requests.append(Recorded(self.path, dict(self.headers.items()), body))
        if fake.status != 200:
            self._send(fake.status, {"error": {"message": "forced error"}})
            return
        texts = body.get("input") or []
        texts = [texts] if isinstance(texts, str) else list(texts)
        if self.path == "/embeddings":
            data = [
                {"object": "embedding", "index": i, "embedding": vector_for(t)}
                for i, t in enumerate(texts)
            ]
            if fake.reverse_data:
                data.reverse()
            if fake.drop_last:
                data = data[:-1]
            self._send(200, {"object": "list", "data": data, "model": body.get("model")})
        elif self.path == "/api/embed":
            self._send(
                200, {"model": body.get("model"), "embeddings": [vector_for(t) for t in texts]}
            )
        else:
            self._send(404, {"error": f"no route {self.path}"})

    def _send(self, status: int, payload: Any) -> None:
        data = json.dumps(payload).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)
