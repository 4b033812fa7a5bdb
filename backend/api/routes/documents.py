"""/api/documents: upload, list and delete documents, through the document-store MCP server."""

from __future__ import annotations

import base64
from pathlib import PurePath
from typing import Annotated, Any

from fastapi import APIRouter, HTTPException, Path, Query, Request, status
from pydantic import ValidationError
from starlette.datastructures import UploadFile

from backend.api.deps import HubDep, SettingsDep
from backend.api.errors import WRITE, pattern_message, responses
from backend.api.schemas import NO_NUL, DocumentText
from backend.mcp_client import (
    INGEST_TIMEOUT,
    MCPHub,
    ServerConnectionLost,
    ServerUnavailable,
    ToolCallError,
    ToolTimeout,
)
from marsa_common import validation
from marsa_common.files import SUPPORTED_SUFFIXES

router = APIRouter(prefix="/api/documents", tags=["documents"])

_UPLOAD_SCHEMA = {
    "requestBody": {
        "required": True,
        "content": {
            "multipart/form-data": {
                "schema": {
                    "type": "object",
                    "required": ["file"],
                    "properties": {
                        "file": {
                            "type": "string",
                            "format": "binary",
                            "description": "The file; its name's extension picks the format "
                            "(GET /api/documents/formats). Another extension gets 415, bytes "
                            "that are not a readable file of that format 422.",
                        }
                    },
                },
                "encoding": {
                    "file": {
                        "headers": {
                            "Content-Disposition": {
                                "schema": {
                                    "type": "string",
                                    "example": 'form-data; name="file"; filename="notes.md"',
                                }
                            }
                        }
                    }
                },
            },
            "application/json": {"schema": DocumentText.model_json_schema()},
        },
    }
}


RETRY_SOON = 5
"""Retry-After (seconds) when the store's connection broke and it was started again."""
RETRY_LATER = 30
"""Retry-After (seconds) when the store is down or did not answer in time."""


def _unavailable(message: str, retry_after: int) -> HTTPException:
    """503: the store failed, not the request; the client should send it again later."""
    return HTTPException(
        status.HTTP_503_SERVICE_UNAVAILABLE,
        f"the document store did not answer: {message}; try again in {retry_after} s",
        headers={"Retry-After": str(retry_after)},
    )


async def _call(
    hub: MCPHub, tool: str, arguments: dict[str, Any], timeout: float | None = None
) -> dict[str, Any]:
    """A document-store call; its errors become HTTP errors a person can act on."""
    if "docs" not in hub.available():
        reason = hub.status["docs"].reason if "docs" in hub.status else "not configured"
        raise _unavailable(f"the document store is unavailable: {reason}", RETRY_LATER)
    try:
        result = await hub.call("docs", tool, arguments, timeout=timeout)
    except ServerUnavailable as exc:
        raise _unavailable(str(exc), RETRY_LATER) from None
    except ServerConnectionLost as exc:
        # The hub has started the server again: a retry will likely work at once.
        raise _unavailable(exc.message, RETRY_SOON) from None
    except ToolTimeout as exc:
        raise _unavailable(exc.message, RETRY_LATER) from None
    except ToolCallError as exc:
        missing = exc.message.startswith("no document with doc_id")
        code = status.HTTP_404_NOT_FOUND if missing else status.HTTP_422_UNPROCESSABLE_CONTENT
        raise HTTPException(code, exc.message) from None
    return result.structured


async def _read_upload(upload: UploadFile, limit: int) -> bytes:
    data = await upload.read(limit + 1)
    if len(data) > limit:
        raise HTTPException(
            status.HTTP_413_CONTENT_TOO_LARGE,
            f"{upload.filename} is larger than {limit:,} bytes (MARSA_MAX_UPLOAD_BYTES)",
        )
    if not data:
        raise HTTPException(status.HTTP_422_UNPROCESSABLE_CONTENT, f"{upload.filename} is empty")
    return data


