"""The interface every reasoning engine implements (offline and LLM)."""

from __future__ import annotations

from typing import Protocol, runtime_checkable

from backend.reasoning.models import Claim, Plan, Report, Source, SubQuery, Verdict


class ReasoningEngine(Protocol):
    """What the planner, researcher, fact-checker and synthesizer ask of an engine."""

    name: str

    async def plan(self, query: str, available: list[str]) -> Plan:
        """Decompose the question into sub-queries routed to the available servers."""
        ...

    async def refine(
        self, plan: Plan, sources: list[Source], verdicts: list[Verdict], iteration: int
    ) -> list[SubQuery]:
        """New or expanded sub-queries when evidence is thin (follow-up hops); [] to stop."""
        ...

    async def extract_claims(self, plan: Plan, sources: list[Source]) -> list[Claim]:
        """The claims that matter to the question, each tied to its sources."""
        ...

    async def verify(self, claims: list[Claim], sources: list[Source]) -> list[Verdict]:
        """Check each claim against evidence from other sources."""
        ...

    async def write_report(
        self, plan: Plan, claims: list[Claim], verdicts: list[Verdict], sources: list[Source]
    ) -> Report:
        """Markdown: direct answer first, sections, [n] citations, contested claims flagged."""
        ...


@runtime_checkable
class ReportsFallbacks(Protocol):
    """An engine that can degrade (the LLM engine falling back step by step) and says so."""

    def take_fallbacks(self) -> list[str]:
        """What degraded since the last call, and why; each note is returned once."""
        ...


def take_fallbacks(engine: ReasoningEngine) -> list[str]:
    """The engine's fallback notes for the run's ``errors`` ([] for an engine that cannot
    degrade, such as the offline engine). Nodes call this after their engine steps."""
    return engine.take_fallbacks() if isinstance(engine, ReportsFallbacks) else []
