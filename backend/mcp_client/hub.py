"""MCPHub: one held session per server for a whole run, with discovery, timeouts and restarts.

``async with MCPHub(settings) as hub:`` starts the built-in servers (docs, web, github) and
the extra servers of ``settings.mcp_config`` concurrently; a server that cannot start is
reported unavailable with the reason while the others serve. ``hub.call`` sends a tool call
over the held session with a time limit. Rules (see docs/architecture.md):

- a tool error (``isError``) raises ToolCallError and is never retried;
- a timeout raises ToolTimeout; a read-only tool (``readOnlyHint``) is retried once first;
- a broken connection restarts the session (a new subprocess for stdio), then retries a
  read-only tool once; for any other tool it raises ServerConnectionLost, since the tool
  may already have had its effect.
"""

from __future__ import annotations

import asyncio
import inspect
import time
from collections.abc import Awaitable, Callable
from contextlib import AsyncExitStack
from types import TracebackType
from typing import Any

from backend.config import Settings, get_settings
from backend.mcp_client.held import HeldSession
from backend.mcp_client.mcp_config import ExtraServer, load_mcp_config
from backend.mcp_client.models import (
    CallRecord,
    ServerStatus,
    ToolInfo,
    ToolResult,
    Transport,
    result_count,
    structured_of,
    tool_info,
)
from backend.mcp_client.registry import SERVERS, connection_for, setting_value
from backend.mcp_client.session import (
    ServerConnectionLost,
    ServerUnavailable,
    ToolCallError,
    ToolTimeout,
)
from marsa_common.validation import MAX_ARGUMENT_DEPTH, depth

OnCall = Callable[[CallRecord], Awaitable[None] | None]
INGEST_TIMEOUT = 900.0
"""Seconds an ingestion may take: a 10 MiB file is about a thousand chunks to embed (the API
and `marsa ingest` alike)."""


