"""/api/research: start, list, read, follow, review, resume, cancel, delete, export and
follow up runs."""

from __future__ import annotations

import json
import re
import time
from collections.abc import AsyncIterator
from contextlib import aclosing
from typing import Annotated, Any

from fastapi import APIRouter, Body, HTTPException, Path, Query, Request, Response, status
from fastapi.responses import PlainTextResponse, StreamingResponse

from backend.api.deps import ManagerDep, SettingsDep
from backend.api.errors import WRITE, responses
from backend.api.export import report_markdown, report_pdf
from backend.api.render import report_html
from backend.api.runner import PlanError, RunManager, RunStateError, UnknownRun
from backend.api.schemas import (
    FollowUpRequest,
    PlanReview,
    ResearchRequest,
    RunDetail,
    RunPage,
    RunSummary,
)
from backend.graph.result import RunResult
from backend.persistence import RUN_ID_PATTERN, RunRecord

router = APIRouter(prefix="/api/research", tags=["research"])
MAX_SEQ = 2**31 - 1
RunId = Annotated[
    str, Path(pattern=RUN_ID_PATTERN, description="The run's id: 12 lowercase hex characters.")
]
"""Checked before anything reaches the database (PostgreSQL refuses NUL in text)."""

_FROM_RECORD = {*RunSummary.model_fields, "plan", "sub_queries"}
_RESULT_KEYS = tuple(
    key
    for key in RunResult.model_fields
    if key in RunDetail.model_fields and key not in _FROM_RECORD
)
"""What a run's detail takes from its stored RunResult (the rest comes from the run record)."""


def detail_of(record: RunRecord) -> RunDetail:
    """The API's view of a run: summary, plan, and the result once there is one."""
    result: dict[str, Any] = record.result or {}
    body: dict[str, Any] = {k: result[k] for k in _RESULT_KEYS if result.get(k) is not None}
    if body.get("report"):
        body["report_html"] = report_html(body["report"], result.get("citations", []))
    summary = RunSummary.of(record)
    return RunDetail(
        **summary.model_dump(),
        plan=record.plan,
        sub_queries=record.sub_queries,
        error=record.error,
        **body,
    )


def _missing(run_id: str) -> HTTPException:
    return HTTPException(
        status.HTTP_404_NOT_FOUND, f"no research run {run_id!r}; GET /api/research lists them"
    )


async def _run(manager: RunManager, run_id: str) -> RunRecord:
    try:
        return await manager.get(run_id)
    except UnknownRun:
        raise _missing(run_id) from None


def _conflict(exc: RunStateError | PlanError) -> HTTPException:
    return HTTPException(status.HTTP_409_CONFLICT, str(exc))


SSE_EVENT = {
    "type": "object",
    "description": "One event of the stream; ``data`` is JSON: a TraceEvent for ``trace``, "
    "{status} for ``status`` and ``end``.",
    "properties": {
        "event": {"type": "string", "enum": ["trace", "status", "end"]},
        "id": {"type": "string", "pattern": "^[0-9]+$"},
        "data": {"type": "string", "contentMediaType": "application/json"},
        "retry": {"type": "integer"},
    },
}


class MarkdownResponse(PlainTextResponse):
    media_type = "text/markdown"


class PDFResponse(Response):
    media_type = "application/pdf"


class JSONDownload(Response):
    media_type = "application/json"


class EventStream(StreamingResponse):
    media_type = "text/event-stream"


def _unknown_sources(manager: RunManager, sources: list[str]) -> None:
    known = set(manager.hub_status())
    unknown = sorted(set(sources) - known)
    if unknown:
        raise HTTPException(
            status.HTTP_422_UNPROCESSABLE_CONTENT,
            f"unknown source(s) {', '.join(unknown)}; configured: {', '.join(sorted(known))}",
        )


@router.post("", status_code=status.HTTP_202_ACCEPTED, responses=responses(*WRITE, 409, 422))
async def start_research(body: ResearchRequest, manager: ManagerDep) -> RunDetail:
    """Start a run; it goes on in the background. Follow it at /api/research/{id}/events.
    A source that is not configured is refused (422); sources none of which is available
    now (no key, server down) get 409."""
    if body.sources is not None:
        _unknown_sources(manager, body.sources)
        usable = set(manager.usable_sources())
        if not usable & set(body.sources):
            raise HTTPException(
                status.HTTP_409_CONFLICT,
                f"none of {', '.join(body.sources)} is available now; "
                f"available: {', '.join(sorted(usable)) or 'none'} (GET /api/health says why)",
            )
    record = await manager.start(
        body.query,
        sources=body.sources,
        max_iterations=body.max_iterations,
        review_plan=body.review_plan,
    )
    return detail_of(record)


