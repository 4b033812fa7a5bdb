"""Web search over Tavily as an MCP server: ``python -m mcp_servers.tavily_search``."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from mcp_servers.tavily_search.server import create_server, health_check

__all__ = ["create_server", "health_check"]


def __getattr__(name: str) -> Any:
    # Lazy: importing a submodule (``python -m``, the settings) must not import the whole
    # server. No server is built here: only a call to create_server() builds one.
    if name not in __all__:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    from mcp_servers.tavily_search import server

    globals().update(create_server=server.create_server, health_check=server.health_check)
    return globals()[name]
