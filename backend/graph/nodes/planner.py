"""planner: decompose the question into sub-queries routed to the servers that can answer;
refine: after a fact-check with thin evidence, add follow-up sub-queries."""

from __future__ import annotations

from typing import Any

from langgraph.runtime import Runtime

from backend.graph.context import ResearchContext
from backend.graph.follow_up import heed_earlier_run, resolve_references
from backend.graph.nodes.common import node_span, plan_of, sources_of, verdicts_of
from backend.graph.sources import NO_SEARCH_TOOL, generic_search_tool
from backend.graph.state import AgentState
from backend.reasoning.engine import take_fallbacks
from backend.reasoning.models import SubQuery
from backend.sources import BUILTINS


def searchable(ctx: ResearchContext) -> tuple[list[str], list[str]]:
    """(servers the researcher can search, extra servers it cannot: no search-like tool)."""
    usable, skipped = [], []
    for server in ctx.usable_servers():
        if server in BUILTINS or generic_search_tool(ctx.tools_of(server)) is not None:
            usable.append(server)
        else:
            skipped.append(server)
    return usable, skipped


def _sub_queries(n: int, new: str = "") -> str:
    """'1 sub-query', '2 new sub-queries': the trace's count of a plan's searches."""
    return f"{n} {new}sub-quer{'y' if n == 1 else 'ies'}"


def _restrict(sub_queries: list[SubQuery], usable: list[str]) -> list[SubQuery]:
    """Keep only servers that can answer; a sub-query left with none falls back to all usable.
    Extra servers from the MCP config join every sub-query: that is what they were added for."""
    extras = [s for s in usable if s not in BUILTINS]
    for sq in sub_queries:
        kept = [s for s in sq.sources if s in usable] or list(usable)
        sq.sources = kept + [s for s in extras if s not in kept]
    return sub_queries


async def planner(state: AgentState, runtime: Runtime[ResearchContext]) -> dict[str, Any]:
    ctx = runtime.context
    with node_span(ctx, "planner", "planning the research") as span:
        usable, skipped = searchable(ctx)
        for server in skipped:
            span.emit("info", f"the {server} server {NO_SEARCH_TOOL}", server=server)
        if not usable:
            span.emit("error", "no source can answer: every MCP server is unavailable")
            return {
                "status": "failed",
                "errors": ["no MCP server is available"],
                "agent_trace": span.trace(),
            }
        heed_earlier_run(ctx.engine, state)
        question = state["query"]
        earlier = state.get("earlier_run")
        if earlier:
            question = resolve_references(question, earlier)
            read_as = f": read as {question!r}" if question != state["query"] else ""
            span.emit(
                "info",
                f"follow-up of run {earlier['run_id']} ({earlier['query']!r}), "
                f"starting from its {len(state.get('sources', {}))} sources{read_as}",
                parent_run_id=earlier["run_id"],
                resolved_query=question,
            )
        plan = await ctx.engine.plan(question, usable)
        plan.sub_queries = _restrict(plan.sub_queries, usable)
        span.emit(
            "info",
            f"{plan.kind} question: {_sub_queries(len(plan.sub_queries))}",
            plan=plan.model_dump(mode="json"),
        )
    return {
        "plan": plan.model_dump(mode="json"),
        "sub_queries": [sq.model_dump(mode="json") for sq in plan.sub_queries],
        "status": "researching",
        "iteration_count": 0,
        "errors": take_fallbacks(ctx.engine),
        "agent_trace": span.trace(),
    }


async def refine(state: AgentState, runtime: Runtime[ResearchContext]) -> dict[str, Any]:
    ctx = runtime.context
    with node_span(ctx, "planner", "refining the plan") as span:
        heed_earlier_run(ctx.engine, state)
        plan = plan_of(state)
        sources = list(sources_of(state).values())
        verdicts = verdicts_of(state)
        new = await ctx.engine.refine(plan, sources, verdicts, state.get("iteration_count", 0))
        known = {sq.text.lower() for sq in plan.sub_queries}
        fresh, next_id = [], len(plan.sub_queries) + 1
        for sq in new:
            if sq.text.lower() in known:
                continue
            sq.id = f"q{next_id}"
            next_id += 1
            known.add(sq.text.lower())
            fresh.append(sq)
        fresh = _restrict(fresh, searchable(ctx)[0])
        span.emit(
            "refinement",
            f"{_sub_queries(len(fresh), 'new ')}",
            sub_queries=[sq.model_dump(mode="json") for sq in fresh],
        )
    return {
        "sub_queries": [sq.model_dump(mode="json") for sq in fresh],
        "status": "researching",
        "errors": take_fallbacks(ctx.engine),
        "agent_trace": span.trace(),
    }