@router.post(
    "/{run_id}/follow-up",
    status_code=status.HTTP_202_ACCEPTED,
    responses=responses(*WRITE, 404, 409, 422),
)
async def follow_up_research(
    run_id: RunId, body: FollowUpRequest, manager: ManagerDep
) -> RunDetail:
    """Start a run that follows up a finished one: it begins from that run's sources (cited
    under the same ids) and answer, and searches for more. It takes the earlier run's sources
    option and rounds; ``parent_run_id`` names the earlier run. A run that has not finished,
    or failed with no sources, gets 409."""
    parent = await _run(manager, run_id)
    chosen = parent.options.get("sources")
    if chosen and not set(manager.usable_sources()) & set(chosen):
        raise HTTPException(
            status.HTTP_409_CONFLICT,
            f"none of the earlier run's sources ({', '.join(chosen)}) is available now "
            "(GET /api/health says why)",
        )
    try:
        return detail_of(await manager.follow_up(run_id, body.question))
    except UnknownRun:
        raise _missing(run_id) from None
    except RunStateError as exc:
        raise _conflict(exc) from None


@router.get("", responses=responses(422))
async def list_research(
    manager: ManagerDep,
    limit: Annotated[int, Query(ge=1, le=100)] = 20,
    offset: Annotated[int, Query(ge=0)] = 0,
    q: Annotated[
        str | None, Query(max_length=200, pattern=r"^[^\x00]*$", description="Text in the question")
    ] = None,
) -> RunPage:
    """Past and current runs, newest first."""
    total, records = await manager.store.page(limit=limit, offset=offset, text=q or None)
    items = [
        RunSummary.of(manager.live[r.id].record if r.id in manager.live else r) for r in records
    ]
    return RunPage(total=total, items=items)


@router.get("/{run_id}", responses=responses(404, 422))
async def get_research(run_id: RunId, manager: ManagerDep) -> RunDetail:
    """Status, plan, report (Markdown and sanitized HTML), claims, sources, citations, timings."""
    return detail_of(await _run(manager, run_id))


@router.get(
    "/{run_id}/events",
    response_class=EventStream,
    responses={
        200: {"content": {"text/event-stream": {"schema": {"type": "string"}}}},
        **responses(404, 422),
    },
    # Applied last by FastAPI, over its own {"type": "string"}: one object per event.
    openapi_extra={"responses": {"200": {"content": {"text/event-stream": {"schema": SSE_EVENT}}}}},
)
async def research_events(
    run_id: RunId,
    request: Request,
    manager: ManagerDep,
    settings: SettingsDep,
    after: Annotated[
        int | None, Query(ge=0, le=MAX_SEQ, description="Replay events after this seq")
    ] = None,
) -> StreamingResponse:
    """Server-Sent Events: each TraceEvent (``event: trace``, ``id`` = seq), status changes
    (``event: status``), heartbeats (comments), and ``event: end`` when the run is over.
    Reconnecting with Last-Event-ID replays what was missed."""
    await _run(manager, run_id)
    last = after
    header = request.headers.get("last-event-id", "").strip()
    if last is None and header:
        if not re.fullmatch(r"[0-9]{1,10}", header) or int(header) > MAX_SEQ:
            raise HTTPException(
                status.HTTP_422_UNPROCESSABLE_CONTENT,
                "Last-Event-ID must be the seq of an event this stream sent (a whole number)",
            )
        last = int(header)

    async def stream() -> AsyncIterator[str]:
        # A stream is closed after MARSA_SSE_MAX_SECONDS even when the run goes on (one
        # awaiting review can wait for days): the client reconnects with Last-Event-ID.
        deadline = time.monotonic() + settings.sse_max_seconds
        yield "retry: 2000\n\n"
        beat = min(settings.sse_heartbeat_seconds, settings.sse_max_seconds)
        follow = manager.follow(run_id, last or 0, beat)
        async with aclosing(follow) as items:
            async for item in items:
                if item.kind == "trace" and item.event is not None:
                    data = item.event.model_dump_json()
                    yield f"id: {item.event.seq}\nevent: trace\ndata: {data}\n\n"
                elif item.kind == "heartbeat":
                    yield ": heartbeat\n\n"
                else:
                    yield f"event: {item.kind}\ndata: {json.dumps({'status': item.status})}\n\n"
                if item.kind != "end" and time.monotonic() >= deadline:
                    yield ": open for the longest a stream is kept; reconnect to go on\n\n"
                    return

    return EventStream(
        stream(),
        headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"},
    )


