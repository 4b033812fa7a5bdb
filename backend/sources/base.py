"""What a built-in source declares: how its server starts or is reached, what it is given,
how it is searched and its results read, how they are scored, where the planners route, and
the sentence the prompts use. The registry, the researcher, the planners and the prompts read
these declarations and nothing else about a source."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal

from backend.scoring import SourceKind

Adapter = Callable[[dict[str, Any]], dict[str, Any]]
"""One result item of a search tool -> Source fields (title, url, text, dates, scores…)."""


@dataclass(frozen=True)
class SearchCall:
    """One tool the researcher calls for a sub-query, and how its results are read."""

    tool: str
    adapter: Adapter
    kind: SourceKind
    """How ``backend.scoring`` scores the results (its kinds: web, docs, github_…)."""
    query_arg: str = "query"
    limit_arg: str = "limit"
    lifecycle: bool = False
    """Results carry a document's lifecycle metadata (draft, deprecated, superseded…)."""
    max_query: int | None = None
    """The longest query the tool accepts (characters); a longer sub-query is cut at a word."""


@dataclass(frozen=True)
class SourceSpec:
    """One built-in source and its MCP server."""

    name: str
    """Short name used everywhere: sub-query routing, ``--sources``, traces, results."""
    module: str
    """The server's package: started over stdio as ``python -m <module>``."""
    port: int
    """Its default port with ``--transport http``."""
    description: str
    url_setting: str
    """The backend setting holding its streamable-HTTP URL; unset: started over stdio."""
    settings: tuple[str, ...]
    """The server's own settings (its settings class's fields): a stdio server is given
    these variables and no other (``registry.server_env``)."""
    searches: tuple[SearchCall, ...]
    route: Literal["always", "code", "topic"]
    """Where the planners send a question: ``always``, only a question about code, or only
    one ``topic`` says is this source's."""
    rank: int
    """Order among the sources a sub-query goes to (lower first)."""
    prompt: str
    """What the source is, for the LLM planner: ``name = …``."""
    prompt_route: str
    """The routing sentence the LLM planner is given for it."""
    topic: Callable[[str], bool] | None = None
    """For ``route="topic"``: whether a question is of this source's kind."""
    required: str | None = None
    """A setting without which the server is not started (it would refuse every call)."""
    missing_required: str = ""
    """The reason given when ``required`` is unset."""
    optional: str | None = None
    """A setting that only widens what the server can do."""
    missing_optional: str = ""
    """The note given when ``optional`` is unset."""
    health_unset: str = ""
    """What ``marsa servers`` says when ``required`` or ``optional`` is unset."""
    health_set: str = ""
    """What it says when ``optional`` is set."""
    health_call: tuple[str, dict[str, Any]] | None = None
    """A cheap call ``marsa servers`` makes to say how the server stands."""
    health_note: Callable[[dict[str, Any]], str] | None = None
    """What ``health_call``'s structured result says, in a few words."""
    probes: tuple[tuple[str, str], ...] = ()
    """The outside APIs the server depends on, as (the setting holding the API's base URL, a
    cheap path to GET): health asks each whether it answers (``mcp_client.reachability``)."""
