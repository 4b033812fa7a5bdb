"""The unified MCP client: which servers exist, how to start or reach them, sessions, the hub."""

from backend.mcp_client.hub import INGEST_TIMEOUT, MCPHub, docs_only
from backend.mcp_client.mcp_config import MCPConfigError, load_mcp_config
from backend.mcp_client.models import CallRecord, ServerStatus, ToolInfo, ToolResult
from backend.mcp_client.registry import SERVERS, ServerSpec, connection_for, server_env
from backend.mcp_client.session import (
    ServerConnectionLost,
    ServerUnavailable,
    ToolCallError,
    ToolTimeout,
    call_tool,
    server_session,
)

__all__ = [
    "INGEST_TIMEOUT",
    "SERVERS",
    "CallRecord",
    "MCPConfigError",
    "MCPHub",
    "ServerConnectionLost",
    "ServerSpec",
    "ServerStatus",
    "ServerUnavailable",
    "ToolCallError",
    "ToolInfo",
    "ToolResult",
    "ToolTimeout",
    "call_tool",
    "connection_for",
    "docs_only",
    "load_mcp_config",
    "server_env",
    "server_session",
]
