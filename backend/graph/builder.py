"""Wire the nodes into the research graph; compiled once and exported as ``graph``."""

from __future__ import annotations

from typing import Any

from langgraph.graph import END, START, StateGraph

from backend.graph.context import ResearchContext
from backend.graph.nodes.fact_checker import fact_checker
from backend.graph.nodes.planner import planner, refine
from backend.graph.nodes.researcher import researcher
from backend.graph.nodes.synthesizer import synthesizer
from backend.graph.routing import after_fact_check, after_planner, after_refine
from backend.graph.state import AgentState


def build_graph(checkpointer: Any = None) -> Any:
    """planner → researcher → fact_checker → (refine → researcher)* → synthesizer."""
    builder = StateGraph(AgentState, context_schema=ResearchContext)
    builder.add_node("planner", planner)
    builder.add_node("researcher", researcher)
    builder.add_node("fact_checker", fact_checker)
    builder.add_node("refine", refine)
    builder.add_node("synthesizer", synthesizer)
    builder.add_edge(START, "planner")
    builder.add_conditional_edges(
        "planner", after_planner, {"researcher": "researcher", "__end__": END}
    )
    builder.add_edge("researcher", "fact_checker")
    builder.add_conditional_edges("fact_checker", after_fact_check)
    builder.add_conditional_edges("refine", after_refine)
    builder.add_edge("synthesizer", END)
    return builder.compile(checkpointer=checkpointer, name="marsa-research")


graph = build_graph()