class MCPHub:
    """The unified MCP client of a run: ``async with MCPHub(settings) as hub: await hub.call(...)``.

    ``servers`` limits which built-ins start (None: all three; extras always start).
    ``call_timeout`` is the default time limit of one try of a call (default: the setting
    MARSA_MCP_CALL_TIMEOUT), ``start_timeout`` that of a server start, and ``on_call``
    (sync or async) receives a CallRecord after every call.
    """

    def __init__(
        self,
        settings: Settings | None = None,
        *,
        servers: list[str] | None = None,
        call_timeout: float | None = None,
        start_timeout: float = 60.0,
        on_call: OnCall | None = None,
    ):
        self.settings = settings or get_settings()
        unknown = sorted(set(servers or []) - set(SERVERS))
        if unknown:
            raise ValueError(f"unknown built-in server(s) {unknown}; known: {sorted(SERVERS)}")
        self.builtins = [name for name in SERVERS if servers is None or name in servers]
        self.extras: dict[str, ExtraServer] = (
            load_mcp_config(self.settings.mcp_config) if self.settings.mcp_config else {}
        )
        self.call_timeout = self.settings.mcp_call_timeout if call_timeout is None else call_timeout
        self.start_timeout = start_timeout
        self.on_call = on_call
        self.status: dict[str, ServerStatus] = {}
        self._held: dict[str, HeldSession] = {}
        self._stack: AsyncExitStack | None = None

    # --- lifetime ----------------------------------------------------------------------

    async def __aenter__(self) -> MCPHub:
        if self._stack is not None:
            raise RuntimeError("this MCPHub is already started")
        self._stack = AsyncExitStack()
        self._stack.push_async_callback(self._stop_all)
        names = [*self.builtins, *self.extras]
        try:
            # A task group, not gather: if anything escapes, the other starts are cancelled
            # (and their half-started subprocesses closed) instead of left running.
            async with asyncio.TaskGroup() as group:
                starts = [group.create_task(self._start(name)) for name in names]
        except BaseException:
            await self._close()
            raise
        self.status = {start.result().name: start.result() for start in starts}
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self._close()

    async def _close(self) -> None:
        stack, self._stack = self._stack, None
        if stack is not None:
            await stack.aclose()

    async def _stop_all(self) -> None:
        held, self._held = list(self._held.values()), {}
        await asyncio.gather(*(h.stop() for h in held))

    def _connection(self, name: str) -> tuple[dict[str, Any], Transport]:
        if name in self.extras:
            extra = self.extras[name]
            return extra.connection(), extra.transport
        connection = connection_for(name, self.settings)
        return connection, "stdio" if connection["transport"] == "stdio" else "http"

    async def _start(self, name: str) -> ServerStatus:
        connection, transport = self._connection(name)
        status = ServerStatus(
            name=name,
            available=False,
            reason="",
            transport=transport,
            builtin=name not in self.extras,
        )
        spec = SERVERS.get(name)
        if spec and spec.required and setting_value(self.settings, spec.required) is None:
            status.reason = spec.missing_required  # it would refuse every call: do not start it
            return status
        held = HeldSession(name, connection, self.start_timeout)
        try:
            tools = await held.start()
        except ServerUnavailable as exc:
            status.reason = f"could not start: {exc}"
            return status
        self._held[name] = held
        status.available = True
        status.reason = self._note(name)
        status.tools = [tool_info(tool) for tool in tools]
        return status

    def _note(self, name: str) -> str:
        spec = SERVERS.get(name)
        if spec and spec.optional and setting_value(self.settings, spec.optional) is None:
            return spec.missing_optional
        return "ready"

    # --- queries -----------------------------------------------------------------------

    def available(self) -> list[str]:
        """Names of the servers that can be called, built-ins first."""
        return [name for name, status in self.status.items() if status.available]

    def tools(self, server: str) -> list[ToolInfo]:
        """The tools a server offered when its session (last) started."""
        return self._status(server).tools

    def _status(self, server: str) -> ServerStatus:
        if server not in self.status:
            raise ServerUnavailable(
                f"unknown MCP server '{server}'; known: {', '.join(self.status) or 'none'}"
            )
        return self.status[server]

    def _read_only(self, server: str, tool: str) -> bool:
        return any(t.name == tool and t.read_only for t in self._status(server).tools)

    # --- calls -------------------------------------------------------------------------

    async def call(
        self,
        server: str,
        tool: str,
        arguments: dict[str, Any] | None = None,
        *,
        timeout: float | None = None,
    ) -> ToolResult:
        """Call a tool over the server's held session; see the module docstring for the rules.

        Raises ToolCallError (or its ToolTimeout / ServerConnectionLost) or ServerUnavailable.
        """
        arguments = dict(arguments or {})
        limit = self.call_timeout if timeout is None else timeout
        started = time.perf_counter()
        retried = restarted = False

        def record(**fields: Any) -> CallRecord:
            elapsed = round((time.perf_counter() - started) * 1000, 2)
            return CallRecord(
                server=server,
                tool=tool,
                arguments=arguments,
                duration_ms=elapsed,
                retried=retried,
                restarted=restarted,
                **fields,
            )

        try:
            if depth(arguments) > MAX_ARGUMENT_DEPTH:
                # Past about 200 levels the server's JSON parser drops the message unanswered:
                # refuse it here rather than wait for the timeout.
                raise ToolCallError(
                    server,
                    tool,
                    f"the arguments nest lists or objects more than {MAX_ARGUMENT_DEPTH} "
                    "levels deep; no tool takes such values",
                )
            read_only = self._read_only(server, tool)
            while True:
                held = self._session_of(server)
                generation = held.generation
                try:
                    raw = await held.call(tool, arguments, limit)
                    break
                except ToolTimeout as timeout:
                    if retried or not read_only:
                        tries = 2 if retried else 1
                        total = time.perf_counter() - started
                        raise ToolTimeout(server, tool, limit, tries, total) from timeout
                except ServerConnectionLost as lost:
                    restarted = True
                    await self._restart(server, held, generation)
                    if retried or not read_only:
                        message = f"{lost.message}; the server was restarted, the call not repeated"
                        raise ServerConnectionLost(server, tool, message) from lost
                retried = True
        except (ToolCallError, ServerUnavailable) as exc:
            await self._report(record(error=str(exc)))
            raise
        structured = structured_of(raw)
        done = record(result_count=result_count(structured))
        await self._report(done)
        return ToolResult(
            server=server,
            tool=tool,
            arguments=arguments,
            structured=structured,
            duration_ms=done.duration_ms,
            result_count=done.result_count,
            retried=retried,
            restarted=restarted,
        )

    def _session_of(self, server: str) -> HeldSession:
        status = self._status(server)
        held = self._held.get(server)
        if not status.available or held is None:
            raise ServerUnavailable(f"the {server} server is unavailable: {status.reason}")
        return held

    async def _restart(self, server: str, held: HeldSession, generation: int) -> None:
        status = self.status[server]
        try:
            tools = await held.restart(generation)
        except ServerUnavailable as exc:
            status.available = False
            status.reason = f"restart failed: {exc}"
            status.tools = []
            raise ServerUnavailable(f"the {server} server could not be restarted: {exc}") from exc
        if tools is not None:
            status.tools = [tool_info(tool) for tool in tools]

    async def _report(self, record: CallRecord) -> None:
        if self.on_call is None:
            return
        outcome = self.on_call(record)
        if inspect.isawaitable(outcome):
            await outcome


def docs_only(settings: Settings) -> Settings:
    """Settings for a command that needs the document store alone: the servers of
    ``MARSA_MCP_CONFIG`` are not started for it."""
    return settings.model_copy(update={"mcp_config": None})
