"""The scholarly MCP server: ``search_papers`` over OpenAlex and arXiv, ``get_paper`` by DOI,
arXiv id or OpenAlex id. Both sources are free and keyless; each is rate limited, cached, and
asked only when a tool is called."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Hashable
from contextlib import asynccontextmanager
from typing import Annotated, Any

import httpx
from fastmcp import FastMCP
from fastmcp.exceptions import ToolError
from mcp.types import ToolAnnotations
from pydantic import Field

from mcp_servers.common.logging import ToolCallLogMiddleware
from mcp_servers.common.polite import Clock, RequestSpacer, TTLCache
from mcp_servers.scholarly.arxiv_api import Arxiv
from mcp_servers.scholarly.fetch import Sleep, SourceApi, SourceError
from mcp_servers.scholarly.ids import parse_paper_id
from mcp_servers.scholarly.merge import merge_rankings
from mcp_servers.scholarly.models import Paper, PaperSearchResult, Source, SourceFailure
from mcp_servers.scholarly.openalex import OpenAlex
from mcp_servers.scholarly.settings import ScholarlySettings

VERSION = "0.1"
MAX_QUERY_CHARS = 500
INSTRUCTIONS = """\
Scholarly papers from OpenAlex (250M+ works of every field, with citation counts) and arXiv
(preprints in physics, mathematics, computer science and more). search_papers finds papers
by topic, optionally by year and open access; get_paper reads one by DOI, arXiv id or OpenAlex
id. Every paper carries a URL to cite and, when free, a PDF link. Results are cached."""
_READ_ONLY = ToolAnnotations(readOnlyHint=True, openWorldHint=True, idempotentHint=True)

Year = Annotated[int | None, Field(ge=1000, le=2100, description="A year, e.g. 2020.")]


class Papers:
    """The tools' logic: the two sources, their cache, and how their answers are merged."""

    def __init__(
        self,
        settings: ScholarlySettings,
        client: httpx.AsyncClient | None,
        clock: Clock,
        sleep: Sleep,
    ):
        self.settings = settings
        self._client = client
        self._owns_client = client is None
        self.cache: TTLCache[Any] = TTLCache(settings.scholarly_cache_ttl, clock=clock)
        wait = settings.scholarly_max_wait
        email_hint = (
            ""
            if settings.scholarly_email
            else "set MARSA_SCHOLARLY_EMAIL (OpenAlex's polite pool), or "
        )
        self.openalex = OpenAlex(
            SourceApi(
                "openalex",
                "OpenAlex",
                settings.openalex_url.rstrip("/"),
                "MARSA_OPENALEX_URL",
                "MARSA_OPENALEX_RATE_PER_MINUTE",
                f"To stay under it, {email_hint}lower MARSA_OPENALEX_RATE_PER_MINUTE.",
                RequestSpacer(settings.openalex_rate_per_minute, wait, clock),
                sleep,
                settings.scholarly_timeout,
            ),
            settings.scholarly_email,
        )
        self.arxiv = Arxiv(
            SourceApi(
                "arxiv",
                "arXiv",
                settings.arxiv_url.rstrip("/"),
                "MARSA_ARXIV_URL",
                "MARSA_ARXIV_RATE_PER_MINUTE",
                "arXiv asks for one request every 3 s; lower MARSA_ARXIV_RATE_PER_MINUTE.",
                RequestSpacer(settings.arxiv_rate_per_minute, wait, clock),
                sleep,
                settings.scholarly_timeout,
            )
        )

    @property
    def client(self) -> httpx.AsyncClient:
        """The HTTP client, made at the first request."""
        if self._client is None:
            contact = (
                f"; mailto:{self.settings.scholarly_email}" if self.settings.scholarly_email else ""
            )
            self._client = httpx.AsyncClient(
                follow_redirects=True,
                headers={"User-Agent": f"MARSA-scholarly/{VERSION} (research assistant{contact})"},
            )
        return self._client

    async def _cached(self, key: Hashable, fetch: Callable[[], Awaitable[Any]]) -> tuple[Any, bool]:
        found = self.cache.get(key)
        if found is not None:
            return found, True
        value = await fetch()
        self.cache.put(key, value)
        return value, False

    async def search(
        self,
        query: str,
        from_year: int | None,
        to_year: int | None,
        limit: int,
        open_access_only: bool,
        sources: list[Source],
    ) -> PaperSearchResult:
        """Ask every source at once; merge what answered, report what did not."""
        text = " ".join(query.split())
        if not text:
            raise ToolError("The query is empty or only whitespace; pass the topic to search for.")
        if from_year is not None and to_year is not None and from_year > to_year:
            raise ToolError(
                f"from_year {from_year} is after to_year {to_year}; swap them or drop one."
            )
        asked = sorted(set(sources), key=["openalex", "arxiv"].index)
        key = (text.casefold(), from_year, to_year, limit, open_access_only)

        def run(source: Source) -> Awaitable[tuple[Any, bool]]:
            if source == "openalex":
                return self._cached(
                    ("openalex", *key),
                    lambda: self.openalex.search(
                        self.client, text, from_year, to_year, limit, open_access_only
                    ),
                )
            return self._cached(
                ("arxiv", *key[:4]),
                lambda: self.arxiv.search(self.client, text, from_year, to_year, limit),
            )

        outcomes = await asyncio.gather(*(run(s) for s in asked), return_exceptions=True)
        rankings: list[list[Paper]] = []
        failures: list[SourceFailure] = []
        all_cached = True
        for source, outcome in zip(asked, outcomes, strict=True):
            if isinstance(outcome, SourceError):
                failures.append(SourceFailure(source=source, error=str(outcome)))
            elif isinstance(outcome, BaseException):
                raise outcome
            else:
                papers, cached = outcome
                rankings.append(papers)
                all_cached = all_cached and cached
        if not rankings:
            raise ToolError(" | ".join(f.error for f in failures))
        return PaperSearchResult(
            query=text,
            results=merge_rankings(rankings, limit),
            failed_sources=failures,
            cached=all_cached,
        )

    async def get(self, identifier: str) -> Paper:
        """One paper: an arXiv id (or arXiv's own DOI) from arXiv, any other DOI and OpenAlex
        ids from OpenAlex."""
        paper_id = parse_paper_id(identifier)
        if paper_id.kind == "arxiv":
            found, _ = await self._cached(
                ("get-arxiv", paper_id.value), lambda: self.arxiv.get(self.client, paper_id.value)
            )
        else:
            found, _ = await self._cached(
                ("get-openalex", paper_id), lambda: self.openalex.get(self.client, paper_id)
            )
        if found is None:
            where = "arXiv" if paper_id.kind == "arxiv" else "OpenAlex"
            raise ToolError(
                f"{where} has no paper with {paper_id.kind} {paper_id.value!r}; check the id, "
                "or find the paper with search_papers"
            )
        return found

    async def close(self) -> None:
        """Close the HTTP client if this server made it."""
        if self._owns_client and self._client is not None:
            client, self._client = self._client, None
            await client.aclose()


