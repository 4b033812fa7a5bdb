"""Document-store MCP server (ChromaDB + BM25): ``python -m mcp_servers.document_store``."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from fastmcp import FastMCP

    from mcp_servers.document_store.server import create_server

    mcp: FastMCP

__all__ = ["create_server", "mcp"]


def __getattr__(name: str) -> Any:
    # Lazy: the API process imports submodules (embeddings) and must not pay for ChromaDB
    # and a whole server it never runs; ``python -m`` would otherwise build the server twice.
    if name not in __all__:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    from mcp_servers.document_store.server import create_server

    globals()["create_server"] = create_server
    if name == "mcp":
        globals()["mcp"] = create_server()
    return globals()[name]
