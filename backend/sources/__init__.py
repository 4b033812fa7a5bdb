"""The built-in sources, one module each. Adding a source is one server package under
``mcp_servers/`` plus one module here listed in ``BUILTINS`` (docs/architecture.md)."""

from __future__ import annotations

from backend.sources import docs, github, web
from backend.sources.base import SearchCall, SourceSpec

BUILTINS: dict[str, SourceSpec] = {
    spec.name: spec for spec in (docs.SOURCE, web.SOURCE, github.SOURCE)
}
"""Every built-in source by name, in the order servers are started and listed."""


def by_rank() -> list[SourceSpec]:
    """The built-in sources in the order a sub-query's sources are listed."""
    return sorted(BUILTINS.values(), key=lambda spec: spec.rank)


def routed(available: list[str], code_question: bool) -> list[str]:
    """The built-in sources among ``available`` a question goes to, in rank order."""
    return [
        spec.name
        for spec in by_rank()
        if spec.name in available and (spec.route == "always" or code_question)
    ]


__all__ = ["BUILTINS", "SearchCall", "SourceSpec", "by_rank", "routed"]
