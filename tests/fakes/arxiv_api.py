"""A local HTTP server answering like arXiv's query API (Atom 1.0 with the arxiv: and
opensearch: extensions), so tests run the real client code.

``GET /api/query`` takes ``search_query`` (``all:word`` terms joined by AND, and a
``submittedDate:[… TO …]`` range), ``id_list``, ``start`` and ``max_results``. A malformed id
gets arXiv's 400 feed whose one entry is titled "Error"; an unknown id an empty feed.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from html import escape

from tests.fakes.api_base import FakeApi, Reply


@dataclass
class Entry:
    """One arXiv paper."""

    id: str
    """With its version, e.g. '2005.11401v4'."""
    title: str
    summary: str
    published: str
    authors: tuple[str, ...]
    doi: str | None = None
    journal_ref: str | None = None


ENTRIES = [
    Entry(
        "2005.11401v4",
        "Retrieval-Augmented Generation for\n  Knowledge-Intensive NLP Tasks",
        "Large pre-trained language models store factual knowledge in their parameters.",
        "2020-05-22T17:26:28Z",
        ("Patrick Lewis", "Ethan Perez", "Aleksandra Piktus"),
        journal_ref="NeurIPS 2020",
    ),
    Entry(
        "2004.04906v3",
        "Dense Passage Retrieval for Open-Domain Question Answering",
        "Open-domain question answering relies on efficient passage retrieval.",
        "2020-04-10T17:53:30Z",
        ("Vladimir Karpukhin", "Barlas Oguz"),
        doi="10.18653/v1/2020.emnlp-main.550",
    ),
    Entry(
        "2312.10997v5",
        "Retrieval-Augmented Generation for Large Language Models: A Survey",
        "Retrieval-augmented generation gives large language models external knowledge.",
        "2023-12-18T07:47:33Z",
        ("Yunfan Gao", "Yun Xiong"),
    ),
    Entry(
        "hep-th/9711200v3",
        "The Large N Limit of Superconformal Field Theories and Supergravity",
        "We show that the large N limit of certain conformal field theories is supergravity.",
        "1997-11-27T17:51:49Z",
        ("Juan M. Maldacena",),
    ),
]

_NEW_ID = re.compile(r"^\d{4}\.\d{4,5}(v\d+)?$")
_OLD_ID = re.compile(r"^[a-z-]+(\.[A-Z]{2})?/\d{7}(v\d+)?$")
_DATES = re.compile(r"submittedDate:\[(\d{8})\d{4} TO (\d{8})\d{4}\]")


def _entry_xml(entry: Entry) -> str:
    authors = "".join(f"<author><name>{escape(a)}</name></author>" for a in entry.authors)
    extras = ""
    if entry.doi:
        extras += f"<arxiv:doi>{escape(entry.doi)}</arxiv:doi>"
    if entry.journal_ref:
        extras += f"<arxiv:journal_ref>{escape(entry.journal_ref)}</arxiv:journal_ref>"
    return (
        f"<entry><id>http://arxiv.org/abs/{entry.id}</id>"
        f"<updated>{entry.published}</updated><published>{entry.published}</published>"
        f"<title>{escape(entry.title)}</title><summary>  {escape(entry.summary)}\n</summary>"
        f"{authors}{extras}"
        f'<link href="http://arxiv.org/abs/{entry.id}" rel="alternate" type="text/html"/>'
        f'<link title="pdf" href="http://arxiv.org/pdf/{entry.id}" rel="related" '
        'type="application/pdf"/>'
        f'<arxiv:primary_category term="cs.CL"/><category term="cs.CL"/>'
        "</entry>"
    )


def feed(entries: list[Entry], total: int, start: int = 0) -> bytes:
    """An arXiv API Atom feed holding ``entries``."""
    body = "".join(_entry_xml(e) for e in entries)
    return (
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        '<feed xmlns="http://www.w3.org/2005/Atom" '
        'xmlns:opensearch="http://a9.com/-/spec/opensearch/1.1/" '
        'xmlns:arxiv="http://arxiv.org/schemas/atom">'
        '<title type="html">ArXiv Query</title><id>http://arxiv.org/api/fake</id>'
        "<updated>2026-01-01T00:00:00-05:00</updated>"
        f"<opensearch:totalResults>{total}</opensearch:totalResults>"
        f"<opensearch:startIndex>{start}</opensearch:startIndex>"
        f"<opensearch:itemsPerPage>{len(entries)}</opensearch:itemsPerPage>"
        f"{body}</feed>"
    ).encode()


def error_feed(message: str) -> Reply:
    """arXiv's answer to a request it refuses: 400 and an entry titled 'Error'."""
    entry = (
        "<entry><id>http://arxiv.org/api/errors#incorrect_id_format</id>"
        f"<title>Error</title><summary>{escape(message)}</summary>"
        "<author><name>arXiv api core</name></author></entry>"
    )
    body = feed([], 1).replace(b"</feed>", entry.encode() + b"</feed>")
    return Reply(400, body, "application/atom+xml; charset=utf-8")


@dataclass
class FakeArxiv(FakeApi):
    """The fake arXiv; ``entries`` is what it knows."""

    entries: list[Entry] = field(default_factory=lambda: list(ENTRIES))

    def query_requests(self) -> list[dict[str, str]]:
        """The query parameters of every GET /api/query."""
        return [r.query for r in self.requests if r.path == "/api/query"]

    def forced(self) -> Reply:
        if self.status == 400:
            return error_feed("forced refusal")
        headers = {"Retry-After": self.retry_after} if self.retry_after else {}
        return Reply(self.status, b"Rate exceeded.", "text/plain", headers)

    def respond(self, path: str, query: dict[str, str]) -> Reply:
        if path != "/api/query":
            return Reply(404, b"not found", "text/plain")
        start = int(query.get("start", "0"))
        size = int(query.get("max_results", "10"))
        if query.get("id_list"):
            ids = query["id_list"].split(",")
            bad = [i for i in ids if not (_NEW_ID.match(i) or _OLD_ID.match(i))]
            if bad:
                return error_feed(f"incorrect id format for {bad[0]}")
            found = [e for e in self.entries if e.id.rsplit("v", 1)[0] in ids or e.id in ids]
        else:
            found = self._search(query.get("search_query", ""))
        page = found[start : start + size]
        return Reply(200, feed(page, len(found), start), "application/atom+xml; charset=utf-8")

    def _search(self, expression: str) -> list[Entry]:
        dates = _DATES.search(expression)
        terms = [t.removeprefix("all:").casefold() for t in expression.split(" AND ")]
        terms = [t for t in terms if not t.startswith("submitteddate")]
        found = []
        for entry in self.entries:
            text = f"{entry.title} {entry.summary}".casefold()
            day = entry.published[:10].replace("-", "")
            if dates and not dates.group(1) <= day <= dates.group(2):
                continue
            if all(term in text for term in terms):
                found.append(entry)
        return found
