"""Run the document-store server: stdio by default, ``--transport http --port N`` for HTTP."""

from typing import Any

from fastmcp import FastMCP

from mcp_servers.common.runner import HealthCheck, run_server
from mcp_servers.document_store.server import create_server


def _health(server: FastMCP) -> HealthCheck:
    async def check() -> dict[str, Any]:
        store = server.lazy_store.get()  # type: ignore[attr-defined]
        return {"chunks": store.count(), "embedder": store.embedder.name}

    return check


if __name__ == "__main__":
    run_server(create_server, default_port=8101, health=_health)
