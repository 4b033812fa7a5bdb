"""/api/health: the API, each MCP server, the store's size, the engine and the database."""

from __future__ import annotations

import asyncio

from fastapi import APIRouter

from backend.api.deps import HubDep, ManagerDep, SettingsDep
from backend.api.errors import responses
from backend.api.schemas import ClusterHealth, Health, ServerState
from backend.llm import LLMPackageMissing, llm_problem
from backend.mcp_client import ServerUnavailable, ToolCallError
from backend.mcp_client.reachability import REACHABILITY
from backend.sources import BUILTINS

router = APIRouter(prefix="/api", tags=["health"])


@router.get("/health", responses=responses())
async def health(hub: HubDep, manager: ManagerDep, settings: SettingsDep) -> Health:
    """Whether each MCP server is up (and why not) and whether the outside API it depends on
    answers (``degraded`` with the reason when not), how many documents the store holds,
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
    await _outside_apis(servers, settings)
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
    cluster = None
    if settings.run_in == "workers":
        from backend.workers.replica import QueuedRunManager  # only this mode needs Redis

        assert isinstance(manager, QueuedRunManager)
        redis_problem, jobs, queue_problem = await manager.reachability()
        cluster = ClusterHealth(
            redis="up"
            if redis_problem is None
            else "not configured"
            if settings.redis_url is None
            else "down",
            redis_note=redis_problem or "",
            queue="up" if queue_problem is None else "down",
            queue_note=queue_problem or "",
            queued_jobs=jobs,
        )
        ok = ok and queue_problem is None  # without Redis, streams poll: slower, not broken
    return Health(
        status="ok" if ok else "degraded",
        engine=engine,
        engine_note=engine_note,
        database=manager.store.db.display,
        documents=documents,
        servers=servers,
        run_in=settings.run_in,
        cluster=cluster,
    )


async def _outside_apis(servers: list[ServerState], settings: SettingsDep) -> None:
    """A built-in server that is up but whose outside API does not answer is degraded (the
    APIs are asked at once, each answer remembered for a minute)."""
    asked = [(s, BUILTINS[s.server]) for s in servers if s.server in BUILTINS and s.status == "up"]
    found = await asyncio.gather(*(REACHABILITY.problems(spec, settings) for _, spec in asked))
    for (server, _), problems in zip(asked, found, strict=True):
        if problems:
            server.status = "degraded"
            server.note = "; ".join([*problems, *filter(None, [server.note])])
