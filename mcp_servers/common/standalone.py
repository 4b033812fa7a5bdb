"""The command line of a server that owns its settings: stdio by default, streamable HTTP with
``GET /health`` and bearer-token auth.

It does what ``runner.run_server`` does, but the MCP token comes from the server's own
settings instead of ``backend.config``: a server package must not import the backend.
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


def run_standalone(
    factory: Callable[[], FastMCP],
    *,
    token: str | None,
    default_port: int,
    health: HealthCheck | None = None,
    argv: Sequence[str] | None = None,
) -> None:
    """Parse ``--transport/--host/--port`` and run the server built by ``factory``.

    ``token`` is the server's ``MARSA_MCP_TOKEN`` (None or "" for none). Without one, HTTP is
    served only on a loopback address: anyone reaching the port could call every tool.
    """
    parser = argparse.ArgumentParser(
        description=f"Run a MARSA MCP server (default port {default_port})."
    )
    parser.add_argument("--transport", choices=["stdio", "http"], default="stdio")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=default_port)
    args = parser.parse_args(argv)

    if args.transport == "http" and not token and not is_loopback(args.host):
        parser.exit(
            2,
            f"refusing to serve MCP over HTTP on {args.host} without {TOKEN_VARIABLE}: "
            "anyone who can reach the port could call every tool. Set "
            f"{TOKEN_VARIABLE} to a long random value (e.g. `openssl rand -hex 32`) here "
            "and where the MARSA client runs, or bind --host 127.0.0.1.\n",
        )
    server = factory()
    add_health_route(server, health)
    if args.transport == "stdio":
        _exit_with_parent()
        server.run(transport="stdio", show_banner=False)
    else:
        if token:
            server.auth = SharedTokenVerifier(token)
        server.run(transport="http", host=args.host, port=args.port, show_banner=False)


def _exit_with_parent() -> None:
    """A stdio server lives for its client: on Linux, ask the kernel to stop it when the
    process that started it dies, so an orphan never keeps running with no one to answer."""
    if not sys.platform.startswith("linux"):
        return
    import ctypes
    import signal

    try:
        libc = ctypes.CDLL(None, use_errno=True)
        pr_set_pdeathsig = 1
        libc.prctl(pr_set_pdeathsig, signal.SIGTERM, 0, 0, 0)
    except (OSError, AttributeError):
        return  # not a libc we can ask; stdin closing still ends the server
    if os.getppid() == 1:  # the parent died before the request took effect
        os.kill(os.getpid(), signal.SIGTERM)
