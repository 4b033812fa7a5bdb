"""Run the research graph once: its start state, its opening event, its typed result."""

from __future__ import annotations

import time

from backend.graph.builder import graph
from backend.graph.context import ResearchContext
from backend.graph.result import RunResult
from backend.graph.state import AgentState


def initial_state(query: str, max_iterations: int) -> AgentState:
    """The state a run starts from."""
    return {
        "query": query,
        "max_iterations": max_iterations,
        "iteration_count": 0,
        "status": "planning",
    }


def emit_run_start(ctx: ResearchContext, query: str) -> None:
    """The event a run opens with: the question, the engine and the rounds allowed."""
    ctx.tracer.emit(
        "run",
        "run_start",
        f"research: {query}",
        query=query,
        engine=ctx.engine.name,
        max_iterations=ctx.max_iterations,
    )


async def run_research(query: str, ctx: ResearchContext) -> RunResult:
    """Plan, research, fact-check and write a report for ``query``."""
    started = time.perf_counter()
    emit_run_start(ctx, query)
    state = await graph.ainvoke(initial_state(query, ctx.max_iterations), context=ctx)
    total = (time.perf_counter() - started) * 1000
    ctx.tracer.emit(
        "run",
        "run_end",
        f"run {state.get('status')}",
        duration_ms=total,
        status=state.get("status"),
    )
    return RunResult.build(state, ctx.tracer.events, total, ctx.tracer.run_id, ctx.engine)
