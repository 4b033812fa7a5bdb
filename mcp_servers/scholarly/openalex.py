"""OpenAlex over httpx: works search with filters, one work by id, and its JSON as a Paper.

pyalex (0.21) is not used: it builds every query URL on ``https://api.openalex.org`` whatever
``config.openalex_url`` says (only n-grams read it), so it cannot be pointed at a local API;
its configuration is one process-wide dict, and it is blocking (requests) with a retry adapter
that sleeps on 429 inside the call. Its one helper this server needs, rebuilding the abstract
from ``abstract_inverted_index``, is a few lines below.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import quote

import httpx

from mcp_servers.scholarly.fetch import SourceApi
from mcp_servers.scholarly.ids import PaperId, arxiv_id, normalize_doi
from mcp_servers.scholarly.models import MAX_AUTHORS, Paper

SELECT = (
    "id,doi,display_name,publication_year,publication_date,authorships,primary_location,"
    "best_oa_location,open_access,cited_by_count,abstract_inverted_index,locations"
)
"""Only the fields a Paper needs: a full work is several times larger."""


def rebuild_abstract(inverted: dict[str, list[int]] | None) -> str | None:
    """OpenAlex ships an abstract as {word: [positions]}; put each word back in its place."""
    if not inverted:
        return None
    placed: dict[int, str] = {}
    for word, positions in inverted.items():
        for position in positions:
            placed[position] = word
    return " ".join(placed[i] for i in sorted(placed)) or None


def _arxiv_of(work: dict[str, Any]) -> str | None:
    found = arxiv_id(work.get("doi"))
    for location in work.get("locations") or []:
        if found:
            break
        for key in ("landing_page_url", "pdf_url"):
            found = found or arxiv_id((location or {}).get(key))
    return found


def to_paper(work: dict[str, Any]) -> Paper:
    """A Paper from one OpenAlex work."""
    primary = work.get("primary_location") or {}
    best_oa = work.get("best_oa_location") or {}
    venue = (primary.get("source") or {}).get("display_name")
    authors = [
        name
        for item in work.get("authorships") or []
        if (name := ((item or {}).get("author") or {}).get("display_name"))
    ]
    doi = normalize_doi(work.get("doi"))
    openalex_id = str(work.get("id") or "").rsplit("/", 1)[-1] or None
    landing = primary.get("landing_page_url")
    url = f"https://doi.org/{doi}" if doi else landing or f"https://openalex.org/{openalex_id}"
    pdf = best_oa.get("pdf_url") or primary.get("pdf_url")
    return Paper(
        title=str(work.get("display_name") or work.get("title") or "(untitled)"),
        authors=authors[:MAX_AUTHORS],
        author_count=len(authors),
        venue=venue,
        year=work.get("publication_year"),
        published_date=work.get("publication_date"),
        abstract=rebuild_abstract(work.get("abstract_inverted_index")),
        citation_count=work.get("cited_by_count"),
        doi=doi,
        arxiv_id=_arxiv_of(work),
        openalex_id=openalex_id,
        url=url,
        pdf_url=pdf,
        is_open_access=(work.get("open_access") or {}).get("is_oa"),
        sources=["openalex"],
    )


class OpenAlex:
    """The two requests the tools make to OpenAlex."""

    def __init__(self, api: SourceApi, email: str | None):
        self.api = api
        self.email = email

    def _params(self, **params: Any) -> dict[str, Any]:
        if self.email:
            params["mailto"] = self.email
        return params

    async def search(
        self,
        client: httpx.AsyncClient,
        query: str,
        from_year: int | None,
        to_year: int | None,
        limit: int,
        open_access_only: bool,
    ) -> list[Paper]:
        """GET /works?search=…: the first page of ``limit`` works, most relevant first."""
        filters = []
        if from_year is not None:
            filters.append(f"from_publication_date:{from_year}-01-01")
        if to_year is not None:
            filters.append(f"to_publication_date:{to_year}-12-31")
        if open_access_only:
            filters.append("open_access.is_oa:true")
        params = self._params(search=query, select=SELECT, page=1, **{"per-page": limit})
        if filters:
            params["filter"] = ",".join(filters)
        response = await self.api.get(client, f"{self.api.base_url}/works", params)
        body = self._json(response, "the search")
        results = body.get("results")
        if not isinstance(results, list):
            raise self.api.fail("OpenAlex answered without a 'results' list; retry later")
        return [to_paper(work) for work in results[:limit] if isinstance(work, dict)]

    async def get(self, client: httpx.AsyncClient, paper_id: PaperId) -> Paper | None:
        """GET /works/{id} (an OpenAlex id or doi:…); None when OpenAlex has no such work."""
        key = paper_id.value if paper_id.kind == "openalex" else f"doi:{paper_id.value}"
        url = f"{self.api.base_url}/works/{quote(key, safe=':/')}"
        response = await self.api.get(client, url, self._params(select=SELECT))
        if response.status_code == 404:
            return None
        return to_paper(self._json(response, f"work {key}"))

    def _json(self, response: httpx.Response, what: str) -> dict[str, Any]:
        try:
            body = response.json()
        except ValueError:
            body = None
        if response.status_code == 400:
            detail = body.get("message") or body.get("error") if isinstance(body, dict) else None
            raise self.api.fail(
                f"OpenAlex refused {what} (HTTP 400: {detail or 'bad request'}); "
                "simplify the query or check the year range"
            )
        if not isinstance(body, dict):
            raise self.api.fail(
                "OpenAlex returned a response that is not JSON; retry, or check MARSA_OPENALEX_URL"
            )
        return body
