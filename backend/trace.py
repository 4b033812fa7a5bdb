"""The one TraceEvent schema shared by the graph, the CLI, the API and the UI."""

from __future__ import annotations

import time
import uuid
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any, Literal

from pydantic import BaseModel, Field

NodeName = Literal["planner", "researcher", "fact_checker", "synthesizer", "client", "run"]
EventKind = Literal[
    "run_start",
    "run_end",
    "node_start",
    "node_end",
    "tool_call",
    "verdict",
    "refinement",
    "fallback",
    "llm_call",
    "info",
    "error",
]


class TraceEvent(BaseModel):
    """Something an agent did, as it happened."""

    run_id: str
    seq: int = Field(description="1, 2, … in the order the run emitted them")
    ts: datetime
    node: NodeName
    kind: EventKind
    message: str
    duration_ms: float | None = None
    data: dict[str, Any] = Field(default_factory=dict)


Listener = Callable[[TraceEvent], None]


class Tracer:
    """Collects a run's events in order and hands each to listeners as it happens."""

    def __init__(
        self,
        run_id: str | None = None,
        listeners: list[Listener] | None = None,
        *,
        last_seq: int = 0,
    ):
        self.run_id = run_id or uuid.uuid4().hex[:12]
        self.events: list[TraceEvent] = []
        # A resumed run goes on numbering after the events it emitted before.
        self._last_seq = last_seq
        self._listeners = list(listeners or [])
        self._started = time.perf_counter()

    @property
    def last_seq(self) -> int:
        """The number of the last event emitted (or stored before this segment)."""
        return self._last_seq

    def subscribe(self, listener: Listener) -> None:
        """Receive every later event."""
        self._listeners.append(listener)

    def emit(
        self,
        node: NodeName,
        kind: EventKind,
        message: str,
        *,
        duration_ms: float | None = None,
        **data: Any,
    ) -> TraceEvent:
        """Record an event and tell the listeners."""
        event = TraceEvent(
            run_id=self.run_id,
            seq=self._last_seq + 1,
            ts=datetime.now(UTC),
            node=node,
            kind=kind,
            message=message,
            duration_ms=None if duration_ms is None else round(duration_ms, 2),
            data=data,
        )
        self._last_seq = event.seq
        self.events.append(event)
        for listener in self._listeners:
            listener(event)
        return event

    def elapsed_ms(self) -> float:
        """Milliseconds since the tracer was made."""
        return (time.perf_counter() - self._started) * 1000
