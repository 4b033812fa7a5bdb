"""The built-in sources, one module each. Adding a source is one server package under
``mcp_servers/`` plus one module here listed in ``BUILTINS`` (docs/architecture.md)."""

from __future__ import annotations

from backend.sources import docs, github, scholarly, searxng, web
from backend.sources.base import SearchCall, SourceSpec

BUILTINS: dict[str, SourceSpec] = {
    spec.name: spec
    for spec in (docs.SOURCE, web.SOURCE, github.SOURCE, scholarly.SOURCE, searxng.SOURCE)
}
"""Every built-in source by name, in the order servers are started and listed."""


def by_rank() -> list[SourceSpec]:
    """The built-in sources in the order a sub-query's sources are listed."""
    return sorted(BUILTINS.values(), key=lambda spec: spec.rank)


def routed(available: list[str], code_question: bool, query: str = "") -> list[str]:
    """The built-in sources among ``available`` a question goes to, in rank order: those
    always searched, those for code when it is about code, those whose topic it is."""
    return [
        spec.name
        for spec in by_rank()
        if spec.name in available and _wants(spec, code_question, query)
    ]


def _wants(spec: SourceSpec, code_question: bool, query: str) -> bool:
    if spec.route == "code":
        return code_question
    if spec.route == "topic":
        return spec.topic is not None and spec.topic(query)
    return True


__all__ = ["BUILTINS", "SearchCall", "SourceSpec", "by_rank", "routed"]
