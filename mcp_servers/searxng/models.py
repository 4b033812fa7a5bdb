"""What the ``search`` tool is asked (normalized, so it keys the cache) and what it returns."""

from __future__ import annotations

from typing import Any, Literal
from urllib.parse import urlsplit

from pydantic import BaseModel, Field

TimeRange = Literal["day", "week", "month", "year"]


class WebResult(BaseModel):
    """One page the instance's engines found."""

    title: str = Field(description="Page title.")
    url: str = Field(description="Page URL; cite this.")
    content: str = Field(description="The snippet the engines show for the page.")
    engines: list[str] = Field(description="Every engine that returned the page.")
    score: float | None = Field(default=None, description="SearXNG's merged score (higher first).")
    category: str | None = Field(default=None, description="e.g. 'general', 'news', 'science'.")
    published_date: str | None = Field(
        default=None, description="Publication date when an engine gives one (ISO 8601)."
    )
    domain: str = Field(description="Host name of the URL without 'www.'.")

    @classmethod
    def from_searxng(cls, item: dict[str, Any]) -> WebResult:
        """A result from one entry of SearXNG's ``results`` list."""
        url = str(item["url"])
        engines = [str(e) for e in item.get("engines") or [] if e]
        if not engines and item.get("engine"):
            engines = [str(item["engine"])]
        score = item.get("score")
        return cls(
            title=" ".join(str(item.get("title") or "").split()),
            url=url,
            content=" ".join(str(item.get("content") or "").split()),
            engines=engines,
            score=float(score) if isinstance(score, int | float) else None,
            category=str(item["category"]) if item.get("category") else None,
            published_date=str(item["publishedDate"]) if item.get("publishedDate") else None,
            domain=(urlsplit(url).hostname or "").removeprefix("www."),
        )


class UnresponsiveEngine(BaseModel):
    """An engine the instance asked that did not answer."""

    engine: str
    reason: str = Field(description="e.g. 'timeout', 'CAPTCHA', 'too many requests'.")


class WebSearchResponse(BaseModel):
    """What ``search`` returns."""

    query: str = Field(description="The query as searched (whitespace collapsed).")
    results: list[WebResult] = Field(description="Results in the instance's order, best first.")
    suggestions: list[str] = Field(description="Other queries the instance suggests.")
    unresponsive_engines: list[UnresponsiveEngine] = Field(
        description="Engines that failed for this search: fewer results than usual is why."
    )
    cached: bool = Field(description="True when served from this server's cache.")
    response_time_ms: float = Field(description="Time this call took, in milliseconds.")


class SearchRequest(BaseModel, frozen=True):
    """A search with its arguments normalized: equal requests are equal cache keys."""

    query: str
    max_results: int
    categories: tuple[str, ...]
    language: str | None
    time_range: TimeRange | None
    page: int

    def cache_key(self) -> tuple[Any, ...]:
        """Queries differing only in case share an entry: the engines ignore case."""
        return (self.query.casefold(), *self.model_dump(exclude={"query"}).values())

    def params(self) -> dict[str, str | int]:
        """Query parameters of GET /search (unset filters left out)."""
        params: dict[str, str | int] = {"q": self.query, "format": "json", "pageno": self.page}
        if self.categories:
            params["categories"] = ",".join(self.categories)
        if self.language:
            params["language"] = self.language
        if self.time_range:
            params["time_range"] = self.time_range
        return params
