"""Held sessions to MCP servers and typed tool calls over them."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from langchain_mcp_adapters.client import MultiServerMCPClient
from mcp import ClientSession

from backend.config import Settings
from backend.mcp_client.registry import connection_for


class ToolCallError(RuntimeError):
    """A tool answered with an error; the message is the server's, meant for a person."""

    def __init__(self, server: str, tool: str, message: str):
        super().__init__(f"{server}.{tool}: {message}")
        self.server = server
        self.tool = tool
        self.message = message


@asynccontextmanager
async def server_session(name: str, settings: Settings) -> AsyncIterator[ClientSession]:
    """One session to a built-in server, held open for the whole block (one subprocess)."""
    client = MultiServerMCPClient({name: connection_for(name, settings)})  # type: ignore[dict-item]
    async with client.session(name) as session:
        yield session


async def call_tool(
    session: ClientSession, server: str, tool: str, arguments: dict[str, Any]
) -> Any:
    """Call a tool and return its structured result, or raise ToolCallError with its message."""
    result = await session.call_tool(tool, arguments)
    if result.isError:
        text = " ".join(getattr(part, "text", "") for part in result.content).strip()
        raise ToolCallError(server, tool, text or "the tool failed without a message")
    return result.structuredContent
