"""What the fake GitHub API holds (repositories, issues, files) and the JSON shapes GitHub uses."""

from __future__ import annotations

import base64
import hashlib
from dataclasses import dataclass, field
from typing import Any

PRIMARY_LIMIT_MESSAGE = (
    "API rate limit exceeded for 127.0.0.1. (But here's the good news: Authenticated "
    "requests get a higher rate limit. Check out the documentation for more details.)"
)
_SEARCH_ERROR = (
    "The listed users and repositories cannot be searched either because the resources "
    "do not exist or you do not have permission to view them."
)


@dataclass
class FakeIssue:
    """An issue (or pull request) as the test describes it."""

    number: int
    title: str
    body: str | None = ""
    state: str = "open"
    labels: list[str] = field(default_factory=list)
    comments: int = 0
    pull_request: bool = False
    created_at: str = "2024-01-01T00:00:00Z"
    updated_at: str = "2024-01-02T00:00:00Z"


@dataclass
class FakeRepo:
    """A repository: files per ref (branch name) and issues."""

    full_name: str
    description: str | None = ""
    language: str | None = "Python"
    stars: int = 0
    topics: list[str] = field(default_factory=list)
    private: bool = False
    default_branch: str = "main"
    files: dict[str, dict[str, str | bytes]] = field(default_factory=lambda: {"main": {}})
    issues: list[FakeIssue] = field(default_factory=list)


def blob_sha(data: bytes) -> str:
    """Git's blob SHA-1, as GitHub reports for files."""
    return hashlib.sha1(b"blob %d\0" % len(data) + data).hexdigest()


def b64_lines(data: bytes) -> str:
    """Base64 with a newline every 60 characters, as the contents API sends it."""
    text = base64.b64encode(data).decode()
    return "\n".join(text[i : i + 60] for i in range(0, len(text), 60)) + "\n"


def _id(name: str) -> int:
    return int(hashlib.sha1(name.encode()).hexdigest()[:8], 16)


def _bytes(data: str | bytes) -> bytes:
    return data.encode() if isinstance(data, str) else data


def error_body(message: str, search_error: bool = False) -> dict[str, Any]:
    body: dict[str, Any] = {
        "message": message,
        "documentation_url": "https://docs.github.com/rest",
    }
    if search_error:
        body["errors"] = [
            {"message": _SEARCH_ERROR, "resource": "Search", "field": "q", "code": "invalid"}
        ]
    return body


def _owner(full_name: str, base: str) -> dict[str, Any]:
    login = full_name.split("/")[0]
    return {
        "login": login,
        "id": _id(login),
        "type": "Organization",
        "url": f"{base}/users/{login}",
        "html_url": f"https://github.com/{login}",
    }


def repo_json(repo: FakeRepo, base: str) -> dict[str, Any]:
    """A repository object (the fields GitHub's full and search shapes share)."""
    return {
        "id": _id(repo.full_name),
        "node_id": f"R_{repo.full_name}",
        "name": repo.full_name.split("/")[1],
        "full_name": repo.full_name,
        "private": repo.private,
        "owner": _owner(repo.full_name, base),
        "html_url": f"https://github.com/{repo.full_name}",
        "description": repo.description,
        "fork": False,
        "url": f"{base}/repos/{repo.full_name}",
        "created_at": "2020-05-01T10:00:00Z",
        "updated_at": "2024-06-01T12:00:00Z",
        "pushed_at": "2024-06-01T12:00:00Z",
        "stargazers_count": repo.stars,
        "watchers_count": repo.stars,
        "forks_count": 0,
        "open_issues_count": sum(i.state == "open" for i in repo.issues),
        "language": repo.language,
        "topics": repo.topics,
        "default_branch": repo.default_branch,
        "visibility": "private" if repo.private else "public",
        "archived": False,
    }


def issue_json(repo: FakeRepo, issue: FakeIssue, base: str) -> dict[str, Any]:
    api = f"{base}/repos/{repo.full_name}"
    kind = "pull" if issue.pull_request else "issues"
    body: dict[str, Any] = {
        "url": f"{api}/issues/{issue.number}",
        "repository_url": api,
        "html_url": f"https://github.com/{repo.full_name}/{kind}/{issue.number}",
        "id": issue.number * 1000,
        "node_id": f"I_{issue.number}",
        "number": issue.number,
        "title": issue.title,
        "user": _owner(repo.full_name, base),
        "labels": [
            {
                "id": i,
                "name": name,
                "color": "ededed",
                "default": False,
                "description": None,
                "url": f"{api}/labels/{name}",
            }
            for i, name in enumerate(issue.labels)
        ],
        "state": issue.state,
        "locked": False,
        "assignee": None,
        "assignees": [],
        "comments": issue.comments,
        "created_at": issue.created_at,
        "updated_at": issue.updated_at,
        "closed_at": issue.updated_at if issue.state == "closed" else None,
        "author_association": "MEMBER",
        "body": issue.body,
    }
    if issue.pull_request:
        body["pull_request"] = {
            "url": f"{api}/pulls/{issue.number}",
            "html_url": body["html_url"],
            "diff_url": f"{body['html_url']}.diff",
            "patch_url": f"{body['html_url']}.patch",
        }
    return body


