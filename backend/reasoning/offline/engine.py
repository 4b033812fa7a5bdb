"""OfflineEngine: the ReasoningEngine that needs no network and no LLM.

Planning is regex and word lists (``planner``); follow-up hops (``refine``), claims
(``claims``) and verification (``verify``) use a local sentence embedder (all-MiniLM-L6-v2 on
onnxruntime unless another is given) plus the word-level signals in ``signals``; the report
(``report``, ``answer``) is assembled from verbatim source sentences.
The same input gives the same output. Methods are async to match the interface; the CPU work
(embedding, scoring sentences) runs in a worker thread so that an API process keeps serving
event streams and other requests meanwhile.
"""

from __future__ import annotations

import asyncio

from backend.reasoning.models import Claim, Plan, Report, Source, SubQuery, Verdict
from backend.reasoning.offline import claims as claims_mod
from backend.reasoning.offline import planner, refine, report, verify
from backend.reasoning.offline.embedding import SentenceVectors
from marsa_common.embeddings import Embedder


class OfflineEngine:
    """Plans, extracts, verifies and writes without a language model."""

    name = "offline"

    def __init__(self, embedder: Embedder | None = None):
        self.vectors = SentenceVectors(embedder)

    def warm(self) -> None:
        """Load the sentence embedder now (about half a CPU-second), not in a run's first
        step: a process that researches loads it once, before it takes work."""
        self.vectors.vectors(["warm"])

    async def plan(self, query: str, available: list[str]) -> Plan:
        """Classify the question and route one sub-query per entity, part or hop."""
        return planner.plan_question(query, available)

    async def refine(
        self, plan: Plan, sources: list[Source], verdicts: list[Verdict], iteration: int
    ) -> list[SubQuery]:
        """Follow-up hops and retries from what was found; [] when nothing new is left."""
        return await asyncio.to_thread(
            refine.refine_plan, plan, sources, verdicts, iteration, self.vectors
        )

    async def extract_claims(self, plan: Plan, sources: list[Source]) -> list[Claim]:
        """The most relevant, non-redundant source sentences per sub-query."""
        return await asyncio.to_thread(claims_mod.extract, plan, sources, self.vectors)

    async def verify(self, claims: list[Claim], sources: list[Source]) -> list[Verdict]:
        """Supported, contradicted or unverifiable, from the other sources' sentences."""
        return await asyncio.to_thread(verify.verify_claims, claims, sources, self.vectors)

    async def write_report(
        self, plan: Plan, claims: list[Claim], verdicts: list[Verdict], sources: list[Source]
    ) -> Report:
        """Direct answer first, a section per sub-query, numbered citations, sources."""
        return await asyncio.to_thread(report.write, plan, claims, verdicts, sources, self.vectors)
