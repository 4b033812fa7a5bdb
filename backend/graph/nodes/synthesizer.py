"""synthesizer: write the cited report, then check every citation against its source."""

from __future__ import annotations

from typing import Any

from langgraph.runtime import Runtime

from backend.graph.citations import check_citations
from backend.graph.context import ResearchContext
from backend.graph.nodes.common import node_span
from backend.graph.state import AgentState
from backend.reasoning.models import Claim, Plan, Source, SubQuery, Verdict


async def synthesizer(state: AgentState, runtime: Runtime[ResearchContext]) -> dict[str, Any]:
    ctx = runtime.context
    with node_span(ctx, "synthesizer", "writing the report") as span:
        plan = Plan.model_validate(state["plan"])
        plan.sub_queries = [SubQuery.model_validate(sq) for sq in state.get("sub_queries", [])]
        sources = {sid: Source.model_validate(s) for sid, s in state.get("sources", {}).items()}
        claims = [Claim.model_validate(c) for c in state.get("claims", [])]
        verdicts = [Verdict.model_validate(v) for v in state.get("verification_results", [])]
        report = await ctx.engine.write_report(plan, claims, verdicts, list(sources.values()))
        markdown, kept, counts = check_citations(report.markdown, report.citations, sources)
        span.emit(
            "info",
            f"citation check: {counts['checked']} checked, {counts['removed']} removed",
            **counts,
        )
    return {
        "report": markdown,
        "answer": report.answer,
        "citations": [c.model_dump(mode="json") for c in kept],
        "citation_check": counts,
        "status": "done",
        "agent_trace": span.trace(),
    }
