"""What the three MCP servers share: tool-call logging, secret scrubbing and the runner."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from mcp_servers.common.logging import ToolCallLogMiddleware, scrub
    from mcp_servers.common.runner import run_server

__all__ = ["ToolCallLogMiddleware", "run_server", "scrub"]


def __getattr__(name: str) -> Any:
    # Lazy: the logging and runner modules bring in the whole fastmcp server.
    if name == "run_server":
        from mcp_servers.common.runner import run_server

        return run_server
    if name in ("ToolCallLogMiddleware", "scrub"):
        from mcp_servers.common import logging

        return getattr(logging, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
