"""Which tool each server is asked with, and how its results become Sources with provenance."""

from __future__ import annotations

import re
from typing import Any

from backend.graph.documents import document_status
from backend.reasoning.models import ScoreBreakdown, Source, SubQuery
from backend.scoring import score_source

# (tool, arguments) per server for a sub-query; an extra server is asked through its
# search-like tool (see generic_search_tool), or not at all when it has none.
SEARCH_CALLS: dict[str, list[tuple[str, str]]] = {
    "docs": [("search_documents", "query")],
    "web": [("search", "query")],
    "github": [("search_repositories", "query"), ("search_code", "query")],
}
STATUS_FACTOR = 0.7  # a draft, proposal, deprecated or superseded document counts for less
_LIMIT_ARG = {"search_documents": "n_results", "search": "max_results"}


_QUERY_PARAMS = ("query", "q", "question", "search", "text")
# A tool whose name starts with a look-up verb is taken for a read when its server does not
# annotate it (many third-party servers set no hints at all); a write verb anywhere in the
# name ("search_and_replace", "query_then_delete") rules it out.
_LOOKUP_NAME = re.compile(r"^(?:search|query|find|lookup|look_up|retrieve)(?:$|[_\-.A-Z])")
_WRITE_WORD = re.compile(
    r"(?:^|[_\-.])(?:write|delete|drop|remove|replace|update|insert|create|execute|exec|run|"
    r"set|put|post|send|append|modify|edit|move|rename|upload|kill|truncate)(?:$|[_\-.])",
    re.IGNORECASE,
)


def generic_search_tool(tools: list[Any]) -> tuple[str, str] | None:
    """(tool, parameter) of an extra server's search-like tool: read-only (annotated so, or,
    with no hints, named with a leading look-up verb and no write verb), taking a query string
    and nothing else required. A tool its server says writes is never used. None when the
    server has no such tool."""
    for tool in tools:
        if tool.declares_writes or not (tool.read_only or _looks_like_lookup(tool.name)):
            continue
        schema = tool.input_schema or {}
        props = schema.get("properties", {})
        required = set(schema.get("required", []))
        for param in _QUERY_PARAMS:
            if props.get(param, {}).get("type") == "string" and required <= {param}:
                return tool.name, param
    return None


def _looks_like_lookup(name: str) -> bool:
    return bool(_LOOKUP_NAME.match(name.lower()) or _LOOKUP_NAME.match(name)) and not (
        _WRITE_WORD.search(name)
    )


NO_SEARCH_TOOL = (
    "has no search-like tool (read-only, or named search…/query…/find…/lookup…/retrieve…, "
    "taking one query string), so it is not searched"
)


def search_calls(
    server: str, sub_query: SubQuery, limit: int, tools: list[Any] | None = None
) -> list[tuple[str, dict[str, Any]]]:
    """The tool calls that research one sub-query on one server (an extra server is asked
    through its search-like tool, if it has one)."""
    if server not in SEARCH_CALLS:
        found = generic_search_tool(tools or [])
        return [(found[0], {found[1]: sub_query.text})] if found else []
    calls = []
    for tool, query_arg in SEARCH_CALLS.get(server, []):
        args: dict[str, Any] = {query_arg: sub_query.text}
        args[_LIMIT_ARG.get(tool, "limit")] = limit
        calls.append((tool, args))
    return calls


def _docs(hit: dict[str, Any]) -> dict[str, Any]:
    source = str(hit.get("source", ""))
    url = hit.get("source_url") or (source if source.startswith(("http://", "https://")) else None)
    chunk_id = hit.get("chunk_id")
    return {
        "title": hit["title"],
        "url": url,
        "path": None if url == source else source,
        "relative_path": hit.get("relative_path"),
        "status": document_status(hit, str(hit["text"])),
        "doc_id": hit.get("doc_id"),
        "chunk_id": chunk_id,
        "chunk_ids": [chunk_id] if chunk_id else [],
        "chunks": [hit["text"]] if chunk_id else [],
        "sections": [hit["section"]] if hit.get("section") else [],
        "chunk_sections": [str(hit.get("section") or "")] if chunk_id else [],
        "text": hit["text"],
        "published_date": hit.get("published_date"),
        "word_count": int(hit.get("doc_word_count") or hit.get("word_count") or 0),
        "retrieval_score": float(hit.get("score") or 0.0),
    }


