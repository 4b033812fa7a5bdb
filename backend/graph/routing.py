"""Where the graph goes after the fact-check and after a refinement."""

from __future__ import annotations

from typing import Literal

from backend.graph.state import AgentState

THIN_SOURCES = 2  # fewer sources than this per sub-query is thin evidence
DOUBTFUL_SHARE = 0.5  # more unverifiable or contradicted claims than this share is too many


def evidence_is_thin(state: AgentState) -> bool:
    """Too few sources for the sub-queries, or too many doubtful claims."""
    sub_queries = max(len(state.get("sub_queries", [])), 1)
    if len(state.get("sources", {})) < THIN_SOURCES * sub_queries:
        return True
    verdicts = state.get("verification_results", [])
    if not verdicts:
        return True
    doubtful = sum(v["verdict"] != "supported" for v in verdicts)
    return doubtful / len(verdicts) > DOUBTFUL_SHARE


def after_planner(state: AgentState) -> Literal["researcher", "__end__"]:
    """Stop when no server can answer; the run's status says failed and why."""
    return "__end__" if state.get("status") == "failed" else "researcher"


def after_fact_check(state: AgentState) -> Literal["refine", "synthesizer"]:
    """Refine while rounds remain and the evidence is thin."""
    rounds = state.get("iteration_count", 0)
    if rounds < state.get("max_iterations", 2) and evidence_is_thin(state):
        return "refine"
    return "synthesizer"


def after_refine(state: AgentState) -> Literal["researcher", "synthesizer"]:
    """Research again only if the refinement added sub-queries."""
    done = set(state.get("researched", []))
    pending = [sq for sq in state.get("sub_queries", []) if sq["id"] not in done]
    return "researcher" if pending else "synthesizer"
