"""Whether each MCP server answers, and what it can do: for `marsa servers` and /api/health."""

from __future__ import annotations

import asyncio
from typing import Literal

from pydantic import BaseModel

from backend.config import Settings
from backend.mcp_client.reachability import REACHABILITY, Reachability
from backend.mcp_client.registry import SERVERS, setting_value
from backend.mcp_client.session import (
    ServerUnavailable,
    ToolCallError,
    call_tool,
    server_session,
)


class ServerHealth(BaseModel):
    """One server's state as the client sees it."""

    server: str
    module: str
    transport: Literal["stdio", "http"]
    status: Literal["up", "degraded", "down"]
    """``degraded``: the process answers but an outside API it depends on does not."""
    tools: list[str] = []
    note: str = ""


async def probe_server(
    name: str, settings: Settings, timeout: float = 60.0, reach: Reachability = REACHABILITY
) -> ServerHealth:
    """Start (or reach) one server, list its tools, ask whether the outside APIs it depends on
    answer, and say what limits it."""
    spec = SERVERS[name]
    transport: Literal["stdio", "http"] = (
        "http" if setting_value(settings, spec.url_setting) else "stdio"
    )
    health = ServerHealth(server=name, module=spec.module, transport=transport, status="down")
    try:
        async with asyncio.timeout(timeout), server_session(name, settings) as session:
            health.tools = sorted(t.name for t in (await session.list_tools()).tools)
            if spec.health_call and spec.health_note:
                tool, args = spec.health_call
                health.note = spec.health_note(await call_tool(session, name, tool, args))
    except (TimeoutError, OSError, ToolCallError, ServerUnavailable) as exc:
        health.note = f"{type(exc).__name__}: {exc}"
        return health
    health.status = "up"
    if spec.required and setting_value(settings, spec.required) is None:
        health.note = spec.health_unset
        return health  # off until it is set: whether its API answers does not matter yet
    if spec.optional:
        unset = setting_value(settings, spec.optional) is None
        health.note = spec.health_unset if unset else spec.health_set
    if problems := await reach.problems(spec, settings):
        health.status = "degraded"
        health.note = "; ".join([*problems, *filter(None, [health.note])])
    return health


async def probe_all(settings: Settings) -> list[ServerHealth]:
    """All built-in servers, probed at once."""
    return list(await asyncio.gather(*(probe_server(name, settings) for name in SERVERS)))
