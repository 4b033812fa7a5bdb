"""The FastAPI application: REST API, event streams, and the web UI at /."""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import AsyncExitStack, asynccontextmanager
from pathlib import Path
from typing import Any

from fastapi import Depends, FastAPI, Request, Response
from fastapi.exceptions import RequestValidationError
from fastapi.middleware.cors import CORSMiddleware
from fastapi.responses import FileResponse, JSONResponse
from fastapi.staticfiles import StaticFiles
from fastapi_offline import FastAPIOffline
from rich.console import Console

from backend.api.deps import require_token
from backend.api.errors import json_errors, method_not_allowed, validation_error
from backend.api.guards import BodyLimit, allowed_host_names, host_allowed
from backend.api.routes import documents, health, research
from backend.api.runner import RunManager
from backend.config import Settings, get_settings
from backend.mcp_client import SERVERS, MCPHub, load_mcp_config
from backend.persistence import RunStore, database_target, open_checkpointer
from backend.seed import ensure_documents

FRONTEND = Path(__file__).resolve().parents[2] / "frontend"
log = logging.getLogger("marsa.api")

# Everything the page shows that came from a document is untrusted: scripts only from here.
CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
    "img-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'none'; "
    "frame-ancestors 'none'; form-action 'self'"
)
# Swagger UI and ReDoc (served from the fastapi-offline wheel, no CDN) start with an inline
# script; they show only the API's own schema.
DOCS_CSP = CSP.replace("script-src 'self'", "script-src 'self' 'unsafe-inline'")
DOCS_PAGES = ("/docs", "/redoc", "/docs/oauth2-redirect")


@asynccontextmanager
async def _lifespan(app: FastAPI) -> AsyncIterator[None]:
    settings: Settings = app.state.settings
    store = RunStore(database_target(settings))
    await store.open()
    try:
        async with (
            open_checkpointer(store.db) as saver,
            MCPHub(settings) as hub,
            AsyncExitStack() as stack,
        ):
            if settings.seed_docs:
                await ensure_documents(hub, Console(stderr=True))
            manager: RunManager
            if settings.run_in == "workers":  # runs are researched by `marsa worker`
                from backend.workers.replica import open_replica

                manager = await stack.enter_async_context(open_replica(settings, store, saver, hub))
            else:
                manager = RunManager(settings, store, saver, hub)
                await manager.warm()  # this process researches: its engine loads before runs
            interrupted = await manager.recover()
            if interrupted:
                log.warning("runs interrupted by the last stop: %s", ", ".join(interrupted))
            app.state.hub, app.state.manager = hub, manager
            try:
                yield
            finally:
                await manager.shutdown()
    finally:
        await store.close()


async def _unexpected_error(request: Request, exc: Exception) -> JSONResponse:
    """Any exception no route turned into an HTTP error: logged with its traceback, answered
    as JSON like every other error (the server re-raises it after this answer is sent)."""
    log.error("%s %s failed", request.method, request.url.path, exc_info=exc)
    return JSONResponse(
        status_code=500,
        content={
            "detail": f"internal error ({type(exc).__name__}); the server's log has the details"
        },
    )


def _openapi(app: FastAPI) -> dict[str, Any]:
    """The schema, with the source names this API knows as the only ones a run may ask for
    (the configured built-ins and extras: what POST /api/research checks)."""
    if app.openapi_schema:
        return app.openapi_schema
    schema = json_errors(FastAPI.openapi(app))
    settings: Settings = app.state.settings
    names = sorted(
        {*SERVERS, *(load_mcp_config(settings.mcp_config) if settings.mcp_config else {})}
    )
    for model in ("ResearchRequest", "ReviewedSubQuery"):
        sources = schema["components"]["schemas"][model]["properties"]["sources"]
        for branch in sources.get("anyOf", [sources]):
            if branch.get("type") == "array":
                branch["items"] = {**branch["items"], "enum": names}
    app.openapi_schema = schema
    return schema


JSON_BODY_LIMIT = 256 * 1024
"""Largest JSON body outside document uploads (a question is at most 2,000 characters)."""
UPLOAD_OVERHEAD = 64 * 1024
"""Room for the multipart framing around an upload of MARSA_MAX_UPLOAD_BYTES."""
UNSAFE = ("POST", "PUT", "PATCH", "DELETE")


