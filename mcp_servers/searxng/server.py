"""The SearXNG MCP server: key-free web search through a SearXNG instance's JSON API."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from typing import Annotated, Any

import httpx
from fastmcp import FastMCP
from fastmcp.exceptions import ToolError
from mcp.types import ToolAnnotations
from pydantic import Field

from mcp_servers.common.logging import ToolCallLogMiddleware
from mcp_servers.common.polite import Clock, RequestSpacer, TTLCache
from mcp_servers.searxng.client import NOT_CONFIGURED, fetch_results
from mcp_servers.searxng.models import (
    SearchRequest,
    TimeRange,
    UnresponsiveEngine,
    WebResult,
    WebSearchResponse,
)
from mcp_servers.searxng.settings import SearxngSettings

Sleep = Callable[[float], Awaitable[Any]]
MAX_QUERY_CHARS = 500
INSTRUCTIONS = """\
Key-free web search through a SearXNG metasearch instance: each result has a URL to cite,
a snippet, the engines that found it and a date when one is known. Results are cached."""


class Searches:
    """The tool's logic: checks, cache, rate limit, then the instance."""

    def __init__(
        self,
        settings: SearxngSettings,
        client: httpx.AsyncClient | None,
        clock: Clock,
        sleep: Sleep,
    ):
        self.settings = settings
        self._client = client
        self._owns_client = client is None
        self._sleep = sleep
        self.cache: TTLCache[dict[str, Any]] = TTLCache(settings.searxng_cache_ttl, clock=clock)
        self.spacer = RequestSpacer(
            settings.searxng_rate_per_minute, settings.searxng_max_wait, clock
        )

    async def search(self, request: SearchRequest) -> WebSearchResponse:
        """Answer from the cache when possible, else from the instance."""
        started = time.perf_counter()
        if not request.query:
            raise ToolError("The query is empty or only whitespace; pass the words to search for.")
        if not self.settings.searxng_url:
            raise ToolError(NOT_CONFIGURED)
        key = request.cache_key()
        body = self.cache.get(key)
        cached = body is not None
        if body is None:
            if self._client is None:
                self._client = httpx.AsyncClient(headers={"User-Agent": "MARSA-searxng"})
            body = await fetch_results(
                self._client, self.settings, self.spacer, request, self._sleep
            )
            self.cache.put(key, body)
        return WebSearchResponse(
            query=request.query,
            results=_results(body, request.max_results),
            suggestions=[str(s) for s in body.get("suggestions") or []][:10],
            unresponsive_engines=_unresponsive(body),
            cached=cached,
            response_time_ms=round((time.perf_counter() - started) * 1000, 2),
        )

    async def close(self) -> None:
        """Close the HTTP client if this server made it."""
        if self._owns_client and self._client is not None:
            client, self._client = self._client, None
            await client.aclose()


def _results(body: dict[str, Any], limit: int) -> list[WebResult]:
    items = [
        item
        for item in body["results"]
        if isinstance(item, dict) and str(item.get("url", "")).startswith(("http://", "https://"))
    ]
    return [WebResult.from_searxng(item) for item in items[:limit]]


def _unresponsive(body: dict[str, Any]) -> list[UnresponsiveEngine]:
    # SearXNG sends pairs: [["google", "timeout"], ...].
    return [
        UnresponsiveEngine(engine=str(pair[0]), reason=str(pair[1]))
        for pair in body.get("unresponsive_engines") or []
        if isinstance(pair, list | tuple) and len(pair) == 2
    ]


def create_server(
    settings: SearxngSettings | None = None,
    client: httpx.AsyncClient | None = None,
    *,
    clock: Clock = time.monotonic,
    sleep: Sleep = asyncio.sleep,
) -> FastMCP:
    """Build the server; nothing touches the network until the first search.

    ``client`` replaces the HTTP client (the caller then closes it); ``clock`` and ``sleep``
    drive the cache and the rate limit (tests pass a fake clock).
    """
    settings = settings or SearxngSettings()
    searches = Searches(settings, client, clock, sleep)

    @asynccontextmanager
    async def lifespan(_: FastMCP) -> AsyncIterator[dict[str, Any]]:
        try:
            yield {}
        finally:
            await searches.close()

    server: FastMCP = FastMCP("marsa-searxng", instructions=INSTRUCTIONS, lifespan=lifespan)
    server.add_middleware(
        ToolCallLogMiddleware(
            "searxng", settings.secrets(), settings.log_level, settings.server_log_dir
        )
    )

    @server.tool(
        title="Web search (SearXNG)",
        annotations=ToolAnnotations(readOnlyHint=True, openWorldHint=True, idempotentHint=True),
    )
    async def search(
        query: Annotated[
            str,
            Field(
                min_length=1,
                max_length=MAX_QUERY_CHARS,
                description="What to search for, in keywords or a question.",
            ),
        ],
        max_results: Annotated[
            int, Field(ge=1, le=30, description="Most results to return (1 to 30).")
        ] = 10,
        categories: Annotated[
            list[Annotated[str, Field(pattern=r"^[a-z][a-z0-9 _-]{0,29}$")]] | None,
            Field(
                max_length=5,
                description="SearXNG categories, e.g. ['news'] or ['science']; the instance's "
                "default ('general') when unset.",
            ),
        ] = None,
        language: Annotated[
            str | None,
            Field(
                pattern=r"^(all|auto|[a-z]{2,3}(-[A-Z]{2})?)$",
                description="Result language, e.g. 'en', 'de', 'en-US' or 'all'.",
            ),
        ] = None,
        time_range: Annotated[
            TimeRange | None, Field(description="Only pages from the last day/week/month/year.")
        ] = None,
        page: Annotated[int, Field(ge=1, le=10, description="Result page, from 1.")] = 1,
    ) -> WebSearchResponse:
        """Search the web through SearXNG (no API key) and return pages with URL and snippet.

        Each result names the engines that found it and its published date when one is
        known. ``unresponsive_engines`` lists engines that failed for this search.
        """
        request = SearchRequest(
            query=" ".join(query.split()),
            max_results=max_results,
            categories=tuple(sorted({c.strip() for c in categories or []})),
            language=language,
            time_range=time_range,
            page=page,
        )
        return await searches.search(request)

    return server


def health_check(settings: SearxngSettings) -> Callable[[], Awaitable[dict[str, Any]]]:
    """Facts for GET /health: which instance is asked (the server does not probe it)."""

    async def check() -> dict[str, Any]:
        return {
            "url_configured": settings.searxng_url is not None,
            "searxng_url": settings.searxng_url,
            "cache_ttl_s": settings.searxng_cache_ttl,
            "rate_per_minute": settings.searxng_rate_per_minute,
        }

    return check
