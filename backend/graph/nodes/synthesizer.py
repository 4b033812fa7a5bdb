"""synthesizer: write the cited report, then check every citation against its source."""

from __future__ import annotations

from typing import Any

from langgraph.runtime import Runtime

from backend.graph.context import ResearchContext
from backend.graph.follow_up import heed_earlier_run
from backend.graph.nodes.common import claims_of, node_span, plan_of, sources_of, verdicts_of
from backend.graph.state import AgentState
from backend.reasoning.citations import check_citations
from backend.reasoning.engine import take_fallbacks


async def synthesizer(state: AgentState, runtime: Runtime[ResearchContext]) -> dict[str, Any]:
    ctx = runtime.context
    with node_span(ctx, "synthesizer", "writing the report") as span:
        heed_earlier_run(ctx.engine, state)
        plan = plan_of(state)
        sources = sources_of(state)
        claims = claims_of(state)
        verdicts = verdicts_of(state)
        report = await ctx.engine.write_report(plan, claims, verdicts, list(sources.values()))
        if report.answer_basis:
            basis = report.answer_basis
            span.emit(
                "info",
                f"answer {'found' if report.answer_found else 'not found'}: "
                + ", ".join(f"{k} {v}" for k, v in basis.items()),
                answer_found=report.answer_found,
                **basis,
            )
        markdown, kept, counts = check_citations(report.markdown, report.citations, sources)
        span.emit(
            "info",
            f"citation check: {counts['checked']} checked, {counts['removed']} removed",
            **counts,
        )
    return {
        "report": markdown,
        "answer": report.answer,
        "answer_found": report.answer_found,
        "citations": [c.model_dump(mode="json") for c in kept],
        "citation_check": counts,
        "status": "done",
        "errors": take_fallbacks(ctx.engine),
        "agent_trace": span.trace(),
    }
