"""Web search over Tavily as an MCP server: ``python -m mcp_servers.tavily_search``."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from fastmcp import FastMCP

    from mcp_servers.tavily_search.server import create_server, health_check

    mcp: FastMCP

__all__ = ["create_server", "health_check", "mcp"]


def __getattr__(name: str) -> Any:
    # Lazy: importing a submodule (``python -m``, the API's source adapters) must not build
    # a whole server first.
    if name not in __all__:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    from mcp_servers.tavily_search import server

    globals().update(create_server=server.create_server, health_check=server.health_check)
    if name == "mcp":
        globals()["mcp"] = server.create_server()
    return globals()[name]
