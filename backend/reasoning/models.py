"""The structured data that flows between the research graph's nodes and the engines."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, Field

ServerName = str  # "docs", "web", "github", or an extra configured server
VerdictLabel = Literal["supported", "contradicted", "unverifiable"]
DocumentStatus = Literal["draft", "proposal", "deprecated", "superseded"]
QuestionKind = Literal["simple", "comparison", "multi_part", "multi_hop", "list"]


class SubQuery(BaseModel):
    """One search the researcher runs, and where."""

    id: str = Field(description="Stable within a run: q1, q2, …")
    text: str
    sources: list[ServerName]
    hop: int = Field(
        default=1, description="1 for the first hop; 2+ for follow-ups built from results."
    )
    purpose: str = Field(
        default="", description="Why: 'whole question', 'part 2', 'entity: X', 'bridge'."
    )


class Plan(BaseModel):
    """The planner's decomposition of the question."""

    query: str
    kind: QuestionKind
    sub_queries: list[SubQuery]
    key_terms: list[str] = Field(default_factory=list)
    entities: list[str] = Field(default_factory=list)
    rationale: str = ""


class ScoreBreakdown(BaseModel):
    """Source quality: 0.4 domain + 0.3 recency + 0.3 depth."""

    domain: float
    recency: float
    depth: float
    domain_reason: str = ""


class Source(BaseModel):
    """A retrieved passage with its provenance; what citations point to."""

    id: str = Field(description="S1, S2, … in order of first retrieval within the run")
    server: ServerName
    tool: str
    title: str
    url: str | None = None
    path: str | None = Field(default=None, description="Local file path or label for documents")
    doc_id: str | None = None
    chunk_id: str | None = Field(default=None, description="The first chunk retrieved")
    chunk_ids: list[str] = Field(
        default_factory=list, description="Every chunk of the document retrieved, in order"
    )
    chunks: list[str] = Field(
        default_factory=list, description="Their texts (parallel to chunk_ids)"
    )
    sections: list[str] = Field(
        default_factory=list, description="Headings of the sections the chunks come from"
    )
    chunk_sections: list[str] = Field(
        default_factory=list,
        description="Each chunk's section heading (parallel to chunk_ids; '' before any)",
    )
    relative_path: str | None = Field(
        default=None, description="Path relative to the folder the document was ingested from"
    )
    status: DocumentStatus | None = Field(
        default=None, description="A document marked as not (or no longer) authoritative"
    )
    text: str = Field(
        description="The retrieved text, verbatim (a document's chunks joined in order, their "
        "overlap once): quotes must be found in it"
    )
    published_date: str | None = None
    venue: str | None = Field(default=None, description="A paper's journal or conference")
    word_count: int = 0
    retrieval_score: float = 0.0
    sub_query_ids: list[str] = Field(default_factory=list)
    score: float = 0.0
    score_breakdown: ScoreBreakdown | None = None


class Claim(BaseModel):
    """A statement that matters to the question, taken from one or more sources."""

    id: str = Field(description="C1, C2, …")
    text: str
    source_ids: list[str]
    sub_query_id: str | None = None
    relevance: float = 0.0


class EvidenceItem(BaseModel):
    """One piece of evidence for or against a claim."""

    source_id: str
    quote: str
    stance: Literal["supports", "contradicts", "neutral"]
    weight: float = Field(default=0.0, description="Similarity × source quality")


class Verdict(BaseModel):
    """The fact-checker's decision on one claim."""

    claim_id: str
    verdict: VerdictLabel
    confidence: float = Field(ge=0.0, le=1.0)
    evidence: list[EvidenceItem] = Field(default_factory=list)
    rationale: str = ""


class Citation(BaseModel):
    """[n] in the report: which source, and the exact words relied on."""

    n: int
    source_id: str
    quote: str


class Report(BaseModel):
    """The synthesizer's output before the citation check."""

    markdown: str
    citations: list[Citation]
    answer: str = Field(default="", description="The direct answer, first line of the report")
    answer_found: bool = Field(
        default=True,
        description="False when the sources do not answer the question (or deny its premise)",
    )
    answer_basis: dict[str, Any] = Field(
        default_factory=dict,
        description="Why the answer was judged found or not (kind asked, coverage, similarity)",
    )
