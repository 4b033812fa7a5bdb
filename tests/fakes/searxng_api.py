"""A local HTTP server answering like a SearXNG instance, so tests run the real client code.

``GET /search?q=…&format=json`` answers SearXNG's JSON (``results`` with ``engines``,
``score``, ``category``, ``publishedDate``; ``suggestions``; ``unresponsive_engines`` as
pairs), honouring ``categories``, ``time_range`` and ``pageno``. With ``json_enabled`` off it
answers 403 as SearXNG does when ``json`` is not in ``search: formats``; without
``format=json`` it answers HTML.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from tests.fakes.api_base import FakeApi, Reply

PAGES: list[dict[str, Any]] = [
    {
        "url": "https://www.python.org/doc/",
        "title": "Python documentation",
        "content": "The official home of the Python   documentation.",
        "engine": "duckduckgo",
        "engines": ["duckduckgo", "brave"],
        "score": 4.0,
        "category": "general",
        "publishedDate": None,
    },
    {
        "url": "https://en.wikipedia.org/wiki/Python_(programming_language)",
        "title": "Python (programming language) - Wikipedia",
        "content": "Python is a high-level, general-purpose programming language.",
        "engine": "wikipedia",
        "engines": ["wikipedia"],
        "score": 2.5,
        "category": "general",
    },
    {
        "url": "https://news.example.com/python-3-14-released",
        "title": "Python 3.14 released",
        "content": "The Python team released version 3.14 today.",
        "engine": "bing news",
        "engines": ["bing news"],
        "score": 1.5,
        "category": "news",
        "publishedDate": "2025-10-07T09:00:00",
    },
    {
        "url": "https://arxiv.org/abs/2401.00001",
        "title": "A study of Python type checkers",
        "content": "We compare mypy, pyright and pytype on open-source code.",
        "engine": "arxiv",
        "engines": ["arxiv"],
        "score": 1.0,
        "category": "science",
        "publishedDate": "2024-01-01T00:00:00",
    },
]
PAGE_SIZE = 3


@dataclass
class FakeSearxng(FakeApi):
    """The fake instance; ``json_enabled`` is its ``search: formats`` holding json."""

    json_enabled: bool = True
    pages: list[dict[str, Any]] = field(default_factory=lambda: [dict(p) for p in PAGES])
    unresponsive: list[list[str]] = field(default_factory=list)
    not_searxng: bool = False
    """Answer every search with an HTML page, as a web server that is not SearXNG would."""

    def search_requests(self) -> list[dict[str, str]]:
        """The query parameters of every GET /search."""
        return [r.query for r in self.requests if r.path == "/search"]

    def forced(self) -> Reply:
        headers = {"Retry-After": self.retry_after} if self.retry_after else {}
        return Reply(self.status, b"Too Many Requests", "text/plain", headers)

    def respond(self, path: str, query: dict[str, str]) -> Reply:
        if path != "/search":
            return Reply(404, b"<html>Not Found</html>", "text/html")
        if query.get("format") != "json" or self.not_searxng:
            return Reply(200, b"<!DOCTYPE html><html>results</html>", "text/html")
        if not self.json_enabled:
            return Reply(403, b"<html>403 Forbidden</html>", "text/html")
        categories = set(filter(None, query.get("categories", "general").split(",")))
        found = [p for p in self.pages if p["category"] in categories]
        if query.get("time_range"):
            found = [p for p in found if p.get("publishedDate")]
        page = int(query.get("pageno", "1"))
        window = found[(page - 1) * PAGE_SIZE : page * PAGE_SIZE]
        body = {
            "query": query.get("q", ""),
            "number_of_results": 0,
            "results": [{**p, "parsed_url": p["url"].split("/"), "positions": [1]} for p in window],
            "answers": [],
            "corrections": [],
            "infoboxes": [],
            "suggestions": [f"{query.get('q', '')} tutorial"],
            "unresponsive_engines": self.unresponsive,
        }
        return Reply(200, json.dumps(body).encode(), "application/json")
