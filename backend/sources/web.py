"""Web search over Tavily (``mcp_servers.tavily_search``)."""

from __future__ import annotations

from typing import Any

from backend.sources.base import SearchCall, SourceSpec


def adapt(item: dict[str, Any]) -> dict[str, Any]:
    """A web result -> Source fields."""
    text = str(item.get("content") or "")
    return {
        "title": item.get("title") or item["url"],
        "url": item["url"],
        "text": text,
        "published_date": item.get("published_date"),
        "word_count": len(text.split()),
        "retrieval_score": float(item.get("score") or 0.0),
    }


SOURCE = SourceSpec(
    name="web",
    module="mcp_servers.tavily_search",
    port=8102,
    description="web search (Tavily)",
    url_setting="web_server_url",
    settings=(
        "log_level",
        "server_log_dir",
        "tavily_api_key",
        "tavily_base_url",
        "tavily_cache_ttl",
        "tavily_rate_per_minute",
        "tavily_timeout",
    ),
    searches=(SearchCall("search", adapt, kind="web", limit_arg="max_results", max_query=2000),),
    route="always",
    rank=2,
    prompt="web = web search",
    prompt_route="use web when it is available",
    required="tavily_api_key",
    missing_required="no TAVILY_API_KEY set",
    health_unset="no TAVILY_API_KEY: search will refuse until it is set",
    probes=(("tavily_base_url", ""),),  # any answer will do: a search would cost a credit
)
