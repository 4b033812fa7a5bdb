"""What every node shares: a span that traces its start and end and collects its events."""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from backend.graph.context import ResearchContext
from backend.graph.state import AgentState
from backend.reasoning.models import Claim, Plan, Source, SubQuery, Verdict
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


def plan_of(state: AgentState) -> Plan:
    """The plan with every sub-query so far (first hop and refinements)."""
    plan = Plan.model_validate(state["plan"])
    plan.sub_queries = [SubQuery.model_validate(sq) for sq in state.get("sub_queries", [])]
    return plan


def sources_of(state: AgentState) -> dict[str, Source]:
    """Every source retrieved in this run, by id."""
    return {sid: Source.model_validate(s) for sid, s in state.get("sources", {}).items()}


def claims_of(state: AgentState) -> list[Claim]:
    """The claims of the latest fact-check."""
    return [Claim.model_validate(c) for c in state.get("claims", [])]


def verdicts_of(state: AgentState) -> list[Verdict]:
    """The verdicts of the latest fact-check."""
    return [Verdict.model_validate(v) for v in state.get("verification_results", [])]
