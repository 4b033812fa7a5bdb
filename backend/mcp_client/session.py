"""Held sessions to MCP servers and typed tool calls over them."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from langchain_mcp_adapters.client import MultiServerMCPClient
from mcp import ClientSession
from mcp.shared.exceptions import McpError

from backend.config import Settings
from backend.mcp_client.registry import connection_for


class ToolCallError(RuntimeError):
    """A tool answered with an error; the message is the server's, meant for a person."""

    def __init__(self, server: str, tool: str, message: str):
        super().__init__(f"{server}.{tool}: {message}")
        self.server = server
        self.tool = tool
        self.message = message


class ToolTimeout(ToolCallError):
    """A tool did not answer within its time limit: ``seconds`` per try, ``tries`` tries
    (a read-only tool is tried twice), ``total`` seconds waited in all."""

    def __init__(
        self,
        server: str,
        tool: str,
        seconds: float,
        tries: int = 1,
        total: float | None = None,
    ):
        total = seconds * tries if total is None else total
        waited = (
            f"no answer within {seconds:g} s"
            if tries == 1
            else f"no answer in {tries} tries of {seconds:g} s each ({total:.3g} s in all)"
        )
        super().__init__(
            server, tool, f"{waited}; the server may be hung, or pass a larger timeout"
        )
        self.seconds = seconds
        self.tries = tries
        self.total = total


class ServerConnectionLost(ToolCallError):
    """The connection to the server broke during a call (for stdio: its process ended)."""


class ServerUnavailable(RuntimeError):
    """A server could not be started or reached."""


def _leaf(error: BaseException) -> BaseException:
    while isinstance(error, BaseExceptionGroup) and error.exceptions:
        error = error.exceptions[0]
    return error


@asynccontextmanager
async def server_session(name: str, settings: Settings) -> AsyncIterator[ClientSession]:
    """One session to a built-in server, held open for the whole block (one subprocess).

    anyio wraps whatever is raised inside the block in exception groups; the first real
    error is re-raised as itself, and a failure to start becomes ServerUnavailable.
    """
    client = MultiServerMCPClient({name: connection_for(name, settings)})  # type: ignore[dict-item]
    started = False
    try:
        async with client.session(name) as session:
            started = True
            yield session
    except BaseExceptionGroup as group:
        leaf = _leaf(group)
        if not started and isinstance(leaf, Exception):
            raise ServerUnavailable(
                f"the {name} server could not be started or reached: {leaf}"
            ) from leaf
        raise leaf from None
    except (OSError, McpError) as exc:
        if started:
            raise
        raise ServerUnavailable(
            f"the {name} server could not be started or reached: {exc}"
        ) from exc


async def call_tool(
    session: ClientSession, server: str, tool: str, arguments: dict[str, Any]
) -> Any:
    """Call a tool and return its structured result, or raise ToolCallError with its message."""
    result = await session.call_tool(tool, arguments)
    if result.isError:
        text = " ".join(getattr(part, "text", "") for part in result.content).strip()
        raise ToolCallError(server, tool, text or "the tool failed without a message")
    return result.structuredContent
