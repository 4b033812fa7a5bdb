"""Result models of the GitHub tools, built from the JSON GitHub sends.

Every item carries ``html_url`` (what a citation points at), the repository it
belongs to and the dates GitHub gives for it.
"""

from __future__ import annotations

import base64
from datetime import datetime
from typing import Any

from pydantic import BaseModel, Field

BODY_EXCERPT_CHARS = 500
_SNIPPET_CHARS = 400


class CodeMatch(BaseModel):
    """A file whose content matched a code search."""

    repo: str = Field(description="Repository as owner/name.")
    path: str = Field(description="Path of the file inside the repository.")
    html_url: str = Field(description="Page of the file on GitHub (at the indexed commit).")
    sha: str = Field(description="Blob SHA of the indexed file.")
    snippet: str | None = Field(
        default=None, description="Text around the match (GitHub's text-match fragment)."
    )
    score: float | None = Field(default=None, description="GitHub's relevance score.")

    @classmethod
    def from_payload(cls, item: dict[str, Any]) -> CodeMatch:
        fragments = [m.get("fragment", "") for m in item.get("text_matches") or []]
        snippet = "\n…\n".join(f for f in fragments if f)[:_SNIPPET_CHARS] or None
        return cls(
            repo=item["repository"]["full_name"],
            path=item["path"],
            html_url=item["html_url"],
            sha=item["sha"],
            snippet=snippet,
            score=item.get("score"),
        )


class CodeSearchResult(BaseModel):
    """What ``search_code`` returns."""

    query: str = Field(description="The query as sent to GitHub, qualifiers included.")
    total_count: int = Field(description="How many files GitHub says match in all.")
    incomplete_results: bool = Field(description="True when GitHub's search timed out early.")
    results: list[CodeMatch]


class IssueItem(BaseModel):
    """An issue or pull request of a repository."""

    repo: str
    number: int
    title: str
    state: str = Field(description="'open' or 'closed'.")
    html_url: str
    body_excerpt: str = Field(description=f"First {BODY_EXCERPT_CHARS} characters of the body.")
    labels: list[str]
    comments: int = Field(description="Number of comments.")
    created_at: datetime
    updated_at: datetime
    is_pull_request: bool = Field(description="GitHub lists pull requests among issues.")

    @classmethod
    def from_payload(cls, repo: str, item: dict[str, Any]) -> IssueItem:
        body = item.get("body") or ""
        excerpt = body if len(body) <= BODY_EXCERPT_CHARS else body[:BODY_EXCERPT_CHARS] + "…"
        return cls(
            repo=repo,
            number=item["number"],
            title=item["title"],
            state=item["state"],
            html_url=item["html_url"],
            body_excerpt=excerpt,
            labels=[label["name"] for label in item.get("labels") or []],
            comments=item.get("comments", 0),
            created_at=item["created_at"],
            updated_at=item["updated_at"],
            is_pull_request="pull_request" in item,
        )


class IssueList(BaseModel):
    """What ``get_issues`` returns."""

    repo: str
    state: str
    results: list[IssueItem]


class RepositoryItem(BaseModel):
    """A repository found by ``search_repositories``."""

    full_name: str = Field(description="owner/name")
    html_url: str
    description: str | None = None
    stars: int
    language: str | None = None
    updated_at: datetime | None = None
    topics: list[str] = Field(default_factory=list)

    @classmethod
    def from_payload(cls, item: dict[str, Any]) -> RepositoryItem:
        return cls(
            full_name=item["full_name"],
            html_url=item["html_url"],
            description=item.get("description"),
            stars=item.get("stargazers_count", 0),
            language=item.get("language"),
            updated_at=item.get("updated_at"),
            topics=item.get("topics") or [],
        )


class RepositorySearchResult(BaseModel):
    """What ``search_repositories`` returns."""

    query: str
    total_count: int
    incomplete_results: bool
    results: list[RepositoryItem]


class FileContent(BaseModel):
    """A file read with ``get_file``."""

    repo: str
    path: str
    ref: str | None = Field(description="Branch, tag or commit asked for (None: default branch).")
    html_url: str
    sha: str = Field(description="Blob SHA of the file.")
    size: int = Field(description="Size of the file in bytes.")
    content: str = Field(description="The file as text (UTF-8), cut to max_chars.")
    truncated: bool = Field(description="True when content is shorter than the file.")
    binary: bool = Field(default=False, description="True when the file is not text.")

    @classmethod
    def from_payload(
        cls, repo: str, ref: str | None, item: dict[str, Any], max_chars: int
    ) -> FileContent:
        raw = b""
        if item.get("encoding") == "base64":
            raw = base64.b64decode(item.get("content") or "")
        size = int(item.get("size", len(raw)))
        # Files over 1 MB come back with encoding "none" and no content.
        missing = len(raw) < size
        binary = b"\x00" in raw[:8192]
        text = "" if binary else raw.decode("utf-8", errors="replace")
        return cls(
            repo=repo,
            path=item["path"],
            ref=ref,
            html_url=item["html_url"],
            sha=item["sha"],
            size=size,
            content=text[:max_chars],
            truncated=missing or binary or len(text) > max_chars,
            binary=binary,
        )
