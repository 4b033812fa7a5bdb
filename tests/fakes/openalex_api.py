"""A local HTTP server answering like OpenAlex's works API, so tests run the real client code.

``GET /works`` with ``search``, ``filter`` (publication dates, open access, year), ``per-page``
and ``page`` answers in OpenAlex's shape (``meta`` with count and paging fields, ``results``),
abstracts as ``abstract_inverted_index``; ``GET /works/{W…|doi:…|https://doi.org/…}`` answers
one work or 404. Unknown filters and bad paging get OpenAlex's 400 body. ``status`` and
``retry_after`` force an answer such as 429 with ``Retry-After``.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import unquote

from tests.fakes.api_base import FakeApi, Reply


def inverted_index(text: str) -> dict[str, list[int]]:
    """OpenAlex's form of an abstract: each word with the positions it stands at."""
    index: dict[str, list[int]] = {}
    for position, word in enumerate(text.split()):
        index.setdefault(word, []).append(position)
    return index


def work(
    number: int,
    title: str,
    year: int,
    abstract: str | None,
    *,
    doi: str | None,
    venue: str,
    cited: int,
    pdf: str | None = None,
    arxiv: str | None = None,
    authors: tuple[str, ...] = ("Ada Lovelace", "Alan Turing"),
) -> dict[str, Any]:
    """One work as OpenAlex sends it (the fields MARSA selects, and a few it does not)."""
    arxiv_location = {
        "is_oa": True,
        "landing_page_url": f"http://arxiv.org/abs/{arxiv}",
        "pdf_url": f"http://arxiv.org/pdf/{arxiv}",
        "source": {"display_name": "arXiv (Cornell University)"},
    }
    primary = {
        "is_oa": pdf is not None,
        "landing_page_url": f"https://doi.org/{doi}" if doi else None,
        "pdf_url": pdf,
        "source": {"display_name": venue},
    }
    return {
        "id": f"https://openalex.org/W{number}",
        "doi": f"https://doi.org/{doi}" if doi else None,
        "title": title,
        "display_name": title,
        "publication_year": year,
        "publication_date": f"{year}-05-22",
        "type": "article",
        "authorships": [
            {"author_position": "first" if i == 0 else "middle", "author": {"display_name": n}}
            for i, n in enumerate(authors)
        ],
        "primary_location": primary,
        "best_oa_location": primary if pdf else (arxiv_location if arxiv else None),
        "locations": [primary, *([arxiv_location] if arxiv else [])],
        "open_access": {"is_oa": bool(pdf or arxiv), "oa_url": pdf},
        "cited_by_count": cited,
        "abstract_inverted_index": inverted_index(abstract) if abstract else None,
        "concepts": [{"display_name": "Computer science", "score": 0.9}],
    }


WORKS: list[dict[str, Any]] = [
    work(
        3030000001,
        "Retrieval-Augmented Generation for Knowledge-Intensive NLP Tasks",
        2020,
        "Large pre-trained language models store factual knowledge; retrieval-augmented "
        "generation combines them with a dense retrieval index of Wikipedia.",
        doi="10.48550/arxiv.2005.11401",
        venue="arXiv (Cornell University)",
        cited=3100,
        pdf="https://arxiv.org/pdf/2005.11401",
        arxiv="2005.11401",
        authors=("Patrick Lewis", "Ethan Perez", "Aleksandra Piktus"),
    ),
    work(
        3030000002,
        "Dense Passage Retrieval for Open-Domain Question Answering",
        2020,
        "Open-domain question answering relies on efficient passage retrieval; dense "
        "representations alone outperform BM25 retrieval.",
        doi="10.18653/v1/2020.emnlp-main.550",
        venue="Empirical Methods in Natural Language Processing",
        cited=2500,
        pdf="https://aclanthology.org/2020.emnlp-main.550.pdf",
        arxiv="2004.04906",
        authors=("Vladimir Karpukhin", "Barlas Oguz"),
    ),
    work(
        3030000003,
        "Retrieval habits of library users",
        2015,
        "A survey of how library users retrieval strategies changed with online catalogues.",
        doi="10.1000/closed.2015.1",
        venue="Journal of Library Science",
        cited=12,
    ),
    work(
        3030000004,
        "Quantum error correction below the surface code threshold",
        2024,
        None,
        doi="10.1038/s41586-024-08449-y",
        venue="Nature",
        cited=150,
        pdf="https://www.nature.com/articles/s41586-024-08449-y.pdf",
    ),
]

