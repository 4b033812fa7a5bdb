"""Request and response bodies of the REST API."""

from __future__ import annotations

from datetime import date
from typing import Annotated, Any, Literal

from pydantic import (
    AfterValidator,
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    StringConstraints,
    field_validator,
)

from backend.graph.context import MAX_ITERATIONS_CAP
from backend.persistence import RunRecord
from marsa_common import validation

MAX_QUERY_CHARS = 2000
RunStatus = Literal[
    "queued", "running", "awaiting_review", "done", "failed", "cancelled", "interrupted"
]
ServerName = Annotated[str, StringConstraints(pattern=r"^[A-Za-z0-9_.-]{1,64}$")]
NO_NUL = validation.NO_NUL  # PostgreSQL text cannot hold NUL; no question needs one


def _whole_number(value: Any) -> Any:
    # JSON Schema's "integer" includes 15.0; strings and booleans stay refused.
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value


# The constraints apply to a value as sent (as the schema says it), then it is trimmed.
QueryText = Annotated[
    str,
    StringConstraints(min_length=1, max_length=MAX_QUERY_CHARS, pattern=validation.TEXT),
    AfterValidator(str.strip),
]
TitleText = Annotated[
    str,
    StringConstraints(min_length=1, max_length=validation.MAX_TITLE_CHARS, pattern=validation.TEXT),
    AfterValidator(str.strip),
]


class ResearchRequest(BaseModel):
    """POST /api/research."""

    model_config = ConfigDict(extra="forbid")

    query: QueryText = Field(description="The research question.")
    sources: list[ServerName] | None = Field(
        default=None,
        min_length=1,
        max_length=16,
        description="Servers to research (docs, web, github, extras); default: all available.",
    )
    max_iterations: Annotated[int, BeforeValidator(_whole_number)] = Field(
        default=2, ge=1, le=MAX_ITERATIONS_CAP, strict=True, description="Research rounds allowed."
    )
    review_plan: bool = Field(
        default=False, description="Pause after the planner until the plan is approved."
    )

    @field_validator("sources")
    @classmethod
    def _once_each(cls, value: list[str] | None) -> list[str] | None:
        return None if value is None else list(dict.fromkeys(value))


class FollowUpRequest(BaseModel):
    """POST /api/research/{id}/follow-up: the run follows the earlier run's options."""

    model_config = ConfigDict(extra="forbid")

    question: QueryText = Field(
        description='The follow-up question; "it" and "that" may refer to the earlier one.'
    )


class ReviewedSubQuery(BaseModel):
    """One sub-query of an edited plan."""

    model_config = ConfigDict(extra="forbid")

    text: QueryText
    sources: list[ServerName] | None = Field(
        default=None, min_length=1, max_length=16, description="Default: every available server."
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
    parent_run_id: str | None = Field(
        default=None,
        description="For a follow-up: the run whose sources and answer it started from.",
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
            parent_run_id=record.parent_run_id,
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
    engine_steps: dict[str, list[str]] | None = Field(
        default=None,
        description="LLM engine: the steps the model did (by_model), those that fell back "
        "(fell_back) and why (fell_back_why, in the same order).",
    )
    llm_usage: dict[str, Any] | None = None
    llm_usage_by_node: dict[str, Any] | None = None
    error: str | None = None


class RunPage(BaseModel):
    """GET /api/research."""

    total: int
    items: list[RunSummary]


class DocumentText(BaseModel):
    """POST /api/documents as JSON. The rules are the document store's own
    (marsa_common/validation.py), so what passes here passes there."""

    model_config = ConfigDict(extra="forbid")

    title: TitleText
    content: Annotated[
        str,
        StringConstraints(
            min_length=1, max_length=validation.MAX_CONTENT_CHARS, pattern=validation.TEXT
        ),
    ]
    source_url: (
        Annotated[
            str,
            StringConstraints(max_length=validation.MAX_URL_CHARS, pattern=validation.URL),
            Field(description="The document's http:// or https:// address."),
        ]
        | None
    ) = None
    published_date: date | None = Field(
        default=None, strict=True, description="YYYY-MM-DD, a real day."
    )

    @field_validator("source_url")
    @classmethod
    def _web_address(cls, value: str | None) -> str | None:
        return None if value is None else validation.source_url(value)


class ServerState(BaseModel):
    """One MCP server as the API's client holds it."""

    server: str
    transport: str
    status: Literal["up", "degraded", "down", "unavailable"]
    """``degraded``: up, but an outside API it depends on does not answer (the note says
    which and why); ``unavailable``: not started (its setting is missing) or not reached."""
    tools: list[str] = []
    note: str = ""


class ClusterHealth(BaseModel):
    """What a replica with MARSA_RUN_IN=workers depends on besides the database."""

    redis: Literal["up", "down", "not configured"] = Field(
        description="Redis pub/sub (live events, cancels). Down or not configured: streams "
        "read the database every half second instead, nothing is lost."
    )
    redis_note: str = ""
    queue: Literal["up", "down"] = Field(
        description="The run queue (pgqueuer's table in PostgreSQL). Down: runs cannot start."
    )
    queue_note: str = ""
    queued_jobs: int | None = Field(
        default=None, description="Jobs waiting for a worker or being worked on now."
    )


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
    run_in: Literal["api", "workers"] = Field(
        description="Where runs are researched: in this process (api) or by `marsa worker` "
        "processes (workers)."
    )
    cluster: ClusterHealth | None = Field(
        default=None, description="With run_in=workers: Redis and the run queue."
    )