def content_entry(
    repo: FakeRepo, ref: str, path: str, data: str | bytes | None, base: str, full: bool = False
) -> dict[str, Any]:
    """A contents-API entry; ``data`` None is a directory; ``full`` adds the encoded content."""
    raw = _bytes(data) if data is not None else b""
    kind = "dir" if data is None else "file"
    sha = blob_sha(raw) if data is not None else hashlib.sha1(path.encode()).hexdigest()
    url = f"{base}/repos/{repo.full_name}/contents/{path}?ref={ref}"
    html = f"https://github.com/{repo.full_name}/{'tree' if data is None else 'blob'}/{ref}/{path}"
    entry: dict[str, Any] = {
        "type": kind,
        "name": path.rsplit("/", 1)[-1],
        "path": path,
        "sha": sha,
        "size": len(raw),
        "url": url,
        "html_url": html,
        "git_url": f"{base}/repos/{repo.full_name}/git/blobs/{sha}",
        "download_url": None if data is None else f"https://raw.example/{repo.full_name}/{path}",
        "_links": {
            "self": url,
            "git": f"{base}/repos/{repo.full_name}/git/blobs/{sha}",
            "html": html,
        },
    }
    if full:
        entry.update({"encoding": "base64", "content": b64_lines(raw)})
    return entry


def code_item(
    repo: FakeRepo, path: str, data: str | bytes, terms: list[str], base: str, highlight: bool
) -> dict[str, Any]:
    """A code-search hit; with ``highlight`` it carries GitHub's text_matches."""
    text = _bytes(data).decode(errors="replace")
    sha = blob_sha(_bytes(data))
    item: dict[str, Any] = {
        "name": path.rsplit("/", 1)[-1],
        "path": path,
        "sha": sha,
        "url": f"{base}/repos/{repo.full_name}/contents/{path}?ref={sha}",
        "git_url": f"{base}/repos/{repo.full_name}/git/blobs/{sha}",
        "html_url": f"https://github.com/{repo.full_name}/blob/{sha}/{path}",
        "repository": repo_json(repo, base),
        "score": 1.0,
    }
    if highlight:
        line = next(ln for ln in text.splitlines() if terms[0].lower() in ln.lower())
        start = line.lower().index(terms[0].lower())
        item["text_matches"] = [
            {
                "object_url": item["url"],
                "object_type": "FileContent",
                "property": "content",
                "fragment": line,
                "matches": [{"text": terms[0], "indices": [start, start + len(terms[0])]}],
            }
        ]
    return item


SAMPLE_TOKEN = "ghp_test_0123456789abcdefSECRET"


def sample_repos() -> list[FakeRepo]:
    """Three repositories: a public one with files and issues, a Rust one, a private one."""
    widgets = FakeRepo(
        "octo/widgets",
        description="A widget toolkit",
        stars=420,
        topics=["ui", "widgets"],
        files={
            "main": {
                "README.md": "# Widgets\n\nCall make_widget() to start.\n",
                "src/widgets/core.py": "def make_widget(size):\n    return {'size': size}\n",
                "logo.png": b"\x89PNG\r\n\x1a\n\x00\x00binary",
            },
            "v1": {"README.md": "# Widgets v1\n"},
        },
        issues=[
            FakeIssue(1, "Crash on resize", body="x" * 900, labels=["bug"], comments=3),
            FakeIssue(2, "Add dark theme", labels=["enhancement"], pull_request=True),
            FakeIssue(3, "Old bug", state="closed", labels=["bug", "wontfix"]),
        ],
    )
    gadgets = FakeRepo(
        "octo/gadgets",
        description="Gadgets, not widgets",
        stars=7,
        language="Rust",
        files={"main": {"lib.rs": "fn make_widget() {}\n"}},
    )
    secret = FakeRepo("octo/secret", private=True, files={"main": {"plan.md": "hidden\n"}})
    return [widgets, gadgets, secret]
