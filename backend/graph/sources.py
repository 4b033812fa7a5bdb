"""How each server is searched and its results become Sources with provenance: a built-in
source as its module in ``backend/sources`` declares, an extra server through its search-like
tool."""

from __future__ import annotations

import re
from typing import Any

from backend.graph.documents import document_status
from backend.reasoning.models import ScoreBreakdown, Source, SubQuery
from backend.scoring import SourceKind, score_source
from backend.sources import BUILTINS, SearchCall

STATUS_FACTOR = 0.7  # a draft, proposal, deprecated or superseded document counts for less


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
    spec = BUILTINS.get(server)
    if spec is None:
        found = generic_search_tool(tools or [])
        return [(found[0], {found[1]: sub_query.text})] if found else []
    return [
        (
            call.tool,
            {call.query_arg: _fitted(sub_query.text, call.max_query), call.limit_arg: limit},
        )
        for call in spec.searches
    ]


def _fitted(text: str, most: int | None) -> str:
    """The query cut to the tool's limit (GitHub's search takes 256 characters), at a word
    unless that would lose more than half of it."""
    text = text.strip()
    if most is None or len(text) <= most:
        return text
    cut = text[:most]
    if not text[most].isspace() and " " in cut.strip():
        at_word = cut.rsplit(None, 1)[0]
        cut = at_word if len(at_word) >= most // 2 else cut
    return cut.rstrip()


def _call(server: str, tool: str) -> SearchCall | None:
    spec = BUILTINS.get(server)
    return next((c for c in spec.searches if c.tool == tool), None) if spec else None


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
    if server not in BUILTINS:
        items = [i for i in structured.get("results", []) if isinstance(i, dict)]
        return [
            {"server": server, "tool": tool, **_generic(i)} for i in items if _generic(i)["text"]
        ]
    call = _call(server, tool)
    if call is None:
        return []
    found = []
    for item in structured.get("results", []):
        fields = {"server": server, "tool": tool, **call.adapter(item)}
        if call.lifecycle:
            fields["status"] = document_status(item, str(item["text"]))
        found.append(fields)
    return found


def source_key(fields: dict[str, Any]) -> str:
    """What makes two retrieved passages the same source: the same document (its chunks are
    joined into one source), else the same URL, path or title."""
    return str(fields.get("doc_id") or fields.get("url") or fields.get("path") or fields["title"])


def scored(source: Source, today: Any) -> Source:
    """The source with its quality score and breakdown filled in."""
    call = _call(source.server, source.tool)
    kind: SourceKind = call.kind if call else "web"
    result = score_source(
        source.url,
        kind=kind,
        published=source.published_date,
        word_count=source.word_count,
        now=today,
        venue=source.venue,
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
