"""GitHub MCP server: search code and repositories, list issues, read files (read-only)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from mcp_servers.github_server.server import create_server

__all__ = ["create_server"]


def __getattr__(name: str) -> Any:
    # Lazy: importing a submodule (``python -m``, the settings) must not import the whole
    # server. No server is built here: only a call to create_server() builds one.
    if name not in __all__:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    from mcp_servers.github_server.server import create_server

    globals()["create_server"] = create_server
    return globals()[name]