@router.post(
    "/{run_id}/plan",
    status_code=status.HTTP_202_ACCEPTED,
    responses=responses(*WRITE, 404, 409, 422),
)
async def review_plan(
    run_id: RunId, manager: ManagerDep, body: Annotated[PlanReview | None, Body()] = None
) -> RunDetail:
    """Approve the plan of a run awaiting review (no body or no sub_queries), or replace its
    sub-queries and their sources; the run goes on from there."""
    await _run(manager, run_id)
    edited = None
    if body is not None and body.sub_queries is not None:
        edited = [sq.model_dump() for sq in body.sub_queries]
        for sub_query in body.sub_queries:
            _unknown_sources(manager, sub_query.sources or [])
    try:
        return detail_of(await manager.review(run_id, edited))
    except UnknownRun:  # deleted while this command waited for the previous one
        raise _missing(run_id) from None
    except (RunStateError, PlanError) as exc:
        # Known sources that are not available now: the server's state, not the request.
        raise _conflict(exc) from None


@router.post(
    "/{run_id}/resume",
    status_code=status.HTTP_202_ACCEPTED,
    responses=responses(*WRITE, 404, 409, 422),
)
async def resume_research(run_id: RunId, manager: ManagerDep) -> RunDetail:
    """Go on with an interrupted or failed run from its last checkpoint."""
    await _run(manager, run_id)
    try:
        return detail_of(await manager.resume(run_id))
    except UnknownRun:
        raise _missing(run_id) from None
    except RunStateError as exc:
        raise _conflict(exc) from None


@router.post("/{run_id}/cancel", responses=responses(*WRITE, 404, 409, 422))
async def cancel_research(run_id: RunId, manager: ManagerDep) -> RunDetail:
    """Stop a queued, running or waiting run."""
    await _run(manager, run_id)
    try:
        return detail_of(await manager.cancel(run_id))
    except UnknownRun:
        raise _missing(run_id) from None
    except RunStateError as exc:
        raise _conflict(exc) from None


@router.delete(
    "/{run_id}",
    status_code=status.HTTP_204_NO_CONTENT,
    responses=responses(*WRITE, 404, 422),
)
async def delete_research(run_id: RunId, manager: ManagerDep) -> Response:
    """Forget a run: record, events, checkpoints."""
    await _run(manager, run_id)
    try:
        await manager.delete(run_id)
    except UnknownRun:
        raise _missing(run_id) from None
    return Response(status_code=status.HTTP_204_NO_CONTENT)


async def _finished(manager: RunManager, run_id: str) -> RunRecord:
    record = await _run(manager, run_id)
    if record.result is None:
        raise HTTPException(
            status.HTTP_409_CONFLICT,
            f"run {run_id} is {record.status}: there is no report yet",
        )
    return record


def _download(name: str) -> dict[str, str]:
    return {"Content-Disposition": f'attachment; filename="{name}"'}


@router.get(
    "/{run_id}/report.md",
    response_class=MarkdownResponse,
    responses={
        200: {"content": {"text/markdown": {"schema": {"type": "string"}}}},
        **responses(404, 409, 422),
    },
)
async def export_markdown(run_id: RunId, manager: ManagerDep) -> MarkdownResponse:
    """The report as Markdown."""
    record = await _finished(manager, run_id)
    body = report_markdown(detail_of(record).model_dump())
    return MarkdownResponse(body, headers=_download(f"marsa-{run_id}.md"))


@router.get(
    "/{run_id}/report.json",
    response_class=JSONDownload,
    responses={
        200: {"content": {"application/json": {"schema": {"type": "object"}}}},
        **responses(404, 409, 422),
    },
)
async def export_json(run_id: RunId, manager: ManagerDep) -> Response:
    """The whole run as JSON, with its trace."""
    record = await _finished(manager, run_id)
    body = detail_of(record).model_dump()
    body.pop("report_html", None)
    body["trace"] = [e.model_dump(mode="json") for e in await manager.all_events(run_id)]
    return JSONDownload(
        json.dumps(body, indent=2, default=str), headers=_download(f"marsa-{run_id}.json")
    )


@router.get(
    "/{run_id}/report.pdf",
    response_class=PDFResponse,
    responses={
        200: {"content": {"application/pdf": {"schema": {"type": "string", "format": "binary"}}}},
        **responses(404, 409, 422),
    },
)
async def export_pdf(run_id: RunId, manager: ManagerDep) -> PDFResponse:
    """The report as a PDF."""
    record = await _finished(manager, run_id)
    return PDFResponse(
        report_pdf(detail_of(record).model_dump()), headers=_download(f"marsa-{run_id}.pdf")
    )
