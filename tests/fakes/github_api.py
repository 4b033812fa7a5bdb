"""A local HTTP server speaking the parts of the GitHub REST API the GitHub MCP server uses.

It runs in a background thread on 127.0.0.1 so the real PyGithub talks to it:
JSON shapes, status codes and headers (X-RateLimit-*, Link pagination) follow
GitHub's. Knobs force failures (401, 404, rate limits, 5xx, a stalled answer),
and every request is logged.
"""

from __future__ import annotations

import json
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qs, unquote, urlencode, urlsplit

from tests.fakes.github_data import (
    PRIMARY_LIMIT_MESSAGE,
    SAMPLE_TOKEN,
    FakeRepo,
    code_item,
    content_entry,
    error_body,
    issue_json,
    repo_json,
    sample_repos,
)
from tests.fakes.loopback import close, serve


@dataclass
class Recorded:
    """One request the fake received."""

    method: str
    path: str
    query: dict[str, str]
    headers: dict[str, str]


@dataclass
class Failure:
    """A forced answer: ``status`` for the next ``times`` requests (None: all)."""

    status: int
    times: int | None = None
    retry_after: int | None = None


@dataclass
class FakeGitHub:
    """The fake API: repositories, a token it accepts, knobs and a request log."""

    token: str | None = None
    repos: dict[str, FakeRepo] = field(default_factory=dict)
    requests: list[Recorded] = field(default_factory=list)
    rate_remaining: int = 5000
    failure: Failure | None = None
    echo_auth_in_errors: bool = False
    stalled: threading.Event = field(default_factory=threading.Event)
    _release: threading.Event = field(default_factory=threading.Event)
    _server: ThreadingHTTPServer | None = None

    @property
    def url(self) -> str:
        assert self._server is not None, "start() the fake first"
        return f"http://127.0.0.1:{self._server.server_address[1]}"

    def add_repo(self, repo: FakeRepo) -> FakeRepo:
        self.repos[repo.full_name] = repo
        return repo

    def fail_with(self, status: int, times: int | None = None, retry_after: int | None = None):
        self.failure = Failure(status, times, retry_after)

    def stall(self) -> None:
        """Hold every answer until stop(): for timeouts."""
        self.stalled.set()

    def start(self) -> FakeGitHub:
        self._server = serve(_handler_for(self))
        return self

    def stop(self) -> None:
        self._release.set()
        close(self._server)

    # --- answering -------------------------------------------------------

    def answer(self, rec: Recorded) -> tuple[int, Any, dict[str, str]]:
        if self.stalled.is_set():
            self._release.wait(timeout=60)
        auth = rec.headers.get("authorization", "")
        presented = auth.split(" ", 1)[1] if " " in auth else None
        if presented is not None and presented != self.token:
            echo = f" (got {auth})" if self.echo_auth_in_errors else ""
            return 401, error_body(f"Bad credentials{echo}"), {}
        authed = presented is not None
        headers = self._rate_headers(rec, authed)
        if self.failure is not None and self.failure.times != 0:
            if self.failure.times is not None:
                self.failure.times -= 1
            return self._forced(self.failure, headers)
        if self.rate_remaining <= 0:
            headers.update({"X-RateLimit-Remaining": "0", "X-RateLimit-Reset": _reset()})
            return 403, error_body(PRIMARY_LIMIT_MESSAGE), headers
        self.rate_remaining -= 1
        headers["X-RateLimit-Remaining"] = str(self.rate_remaining)
        status, body, extra = self._route(rec, authed)
        return status, body, {**headers, **extra}

    def _rate_headers(self, rec: Recorded, authed: bool) -> dict[str, str]:
        search = rec.path.startswith("/search/")
        limit = (30 if authed else 10) if search else (5000 if authed else 60)
        return {
            "X-RateLimit-Limit": str(limit),
            "X-RateLimit-Reset": _reset(),
            "X-RateLimit-Resource": "search" if search else "core",
        }

    def _forced(self, failure: Failure, headers: dict[str, str]) -> tuple[int, Any, dict]:
        if failure.retry_after is not None:
            headers["Retry-After"] = str(failure.retry_after)
            message = "You have exceeded a secondary rate limit. Please wait a few minutes."
            return failure.status, error_body(message), headers
        if failure.status == 403:
            headers.update({"X-RateLimit-Remaining": "0", "X-RateLimit-Reset": _reset()})
            return 403, error_body(PRIMARY_LIMIT_MESSAGE), headers
        messages = {401: "Bad credentials", 404: "Not Found", 422: "Validation Failed"}
        return failure.status, error_body(messages.get(failure.status, "Server Error")), headers

    def _visible(self, name: str, authed: bool) -> FakeRepo | None:
        repo = self.repos.get(name)
        return repo if repo is not None and (authed or not repo.private) else None

    def _route(self, rec: Recorded, authed: bool) -> tuple[int, Any, dict[str, str]]:
        parts = [unquote(p) for p in rec.path.strip("/").split("/")]
        if parts[:2] == ["search", "code"]:
            return self._search_code(rec, authed)
        if parts[:2] == ["search", "repositories"]:
            return self._search_repos(rec, authed)
        if len(parts) >= 3 and parts[0] == "repos":
            repo = self._visible(f"{parts[1]}/{parts[2]}", authed)
            if repo is None:
                return 404, error_body("Not Found"), {}
            if len(parts) == 3:
                return 200, repo_json(repo, self.url), {}
            if parts[3] == "issues" and len(parts) == 4:
                return self._issues(rec, repo)
            if parts[3] == "contents":
                return self._contents(rec, repo, "/".join(parts[4:]))
        return 404, error_body("Not Found"), {}

    def _search_code(self, rec: Recorded, authed: bool) -> tuple[int, Any, dict[str, str]]:
        if not authed:
            return 401, error_body("Requires authentication"), {}
        terms, qualifiers = _parse_query(rec.query.get("q", ""))
        wanted = qualifiers.get("repo")
        if not terms or (wanted is not None and self._visible(wanted, authed) is None):
            return 422, error_body("Validation Failed", search_error=True), {}
        repos = [r for r in self.repos.values() if wanted in (None, r.full_name)]
        highlight = "text-match" in rec.headers.get("accept", "")
        items = [
            code_item(repo, path, text, terms, self.url, highlight)
            for repo in repos
            for path, text in sorted(_texts(repo).items())
            if all(t.lower() in text.lower() for t in terms)
            and qualifiers.get("language", repo.language or "").lower()
            == (repo.language or "").lower()
        ]
        return self._search_page(rec, items)

    def _search_repos(self, rec: Recorded, authed: bool) -> tuple[int, Any, dict[str, str]]:
        terms, _ = _parse_query(rec.query.get("q", ""))
        if not terms:
            return 422, error_body("Validation Failed", search_error=True), {}
        found = [
            r
            for r in self.repos.values()
            if (authed or not r.private)
            and all(
                t.lower() in f"{r.full_name} {r.description} {' '.join(r.topics)}".lower()
                for t in terms
            )
        ]
        found.sort(key=lambda r: -r.stars)
        items = [{**repo_json(r, self.url), "score": 1.0} for r in found]
        return self._search_page(rec, items)

    def _search_page(self, rec: Recorded, items: list[dict]) -> tuple[int, Any, dict[str, str]]:
        page, link = self._page(rec, items)
        body = {"total_count": len(items), "incomplete_results": False, "items": page}
        return 200, body, link

    def _issues(self, rec: Recorded, repo: FakeRepo) -> tuple[int, Any, dict[str, str]]:
        state = rec.query.get("state", "open")
        wanted = [x for x in rec.query.get("labels", "").split(",") if x]
        issues = [
            i
            for i in sorted(repo.issues, key=lambda i: -i.number)
            if state in ("all", i.state) and all(w in i.labels for w in wanted)
        ]
        page, link = self._page(rec, [issue_json(repo, i, self.url) for i in issues])
        return 200, page, link

    def _contents(self, rec: Recorded, repo: FakeRepo, path: str) -> tuple[int, Any, dict]:
        ref = rec.query.get("ref", repo.default_branch)
        files = repo.files.get(ref)
        if files is None:
            return 404, error_body(f"No commit found for the ref {ref}"), {}
        if path in files:
            return 200, content_entry(repo, ref, path, files[path], self.url, full=True), {}
        prefix = f"{path}/" if path else ""
        children = {p[len(prefix) :].split("/")[0] for p in files if p.startswith(prefix)}
        if not children:
            return 404, error_body("Not Found"), {}
        listing = [
            content_entry(repo, ref, f"{prefix}{c}", files.get(f"{prefix}{c}"), self.url)
            for c in sorted(children)
        ]
        return 200, listing, {}

    def _page(self, rec: Recorded, items: list[dict]) -> tuple[list[dict], dict[str, str]]:
        per_page = min(int(rec.query.get("per_page", 30)), 100)
        number = int(rec.query.get("page", 1))
        last = max(1, -(-len(items) // per_page))
        links = []
        for rel, target in (("next", number + 1), ("last", last)):
            if number < last:
                query = urlencode({**rec.query, "page": target})
                links.append(f'<{self.url}{rec.path}?{query}>; rel="{rel}"')
        start = (number - 1) * per_page
        return items[start : start + per_page], ({"Link": ", ".join(links)} if links else {})


def _texts(repo: FakeRepo) -> dict[str, str]:
    """The default branch's text files (code search skips binary ones)."""
    files = repo.files[repo.default_branch]
    return {p: d for p, d in files.items() if isinstance(d, str)}


def _reset() -> str:
    return str(int(time.time()) + 3600)


def _parse_query(q: str) -> tuple[list[str], dict[str, str]]:
    terms, qualifiers = [], {}
    for word in q.split():
        key, sep, value = word.partition(":")
        if sep and key in {"repo", "language", "user", "org", "in", "path"}:
            qualifiers[key] = value
        else:
            terms.append(word)
    return terms, qualifiers


def _handler_for(fake: FakeGitHub) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def do_GET(self) -> None:  # noqa: N802 (http.server's naming)
            split = urlsplit(self.path)
            query = {k: v[-1] for k, v in parse_qs(split.query).items()}
            headers = {k.lower(): v for k, v in self.headers.items()}
            rec = Recorded("GET", split.path, query, headers)
            fake.requests.append(rec)
            status, body, extra = fake.answer(rec)
            data = json.dumps(body).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json; charset=utf-8")
            self.send_header("Content-Length", str(len(data)))
            for key, value in extra.items():
                self.send_header(key, value)
            self.end_headers()
            self.wfile.write(data)

        def log_message(self, format: str, *args: Any) -> None:
            """Silence the per-request line on stderr."""

    return Handler


def sample_github(token: str | None = SAMPLE_TOKEN) -> FakeGitHub:
    """A started fake holding ``sample_repos()`` and accepting ``token``."""
    fake = FakeGitHub(token=token).start()
    for repo in sample_repos():
        fake.add_repo(repo)
    return fake