def create_server(
    settings: ScholarlySettings | None = None,
    client: httpx.AsyncClient | None = None,
    *,
    clock: Clock = time.monotonic,
    sleep: Sleep = asyncio.sleep,
) -> FastMCP:
    """Build the server; nothing touches the network until a tool is called.

    ``client`` replaces the HTTP client (the caller then closes it); ``clock`` and ``sleep``
    drive the cache and the rate limits (tests pass a fake clock).
    """
    settings = settings or ScholarlySettings()
    papers = Papers(settings, client, clock, sleep)

    @asynccontextmanager
    async def lifespan(_: FastMCP) -> AsyncIterator[dict[str, Any]]:
        try:
            yield {}
        finally:
            await papers.close()

    server: FastMCP = FastMCP("marsa-scholarly", instructions=INSTRUCTIONS, lifespan=lifespan)
    server.add_middleware(
        ToolCallLogMiddleware(
            "scholarly", settings.secrets(), settings.log_level, settings.server_log_dir
        )
    )

    @server.tool(title="Search scholarly papers (OpenAlex, arXiv)", annotations=_READ_ONLY)
    async def search_papers(
        query: Annotated[
            str,
            Field(
                min_length=1,
                max_length=MAX_QUERY_CHARS,
                description="Topic or keywords, e.g. 'retrieval augmented generation'.",
            ),
        ],
        from_year: Year = None,
        to_year: Year = None,
        limit: Annotated[
            int, Field(ge=1, le=50, description="Most papers to return (1 to 50).")
        ] = 10,
        open_access_only: Annotated[
            bool, Field(description="Only papers with a free full text (all of arXiv is).")
        ] = False,
        sources: Annotated[
            list[Source],
            Field(min_length=1, max_length=2, description="Which sources to ask."),
        ] = ["openalex", "arxiv"],  # noqa: B006 - never mutated; a list for the schema
    ) -> PaperSearchResult:
        """Find papers on a topic in OpenAlex and arXiv, most relevant first.

        Each paper has title, authors, venue, year, abstract, citation count (OpenAlex), DOI,
        a URL to cite and an open-access PDF link when there is one. A paper both sources
        know is listed once (same DOI or arXiv id), with ``sources`` naming both. When one
        source fails the other's papers are returned and ``failed_sources`` says why.
        """
        return await papers.search(query, from_year, to_year, limit, open_access_only, sources)

    @server.tool(title="Get one paper by id", annotations=_READ_ONLY)
    async def get_paper(
        id: Annotated[  # noqa: A002 - the name callers expect
            str,
            Field(
                min_length=1,
                max_length=300,
                description="A DOI ('10.1038/nature14539' or https://doi.org/…), an arXiv id "
                "('2106.09685', 'arXiv:hep-th/9711200', an arxiv.org/abs/ URL) or an OpenAlex "
                "work id ('W2741809807').",
            ),
        ],
    ) -> Paper:
        """Read one paper's record: title, authors, venue, year, abstract, citations, links."""
        return await papers.get(id)

    return server


def health_check(settings: ScholarlySettings) -> Callable[[], Awaitable[dict[str, Any]]]:
    """Facts for GET /health: where the APIs are and how politely they are used."""

    async def check() -> dict[str, Any]:
        return {
            "openalex_url": settings.openalex_url,
            "arxiv_url": settings.arxiv_url,
            "email_configured": settings.scholarly_email is not None,
            "cache_ttl_s": settings.scholarly_cache_ttl,
            "openalex_rate_per_minute": settings.openalex_rate_per_minute,
            "arxiv_rate_per_minute": settings.arxiv_rate_per_minute,
        }

    return check
