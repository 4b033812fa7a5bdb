"""Turning GitHub failures into ToolErrors a caller can act on, with no secret inside."""

from __future__ import annotations

import re
from collections.abc import Mapping
from datetime import UTC, datetime
from typing import Any

import requests
from fastmcp.exceptions import ToolError
from github.GithubException import GithubException

from marsa_common.secrets import scrub
from mcp_servers.github_server.client import request_timeout
from mcp_servers.github_server.settings import GithubSettings

# GitHub owner: letters, digits, hyphens; repository: letters, digits, '.', '_', '-'.
_REPO_RE = re.compile(r"^[A-Za-z0-9](?:[A-Za-z0-9-]{0,38})/[A-Za-z0-9._-]{1,100}$")
_NO_TOKEN_LIMITS = (
    "unauthenticated requests are limited to 60/hour (10/min for search); set GITHUB_TOKEN"
)


def validate_repo(repo: str) -> str:
    """Return ``repo`` stripped, or raise a ToolError naming the expected form."""
    value = repo.strip()
    if not _REPO_RE.match(value) or value.split("/")[1] in {".", ".."}:
        raise ToolError(
            f"malformed repository name {repo!r}: expected 'owner/name', "
            "e.g. 'langchain-ai/langgraph'"
        )
    return value


_CONTROL = re.compile(r"[\x00-\x1f\x7f]")
# What git refuses in a ref name (git check-ref-format), '?' among them.
_REF_FORBIDDEN = re.compile(r"[\x00-\x20\x7f~^:?*\[\\]|\.\.|@\{|//|/\.|\.lock(?:/|$)")


def validate_path(path: str) -> str:
    """A file path in a repository, checked so that it names a file under the repository's
    contents and nothing else: ``..`` would let a caller aim the token at any GitHub endpoint
    (``../../../../user``). Returns it without surrounding spaces or trailing slashes; the
    client URL-encodes each segment."""
    value = path.strip().rstrip("/")
    problem = None
    if not value:
        problem = "it is empty"
    elif value.startswith("/"):
        problem = "it is absolute; give it from the repository's root, e.g. 'docs/intro.md'"
    elif _CONTROL.search(value):
        problem = "it holds a control character"
    elif "\\" in value:
        problem = "it holds a backslash; separate folders with '/'"
    elif "?" in value or "#" in value:
        problem = "it holds '?' or '#'; give the path alone, and a branch or tag in ref"
    elif any(segment in ("", ".", "..") for segment in value.split("/")):
        problem = "it has an empty, '.' or '..' segment; give the path from the repository's root"
    if problem:
        raise ToolError(f"invalid file path {path!r}: {problem}")
    return value


def validate_ref(ref: str) -> str:
    """A branch, tag or commit as git allows it (git check-ref-format), stripped."""
    value = ref.strip()
    if (
        not value
        or _REF_FORBIDDEN.search(value)
        or value.startswith(("/", "-", "."))
        or value.endswith(("/", "."))
        or value == "@"
    ):
        raise ToolError(
            f"invalid ref {ref!r}: give a branch, tag or commit SHA, e.g. 'main' or 'v1.2.0'"
        )
    return value


def _header(headers: Mapping[str, Any] | None, name: str) -> str | None:
    if not headers:
        return None
    for key, value in headers.items():
        if key.lower() == name.lower():
            return str(value)
    return None


def _github_message(exc: GithubException) -> str:
    data = exc.data if isinstance(exc.data, dict) else {}
    message = str(data.get("message") or exc.message or "").strip()
    details = [
        str(e.get("message") or e.get("code"))
        for e in data.get("errors") or []
        if isinstance(e, dict) and (e.get("message") or e.get("code"))
    ]
    return "; ".join([message, *details]) if details else message


def _reset_phrase(headers: Mapping[str, Any] | None) -> str:
    reset = _header(headers, "X-RateLimit-Reset")
    if not reset or not reset.split(".")[0].isdigit():
        return "the reset time was not given"
    at = datetime.fromtimestamp(int(reset.split(".")[0]), UTC)
    minutes = max(0, round((at - datetime.now(UTC)).total_seconds() / 60))
    return f"it resets at {at.isoformat(timespec='seconds')} (in about {minutes} min)"


def _rate_limit_error(exc: GithubException, settings: GithubSettings) -> str | None:
    """A message when ``exc`` is a primary or secondary rate limit, else None."""
    remaining = _header(exc.headers, "X-RateLimit-Remaining")
    retry_after = _header(exc.headers, "Retry-After")
    message = _github_message(exc).lower()
    secondary = "secondary rate limit" in message or retry_after is not None
    if remaining != "0" and not secondary and exc.status != 429:
        return None
    if remaining == "0":
        text = f"GitHub rate limit hit ({exc.status}); {_reset_phrase(exc.headers)}"
    else:
        wait = f"retry after {retry_after} s" if retry_after else "wait a minute"
        text = f"GitHub secondary rate limit hit ({exc.status}); {wait}"
    hint = (
        _NO_TOKEN_LIMITS
        if settings.github_token is None
        else "the token's quota is used up until then"
    )
    return f"{text}; not waiting for it: {hint}"


def _message_for_status(exc: GithubException, settings: GithubSettings, what: str) -> str:
    status = exc.status
    detail = _github_message(exc)
    has_token = settings.github_token is not None
    if status == 401:
        if has_token:
            return (
                f"GITHUB_TOKEN was rejected by GitHub (401: {detail}); "
                "check that it is valid and unexpired"
            )
        return f"GitHub requires authentication for this request (401: {detail}); set GITHUB_TOKEN"
    if status in (403, 429) and (limited := _rate_limit_error(exc, settings)):
        return limited
    if status == 403:
        access = "the token lacks access to it" if has_token else "set GITHUB_TOKEN"
        return f"GitHub refused access to {what} (403: {detail}); {access}"
    if status == 404:
        need = "a token with access is needed" if not has_token else "the token may lack access"
        return f"{what} not found, or it is private ({need}); GitHub said: {detail or 'Not Found'}"
    if status == 422:
        return (
            f"GitHub could not process the request for {what} (422: {detail}); check the query "
            "and its qualifiers (repo:owner/name must exist and be visible)"
        )
    if status >= 500:
        return (
            f"GitHub answered {status} for {what} after {settings.github_retries} retries; "
            "it may be having trouble, try again later"
        )
    return f"GitHub answered {status} for {what}: {detail}"


GitHubFailure = (GithubException, requests.RequestException)
"""What a PyGithub call raises when GitHub answers with an error or does not answer."""


def to_tool_error(
    exc: GithubException | requests.RequestException, settings: GithubSettings, what: str
) -> ToolError:
    """A ToolError for a failed GitHub call about ``what`` (e.g. "repository 'a/b'")."""
    if isinstance(exc, GithubException):
        text = _message_for_status(exc, settings, what)
    elif isinstance(exc, requests.Timeout) or "timed out" in str(exc).lower():
        text = (
            f"GitHub did not answer within {request_timeout(settings)}s "
            f"(after {settings.github_retries} retries) at {settings.github_base_url}; try again"
        )
    else:
        text = (
            f"could not reach GitHub at {settings.github_base_url} "
            f"({type(exc).__name__}); check MARSA_GITHUB_BASE_URL and the network"
        )
    return ToolError(scrub(text, settings.secrets()))
