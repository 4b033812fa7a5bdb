"""What the three MCP servers share: tool-call logging, secret scrubbing and the runner."""

from mcp_servers.common.logging import ToolCallLogMiddleware, scrub
from mcp_servers.common.runner import run_server

__all__ = ["ToolCallLogMiddleware", "run_server", "scrub"]
