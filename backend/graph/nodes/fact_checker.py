"""fact-checker: extract the claims that matter and check each against other sources."""

from __future__ import annotations

from typing import Any

from langgraph.runtime import Runtime

from backend.graph.context import ResearchContext
from backend.graph.follow_up import heed_earlier_run
from backend.graph.nodes.common import node_span, plan_of, sources_of
from backend.graph.state import AgentState
from backend.reasoning.engine import take_fallbacks

# "unverifiable (0.00)" on the very sentence that answers read as an alarm to new users: it
# means no other source confirms or contradicts it (one folder of documents, most often).
UNCHECKED = "unverifiable (no other source confirms or contradicts it)"


def verdict_label(verdict: str, confidence: float) -> str:
    """How the live trace shows a verdict: its confidence, or why there is none."""
    return UNCHECKED if verdict == "unverifiable" else f"{verdict} ({confidence:.2f})"


async def fact_checker(state: AgentState, runtime: Runtime[ResearchContext]) -> dict[str, Any]:
    ctx = runtime.context
    with node_span(ctx, "fact_checker", "extracting and checking claims") as span:
        heed_earlier_run(ctx.engine, state)
        plan = plan_of(state)
        sources = list(sources_of(state).values())
        claims = await ctx.engine.extract_claims(plan, sources)
        verdicts = await ctx.engine.verify(claims, sources)
        by_id = {c.id: c for c in claims}
        before = _said_before(state)
        repeated = 0
        for verdict in verdicts:
            claim = by_id.get(verdict.claim_id)
            label = verdict_label(verdict.verdict, verdict.confidence)
            # A refinement round checks the earlier claims again: the trace says only what is
            # new or changed, then how many stand as before (new users read every line twice).
            if claim is not None and before.get(claim.text) == label:
                repeated += 1
                continue
            span.emit(
                "verdict",
                f"{label}: {claim.text[:120] if claim else verdict.claim_id}",
                claim_id=verdict.claim_id,
                verdict=verdict.verdict,
                confidence=verdict.confidence,
            )
        if repeated:
            span.emit(
                "info",
                f"{repeated} claim{'s' if repeated > 1 else ''} checked as in the round before",
                unchanged=repeated,
            )
    return {
        "claims": [c.model_dump(mode="json") for c in claims],
        "verification_results": [v.model_dump(mode="json") for v in verdicts],
        "status": "checked",
        "errors": take_fallbacks(ctx.engine),
        "agent_trace": span.trace(),
    }


def _said_before(state: AgentState) -> dict[str, str]:
    """The earlier round's verdicts as the trace showed them, by claim text."""
    texts: dict[str, str] = {
        str(c.get("id")): str(c.get("text")) for c in state.get("claims") or [] if c.get("text")
    }
    return {
        texts[str(v.get("claim_id"))]: verdict_label(
            str(v.get("verdict", "")), float(v.get("confidence", 0.0))
        )
        for v in state.get("verification_results") or []
        if str(v.get("claim_id")) in texts
    }
