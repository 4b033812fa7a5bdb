"""The API's one error shape, the statuses each route declares, and the handlers that answer
every error in that shape (so the OpenAPI schema says what the API does)."""

from __future__ import annotations

import re
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from pydantic import BaseModel, Field
from starlette.exceptions import HTTPException as StarletteHTTPException

from marsa_common import validation


class ErrorBody(BaseModel):
    """Every error the API answers: what went wrong and what to do, for a person."""

    detail: str


class FieldError(BaseModel):
    """One invalid part of a request (the value itself is not echoed back)."""

    loc: list[str] = Field(description="Where: body, query, path or header, then the field.")
    msg: str
    type: str


class ValidationErrorBody(ErrorBody):
    """422: the request was understood but cannot be used as sent. ``errors`` names each
    invalid field when the request's shape was checked; a refusal of the content as a whole
    (an unknown source, a file with no text) has none."""

    errors: list[FieldError] = Field(default_factory=list)


_WHY = {
    400: "The Host header is not one of MARSA_ALLOWED_HOSTS, or a multipart body cannot be parsed.",
    401: "MARSA_API_TOKEN is set and the request has no valid 'Authorization: Bearer' token.",
    403: "A write from another site (Origin or Sec-Fetch-Site) that MARSA_CORS_ORIGINS does "
    "not allow.",
    404: "No such run or document.",
    409: "The run is not in a state that allows this, or no source asked for is available now.",
    413: "The request body is larger than the route accepts.",
    415: "The body's type is not one the route reads.",
    422: "A field or the content is invalid; the message says what to send instead.",
    500: "An unexpected error; the server's log has the traceback.",
    503: "The document store did not answer (stopped, restarted or hung): try again after "
    "Retry-After seconds.",
}
_HEADERS: dict[int, dict[str, Any]] = {
    401: {"WWW-Authenticate": {"schema": {"type": "string"}, "description": "Bearer"}},
    503: {
        "Retry-After": {
            "schema": {"type": "integer"},
            "description": "Seconds to wait before trying again.",
        }
    },
}
EVERY_ROUTE = (400, 401, 500)
"""Statuses any /api route may answer, whatever it does."""
WRITE = (403, 413)
"""Statuses of every POST and DELETE."""


def responses(*codes: int) -> dict[int | str, dict[str, Any]]:
    """The ``responses=`` of a route: ``codes`` and EVERY_ROUTE, each with the error body
    (``json_errors`` keeps them JSON on routes whose own answer is not)."""
    declared: dict[int | str, dict[str, Any]] = {}
    for code in sorted({*codes, *EVERY_ROUTE}):
        entry: dict[str, Any] = {
            "model": ValidationErrorBody if code == 422 else ErrorBody,
            "description": _WHY[code],
        }
        if code in _HEADERS:
            entry["headers"] = _HEADERS[code]
        declared[code] = entry
    return declared


def json_errors(schema: dict[str, Any]) -> dict[str, Any]:
    """Every 4xx and 5xx answer in the schema as ``application/json``: FastAPI lists an error
    model under the route's own media type (text/event-stream, application/pdf…), but
    errors are always JSON."""
    for operations in schema.get("paths", {}).values():
        for operation in operations.values():
            for code, response in operation.get("responses", {}).items():
                content = response.get("content")
                if code[:1] in "45" and content and "application/json" not in content:
                    response["content"] = {"application/json": next(iter(content.values()))}
    return schema


def pattern_message(pattern: str) -> str:
    """What a value that does not match one of the shared patterns should be instead."""
    if pattern == validation.URL:
        return "must be an http:// or https:// address with no NUL characters, e.g. https://example.org/page"
    if pattern == validation.TEXT:
        return "must not be blank or contain NUL characters"
    if pattern == validation.NO_NUL:
        return "must not contain NUL characters"
    return f"must match {pattern}"


def validation_error(_: Request, exc: Exception) -> JSONResponse:
    """422 for a request whose shape FastAPI refused: one readable line in ``detail``, each
    field in ``errors``."""
    assert isinstance(exc, RequestValidationError)
    parts, errors = [], []
    for error in exc.errors():
        loc = [str(p) for p in error.get("loc", ())]
        where = ".".join(p for p in loc if p != "body")
        message = str(error.get("msg"))
        if loc == ["path", "run_id"]:
            message = "not a run id: run ids are 12 lowercase hex characters (GET /api/research)"
        elif error.get("type") == "string_pattern_mismatch":
            message = pattern_message(str((error.get("ctx") or {}).get("pattern", "")))
        parts.append(f"{where}: {message}" if where else message)
        # Not the input itself: it may be huge, or bytes that JSON cannot carry.
        errors.append({"loc": loc, "msg": message, "type": str(error.get("type"))})
    return JSONResponse(
        status_code=422,
        content={"detail": "; ".join(parts) or "invalid request", "errors": errors},
    )


def method_not_allowed(request: Request, exc: Exception) -> JSONResponse:
    """405 with every method the path has in ``Allow``, as the OpenAPI schema lists them:
    Starlette names only those of the first route that matched the path (GET of
    /api/research/{id}, not its DELETE)."""
    assert isinstance(exc, StarletteHTTPException)
    app: FastAPI = request.app
    # The most specific path that matches, as routing picks it: /api/documents/formats, not
    # /api/documents/{doc_id}.
    matching = []
    for template, operations in app.openapi().get("paths", {}).items():
        pattern = re.sub(r"\\\{[^}]+\\\}", "[^/]+", re.escape(template))
        if re.fullmatch(pattern, request.url.path):
            matching.append((template.count("{"), {method.upper() for method in operations}))
    allowed: set[str] = min(matching, key=lambda m: m[0])[1] if matching else set()
    if not allowed:  # a page outside the API (/, /static): what Starlette found
        allowed = {m.strip() for m in (exc.headers or {}).get("Allow", "").split(",") if m.strip()}
    if "GET" in allowed:
        allowed.add("HEAD")
    listed = ", ".join(sorted(allowed))
    return JSONResponse(
        status_code=405,
        content={"detail": f"{request.method} is not allowed here; allowed: {listed}"},
        headers={"Allow": listed},
    )
