"""What the search tool is asked (normalized, so it can key a cache) and what it returns."""

from __future__ import annotations

from typing import Any, Literal
from urllib.parse import urlsplit

from pydantic import BaseModel, Field

SearchDepth = Literal["basic", "advanced"]
Topic = Literal["general", "news"]


class WebResult(BaseModel):
    """One web page Tavily found."""

    title: str = Field(description="Page title.")
    url: str = Field(description="Page URL; cite this.")
    content: str = Field(description="The passages of the page most relevant to the query.")
    score: float = Field(description="Tavily's relevance score, 0 to 1 (higher is better).")
    published_date: str | None = Field(
        default=None, description="Publication date when Tavily knows it (mostly topic='news')."
    )
    domain: str = Field(description="Host name of the URL without 'www.', e.g. 'nature.com'.")

    @classmethod
    def from_tavily(cls, item: dict[str, Any]) -> WebResult:
        """Build a result from one entry of Tavily's ``results`` list."""
        url = str(item["url"])
        host = urlsplit(url).hostname or ""
        return cls(
            title=str(item.get("title") or ""),
            url=url,
            content=str(item.get("content") or ""),
            score=float(item.get("score") or 0.0),
            published_date=item.get("published_date") or None,
            domain=host.removeprefix("www."),
        )


class WebSearchResponse(BaseModel):
    """The answer of the ``search`` tool."""

    query: str = Field(description="The query as searched (surrounding whitespace removed).")
    results: list[WebResult] = Field(description="Results, most relevant first.")
    cached: bool = Field(description="True when served from this server's cache, not Tavily.")
    response_time_ms: float = Field(description="Time this call took, in milliseconds.")


def _domains(values: list[str] | None) -> tuple[str, ...]:
    cleaned = {v.strip().lower().removeprefix("www.") for v in values or []}
    return tuple(sorted(d for d in cleaned if d))


class SearchRequest(BaseModel, frozen=True):
    """A search with its arguments normalized: equal requests are equal cache keys."""

    query: str
    max_results: int
    search_depth: SearchDepth
    topic: Topic
    days: int | None
    include_domains: tuple[str, ...]
    exclude_domains: tuple[str, ...]

    @classmethod
    def build(
        cls,
        query: str,
        max_results: int,
        search_depth: SearchDepth,
        topic: Topic,
        days: int | None,
        include_domains: list[str] | None,
        exclude_domains: list[str] | None,
    ) -> SearchRequest:
        """Strip the query and lower-case, de-duplicate and sort the domain lists."""
        return cls(
            query=" ".join(query.split()),
            max_results=max_results,
            search_depth=search_depth,
            topic=topic,
            days=days,
            include_domains=_domains(include_domains),
            exclude_domains=_domains(exclude_domains),
        )

    def cache_key(self) -> tuple[Any, ...]:
        """Queries differing only in case share an entry: the search engine ignores case."""
        return (self.query.casefold(), *self.model_dump(exclude={"query"}).values())

    def tavily_arguments(self) -> dict[str, Any]:
        """Keyword arguments for ``AsyncTavilyClient.search`` (unset filters left out)."""
        arguments: dict[str, Any] = {
            "query": self.query,
            "max_results": self.max_results,
            "search_depth": self.search_depth,
            "topic": self.topic,
        }
        if self.days is not None:
            arguments["days"] = self.days
        if self.include_domains:
            arguments["include_domains"] = list(self.include_domains)
        if self.exclude_domains:
            arguments["exclude_domains"] = list(self.exclude_domains)
        return arguments
