"""/api/health: the API, each MCP server, the store's size, the engine and the database."""

from __future__ import annotations

from fastapi import APIRouter

from backend.api.deps import HubDep, ManagerDep, SettingsDep
from backend.api.errors import responses
from backend.api.schemas import Health, ServerState
from backend.llm import LLMPackageMissing, llm_problem
from backend.mcp_client import ServerUnavailable, ToolCallError

router = APIRouter(prefix="/api", tags=["health"])


@router.get("/health", responses=responses())
async def health(hub: HubDep, manager: ManagerDep, settings: SettingsDep) -> Health:
    """Whether each MCP server is up (and why not), how many documents the store holds,
    which reasoning engine runs (degraded, with the fix, when MARSA_LLM cannot be used), and
    where runs are kept."""
    servers = [
        ServerState(
            server=name,
            transport=state.transport,
            status="up" if state.available else "unavailable",
            tools=[t.name for t in state.tools],
            note=state.reason,
        )
        for name, state in hub.status.items()
    ]
    documents = None
    if "docs" in hub.available():
        try:
            listing = await hub.call("docs", "list_documents", {"limit": 1}, timeout=10)
            documents = int(listing.structured.get("total", 0))
        except (ToolCallError, ServerUnavailable) as exc:
            for server in servers:
                if server.server == "docs":
                    server.status, server.note = "down", str(exc)
    ok = all(s.status == "up" for s in servers if s.server == "docs")
    engine, engine_note = settings.llm or "offline", ""
    if (problem := llm_problem(settings)) is not None:
        ok = False
        engine_note = str(problem)
        if isinstance(problem, LLMPackageMissing):
            engine = "offline"
            engine_note += "; until then runs use the offline engine"
    return Health(
        status="ok" if ok else "degraded",
        engine=engine,
        engine_note=engine_note,
        database=manager.store.db.display,
        documents=documents,
        servers=servers,
    )
