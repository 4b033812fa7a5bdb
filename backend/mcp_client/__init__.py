"""The unified MCP client: which servers exist, how to start or reach them, sessions."""

from backend.mcp_client.registry import SERVERS, ServerSpec, connection_for, server_env
from backend.mcp_client.session import (
    ServerUnavailable,
    ToolCallError,
    call_tool,
    server_session,
)

__all__ = [
    "SERVERS",
    "ServerSpec",
    "ServerUnavailable",
    "ToolCallError",
    "call_tool",
    "connection_for",
    "server_env",
    "server_session",
]
