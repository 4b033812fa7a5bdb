"""The FastAPI application. Today it reports health; research routes build on it."""

from __future__ import annotations

from fastapi import FastAPI
from pydantic import BaseModel

from backend.config import get_settings
from backend.mcp_client.health import ServerHealth, probe_all


class Health(BaseModel):
    """GET /api/health: the API and each MCP server."""

    status: str
    servers: list[ServerHealth]


def create_app() -> FastAPI:
    """Build the application (one per process; tests build their own)."""
    app = FastAPI(
        title="MARSA",
        version="0.1.0",
        description="Multi-agent research assistant: cited, fact-checked reports.",
    )

    @app.get("/api/health")
    async def health() -> Health:
        servers = await probe_all(get_settings())
        status = "ok" if all(s.status == "up" for s in servers) else "degraded"
        return Health(status=status, servers=servers)

    return app
