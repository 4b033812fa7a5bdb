"""Web search over Tavily as an MCP server: ``python -m mcp_servers.tavily_search``."""

from mcp_servers.tavily_search.server import create_server, health_check

mcp = create_server()

__all__ = ["create_server", "health_check", "mcp"]
