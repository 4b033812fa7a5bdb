"""A local HTTP server speaking Tavily's search API, so tests run the real tavily-python client.

It answers ``POST /search`` with Tavily's JSON shape, checks the ``Authorization:
Bearer <key>`` header tavily-python sends, records every request, and has knobs
for the failures the web-search server must explain (status codes, Retry-After,
a response that never comes, a body that is not JSON).
"""

from __future__ import annotations

import json
import threading
import uuid
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import urlsplit

from tests.fakes.loopback import base_url, close, serve

# (url, title, content); scores descend in this order.
PAGES: list[tuple[str, str, str]] = [
    (
        "https://www.nature.com/articles/quantum-error-correction",
        "Quantum error correction",
        "Logical qubits below the surface-code threshold.",
    ),
    (
        "https://arxiv.org/abs/2401.00001",
        "A survey of retrieval-augmented generation",
        "Retrieval-augmented generation grounds a language model in documents.",
    ),
    (
        "https://en.wikipedia.org/wiki/Web_search_engine",
        "Web search engine",
        "A web search engine is a software system that finds pages for a query.",
    ),
    (
        "https://blog.example.com/posts/agents",
        "Building research agents",
        "Agents plan, search and cite their sources.",
    ),
    (
        "https://docs.python.org/3/library/asyncio.html",
        "asyncio",
        "asyncio is a library to write concurrent code using async/await.",
    ),
]


@dataclass
class RecordedRequest:
    """One request the fake received."""

    path: str
    headers: dict[str, str]
    body: dict[str, Any]


@dataclass
class FakeTavily:
    """The fake's state and knobs; tests change the knobs between calls."""

    api_key: str = "tvly-fake-key-0123456789"
    status: int = 200
    """Answer every search with this status (200 means: normal results)."""
    retry_after: str | None = None
    """Value of the Retry-After header sent with a non-200 status."""
    error_detail: str = "forced error"
    raw_body: bytes | None = None
    """Send these bytes instead of JSON results (status 200)."""
    hold: bool = False
    """Do not answer until ``released`` is set (or 30 s pass): a hanging API."""
    released: threading.Event = field(default_factory=threading.Event)
    requests: list[RecordedRequest] = field(default_factory=list)
    _server: ThreadingHTTPServer | None = None

    @property
    def url(self) -> str:
        """Base URL to give tavily-python (``api_base_url``)."""
        return base_url(self._server)

    def start(self) -> FakeTavily:
        """Listen on a free port of 127.0.0.1 in a background thread."""
        fake = self

        class Handler(_TavilyHandler):
            state = fake

        self._server = serve(Handler)
        return self

    def stop(self) -> None:
        """Release held requests and close the socket."""
        self.released.set()
        close(self._server)

    def search_requests(self) -> list[RecordedRequest]:
        """The requests that reached POST /search."""
        return [r for r in self.requests if r.path == "/search"]


def search_results(body: dict[str, Any]) -> list[dict[str, Any]]:
    """Results for a search body, honouring max_results, topic and the domain filters."""
    include = set(body.get("include_domains") or [])
    exclude = set(body.get("exclude_domains") or [])
    results = []
    for rank, (url, title, content) in enumerate(PAGES):
        host = (urlsplit(url).hostname or "").removeprefix("www.")
        if (include and host not in include) or host in exclude:
            continue
        item: dict[str, Any] = {
            "url": url,
            "title": title,
            "content": f"{content} (about: {body.get('query')})",
            "score": round(0.95 - 0.1 * rank, 4),
            "raw_content": None,
        }
        if body.get("topic") == "news":
            item["published_date"] = f"Mon, 0{rank + 1} Jun 2026 09:00:00 GMT"
        results.append(item)
    return results[: int(body.get("max_results") or 5)]


class _TavilyHandler(BaseHTTPRequestHandler):
    state: FakeTavily

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002
        """Quiet: the test output is not the place for an access log."""

    def do_POST(self) -> None:
        length = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(length) if length else b""
        try:
            body = json.loads(raw or b"{}")
        except json.JSONDecodeError:
            body = {}
        fake = self.state
        fake.requests.append(RecordedRequest(self.path, dict(self.headers.items()), body))
        if self.path != "/search":
            self._send(404, {"detail": {"error": "Not Found"}})
            return
        if fake.hold:
            fake.released.wait(timeout=30)
        auth = self.headers.get("Authorization", "")
        if auth != f"Bearer {fake.api_key}":
            # Echo the key it got, as a careless API might: the server must scrub it.
            received = auth.removeprefix("Bearer ")
            self._send(401, {"detail": {"error": f"Unauthorized: invalid API key {received}"}})
            return
        if fake.status != 200:
            headers = {"Retry-After": fake.retry_after} if fake.retry_after else {}
            self._send(fake.status, {"detail": {"error": fake.error_detail}}, headers)
            return
        if fake.raw_body is not None:
            self._send_bytes(200, fake.raw_body, "text/html")
            return
        self._send(
            200,
            {
                "query": body.get("query"),
                "follow_up_questions": None,
                "answer": None,
                "images": [],
                "results": search_results(body),
                "response_time": 0.01,
                "request_id": str(uuid.uuid4()),
            },
        )

    def _send(self, status: int, payload: Any, headers: dict[str, str] | None = None) -> None:
        self._send_bytes(status, json.dumps(payload).encode(), "application/json", headers)

    def _send_bytes(
        self, status: int, data: bytes, content_type: str, headers: dict[str, str] | None = None
    ) -> None:
        try:
            self.send_response(status)
            self.send_header("Content-Type", content_type)
            self.send_header("Content-Length", str(len(data)))
            for name, value in (headers or {}).items():
                self.send_header(name, value)
            self.end_headers()
            self.wfile.write(data)
        except (BrokenPipeError, ConnectionResetError):
            pass  # the client gave up (a timeout test); nobody is left to answer
