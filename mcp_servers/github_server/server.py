"""The GitHub MCP server: code search, issues, repository search and file reads.

Every tool is read-only and makes one request to the GitHub REST API (lists ask
for a single page of ``limit`` items), plus bounded retries on 5xx. Failures come
back as ToolErrors with a hint; a rate limit is reported at once, never waited out.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastmcp import FastMCP
from fastmcp.exceptions import ToolError
from mcp.types import ToolAnnotations
from pydantic import Field

from mcp_servers.common.logging import ToolCallLogMiddleware
from mcp_servers.github_server.client import build_github, payload
from mcp_servers.github_server.errors import (
    GitHubFailure,
    to_tool_error,
    validate_path,
    validate_ref,
    validate_repo,
)
from mcp_servers.github_server.models import (
    CodeMatch,
    CodeSearchResult,
    FileContent,
    IssueItem,
    IssueList,
    RepositoryItem,
    RepositorySearchResult,
)
from mcp_servers.github_server.settings import GithubSettings

INSTRUCTIONS = """\
Read-only access to GitHub: search code and repositories, list a repository's
issues, read a file. Repositories are named 'owner/name'. Every result carries
html_url for citation. Without GITHUB_TOKEN, code search is unavailable and the
quota is 60 requests/hour; errors say when a limit is hit and when it resets."""

_READ_ONLY = ToolAnnotations(readOnlyHint=True, openWorldHint=True, idempotentHint=True)

RepoArg = Annotated[
    str,
    Field(max_length=140, description="Repository as 'owner/name', e.g. 'langchain-ai/langgraph'."),
]


def create_server(settings: GithubSettings | None = None) -> FastMCP:
    """Build the server; nothing touches the network until a tool is called."""
    settings = settings or GithubSettings()
    mcp = FastMCP("github", instructions=INSTRUCTIONS)
    mcp.add_middleware(
        ToolCallLogMiddleware(
            "github", settings.secrets(), settings.log_level, settings.server_log_dir
        )
    )

    @mcp.tool(annotations=_READ_ONLY)
    def search_code(
        query: Annotated[
            str, Field(min_length=1, max_length=256, description="Words to find in code.")
        ],
        repo: Annotated[
            str | None, Field(max_length=140, description="Only this repository ('owner/name').")
        ] = None,
        language: Annotated[
            str | None,
            Field(max_length=40, pattern=r"^[\w+#.-]+$", description="e.g. 'python'."),
        ] = None,
        limit: Annotated[int, Field(ge=1, le=50, description="Most files to return.")] = 10,
    ) -> CodeSearchResult:
        """Search code on GitHub; each result names the file, links to it and shows the match.

        GitHub's code search needs GITHUB_TOKEN. Narrow it with ``repo`` or ``language``.
        """
        qualifiers: dict[str, str] = {}
        if repo is not None:
            qualifiers["repo"] = validate_repo(repo)
        if language:
            qualifiers["language"] = language
        try:
            with build_github(settings, per_page=limit) as gh:
                found = gh.search_code(query, highlight=True, **qualifiers)
                items = found.get_page(0)[:limit]
                total, incomplete = found.totalCount, bool(found.incomplete_results)
        except GitHubFailure as exc:
            raise to_tool_error(exc, settings, "the code search") from exc
        return CodeSearchResult(
            query=" ".join([query, *(f"{k}:{v}" for k, v in qualifiers.items())]),
            total_count=total,
            incomplete_results=incomplete,
            results=[CodeMatch.from_payload(payload(item)) for item in items],
        )

    @mcp.tool(annotations=_READ_ONLY)
    def get_issues(
        repo: RepoArg,
        state: Annotated[
            Literal["open", "closed", "all"], Field(description="Which issues to list.")
        ] = "open",
        limit: Annotated[int, Field(ge=1, le=100, description="Most issues to return.")] = 20,
        labels: Annotated[
            list[Annotated[str, Field(min_length=1, max_length=50)]] | None,
            Field(max_length=10, description="Only issues carrying all these labels."),
        ] = None,
    ) -> IssueList:
        """List a repository's issues (and pull requests, flagged), most recent first."""
        name = validate_repo(repo)
        filters: dict[str, Any] = {"state": state}
        if labels:
            filters["labels"] = labels
        try:
            with build_github(settings, per_page=limit) as gh:
                issues = gh.get_repo(name).get_issues(**filters).get_page(0)[:limit]
                results = [IssueItem.from_payload(name, payload(i)) for i in issues]
        except GitHubFailure as exc:
            raise to_tool_error(exc, settings, f"repository '{name}'") from exc
        return IssueList(repo=name, state=state, results=results)

    @mcp.tool(annotations=_READ_ONLY)
    def search_repositories(
        query: Annotated[
            str,
            Field(
                min_length=1,
                max_length=256,
                description="Words and qualifiers, e.g. 'vector database language:rust'.",
            ),
        ],
        limit: Annotated[int, Field(ge=1, le=50, description="Most repositories.")] = 10,
    ) -> RepositorySearchResult:
        """Search GitHub repositories, best match first."""
        try:
            with build_github(settings, per_page=limit) as gh:
                found = gh.search_repositories(query)
                items = found.get_page(0)[:limit]
                total, incomplete = found.totalCount, bool(found.incomplete_results)
        except GitHubFailure as exc:
            raise to_tool_error(exc, settings, "the repository search") from exc
        return RepositorySearchResult(
            query=query,
            total_count=total,
            incomplete_results=incomplete,
            results=[RepositoryItem.from_payload(payload(item)) for item in items],
        )

    @mcp.tool(annotations=_READ_ONLY)
    def get_file(
        repo: RepoArg,
        path: Annotated[
            str, Field(min_length=1, max_length=1000, description="File path, e.g. 'README.md'.")
        ],
        ref: Annotated[
            str | None,
            Field(max_length=250, description="Branch, tag or commit; default branch if unset."),
        ] = None,
        max_chars: Annotated[
            int, Field(ge=100, le=200_000, description="Longest content returned.")
        ] = 20_000,
    ) -> FileContent:
        """Read one text file from a repository (decoded, cut to ``max_chars``)."""
        name = validate_repo(repo)
        clean_path = validate_path(path)
        ref = validate_ref(ref) if ref is not None else None
        what = f"file '{clean_path}' in '{name}'" + (f" at '{ref}'" if ref else "")
        try:
            with build_github(settings) as gh:
                repository = gh.get_repo(name)
                found = (
                    repository.get_contents(clean_path, ref=ref)
                    if ref
                    else repository.get_contents(clean_path)
                )
        except GitHubFailure as exc:
            raise to_tool_error(exc, settings, what) from exc
        if isinstance(found, list):
            entries = ", ".join(sorted(payload(entry)["name"] for entry in found)[:30])
            raise ToolError(f"'{clean_path}' in '{name}' is a directory; it holds: {entries}")
        return FileContent.from_payload(name, ref, payload(found), max_chars)

    return mcp
