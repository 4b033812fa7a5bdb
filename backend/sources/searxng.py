"""Key-free web search through a SearXNG instance (``mcp_servers.searxng``). It answers the web
sub-queries when Tavily has no key; with both on, both are asked and a page both find is one
source (sources are keyed by URL)."""

from __future__ import annotations

from typing import Any

from backend.sources.base import SearchCall, SourceSpec
from backend.sources.web import adapt as adapt_web


def adapt(item: dict[str, Any]) -> dict[str, Any]:
    """A SearXNG result has a web result's fields (title, url, content, published_date); its
    score is a sum over the engines that found it, unbounded, so it is kept within 0–1 like
    Tavily's (``s / (s + 1)``)."""
    fields = adapt_web(item)
    score = max(0.0, fields["retrieval_score"])
    fields["retrieval_score"] = round(score / (score + 1), 4)
    return fields


SOURCE = SourceSpec(
    name="searxng",
    module="mcp_servers.searxng",
    port=8105,
    description="web search (SearXNG, no key)",
    url_setting="searxng_server_url",
    settings=(
        "log_level",
        "server_log_dir",
        "searxng_url",
        "searxng_timeout",
        "searxng_cache_ttl",
        "searxng_rate_per_minute",
        "searxng_max_wait",
    ),
    searches=(SearchCall("search", adapt, kind="web", limit_arg="max_results", max_query=500),),
    route="always",
    rank=4,
    prompt="searxng = web search without a key (SearXNG)",
    prompt_route="use searxng for web sub-queries when it is available, with web or instead of it",
    required="searxng_url",
    missing_required="no MARSA_SEARXNG_URL set",
    health_unset="no MARSA_SEARXNG_URL: search will refuse until it is set",
    probes=(("searxng_url", "/healthz"),),
)
