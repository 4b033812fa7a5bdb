"""One server's session, held open by a task of its own so it can be started, timed and replaced.

The MCP transports are anyio task groups: they must be entered and left by the same task.
A dedicated owner task enters ``MultiServerMCPClient.session(name)`` through an
``AsyncExitStack``, hands the live ``ClientSession`` back, and waits for a stop signal;
callers from any task send requests over that session. Restarting means stopping the owner
(the stdio subprocess is closed) and starting a new one (a new subprocess).
"""

from __future__ import annotations

import asyncio
import logging
from asyncio import FIRST_COMPLETED
from contextlib import AsyncExitStack
from typing import Any

import anyio
import httpx
from langchain_mcp_adapters.client import MultiServerMCPClient
from mcp import ClientSession
from mcp.shared.exceptions import McpError
from mcp.types import CONNECTION_CLOSED, CallToolResult, PaginatedRequestParams, Tool

from backend.mcp_client.session import (
    ServerConnectionLost,
    ServerUnavailable,
    ToolCallError,
    ToolTimeout,
)

logger = logging.getLogger(__name__)

STOP_GRACE_S = 10.0
"""How long a stopping session may take (stdio: 2 s for the process to exit, then SIGTERM)."""

_Ready = asyncio.Future[tuple[ClientSession, list[Tool]]]


def leaf_error(error: BaseException) -> BaseException:
    """The first real error inside (possibly nested) exception groups."""
    while isinstance(error, BaseExceptionGroup) and error.exceptions:
        error = error.exceptions[0]
    return error


def _start_failure(error: BaseException) -> str:
    # A process that exits at once shows as a closed connection, or, when the client writes
    # to its pipe first (a race that load decides), as a broken stream or pipe.
    closed = (anyio.BrokenResourceError, anyio.ClosedResourceError, BrokenPipeError)
    if (isinstance(error, McpError) and error.error.code == CONNECTION_CLOSED) or isinstance(
        error, closed
    ):
        return "the server closed the connection before the MCP handshake finished (see its stderr)"
    if isinstance(error, httpx.HTTPStatusError) and error.response.status_code == 401:
        return (
            "401 Unauthorized: the server wants a bearer token, and none or another was sent "
            "(the built-in servers': MARSA_MCP_TOKEN, the same as the server's; an extra "
            "server's: 'headers' in MARSA_MCP_CONFIG)"
        )
    return f"{type(error).__name__}: {error}"


async def _list_all_tools(session: ClientSession) -> list[Tool]:
    tools: list[Tool] = []
    cursor: str | None = None
    while True:
        params = PaginatedRequestParams(cursor=cursor) if cursor else None
        page = await session.list_tools(params=params)
        tools.extend(page.tools)
        cursor = page.nextCursor
        if not cursor:
            return tools


