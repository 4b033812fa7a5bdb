"""The run result is built once, typed, from the final state and the engine."""

from __future__ import annotations

from typing import Any

from backend.graph.result import RunResult
from backend.graph.state import AgentState
from backend.trace import Tracer

STATE: AgentState = {
    "query": "When do spring tides happen?",
    "status": "done",
    "answer": "After the full moon.",
    "answer_found": True,
    "claims": [{"id": "C1", "text": "Spring tides follow the full moon.", "source_ids": ["S1"]}],
    "verification_results": [
        {"claim_id": "C1", "verdict": "supported", "confidence": 0.8, "evidence": []}
    ],
    "sources": {
        "S1": {
            "id": "S1",
            "title": "Tides",
            "server": "docs",
            "tool": "search_documents",
            "score": 0.7,
            "text": "Spring tides follow the full moon.",
            "url": None,
        }
    },
    "report": "## Answer\n\nAfter the full moon. [1]",
}


class Offline:
    name = "offline"


class Counting:
    name = "llm:fake"

    def __init__(self, usage: dict[str, dict[str, Any]]):
        self.usage = usage

    def usage_by_node(self) -> dict[str, dict[str, Any]]:
        return {"planner": {"input_tokens": 3}}


def _events() -> list[Any]:
    tracer = Tracer()
    tracer.emit("planner", "node_end", "planned", duration_ms=5.0)
    return tracer.events


def test_the_result_of_an_offline_run_has_no_token_counts() -> None:
    result = RunResult.build(STATE, _events(), 12.0, "abc", Offline())  # type: ignore[arg-type]
    shown = result.as_json()
    assert "llm_usage" not in shown and "llm_usage_by_node" not in shown
    assert shown["engine"] == "offline"
    assert shown["timings"] == {"planner": 5.0, "total": 12.0}
    assert shown["claims"][0]["verdict"] == "supported"
    assert shown["sources"][0]["url"] is None and shown["sources"][0]["chunk_ids"] == []


def test_the_result_of_an_engine_that_counts_tokens_carries_them() -> None:
    usage = {"plan": {"input_tokens": 3, "output_tokens": 1}}
    result = RunResult.build(STATE, _events(), 12.0, "abc", Counting(usage))  # type: ignore[arg-type]
    assert result.llm_usage == usage
    assert result.llm_usage_by_node == {"planner": {"input_tokens": 3}}


def test_a_claim_without_a_verdict_is_unverifiable_with_no_confidence() -> None:
    state: AgentState = {**STATE, "verification_results": []}
    claim = RunResult.build(state, [], 1.0, "abc", Offline()).claims[0]  # type: ignore[arg-type]
    assert (claim.verdict, claim.confidence, claim.evidence) == ("unverifiable", 0.0, [])


def test_the_stored_result_leaves_the_trace_to_the_events_table() -> None:
    result = RunResult.build(STATE, _events(), 1.0, "abc", Offline())  # type: ignore[arg-type]
    assert "trace" not in result.as_json(trace=False)
    assert result.as_json()["trace"][0]["kind"] == "node_end"


class Stepping:
    name = "llm:fake"

    def __init__(self, by_model: list[str], fell_back: list[str]):
        self.steps = {"by_model": by_model, "fell_back": fell_back}


def test_a_run_whose_every_llm_step_fell_back_says_the_offline_engine_did_it() -> None:
    result = RunResult.build(STATE, _events(), 12.0, "abc", Stepping([], ["plan", "report"]))  # type: ignore[arg-type]
    assert result.engine == "offline"
    assert result.as_json()["engine_steps"] == {"by_model": [], "fell_back": ["plan", "report"]}


def test_a_run_the_model_helped_says_which_steps_it_did() -> None:
    result = RunResult.build(STATE, _events(), 12.0, "abc", Stepping(["plan"], ["report"]))  # type: ignore[arg-type]
    assert result.engine == "llm:fake"
    assert result.engine_steps == {"by_model": ["plan"], "fell_back": ["report"]}
