"""Run-scoped knobs and handles, passed to every node as LangGraph runtime context."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, date, datetime
from typing import Any, Protocol

from backend.config import Settings
from backend.mcp_client.models import ToolResult
from backend.reasoning.engine import ReasoningEngine
from backend.trace import Tracer

MAX_ITERATIONS_CAP = 20  # the seed's iterative-search hard cap


class ToolCaller(Protocol):
    """What the nodes need from the unified MCP client."""

    def available(self) -> list[str]: ...

    def tools(self, server: str) -> list[Any]: ...

    async def call(
        self, server: str, tool: str, arguments: dict[str, Any], *, timeout: float | None = None
    ) -> ToolResult: ...


@dataclass
class ResearchContext:
    """Everything a run needs besides its state."""

    hub: ToolCaller
    engine: ReasoningEngine
    tracer: Tracer
    settings: Settings
    max_iterations: int = 2
    sources: list[str] | None = None
    """Restrict research to these servers (None: whatever is available)."""
    results_per_call: int = 8
    today: date = field(default_factory=lambda: datetime.now(UTC).date())

    def __post_init__(self) -> None:
        if not 1 <= self.max_iterations <= MAX_ITERATIONS_CAP:
            raise ValueError(
                f"max_iterations must be 1–{MAX_ITERATIONS_CAP}, got {self.max_iterations}"
            )

    def tools_of(self, server: str) -> list[Any]:
        """The tools a server offers (for extra servers' search-like tools)."""
        return self.hub.tools(server)

    def usable_servers(self) -> list[str]:
        """Available servers, narrowed to the ones asked for."""
        available = self.hub.available()
        if self.sources is None:
            return available
        return [name for name in self.sources if name in available]
