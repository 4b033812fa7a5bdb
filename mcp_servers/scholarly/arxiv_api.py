"""arXiv's query API over httpx: search and lookup by id, its Atom feed read as Papers.

The ``arxiv`` package (4.0) is not used: its ``Client`` is blocking (requests) with no request
timeout, so a hung arXiv would hold a worker thread forever; it sleeps (``time.sleep``)
between requests inside the call; and its ``HTTPError`` keeps the status but drops the
``Retry-After`` header this server reports. The feed is parsed with the standard library
(expat ≥ 2.4.1 refuses entity-expansion bombs; no external entities are fetched).
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

import httpx

from mcp_servers.scholarly.fetch import SourceApi
from mcp_servers.scholarly.ids import arxiv_id, normalize_doi
from mcp_servers.scholarly.models import MAX_AUTHORS, Paper

_NS = {
    "atom": "http://www.w3.org/2005/Atom",
    "arxiv": "http://arxiv.org/schemas/atom",
    "opensearch": "http://a9.com/-/spec/opensearch/1.1/",
}
_TERM = re.compile(r"[\w.-]+", re.UNICODE)
_MAX_TERMS = 12


def _text(element: ET.Element, path: str) -> str | None:
    found = element.find(path, _NS)
    if found is None or found.text is None:
        return None
    return " ".join(found.text.split()) or None


def search_query(query: str, from_year: int | None, to_year: int | None) -> str | None:
    """arXiv's ``search_query``: every word in any field, ANDed, and the submission years.
    None when the query has no word to search for."""
    terms = _TERM.findall(query)[:_MAX_TERMS]
    if not terms:
        return None
    parts = [f"all:{term}" for term in terms]
    if from_year is not None or to_year is not None:
        start = f"{from_year or 1991}01010000"
        end = f"{to_year or 9999}12312359"
        parts.append(f"submittedDate:[{start} TO {end}]")
    return " AND ".join(parts)


def to_paper(entry: ET.Element) -> Paper | None:
    """A Paper from one Atom entry (None for an entry without an arXiv id)."""
    found = arxiv_id(_text(entry, "atom:id"))
    if found is None:
        return None
    authors = [
        name for author in entry.findall("atom:author", _NS) if (name := _text(author, "atom:name"))
    ]
    published = _text(entry, "atom:published") or ""
    pdf = next(
        (
            link.get("href")
            for link in entry.findall("atom:link", _NS)
            if link.get("title") == "pdf" and link.get("href")
        ),
        None,
    )
    return Paper(
        title=_text(entry, "atom:title") or "(untitled)",
        authors=authors[:MAX_AUTHORS],
        author_count=len(authors),
        venue=_text(entry, "arxiv:journal_ref") or "arXiv",
        year=int(published[:4]) if published[:4].isdigit() else None,
        published_date=published[:10] or None,
        abstract=_text(entry, "atom:summary"),
        citation_count=None,
        doi=normalize_doi(_text(entry, "arxiv:doi")),
        arxiv_id=found,
        url=f"https://arxiv.org/abs/{found}",
        pdf_url=pdf,
        is_open_access=True,
        sources=["arxiv"],
    )


class Arxiv:
    """The two requests the tools make to arXiv."""

    def __init__(self, api: SourceApi):
        self.api = api

    async def search(
        self,
        client: httpx.AsyncClient,
        query: str,
        from_year: int | None,
        to_year: int | None,
        limit: int,
    ) -> list[Paper]:
        """The ``limit`` most relevant papers (arXiv is all open access: no filter needed)."""
        expression = search_query(query, from_year, to_year)
        if expression is None:
            raise self.api.fail("arXiv: the query has no word to search for; use letters or digits")
        params = {
            "search_query": expression,
            "start": 0,
            "max_results": limit,
            "sortBy": "relevance",
            "sortOrder": "descending",
        }
        return self._papers(await self.api.get(client, self.api.base_url, params))[:limit]

    async def get(self, client: httpx.AsyncClient, paper_id: str) -> Paper | None:
        """The paper with this arXiv id, or None when arXiv has none."""
        response = await self.api.get(client, self.api.base_url, {"id_list": paper_id})
        papers = self._papers(response)
        return papers[0] if papers else None

    def _papers(self, response: httpx.Response) -> list[Paper]:
        try:
            feed = ET.fromstring(response.content)
        except ET.ParseError as exc:
            raise self.api.fail(
                "arXiv returned a response that is not an Atom feed; retry, or check "
                "MARSA_ARXIV_URL"
            ) from exc
        entries = feed.findall("atom:entry", _NS)
        # arXiv reports a refused query as a feed whose one entry is titled "Error".
        if len(entries) == 1 and _text(entries[0], "atom:title") == "Error":
            detail = _text(entries[0], "atom:summary") or "no detail"
            raise self.api.fail(f"arXiv refused the request ({detail}); simplify the query or id")
        if response.status_code == 400:
            raise self.api.fail("arXiv refused the request (HTTP 400); simplify the query or id")
        if response.status_code == 404:
            return []
        return [paper for entry in entries if (paper := to_paper(entry)) is not None]
