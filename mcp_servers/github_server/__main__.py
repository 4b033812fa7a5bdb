"""``python -m mcp_servers.github_server [--transport stdio|http] [--port 8103]``."""

from __future__ import annotations

from typing import Any

from fastmcp import FastMCP

from mcp_servers.common.runner import HealthCheck, run_server
from mcp_servers.github_server.server import create_server
from mcp_servers.github_server.settings import GithubSettings

DEFAULT_PORT = 8103


def health(_: FastMCP) -> HealthCheck:
    """Facts for GET /health: where GitHub is and whether a token is set (never the token)."""
    settings = GithubSettings()

    async def check() -> dict[str, Any]:
        return {
            "token_configured": settings.github_token is not None,
            "base_url": settings.github_base_url,
            "retries": settings.github_retries,
        }

    return check


def main() -> None:
    """Run the server over stdio (default) or streamable HTTP."""
    run_server(create_server, default_port=DEFAULT_PORT, health=health)


if __name__ == "__main__":
    main()
