"""GitHub MCP server: search code and repositories, list issues, read files (read-only)."""

from mcp_servers.github_server.server import create_server

mcp = create_server()

__all__ = ["create_server", "mcp"]