class HeldSession:
    """A restartable session to one server; ``session`` is None until started or after a stop."""

    def __init__(self, name: str, connection: dict[str, Any], start_timeout: float):
        self.name = name
        self.connection = connection
        self.start_timeout = start_timeout
        self.session: ClientSession | None = None
        self.generation = 0
        """Counts successful starts: a caller that saw a failure on generation N restarts only
        if nobody else has already done so."""
        self.ended = asyncio.Event()
        """Set when the current session has ended: stopped, or broken under its callers."""
        self.failure = ""
        """Why the current session ended, if it broke."""
        self._task: asyncio.Task[None] | None = None
        self._stop = asyncio.Event()
        self._restart_lock = asyncio.Lock()

    async def start(self) -> list[Tool]:
        """Start (or reach) the server and list its tools; ServerUnavailable if it cannot."""
        ready: _Ready = asyncio.get_running_loop().create_future()
        stop, ended = asyncio.Event(), asyncio.Event()
        task = asyncio.create_task(self._own(ready, stop, ended), name=f"mcp-session-{self.name}")
        try:
            session, tools = await asyncio.wait_for(asyncio.shield(ready), self.start_timeout)
        except TimeoutError:
            await _cancel(task)
            raise ServerUnavailable(
                f"did not finish starting within {self.start_timeout:g} s"
            ) from None
        except BaseException:
            await _cancel(task)
            raise
        self.session, self._task, self._stop, self.ended = session, task, stop, ended
        self.failure = ""
        self.generation += 1
        return tools

    async def stop(self) -> None:
        """Close the session (for stdio: close its stdin, then terminate the process)."""
        task, self._task, self.session = self._task, None, None
        if task is None:
            return
        self._stop.set()
        _, pending = await asyncio.wait({task}, timeout=STOP_GRACE_S)
        if pending:
            logger.warning("the %s session did not close within %g s", self.name, STOP_GRACE_S)
            await _cancel(task)

    async def restart(self, seen_generation: int) -> list[Tool] | None:
        """Replace the session if it is still the one that failed; the new tools, or None."""
        async with self._restart_lock:
            if self.generation != seen_generation and self.session is not None:
                return None  # a concurrent call has already restarted it
            await self.stop()
            return await self.start()

    async def call(self, tool: str, arguments: dict[str, Any], limit: float) -> CallToolResult:
        """One tool call over the session, classified: ToolTimeout, ServerConnectionLost when
        the session broke (the caller restarts it), ToolCallError for the tool's own error."""
        server = self.name
        session = self.session
        if session is None:
            raise ServerConnectionLost(server, tool, "the session is closed")
        # The call runs as its own task so that a session breaking under it (its owner task
        # ends) fails it at once instead of leaving it to wait for the time limit.
        call = asyncio.ensure_future(session.call_tool(tool, arguments))
        ended = asyncio.ensure_future(self.ended.wait())
        try:
            done, _ = await asyncio.wait({call, ended}, timeout=limit, return_when=FIRST_COMPLETED)
        finally:
            ended.cancel()
            if not call.done():
                call.cancel()
                call.add_done_callback(_retrieve)
        if call not in done:
            if ended in done:
                lost = self.failure or "the session ended"
                raise ServerConnectionLost(server, tool, f"the connection broke ({lost})")
            raise ToolTimeout(server, tool, limit)
        try:
            result = call.result()
        except McpError as exc:
            if exc.error.code == CONNECTION_CLOSED:
                raise ServerConnectionLost(
                    server, tool, "the connection closed during the call (did the server exit?)"
                ) from exc
            raise ToolCallError(server, tool, exc.error.message) from exc
        except _TRANSPORT_ERRORS as exc:
            detail = f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__
            raise ServerConnectionLost(server, tool, f"the connection broke ({detail})") from exc
        if result.isError:
            text = " ".join(getattr(part, "text", "") for part in result.content).strip()
            raise ToolCallError(server, tool, text or "the tool failed without a message")
        return result

    async def _own(self, ready: _Ready, stop: asyncio.Event, ended: asyncio.Event) -> None:
        client = MultiServerMCPClient({self.name: self.connection})  # type: ignore[dict-item]
        try:
            async with AsyncExitStack() as stack:
                session = await stack.enter_async_context(client.session(self.name))
                tools = await _list_all_tools(session)
                ready.set_result((session, tools))
                await stop.wait()
        except (Exception, BaseExceptionGroup) as exc:
            leaf = leaf_error(exc)
            if not isinstance(leaf, Exception):
                raise  # cancellation or exit: not ours to handle
            if not ready.done():
                ready.set_exception(ServerUnavailable(_start_failure(leaf)))
            else:
                # Calls waiting on this session see `ended` and restart it.
                self.failure = f"{type(leaf).__name__}: {leaf}"
                logger.warning("the %s session broke: %s", self.name, self.failure)
        finally:
            ended.set()
            if not ready.done():
                ready.cancel()


# What a call raises when the session under it is gone: the stdio process ended (EOF on its
# stdout closes the streams: ClosedResourceError, or McpError "Connection closed" for the
# requests in flight), a pipe broke, or an HTTP server stopped answering.
_TRANSPORT_ERRORS = (
    anyio.ClosedResourceError,
    anyio.BrokenResourceError,
    anyio.EndOfStream,
    OSError,
    httpx.TransportError,
)


def _retrieve(task: asyncio.Future[Any]) -> None:
    """Mark an abandoned call's outcome as seen, so asyncio does not log it as lost."""
    if not task.cancelled():
        task.exception()


async def _cancel(task: asyncio.Task[None]) -> None:
    task.cancel()
    await asyncio.gather(task, return_exceptions=True)