@router.post(
    "",
    status_code=status.HTTP_201_CREATED,
    openapi_extra=_UPLOAD_SCHEMA,
    responses=responses(*WRITE, 415, 422, 503),
)
async def add_document(request: Request, hub: HubDep, settings: SettingsDep) -> dict[str, Any]:
    """Ingest a file (multipart field ``file``; GET /api/documents/formats lists the
    extensions: Markdown and MDX, reStructuredText, text, HTML, PDF, Word .docx, JSON lines)
    or a JSON body
    {title, content, source_url?, published_date?}. Returns the ingested documents; the first
    one's doc_id, title, chunks and status (added, replaced, unchanged) are also at the top.
    The body's size is checked as it arrives (backend/api/guards.py, BodyLimit)."""
    kind = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if kind == "multipart/form-data":
        async with request.form(max_files=1, max_fields=5) as form:
            upload = form.get("file")
            if not isinstance(upload, UploadFile) or not upload.filename:
                raise HTTPException(
                    status.HTTP_422_UNPROCESSABLE_CONTENT, "send the file in a form field 'file'"
                )
            name = PurePath(upload.filename.replace("\\", "/")).name
            try:
                validation.filename(name)
            except validation.InvalidInput as exc:
                raise HTTPException(status.HTTP_422_UNPROCESSABLE_CONTENT, str(exc)) from None
            if PurePath(name).suffix.lower() not in SUPPORTED_SUFFIXES:
                raise HTTPException(
                    status.HTTP_415_UNSUPPORTED_MEDIA_TYPE,
                    f"{name}: supported files are {', '.join(sorted(SUPPORTED_SUFFIXES))}",
                )
            data = await _read_upload(upload, settings.max_upload_bytes)
        result = await _call(
            hub,
            "ingest_file",
            {"filename": name, "data_base64": base64.b64encode(data).decode("ascii")},
            timeout=INGEST_TIMEOUT,
        )
        documents = result.get("documents", [])
    elif kind == "application/json":
        try:
            body = DocumentText.model_validate_json(await request.body())
        except ValidationError as exc:
            raise HTTPException(status.HTTP_422_UNPROCESSABLE_CONTENT, _why(exc)) from None
        arguments: dict[str, Any] = {"title": body.title, "content": body.content}
        if body.source_url:
            arguments["source_url"] = body.source_url
        if body.published_date:
            arguments["metadata"] = {"published_date": body.published_date.isoformat()}
        documents = [await _call(hub, "ingest_document", arguments, timeout=INGEST_TIMEOUT)]
    else:
        raise HTTPException(
            status.HTTP_415_UNSUPPORTED_MEDIA_TYPE,
            "send multipart/form-data with a 'file' field, or application/json with "
            "title and content",
        )
    if not documents:
        raise HTTPException(status.HTTP_422_UNPROCESSABLE_CONTENT, "the file held no documents")
    first = documents[0]
    return {
        "doc_id": first["doc_id"],
        "title": first["title"],
        "chunks": first["chunks"],
        "status": first["status"],
        "documents": documents,
    }


def _why(exc: ValidationError) -> str:
    parts = []
    for error in exc.errors():
        where = ".".join(map(str, error["loc"]))
        message = error["msg"]
        if error["type"] == "string_pattern_mismatch":
            message = pattern_message(str(error.get("ctx", {}).get("pattern", "")))
        elif error["type"] == "json_invalid":
            message = f"the body is not valid JSON ({message})"
        parts.append(f"{where}: {message}" if where else message)
    return "; ".join(parts)


@router.get("/formats", responses=responses())
async def document_formats() -> dict[str, list[str]]:
    """The file extensions an upload may have: the document store's own list, so the web
    page's file picker offers what the store reads."""
    return {"suffixes": sorted(SUPPORTED_SUFFIXES)}


@router.get("", responses=responses(422, 503))
async def list_documents(
    hub: HubDep,
    limit: Annotated[int, Query(ge=1, le=1000)] = 100,
    offset: Annotated[int, Query(ge=0)] = 0,
) -> dict[str, Any]:
    """The documents in the store, newest ingestion first."""
    return await _call(hub, "list_documents", {"limit": limit, "offset": offset})


DocId = Annotated[
    str,
    Path(min_length=1, max_length=200, pattern=NO_NUL, description="From GET /api/documents."),
]


@router.delete("/{doc_id}", responses=responses(*WRITE, 404, 422, 503))
async def delete_document(doc_id: DocId, hub: HubDep) -> dict[str, Any]:
    """Remove a document and its chunks."""
    return await _call(hub, "delete_document", {"doc_id": doc_id})
