"""AgentState: the one TypedDict every node reads and partially updates.

Values are plain JSON-shaped dicts (``Model.model_dump()``) so any checkpointer can store
them; nodes rebuild the pydantic models from ``backend.reasoning.models`` when they need them.
"""

from __future__ import annotations

import operator
from typing import Annotated, Any, Literal, TypedDict

REPLACE = "__replace__"
"""An update ``{REPLACE: [...]}`` to a merged-by-id list replaces the whole list
(a reviewed plan's sub-queries replace the planner's)."""


RunStatus = Literal["planning", "researching", "checking", "checked", "done", "failed"]
"""What the nodes write: planning (the start), researching (planner, refine), checking
(researcher), checked (fact-checker), done (synthesizer), failed (no source can answer)."""


def merge_by_id(
    left: list[dict[str, Any]], right: list[dict[str, Any]] | dict[str, list[dict[str, Any]]]
) -> list[dict[str, Any]]:
    """Append items whose ``id`` is new; an item with a known id replaces the old one in place."""
    if isinstance(right, dict):
        return list(right[REPLACE])
    merged = {item["id"]: item for item in left}
    for item in right:
        merged[item["id"]] = item
    return list(merged.values())


def merge_dict(left: dict[str, Any], right: dict[str, Any]) -> dict[str, Any]:
    """Keys from ``right`` win; keys only in ``left`` stay."""
    return {**left, **right}


class AgentState(TypedDict, total=False):
    """The research run as it stands."""

    query: str
    """The question as the person asked it."""
    earlier_run: dict[str, Any]
    """For a follow-up: the earlier run it follows (run_id, query, answer, key_terms,
    entities); its sources are in ``sources`` from the start (``graph/follow_up.py``)."""
    plan: dict[str, Any]
    """The planner's Plan: kind, sub-queries, key terms, entities, rationale."""
    sub_queries: Annotated[list[dict[str, Any]], merge_by_id]
    """Every SubQuery of the run, first-hop and refinements, by id."""
    researched: Annotated[list[str], operator.add]
    """Ids of the sub-queries the researcher has run (so a refinement runs only new ones)."""
    research_results: Annotated[list[dict[str, Any]], operator.add]
    """One record per tool call: server, tool, sub-query, result count, source ids, error."""
    sources: Annotated[dict[str, dict[str, Any]], merge_dict]
    """Every Source retrieved in this run, by id (S1, S2, …): what citations may point to."""
    source_scores: Annotated[dict[str, dict[str, Any]], merge_dict]
    """Quality score and breakdown (domain, recency, depth) per source id."""
    claims: list[dict[str, Any]]
    """The claims that matter, from the latest fact-check."""
    verification_results: list[dict[str, Any]]
    """One Verdict per claim: supported / contradicted / unverifiable, confidence, evidence."""
    report: str
    """The final Markdown report, after the citation check."""
    answer: str
    """The direct answer (the report's first statement)."""
    answer_found: bool
    """False when the sources do not answer the question, or contradict its premise."""
    citations: list[dict[str, Any]]
    """Citations that survived the check: n, source_id, quote."""
    citation_check: dict[str, Any]
    """How many citations were checked and removed, and why."""
    agent_trace: Annotated[list[dict[str, Any]], operator.add]
    """TraceEvents emitted by the nodes, in order."""
    iteration_count: int
    """Research rounds done (1 after the first researcher pass)."""
    max_iterations: int
    """Research rounds allowed (default 2, at most 20)."""
    status: RunStatus
    """Where the run stands (see ``RunStatus``)."""
    errors: Annotated[list[str], operator.add]
    """What degraded and why (a server down, a tool error, an engine fallback)."""
