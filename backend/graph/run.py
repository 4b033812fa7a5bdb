"""Run the research graph once and shape its result (the JSON the CLI and API return)."""

from __future__ import annotations

import time
from typing import Any

from backend.graph.builder import graph
from backend.graph.context import ResearchContext
from backend.graph.state import AgentState
from backend.trace import TraceEvent


def initial_state(query: str, max_iterations: int) -> AgentState:
    """The state a run starts from."""
    return {
        "query": query,
        "max_iterations": max_iterations,
        "iteration_count": 0,
        "status": "planning",
    }


def node_timings(events: list[TraceEvent], total_ms: float) -> dict[str, float]:
    """Milliseconds spent in each node (summed over rounds), and the total."""
    timings: dict[str, float] = {}
    for event in events:
        if event.kind == "node_end" and event.duration_ms is not None:
            timings[event.node] = round(timings.get(event.node, 0.0) + event.duration_ms, 2)
    timings["total"] = round(total_ms, 2)
    return timings


def result_json(
    state: AgentState, events: list[TraceEvent], total_ms: float, run_id: str
) -> dict[str, Any]:
    """The run as one JSON object: query, plan, sources, claims, report, citations, trace…"""
    verdicts = {v["claim_id"]: v for v in state.get("verification_results", [])}
    claims = []
    for claim in state.get("claims", []):
        verdict = verdicts.get(claim["id"], {})
        claims.append(
            {
                "id": claim["id"],
                "text": claim["text"],
                "source_ids": claim["source_ids"],
                "verdict": verdict.get("verdict", "unverifiable"),
                "confidence": verdict.get("confidence", 0.0),
                "evidence": verdict.get("evidence", []),
                "rationale": verdict.get("rationale", ""),
            }
        )
    sources = [
        {
            "id": s["id"],
            "title": s["title"],
            "url": s.get("url"),
            "path": s.get("path"),
            "relative_path": s.get("relative_path"),
            "status": s.get("status"),
            "server": s["server"],
            "tool": s["tool"],
            "score": s["score"],
            "score_breakdown": s.get("score_breakdown"),
            "published_date": s.get("published_date"),
            "doc_id": s.get("doc_id"),
            "chunk_id": s.get("chunk_id"),
            "chunk_ids": s.get("chunk_ids", []),
            "sections": s.get("sections", []),
            "text": s["text"],
        }
        for s in state.get("sources", {}).values()
    ]
    return {
        "run_id": run_id,
        "query": state.get("query"),
        "status": state.get("status"),
        "answer": state.get("answer", ""),
        "answer_found": state.get("answer_found", bool(state.get("answer"))),
        "plan": state.get("plan"),
        "sub_queries": state.get("sub_queries", []),
        "sources": sources,
        "claims": claims,
        "report": state.get("report", ""),
        "citations": state.get("citations", []),
        "citation_check": state.get("citation_check", {"checked": 0, "removed": 0}),
        "iterations": state.get("iteration_count", 0),
        "trace": [e.model_dump(mode="json") for e in events],
        "timings": node_timings(events, total_ms),
        "errors": state.get("errors", []),
    }


async def run_research(query: str, ctx: ResearchContext) -> dict[str, Any]:
    """Plan, research, fact-check and write a report for ``query``."""
    started = time.perf_counter()
    ctx.tracer.emit(
        "run",
        "run_start",
        f"research: {query}",
        query=query,
        engine=ctx.engine.name,
        max_iterations=ctx.max_iterations,
    )
    state = await graph.ainvoke(initial_state(query, ctx.max_iterations), context=ctx)
    total = (time.perf_counter() - started) * 1000
    ctx.tracer.emit(
        "run",
        "run_end",
        f"run {state.get('status')}",
        duration_ms=total,
        status=state.get("status"),
    )
    return result_json(state, ctx.tracer.events, total, ctx.tracer.run_id)
