"""Document-store MCP server (ChromaDB + BM25): ``python -m mcp_servers.document_store``."""

from mcp_servers.document_store.server import create_server

mcp = create_server()

__all__ = ["create_server", "mcp"]
