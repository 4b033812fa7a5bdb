"""Running a server package that owns its settings as a real process: over stdio with only the
environment given, or over streamable HTTP on a free port."""

from __future__ import annotations

import sys
from collections.abc import AsyncIterator, Iterator, Mapping
from contextlib import asynccontextmanager, contextmanager
from pathlib import Path

from fastmcp import Client
from fastmcp.client.transports import StdioTransport

from tests.helpers import REPO_ROOT, free_port, running_process

QUIET_FASTMCP = {
    "FASTMCP_SHOW_CLI_BANNER": "false",
    "FASTMCP_SHOW_SERVER_BANNER": "false",
    "FASTMCP_CHECK_FOR_UPDATES": "off",
}


def server_env(settings: Mapping[str, str]) -> dict[str, str]:
    """A server's whole environment: its settings, the repository on the path, nothing else
    (no MARSA_ variable or key of the developer's shell)."""
    return {**QUIET_FASTMCP, "PYTHONPATH": REPO_ROOT, **settings}


@asynccontextmanager
async def stdio_client(
    module: str, settings: Mapping[str, str], cwd: Path
) -> AsyncIterator[Client]:
    """``python -m MODULE`` as a stdio subprocess started by a fastmcp Client."""
    transport = StdioTransport(
        command=sys.executable, args=["-m", module], env=server_env(settings), cwd=str(cwd)
    )
    async with Client(transport) as client:
        yield client


@contextmanager
def http_server(module: str, settings: Mapping[str, str], cwd: Path) -> Iterator[str]:
    """``python -m MODULE --transport http`` on a free port; yields http://127.0.0.1:PORT."""
    port = free_port()
    command = [sys.executable, "-m", module, "--transport", "http", "--port", str(port)]
    env = {"PATH": "/usr/bin:/bin", **server_env(settings)}
    with running_process(command, f"http://127.0.0.1:{port}/health", env, cwd):
        yield f"http://127.0.0.1:{port}"
