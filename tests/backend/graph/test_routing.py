"""Where the graph goes next: refine while evidence is thin and rounds remain."""

from __future__ import annotations

from typing import Any

from backend.graph.routing import after_fact_check, after_planner, after_refine
from backend.graph.state import AgentState, merge_by_id


def state(**values: Any) -> AgentState:
    base: dict[str, Any] = {
        "sub_queries": [{"id": "q1"}],
        "researched": ["q1"],
        "iteration_count": 1,
        "max_iterations": 2,
        "sources": {f"S{i}": {} for i in range(4)},
        "verification_results": [{"verdict": "supported"}, {"verdict": "supported"}],
    }
    base.update(values)
    return base  # type: ignore[return-value]


def test_well_supported_evidence_goes_to_the_synthesizer() -> None:
    assert after_fact_check(state()) == "synthesizer"


def test_too_few_sources_refine() -> None:
    assert after_fact_check(state(sources={"S1": {}})) == "refine"


def test_mostly_unverifiable_claims_refine() -> None:
    doubtful = [{"verdict": "unverifiable"}, {"verdict": "contradicted"}, {"verdict": "supported"}]
    assert after_fact_check(state(verification_results=doubtful)) == "refine"


def test_no_refinement_once_the_rounds_are_used_up() -> None:
    assert after_fact_check(state(sources={}, iteration_count=2)) == "synthesizer"


def test_a_refinement_with_new_sub_queries_researches_again() -> None:
    assert after_refine(state(sub_queries=[{"id": "q1"}, {"id": "q2"}])) == "researcher"
    assert after_refine(state()) == "synthesizer"


def test_a_failed_plan_ends_the_run() -> None:
    assert after_planner(state(status="failed")) == "__end__"
    assert after_planner(state(status="researching")) == "researcher"


def test_merge_by_id_appends_new_items_and_replaces_known_ones() -> None:
    merged = merge_by_id(
        [{"id": "a", "v": 1}, {"id": "b", "v": 1}], [{"id": "b", "v": 2}, {"id": "c"}]
    )
    assert merged == [{"id": "a", "v": 1}, {"id": "b", "v": 2}, {"id": "c"}]
