"""GitHub repositories and code (``mcp_servers.github_server``)."""

from __future__ import annotations

from typing import Any

from backend.sources.base import SearchCall, SourceSpec


def adapt_repository(item: dict[str, Any]) -> dict[str, Any]:
    """A repository -> Source fields: its name, description and topics."""
    text = f"{item['full_name']}: {item.get('description') or 'no description'}"
    if item.get("topics"):
        text += f" Topics: {', '.join(item['topics'])}."
    updated = item.get("updated_at")
    return {
        "title": item["full_name"],
        "url": item["html_url"],
        "text": text,
        "published_date": str(updated)[:10] if updated else None,
        "word_count": len(text.split()),
        "retrieval_score": float(item.get("stars") or 0),
    }


def adapt_code(item: dict[str, Any]) -> dict[str, Any]:
    """A code search hit -> Source fields: the matched snippet, else the file's path."""
    text = str(item.get("snippet") or f"{item['repo']}/{item['path']}")
    return {
        "title": f"{item['repo']}: {item['path']}",
        "url": item["html_url"],
        "text": text,
        "word_count": len(text.split()),
        "retrieval_score": float(item.get("score") or 0.0),
    }


SOURCE = SourceSpec(
    name="github",
    module="mcp_servers.github_server",
    port=8103,
    description="GitHub code and issues",
    url_setting="github_server_url",
    settings=(
        "log_level",
        "server_log_dir",
        "github_token",
        "github_base_url",
        "github_timeout",
        "github_retries",
    ),
    searches=(
        # (the server's limit: a scene-setting question plus a hop's words can be longer)
        SearchCall("search_repositories", adapt_repository, kind="github_repo", max_query=256),
        SearchCall("search_code", adapt_code, kind="github_code", max_query=256),
    ),
    route="code",
    rank=1,
    prompt="github = GitHub code and repositories",
    prompt_route="Route code and repository questions to github when it is available",
    optional="github_token",
    missing_optional="no GITHUB_TOKEN: 60 requests/hour, no code search",
    health_unset="no GITHUB_TOKEN: 60 requests/hour",
    health_set="token set",
    probes=(("github_base_url", "/rate_limit"),),  # free: it counts against no limit
)
