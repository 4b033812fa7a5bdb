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


def basis_line(found: bool, basis: dict[str, Any]) -> str:
    """The trace's line on why the answer was given or not, in words ("answer found for a
    lookup question: the passage chosen holds 61% of the question's words, 0.42 close in
    meaning"); the figures themselves stay in the event's data."""
    kind = basis.get("asked")
    head = f"answer {'found' if found else 'not found'}" + (
        f" for a {kind.replace('_', '/')} question" if kind else ""
    )
    if basis.get("denied"):
        return f"{head}: the sources deny what the question takes for granted"
    said = []
    if isinstance(coverage := basis.get("coverage"), int | float):
        said.append(f"the passage chosen holds {round(100 * coverage)}% of the question's words")
    if isinstance(similarity := basis.get("similarity"), int | float):
        said.append(f"{similarity:.2f} close in meaning")
    if basis.get("cue") is False:
        said.append("without the kind of thing asked for")
    if isinstance(hop := basis.get("hop"), int) and hop > 1:
        said.append(f"found by search {hop} of a chain")
    return f"{head}: {', '.join(said)}" if said else head


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
                basis_line(report.answer_found, basis),
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
