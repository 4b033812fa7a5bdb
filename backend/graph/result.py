"""The run result: one typed model, built once from the final state, used by the CLI
(``--format json``), the API (stored with the run) and the routes (``GET /api/research/{id}``)."""

from __future__ import annotations

from typing import Any, Protocol, runtime_checkable

from pydantic import BaseModel, Field

from backend.graph.state import AgentState, RunStatus
from backend.reasoning.engine import ReasoningEngine
from backend.trace import TraceEvent


@runtime_checkable
class MetersTokens(Protocol):
    """An engine that counts the tokens it spent (the LLM engine)."""

    usage: dict[str, dict[str, Any]]

    def usage_by_node(self) -> dict[str, dict[str, Any]]: ...


@runtime_checkable
class ReportsSteps(Protocol):
    """An engine that says which steps its model did and which fell back (the LLM engine)."""

    steps: dict[str, list[str]]


class ResultSource(BaseModel):
    """A source of the run as the result shows it."""

    id: str
    title: str
    url: str | None = None
    path: str | None = None
    relative_path: str | None = None
    status: str | None = None
    server: str
    tool: str
    score: float
    score_breakdown: dict[str, Any] | None = None
    published_date: str | None = None
    doc_id: str | None = None
    chunk_id: str | None = None
    chunk_ids: list[str] = []
    sections: list[str] = []
    text: str
    from_run: str | None = None
    """For a follow-up: the earlier run this source was carried from."""


class ResultClaim(BaseModel):
    """A claim with its verdict (unverifiable, confidence 0, when it has none)."""

    id: str
    text: str
    source_ids: list[str]
    verdict: str = "unverifiable"
    confidence: float = 0.0
    evidence: list[dict[str, Any]] = []
    rationale: str = ""


class RunResult(BaseModel):
    """A finished research run: its question, plan, sources, claims, report and trace."""

    run_id: str
    query: str | None = None
    parent_run_id: str | None = None
    """For a follow-up: the run it follows, whose sources and answer it started from."""
    status: RunStatus | None = None
    answer: str = ""
    answer_found: bool = False
    plan: dict[str, Any] | None = None
    sub_queries: list[dict[str, Any]] = []
    sources: list[ResultSource] = []
    claims: list[ResultClaim] = []
    report: str = ""
    citations: list[dict[str, Any]] = []
    citation_check: dict[str, Any] = Field(default_factory=lambda: {"checked": 0, "removed": 0})
    iterations: int = 0
    trace: list[dict[str, Any]] = []
    timings: dict[str, float] = {}
    errors: list[str] = []
    engine: str | None = None
    """The engine the run thought with: "offline" when an LLM was configured but every one of
    its steps fell back."""
    engine_steps: dict[str, list[str]] | None = None
    """For the LLM engine: the steps the model did (``by_model``), those that fell back
    (``fell_back``) and why each did (``fell_back_why``, in the same order)."""
    llm_usage: dict[str, dict[str, Any]] | None = None
    """Tokens (and cost, when prices are set) per step; only for an engine that counts them."""
    llm_usage_by_node: dict[str, dict[str, Any]] | None = None

    @classmethod
    def build(
        cls,
        state: AgentState,
        events: list[TraceEvent],
        total_ms: float,
        run_id: str,
        engine: ReasoningEngine,
    ) -> RunResult:
        """The result of a run from its final state, its trace and the engine it thought with."""
        verdicts = {v["claim_id"]: v for v in state.get("verification_results", [])}
        claims = [
            ResultClaim(
                id=claim["id"],
                text=claim["text"],
                source_ids=claim["source_ids"],
                **{
                    key: verdicts[claim["id"]][key]
                    for key in ("verdict", "confidence", "evidence", "rationale")
                    if claim["id"] in verdicts and key in verdicts[claim["id"]]
                },
            )
            for claim in state.get("claims", [])
        ]
        sources = [
            ResultSource.model_validate(
                {key: s[key] for key in ResultSource.model_fields if s.get(key) is not None}
            )
            for s in state.get("sources", {}).values()
        ]
        usage = engine.usage if isinstance(engine, MetersTokens) and engine.usage else None
        steps = engine.steps if isinstance(engine, ReportsSteps) else None
        name = engine.name
        if steps is not None and steps["fell_back"] and not steps["by_model"]:
            name = "offline"  # the model did nothing this run: saying "llm" would mislead
        return cls(
            run_id=run_id,
            query=state.get("query"),
            parent_run_id=(state.get("earlier_run") or {}).get("run_id"),
            status=state.get("status"),
            answer=state.get("answer", ""),
            answer_found=state.get("answer_found", bool(state.get("answer"))),
            plan=state.get("plan"),
            sub_queries=state.get("sub_queries", []),
            sources=sources,
            claims=claims,
            report=state.get("report", ""),
            citations=state.get("citations", []),
            citation_check=state.get("citation_check", {"checked": 0, "removed": 0}),
            iterations=state.get("iteration_count", 0),
            trace=[e.model_dump(mode="json") for e in events],
            timings=node_timings(events, total_ms),
            errors=state.get("errors", []),
            engine=name,
            engine_steps=steps,
            llm_usage=usage,
            llm_usage_by_node=(
                engine.usage_by_node() if usage and isinstance(engine, MetersTokens) else None
            ),
        )

    def as_json(self, *, trace: bool = True) -> dict[str, Any]:
        """The result as JSON: token counts only when there are some, the trace when asked."""
        exclude = {"llm_usage", "llm_usage_by_node"} if self.llm_usage is None else set()
        if self.engine_steps is None:
            exclude.add("engine_steps")
        if not trace:
            exclude.add("trace")
        return self.model_dump(mode="json", exclude=exclude)


def node_timings(events: list[TraceEvent], total_ms: float) -> dict[str, float]:
    """Milliseconds spent in each node (summed over rounds), and the total."""
    timings: dict[str, float] = {}
    for event in events:
        if event.kind == "node_end" and event.duration_ms is not None:
            timings[event.node] = round(timings.get(event.node, 0.0) + event.duration_ms, 2)
    timings["total"] = round(total_ms, 2)
    return timings
