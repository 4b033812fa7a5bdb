"""Request and response bodies of the REST API."""

from __future__ import annotations

from typing import Annotated, Any, Literal
from urllib.parse import urlsplit

from pydantic import BaseModel, ConfigDict, Field, StringConstraints, field_validator

from backend.graph.context import MAX_ITERATIONS_CAP
from backend.persistence import RunRecord

MAX_QUERY_CHARS = 2000
RunStatus = Literal[
    "queued", "running", "awaiting_review", "done", "failed", "cancelled", "interrupted"
]
ServerName = Annotated[str, StringConstraints(pattern=r"^[A-Za-z0-9_.-]{1,64}$")]
NO_NUL = r"^[^\x00]*$"  # PostgreSQL text cannot hold NUL; no question needs one
QueryText = Annotated[
    str,
    StringConstraints(
        strip_whitespace=True, min_length=1, max_length=MAX_QUERY_CHARS, pattern=NO_NUL
    ),
]


class ResearchRequest(BaseModel):
    """POST /api/research."""

    model_config = ConfigDict(extra="forbid")

    query: QueryText = Field(description="The research question.")
    sources: list[ServerName] | None = Field(
        default=None,
        max_length=16,
        description="Servers to research (docs, web, github, extras); default: all available.",
    )
    max_iterations: int = Field(
        default=2, ge=1, le=MAX_ITERATIONS_CAP, strict=True, description="Research rounds allowed."
    )
    review_plan: bool = Field(
        default=False, description="Pause after the planner until the plan is approved."
    )

    @field_validator("sources")
    @classmethod
    def _not_empty(cls, value: list[str] | None) -> list[str] | None:
        if value is not None and not value:
            raise ValueError("give at least one source, or leave sources out for all")
        return None if value is None else list(dict.fromkeys(value))


class ReviewedSubQuery(BaseModel):
    """One sub-query of an edited plan."""

    model_config = ConfigDict(extra="forbid")

    text: QueryText
    sources: list[ServerName] | None = Field(
        default=None, max_length=16, description="Default: every available server."
    )


class PlanReview(BaseModel):
    """POST /api/research/{id}/plan: no sub_queries approves the plan as proposed."""

    model_config = ConfigDict(extra="forbid")

    sub_queries: list[ReviewedSubQuery] | None = Field(default=None, min_length=1, max_length=20)


class RunOptions(BaseModel):
    sources: list[str] | None = None
    max_iterations: int = 2
    review_plan: bool = False


class RunSummary(BaseModel):
    """A run in the history."""

    id: str
    query: str
    status: RunStatus
    created_at: str
    updated_at: str
    options: RunOptions
    answer: str | None = None
    answer_found: bool | None = Field(
        default=None,
        description="False when the sources do not answer the question or contradict its "
        "premise (the answer then says so); None until the run has a result.",
    )

    @classmethod
    def of(cls, record: RunRecord) -> RunSummary:
        return cls(
            id=record.id,
            query=record.query,
            status=record.status,  # type: ignore[arg-type]
            created_at=record.created_at,
            updated_at=record.updated_at,
            options=RunOptions(**record.options),
            answer=record.answer,
            answer_found=record.answer_found,
        )


class RunDetail(RunSummary):
    """A run with its plan and, once finished, its report, claims and sources."""

    plan: dict[str, Any] | None = None
    sub_queries: list[dict[str, Any]] = []
    report: str | None = None
    report_html: str | None = Field(
        default=None, description="The report as sanitized HTML; citations link to #src-<id>."
    )
    claims: list[dict[str, Any]] = []
    sources: list[dict[str, Any]] = []
    citations: list[dict[str, Any]] = []
    citation_check: dict[str, Any] = {}
    timings: dict[str, float] = {}
    errors: list[str] = []
    iterations: int = 0
    engine: str | None = None
    llm_usage: dict[str, Any] | None = None
    llm_usage_by_node: dict[str, Any] | None = None
    error: str | None = None


class RunPage(BaseModel):
    """GET /api/research."""

    total: int
    items: list[RunSummary]


class DocumentText(BaseModel):
    """POST /api/documents as JSON."""

    model_config = ConfigDict(extra="forbid")

    title: Annotated[
        str,
        StringConstraints(strip_whitespace=True, min_length=1, max_length=500, pattern=NO_NUL),
    ]
    content: Annotated[str, StringConstraints(min_length=1, max_length=2_000_000, pattern=NO_NUL)]
    source_url: Annotated[str, StringConstraints(max_length=2000, pattern=NO_NUL)] | None = None
    published_date: Annotated[str, StringConstraints(pattern=r"^\d{4}-\d{2}-\d{2}$")] | None = None

    @field_validator("source_url")
    @classmethod
    def _web_address(cls, value: str | None) -> str | None:
        # Reports and exports link to it: a javascript: or data: URL would run there.
        if value is None:
            return None
        parts = urlsplit(value.strip())
        if parts.scheme.lower() not in ("http", "https") or not parts.netloc:
            raise ValueError(
                "must be an http:// or https:// address, e.g. https://example.org/page"
            )
        return value.strip()


class ServerState(BaseModel):
    """One MCP server as the API's client holds it."""

    server: str
    transport: str
    status: Literal["up", "down", "unavailable"]
    tools: list[str] = []
    note: str = ""


class Health(BaseModel):
    """GET /api/health."""

    status: Literal["ok", "degraded"]
    api: Literal["ok"] = "ok"
    engine: str
    engine_note: str = Field(
        default="",
        description="Why MARSA_LLM cannot be used and how to fix it (e.g. the package to "
        "install); empty when the engine is fine.",
    )
    database: str
    documents: int | None
    servers: list[ServerState]
