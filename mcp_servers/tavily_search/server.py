"""The web-search MCP server: one ``search`` tool over Tavily, cached and rate limited."""

from __future__ import annotations

import asyncio
import math
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from typing import Annotated, Any

from fastmcp import FastMCP
from fastmcp.exceptions import ToolError
from fastmcp.server.middleware import CallNext, Middleware, MiddlewareContext
from mcp.types import ToolAnnotations
from pydantic import Field

from mcp_servers.common.logging import ToolCallLogMiddleware
from mcp_servers.common.polite import Clock, TTLCache
from mcp_servers.tavily_search.api import (
    KEY_HINT,
    ClientFactory,
    SearchClient,
    TavilySearch,
    search_tavily,
)
from mcp_servers.tavily_search.limits import RateLimited, RateLimiter
from mcp_servers.tavily_search.models import (
    SearchDepth,
    SearchRequest,
    Topic,
    WebResult,
    WebSearchResponse,
)
from mcp_servers.tavily_search.settings import WebSettings

Sleep = Callable[[float], Awaitable[Any]]
MAX_QUERY_CHARS = 2000
_INSTRUCTIONS = (
    "Web search through Tavily. Each result carries a URL to cite, the relevant passages "
    "and a relevance score. Results are cached for a few minutes; repeated identical "
    "searches are free."
)


class QueryLengthGuard(Middleware):
    """Refuse an oversized query before argument validation.

    fastmcp logs a failed validation with the full input value; a multi-megabyte
    query would stall the server for seconds while that log line is rendered.
    """

    async def on_call_tool(self, context: MiddlewareContext, call_next: CallNext) -> Any:
        query = (getattr(context.message, "arguments", None) or {}).get("query")
        if isinstance(query, str) and len(query) > MAX_QUERY_CHARS:
            raise ToolError(
                f"The query is {len(query)} characters long; the limit is {MAX_QUERY_CHARS}. "
                "Shorten it to the key terms (a question or a few keywords)."
            )
        return await call_next(context)


class WebSearch:
    """The tool's logic: checks, cache, client-side rate limit, then Tavily."""

    def __init__(
        self, settings: WebSettings, client_factory: ClientFactory, clock: Clock, sleep: Sleep
    ):
        self.settings = settings
        self._client_factory = client_factory
        self._client: SearchClient | None = None
        self._sleep = sleep
        self.cache: TTLCache[list[WebResult]] = TTLCache(settings.tavily_cache_ttl, clock=clock)
        self.limiter = RateLimiter(settings.tavily_rate_per_minute, clock=clock)

    async def search(self, request: SearchRequest) -> WebSearchResponse:
        """Answer from the cache when possible, else from Tavily (within the rate limit)."""
        started = time.perf_counter()
        if not request.query:
            raise ToolError("The query is empty or only whitespace; pass the words to search for.")
        api_key = self.settings.tavily_api_key
        if api_key is None or not api_key.get_secret_value():
            raise ToolError(
                f"Web search is not configured: no Tavily API key. To fix it, {KEY_HINT}."
            )

        cache_key = request.cache_key()
        results = self.cache.get(cache_key)
        cached = results is not None
        if results is None:
            results = await self._fetch(request)
            self.cache.put(cache_key, results)
        elapsed_ms = round((time.perf_counter() - started) * 1000, 2)
        return WebSearchResponse(
            query=request.query, results=results, cached=cached, response_time_ms=elapsed_ms
        )

    async def _fetch(self, request: SearchRequest) -> list[WebResult]:
        try:
            wait = self.limiter.reserve()
        except RateLimited as exc:
            raise ToolError(
                f"This server's limit of {self.limiter.per_minute} Tavily searches per minute "
                f"is reached; retry in {math.ceil(exc.retry_after)} s. Reuse earlier results, "
                "or raise MARSA_TAVILY_RATE_PER_MINUTE "
                "if your Tavily plan allows more."
            ) from exc
        if wait > 0:
            await self._sleep(wait)
        if self._client is None:
            self._client = self._client_factory(self.settings)
        raw = await search_tavily(self._client, request.tavily_arguments(), self.settings)
        return [WebResult.from_tavily(item) for item in raw]

    async def close(self) -> None:
        """Close the Tavily client if one was opened."""
        if self._client is not None:
            client, self._client = self._client, None
            await client.close()


def create_server(
    settings: WebSettings | None = None,
    client_factory: ClientFactory | None = None,
    *,
    clock: Clock = time.monotonic,
    sleep: Sleep = asyncio.sleep,
) -> FastMCP:
    """Build the server. Nothing touches the network until the first search.

    ``clock`` and ``sleep`` drive the cache expiry and the rate limiter (tests
    pass a fake clock); ``client_factory`` builds the Tavily client from settings.
    """
    settings = settings or WebSettings()
    service = WebSearch(settings, client_factory or TavilySearch, clock, sleep)

    @asynccontextmanager
    async def lifespan(_: FastMCP) -> AsyncIterator[dict[str, Any]]:
        try:
            yield {}
        finally:
            await service.close()

    server: FastMCP = FastMCP("marsa-web", instructions=_INSTRUCTIONS, lifespan=lifespan)
    server.add_middleware(
        ToolCallLogMiddleware(
            "web", settings.secrets(), settings.log_level, settings.server_log_dir
        )
    )
    server.add_middleware(QueryLengthGuard())

    @server.tool(
        title="Web search (Tavily)",
        annotations=ToolAnnotations(readOnlyHint=True, openWorldHint=True),
    )
    async def search(
        query: Annotated[
            str,
            Field(
                min_length=1,
                max_length=MAX_QUERY_CHARS,
                description="What to search for, in natural language or keywords.",
            ),
        ],
        max_results: Annotated[
            int, Field(ge=1, le=20, description="How many results to return (1 to 20).")
        ] = 5,
        search_depth: Annotated[
            SearchDepth,
            Field(description="'basic' is fast and cheap; 'advanced' finds better passages."),
        ] = "basic",
        topic: Annotated[
            Topic,
            Field(description="'news' for recent events (results carry dates), else 'general'."),
        ] = "general",
        days: Annotated[
            int | None,
            Field(ge=1, le=365, description="With topic='news': only articles of the last N days."),
        ] = None,
        include_domains: Annotated[
            list[Annotated[str, Field(min_length=1, max_length=253)]] | None,
            Field(max_length=50, description="Only search these domains, e.g. ['arxiv.org']."),
        ] = None,
        exclude_domains: Annotated[
            list[Annotated[str, Field(min_length=1, max_length=253)]] | None,
            Field(max_length=50, description="Never return results from these domains."),
        ] = None,
    ) -> WebSearchResponse:
        """Search the web and return ranked pages with their URL, relevant passages and score.

        Use it for facts, recent events and sources to cite. Identical searches
        within the cache lifetime are answered from the cache (``cached: true``).
        """
        request = SearchRequest.build(
            query, max_results, search_depth, topic, days, include_domains, exclude_domains
        )
        return await service.search(request)

    return server


def health_check(settings: WebSettings) -> Callable[[], Awaitable[dict[str, Any]]]:
    """Facts for GET /health: whether a key is set (never the key) and where Tavily is."""

    async def check() -> dict[str, Any]:
        key = settings.tavily_api_key
        return {
            "api_key_configured": key is not None and bool(key.get_secret_value()),
            "base_url": settings.tavily_base_url,
            "cache_ttl_s": settings.tavily_cache_ttl,
            "rate_per_minute": settings.tavily_rate_per_minute,
        }

    return check
