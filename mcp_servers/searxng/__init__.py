"""Key-free web search through SearXNG as an MCP server: ``python -m mcp_servers.searxng``.

Standalone: its settings are its own (``SearxngSettings``) and it imports nothing from the
backend.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from mcp_servers.searxng.server import create_server, health_check

__all__ = ["create_server", "health_check"]


def __getattr__(name: str) -> Any:
    # Lazy: importing a submodule (``python -m``, settings) must not import the fastmcp server.
    if name not in __all__:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    from mcp_servers.searxng import server

    return getattr(server, name)
