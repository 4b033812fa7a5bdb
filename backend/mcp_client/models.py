"""What the hub reports: each server's status and tools, each call's result and record."""

from __future__ import annotations

import json
from typing import Any, Literal

from mcp.types import CallToolResult, Tool
from pydantic import BaseModel, Field

Transport = Literal["stdio", "http", "sse"]

COUNTED_KEYS = ("results", "documents", "chunks")
"""Keys whose list length is a result's ``result_count``, first match wins."""


class ToolInfo(BaseModel):
    """One tool a server offers, as discovered when its session started."""

    name: str
    description: str = ""
    input_schema: dict[str, Any] = Field(default_factory=dict)
    read_only: bool = Field(
        default=False,
        description="The server declared readOnlyHint: the hub may retry it after a failure.",
    )
    declares_writes: bool = Field(
        default=False,
        description="The server said the tool changes something (readOnlyHint false, or "
        "destructiveHint true): it is never used as a search.",
    )


class ServerStatus(BaseModel):
    """Whether a server can be called, and why not when it cannot."""

    name: str
    available: bool
    reason: str = Field(description="Why it is unavailable, or what limits it when it is not.")
    transport: Transport
    builtin: bool = True
    tools: list[ToolInfo] = Field(default_factory=list)


class ToolResult(BaseModel):
    """The structured answer of one tool call, with where it came from."""

    server: str
    tool: str
    arguments: dict[str, Any]
    structured: dict[str, Any]
    duration_ms: float
    result_count: int | None = None
    retried: bool = False
    """The call was sent a second time (after a timeout or a lost connection)."""
    restarted: bool = False
    """The server's session was replaced by a new one before this answer."""


class CallRecord(BaseModel):
    """What happened during one ``MCPHub.call``: the raw material of a trace event."""

    server: str
    tool: str
    arguments: dict[str, Any]
    duration_ms: float
    result_count: int | None = None
    error: str | None = None
    retried: bool = False
    """The call was sent a second time (after a timeout or a lost connection)."""
    restarted: bool = False
    """The server's session was replaced by a new one (a new subprocess for stdio)."""


def result_count(structured: dict[str, Any]) -> int | None:
    """Length of the first list under ``results``, ``documents`` or ``chunks``, if any."""
    for key in COUNTED_KEYS:
        value = structured.get(key)
        if isinstance(value, list):
            return len(value)
    return None


def tool_info(tool: Tool) -> ToolInfo:
    """The hub's view of a tool listed by a server."""
    hints = tool.annotations
    return ToolInfo(
        name=tool.name,
        description=tool.description or "",
        input_schema=dict(tool.inputSchema),
        read_only=bool(hints and hints.readOnlyHint),
        declares_writes=bool(
            hints and (hints.readOnlyHint is False or hints.destructiveHint is True)
        ),
    )


def structured_of(result: CallToolResult) -> dict[str, Any]:
    """The structured content of a result; a text-only answer becomes ``{"text": ...}``."""
    if isinstance(result.structuredContent, dict):
        return result.structuredContent
    text = "".join(getattr(part, "text", "") for part in result.content)
    try:
        parsed = json.loads(text)
    except json.JSONDecodeError:
        return {"text": text}
    return parsed if isinstance(parsed, dict) else {"result": parsed}