def _same_origin(origin: str, request: Request) -> bool:
    # Only called once the Host header has been checked against MARSA_ALLOWED_HOSTS.
    host = request.headers.get("host", "")
    return origin in (f"http://{host}", f"https://{host}")


def create_app(settings: Settings | None = None, *, serve_host: str | None = None) -> FastAPI:
    """Build the application (one per process; tests build their own). ``serve_host`` is the
    host `marsa serve --host` binds: requests naming it are allowed besides
    MARSA_ALLOWED_HOSTS."""
    app = FastAPIOffline(
        title="MARSA",
        version="0.2.0",
        description="Multi-agent research assistant: cited, fact-checked reports. "
        "Start a run with POST /api/research and follow it at /api/research/{id}/events.",
        lifespan=_lifespan,
    )
    app.state.settings = settings or get_settings()
    guard = [Depends(require_token)]
    app.include_router(health.router, dependencies=guard)
    app.include_router(research.router, dependencies=guard)
    app.include_router(documents.router, dependencies=guard)
    app.add_exception_handler(RequestValidationError, validation_error)
    app.add_exception_handler(405, method_not_allowed)
    app.openapi = lambda: _openapi(app)  # type: ignore[method-assign]
    app.add_exception_handler(Exception, _unexpected_error)
    upload_limit = app.state.settings.max_upload_bytes + UPLOAD_OVERHEAD

    def body_limit(path: str) -> tuple[int, str]:
        if path == "/api/documents":
            return upload_limit, "MARSA_MAX_UPLOAD_BYTES"
        return JSON_BODY_LIMIT, ""

    # Innermost of the middleware: the host and origin checks answer before any body is read.
    app.add_middleware(BodyLimit, limit_for=body_limit)
    if app.state.settings.cors_origins:
        app.add_middleware(
            CORSMiddleware,
            allow_origins=app.state.settings.cors_origins,
            allow_methods=["GET", "POST", "DELETE"],
            allow_headers=["Authorization", "Content-Type", "Last-Event-ID"],
        )

    allowed_origins = set(app.state.settings.cors_origins)
    allowed_hosts = allowed_host_names(app.state.settings.allowed_hosts, serve_host)

    @app.middleware("http")
    async def _guard(
        request: Request, call_next: Callable[[Request], Awaitable[Response]]
    ) -> Response:
        host = request.headers.get("host", "")
        local = request.scope.get("server") or (None, None)
        if not host_allowed(host, allowed_hosts, local[0]):
            # A page whose DNS name was pointed at this machine (DNS rebinding) would
            # otherwise read and write here as if it were the UI itself.
            return JSONResponse(
                status_code=400,
                content={
                    "detail": f"this API does not answer to the host {host[:100]!r}; "
                    "add it to MARSA_ALLOWED_HOSTS to allow it"
                },
            )
        if request.method in UNSAFE and request.url.path.startswith("/api/"):
            # A page elsewhere could otherwise post a form here (no preflight for
            # multipart) and plant a document or cancel a run in a local MARSA.
            origin = request.headers.get("origin")
            cross = request.headers.get("sec-fetch-site") == "cross-site"
            if (origin and not _same_origin(origin, request) and origin not in allowed_origins) or (
                cross and origin not in allowed_origins
            ):
                return JSONResponse(
                    status_code=403,
                    content={
                        "detail": f"requests from {origin or 'another site'} are not allowed; "
                        "add the origin to MARSA_CORS_ORIGINS to allow it"
                    },
                )
        response = await call_next(request)
        policy = DOCS_CSP if request.url.path in DOCS_PAGES else CSP
        response.headers.setdefault("Content-Security-Policy", policy)
        response.headers.setdefault("X-Content-Type-Options", "nosniff")
        response.headers.setdefault("Referrer-Policy", "no-referrer")
        return response

    if FRONTEND.is_dir():
        app.mount("/static", StaticFiles(directory=FRONTEND), name="static")

        @app.get("/", include_in_schema=False)
        async def index() -> FileResponse:
            return FileResponse(FRONTEND / "index.html")

    return app
