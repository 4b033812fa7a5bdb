"""GitHub MCP server: search code and repositories, list issues, read files (read-only)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from fastmcp import FastMCP

    from mcp_servers.github_server.server import create_server

    mcp: FastMCP

__all__ = ["create_server", "mcp"]


def __getattr__(name: str) -> Any:
    # Lazy: importing a submodule (``python -m``, the API's source adapters) must not build
    # a whole server first.
    if name not in __all__:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    from mcp_servers.github_server.server import create_server

    globals()["create_server"] = create_server
    if name == "mcp":
        globals()["mcp"] = create_server()
    return globals()[name]
