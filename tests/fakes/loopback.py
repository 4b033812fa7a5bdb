"""Start and stop a threaded HTTP server on a free port of 127.0.0.1 (for the API fakes)."""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, ClassVar


def serve(handler: type[BaseHTTPRequestHandler]) -> ThreadingHTTPServer:
    """A server answering with ``handler``, already serving in a daemon thread."""
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    server.daemon_threads = True
    threading.Thread(
        target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True
    ).start()
    return server


def base_url(server: ThreadingHTTPServer | None) -> str:
    """http://127.0.0.1:PORT of a started server."""
    assert server is not None, "fake not started"
    host, port = server.server_address[:2]
    return f"http://{host!s}:{port}"


def close(server: ThreadingHTTPServer | None) -> None:
    """Stop serving and close the socket (a no-op when never started)."""
    if server is not None:
        server.shutdown()
        server.server_close()


@dataclass
class Served:
    """A fake answered by its ``handler`` class (which reads the fake as ``state``) on a free
    port of 127.0.0.1; ``stop()`` also releases requests held on ``_released``."""

    handler: ClassVar[type[BaseHTTPRequestHandler]]
    _released: threading.Event = field(default_factory=threading.Event, kw_only=True)
    _server: ThreadingHTTPServer | None = field(default=None, kw_only=True)

    @property
    def url(self) -> str:
        """http://127.0.0.1:PORT"""
        return base_url(self._server)

    def start(self) -> Any:
        """Listen on a free port of 127.0.0.1 in a background thread; returns the fake."""
        handler = type("Handler", (self.handler,), {"state": self})
        self._server = serve(handler)
        return self

    def stop(self) -> None:
        """Release held requests and close the socket."""
        self._released.set()
        close(self._server)
