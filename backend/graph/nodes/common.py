"""What every node shares: a span that traces its start and end and collects its events."""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from backend.graph.context import ResearchContext
from backend.trace import NodeName, TraceEvent


class NodeSpan:
    """Events one node emitted, to be returned in the state's agent_trace."""

    def __init__(self, ctx: ResearchContext, node: NodeName):
        self.ctx = ctx
        self.node = node
        self.events: list[TraceEvent] = []

    def emit(self, kind: Any, message: str, **data: Any) -> TraceEvent:
        event = self.ctx.tracer.emit(self.node, kind, message, **data)
        self.events.append(event)
        return event

    def trace(self) -> list[dict[str, Any]]:
        return [event.model_dump(mode="json") for event in self.events]


@contextmanager
def node_span(ctx: ResearchContext, node: NodeName, message: str) -> Iterator[NodeSpan]:
    """Emit node_start, run the block, emit node_end with its duration (also on error)."""
    span = NodeSpan(ctx, node)
    span.emit("node_start", message)
    started = time.perf_counter()
    try:
        yield span
    finally:
        elapsed = (time.perf_counter() - started) * 1000
        event = ctx.tracer.emit(node, "node_end", f"{node} done", duration_ms=elapsed)
        span.events.append(event)