_FILTERS = {
    "from_publication_date",
    "to_publication_date",
    "open_access.is_oa",
    "is_oa",
    "publication_year",
}


def _abstract(item: dict[str, Any]) -> str:
    index = item.get("abstract_inverted_index") or {}
    return " ".join(index)


def _error(message: str) -> Reply:
    body = {"error": "Invalid query parameters error.", "message": message}
    return Reply(400, json.dumps(body).encode(), "application/json")


def _json(status: int, body: Any) -> Reply:
    return Reply(status, json.dumps(body).encode(), "application/json")


@dataclass
class FakeOpenAlex(FakeApi):
    """The fake OpenAlex; ``works`` is what it knows."""

    works: list[dict[str, Any]] = field(default_factory=lambda: list(WORKS))

    def forced(self) -> Reply:
        if self.status == 400:
            return _error("search is not valid here")
        return super().forced()

    def search_requests(self) -> list[dict[str, str]]:
        """The query parameters of every GET /works."""
        return [r.query for r in self.requests if r.path == "/works"]

    def respond(self, path: str, query: dict[str, str]) -> Reply:
        if path == "/works":
            return self._search(query)
        if path.startswith("/works/"):
            return self._one(unquote(path.removeprefix("/works/")))
        return _json(404, {"error": "Not Found", "message": f"no route {path}"})

    def _one(self, key: str) -> Reply:
        lowered = key.lower().removeprefix("https://doi.org/").removeprefix("doi:")
        for item in self.works:
            doi = (item["doi"] or "").lower().removeprefix("https://doi.org/")
            if item["id"].rsplit("/", 1)[-1] == key.upper() or (doi and doi == lowered):
                return _json(200, item)
        return _json(404, {"error": "Not Found", "message": f"{key} is not a valid work"})

    def _search(self, query: dict[str, str]) -> Reply:
        try:
            per_page = int(query.get("per-page", "25"))
            page = int(query.get("page", "1"))
        except ValueError:
            return _error("per-page and page must be integers")
        if not 1 <= per_page <= 200:
            return _error("per-page is not valid: it must be between 1 and 200")
        found = list(self.works)
        for clause in filter(None, query.get("filter", "").split(",")):
            name, _, value = clause.partition(":")
            if name not in _FILTERS:
                return _error(f"{name} is not a valid field. Valid fields are …")
            found = [w for w in found if _passes(w, name, value)]
        words = [w.casefold() for w in query.get("search", "").split()]
        if words:
            scored = []
            for item in found:
                text = f"{item['display_name']} {_abstract(item)}".casefold()
                hits = sum(word in text for word in words)
                if hits:
                    scored.append((hits, item["cited_by_count"], item))
            scored.sort(key=lambda s: (s[0], s[1]), reverse=True)
            found = [s[2] for s in scored]
        window = found[(page - 1) * per_page : page * per_page]
        meta = {
            "count": len(found),
            "db_response_time_ms": 12,
            "page": page,
            "per_page": per_page,
            "groups_count": None,
        }
        return _json(200, {"meta": meta, "results": window, "group_by": []})


def _passes(item: dict[str, Any], name: str, value: str) -> bool:
    date = item["publication_date"]
    if name == "from_publication_date":
        return bool(date >= value)
    if name == "to_publication_date":
        return bool(date <= value)
    if name == "publication_year":
        return str(item["publication_year"]) == value
    return bool(item["open_access"]["is_oa"]) == (value == "true")
