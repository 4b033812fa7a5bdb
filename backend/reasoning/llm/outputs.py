"""The shapes the LLM engine asks each step's answer in, validated with pydantic.

The same models are sent to the provider as the step's JSON schema (``structured.py``) and
used to validate what comes back, however it came (a tool call, a constrained answer, text).
"""

from __future__ import annotations

from pydantic import BaseModel, Field

from backend.reasoning.models import Citation, QuestionKind, VerdictLabel


class SubQueryOut(BaseModel):
    text: str = Field(min_length=1)
    sources: list[str] = Field(default_factory=list)
    purpose: str = ""


class PlanOut(BaseModel):
    kind: QuestionKind = "simple"
    sub_queries: list[SubQueryOut] = Field(min_length=1)
    key_terms: list[str] = Field(default_factory=list)
    entities: list[str] = Field(default_factory=list)
    rationale: str = ""


class RefineOut(BaseModel):
    sub_queries: list[SubQueryOut] = Field(default_factory=list)


class ClaimOut(BaseModel):
    text: str = Field(min_length=1)
    source_ids: list[str] = Field(min_length=1)


class ClaimsOut(BaseModel):
    claims: list[ClaimOut]


class EvidenceOut(BaseModel):
    source_id: str
    quote: str
    stance: str = "supports"


class VerdictOut(BaseModel):
    claim_id: str
    verdict: VerdictLabel
    rationale: str = ""
    evidence: list[EvidenceOut] = Field(default_factory=list)


class VerifyOut(BaseModel):
    verdicts: list[VerdictOut]


class ReportOut(BaseModel):
    answer: str = ""
    answer_found: bool = True
    markdown: str = Field(min_length=1)
    citations: list[Citation] = Field(default_factory=list)
