"""Run the research graph once: its start state, its opening event, its typed result."""

from __future__ import annotations

import time
from typing import Any

from backend.graph.builder import graph
from backend.graph.context import ResearchContext
from backend.graph.follow_up import EarlierRun, follow_up_state
from backend.graph.result import RunResult
from backend.graph.state import AgentState


def initial_state(query: str, max_iterations: int, earlier: EarlierRun | None = None) -> AgentState:
    """The state a run starts from; a follow-up's holds the earlier run's sources and context."""
    if earlier is not None:
        return follow_up_state(query, max_iterations, earlier)
    return {
        "query": query,
        "max_iterations": max_iterations,
        "iteration_count": 0,
        "status": "planning",
    }


def emit_run_start(ctx: ResearchContext, query: str, earlier: EarlierRun | None = None) -> None:
    """The event a run opens with: the question, the engine and the rounds allowed (and, for
    a follow-up, the run it follows and how many of its sources it starts from)."""
    follows: dict[str, Any] = {}
    if earlier is not None:
        follows = {"parent_run_id": earlier.run_id, "carried_sources": len(earlier.sources)}
    ctx.tracer.emit(
        "run",
        "run_start",
        f"research: {query}"
        + (
            f" (follow-up of run {earlier.run_id}: starts from its "
            f"{len(earlier.sources)} sources and answer)"
            if earlier is not None
            else ""
        ),
        query=query,
        engine=ctx.engine.name,
        max_iterations=ctx.max_iterations,
        **follows,
    )


async def run_research(
    query: str, ctx: ResearchContext, earlier: EarlierRun | None = None
) -> RunResult:
    """Plan, research, fact-check and write a report for ``query`` (a follow-up of
    ``earlier`` when given)."""
    started = time.perf_counter()
    emit_run_start(ctx, query, earlier)
    state = await graph.ainvoke(initial_state(query, ctx.max_iterations, earlier), context=ctx)
    total = (time.perf_counter() - started) * 1000
    ctx.tracer.emit(
        "run",
        "run_end",
        f"run {state.get('status')}",
        duration_ms=total,
        status=state.get("status"),
    )
    return RunResult.build(state, ctx.tracer.events, total, ctx.tracer.run_id, ctx.engine)
