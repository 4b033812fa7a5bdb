"""Command line shared by the servers: stdio by default, streamable HTTP with /health.

Over HTTP, ``MARSA_MCP_TOKEN`` is the bearer token every MCP request must carry. Without it a
server binds only a loopback address: on any other (``--host 0.0.0.0``, a LAN address, a host
name) it refuses to start, since anyone who reaches the port could call its tools.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

from fastmcp import FastMCP
from starlette.requests import Request
from starlette.responses import JSONResponse

from mcp_servers.common.auth import TOKEN_VARIABLE, SharedTokenVerifier, is_loopback
from mcp_servers.common.settings import HttpSettings

HealthCheck = Callable[[], Awaitable[dict[str, Any]]]


def add_health_route(server: FastMCP, health: HealthCheck | None = None) -> None:
    """Expose GET /health on the HTTP transport: status, tools and server-specific facts."""

    @server.custom_route("/health", methods=["GET"])
    async def _health(_: Request) -> JSONResponse:
        tools = sorted(tool.name for tool in await server.list_tools())
        body: dict[str, Any] = {"status": "ok", "server": server.name, "tools": tools}
        if health is not None:
            body.update(await health())
        return JSONResponse(body)


def run_server(
    factory: Callable[[], FastMCP],
    *,
    default_port: int,
    health: Callable[[FastMCP], HealthCheck] | None = None,
    argv: Sequence[str] | None = None,
) -> None:
    """Parse ``--transport/--host/--port`` and run the server built by ``factory``."""
    parser = argparse.ArgumentParser(
        description=f"Run a MARSA MCP server (default port {default_port})."
    )
    parser.add_argument("--transport", choices=["stdio", "http"], default="stdio")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=default_port)
    args = parser.parse_args(argv)

    token = HttpSettings().mcp_token if args.transport == "http" else None
    if args.transport == "http" and token is None and not is_loopback(args.host):
        parser.exit(
            2,
            f"refusing to serve MCP over HTTP on {args.host} without {TOKEN_VARIABLE}: "
            "anyone who can reach the port could call every tool. Set "
            f"{TOKEN_VARIABLE} to a long random value (e.g. `openssl rand -hex 32`) here "
            "and where the MARSA client runs, or bind --host 127.0.0.1.\n",
        )
    server = factory()
    add_health_route(server, health(server) if health else None)
    if args.transport == "stdio":
        _exit_with_parent()
        server.run(transport="stdio", show_banner=False)
    else:
        if token is not None:
            server.auth = SharedTokenVerifier(token.get_secret_value())
        server.run(transport="http", host=args.host, port=args.port, show_banner=False)


def _exit_with_parent() -> None:
    """A stdio server lives for its client: on Linux, ask the kernel to stop it when the
    process that started it dies (a killed API left a document store mid-ingestion running,
    at full CPU, with no one to answer)."""
    if not sys.platform.startswith("linux"):
        return
    import ctypes
    import signal

    try:
        libc = ctypes.CDLL(None, use_errno=True)
        pr_set_pdeathsig = 1
        libc.prctl(pr_set_pdeathsig, signal.SIGTERM, 0, 0, 0)
    except (OSError, AttributeError):
        return  # not a glibc/musl process we can ask; stdin closing still ends the server
    if os.getppid() == 1:  # the parent died before the request took effect
        os.kill(os.getpid(), signal.SIGTERM)