def _web(item: dict[str, Any]) -> dict[str, Any]:
    text = str(item.get("content") or "")
    return {
        "title": item.get("title") or item["url"],
        "url": item["url"],
        "text": text,
        "published_date": item.get("published_date"),
        "word_count": len(text.split()),
        "retrieval_score": float(item.get("score") or 0.0),
    }


def _repo(item: dict[str, Any]) -> dict[str, Any]:
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


def _code(item: dict[str, Any]) -> dict[str, Any]:
    text = str(item.get("snippet") or f"{item['repo']}/{item['path']}")
    return {
        "title": f"{item['repo']}: {item['path']}",
        "url": item["html_url"],
        "text": text,
        "word_count": len(text.split()),
        "retrieval_score": float(item.get("score") or 0.0),
    }


_ADAPTERS = {
    "search_documents": _docs,
    "search": _web,
    "search_repositories": _repo,
    "search_code": _code,
}
_KIND = {
    "docs": "docs",
    "web": "web",
    "search_repositories": "github_repo",
    "search_code": "github_code",
}


def _generic(item: dict[str, Any]) -> dict[str, Any]:
    text = next(
        (str(item[k]) for k in ("text", "content", "snippet", "body", "abstract") if item.get(k)),
        "",
    )
    url = item.get("url") or item.get("html_url") or item.get("source_url")
    return {
        "title": str(item.get("title") or item.get("name") or url or "untitled"),
        "url": url,
        "text": text,
        "published_date": item.get("published_date") or item.get("date"),
        "word_count": len(text.split()),
        "retrieval_score": float(item.get("score") or 0.0),
    }


def to_sources(server: str, tool: str, structured: dict[str, Any]) -> list[dict[str, Any]]:
    """Source fields (no id yet) from a tool's structured result; an extra server's items
    are read by the usual field names (title, url, text/content/snippet, date, score)."""
    adapter = _ADAPTERS.get(tool) if server in SEARCH_CALLS else _generic
    if adapter is None:
        return []
    if adapter is _generic:
        items = [i for i in structured.get("results", []) if isinstance(i, dict)]
        return [
            {"server": server, "tool": tool, **_generic(i)} for i in items if _generic(i)["text"]
        ]
    return [
        {"server": server, "tool": tool, **adapter(item)} for item in structured.get("results", [])
    ]


def source_key(fields: dict[str, Any]) -> str:
    """What makes two retrieved passages the same source: the same document (its chunks are
    joined into one source), else the same URL, path or title."""
    return str(fields.get("doc_id") or fields.get("url") or fields.get("path") or fields["title"])


def scored(source: Source, today: Any) -> Source:
    """The source with its quality score and breakdown filled in."""
    kind = _KIND.get(source.tool) or _KIND.get(source.server) or "web"
    result = score_source(
        source.url,
        kind=kind,  # type: ignore[arg-type]
        published=source.published_date,
        word_count=source.word_count,
        now=today,
    )
    reason = result.domain_reason
    final = result.final
    if source.status is not None:
        # A draft, proposal or retired document is not the word on the matter.
        final = round(final * STATUS_FACTOR, 4)
        reason = f"{reason}; marked {source.status} (x{STATUS_FACTOR})"
    source.score = final
    source.score_breakdown = ScoreBreakdown(
        domain=result.domain,
        recency=result.recency,
        depth=result.depth,
        domain_reason=reason,
    )
    return source
