"""The scholarly and SearXNG sources through the real hub and their real servers, against
local fakes of OpenAlex, arXiv, SearXNG and Tavily."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from pydantic import SecretStr

from backend.config import Settings
from backend.graph.context import ResearchContext
from backend.graph.run import run_research
from backend.mcp_client import MCPHub
from backend.reasoning.offline.engine import OfflineEngine
from backend.trace import Tracer
from mcp_servers.document_store.ingest import Document
from mcp_servers.document_store.settings import DocsSettings
from mcp_servers.document_store.store import DocumentStore
from tests.fakes.arxiv_api import FakeArxiv
from tests.fakes.openalex_api import FakeOpenAlex
from tests.fakes.searxng_api import FakeSearxng
from tests.fakes.tavily_api import FakeTavily

SHARED_URL = "https://en.wikipedia.org/wiki/Web_search_engine"


@pytest.fixture
def papers(settings: Settings) -> Iterator[Settings]:
    """Settings with scholarly search on, against fake OpenAlex and arXiv, and a document."""
    openalex, arxiv = FakeOpenAlex().start(), FakeArxiv().start()
    DocumentStore(DocsSettings.taken_from(settings)).ingest(
        [Document(title="Tides", content="Tides follow the Moon.", source="corpus:tides")]
    )
    yield settings.model_copy(
        update={
            "scholarly_email": "tests@example.org",
            "openalex_url": openalex.url,
            "arxiv_url": f"{arxiv.url}/api/query",
        }
    )
    openalex.stop()
    arxiv.stop()


@pytest.fixture
def searxng() -> Iterator[FakeSearxng]:
    fake = FakeSearxng().start()
    yield fake
    fake.stop()


@pytest.fixture
def tavily() -> Iterator[FakeTavily]:
    fake = FakeTavily().start()
    yield fake
    fake.stop()


async def research(
    settings: Settings, servers: list[str], query: str, sources: list[str] | None = None
) -> dict[str, Any]:
    async with MCPHub(settings, servers=servers) as hub:
        ctx = ResearchContext(
            hub=hub,
            engine=OfflineEngine(),
            tracer=Tracer(),
            settings=settings,
            sources=sources,
            max_iterations=1,
        )
        return (await run_research(query, ctx)).as_json()


def calls(result: dict[str, Any]) -> set[str]:
    return {
        f"{e['data']['server']}.{e['data']['tool']}"
        for e in result["trace"]
        if e["kind"] == "tool_call"
    }


async def test_a_research_question_with_scholarly_on_cites_a_paper_from_openalex(
    papers: Settings,
) -> None:
    result = await research(
        papers,
        ["docs", "scholarly"],
        "What does research say about dense passage retrieval for open-domain question answering?",
        sources=["docs", "scholarly"],
    )
    assert result["status"] == "done", result["errors"]
    by_id = {s["id"]: s for s in result["sources"]}
    cited = [by_id[c["source_id"]] for c in result["citations"]]
    paper = next(s for s in cited if s["server"] == "scholarly")
    assert paper["title"].startswith("Dense Passage Retrieval for Open-Domain Question Answering")
    assert paper["url"] == "https://doi.org/10.18653/v1/2020.emnlp-main.550"
    assert paper["score_breakdown"]["domain"] == 0.85  # EMNLP, a publication-tier venue


async def test_scholarly_without_its_setting_is_unavailable_with_the_reason(
    settings: Settings,
) -> None:
    async with MCPHub(settings, servers=["scholarly"]) as hub:
        status = hub.status["scholarly"]
    assert not status.available
    assert "MARSA_SCHOLARLY_EMAIL" in status.reason


async def test_web_sub_queries_go_to_searxng_when_tavily_has_no_key(
    settings: Settings, searxng: FakeSearxng
) -> None:
    keyless = settings.model_copy(update={"searxng_url": searxng.url})
    result = await research(keyless, ["docs", "web", "searxng"], "What is Python?")
    assert result["status"] == "done", result["errors"]
    assert "searxng.search" in calls(result) and "web.search" not in calls(result)
    assert all("searxng" in sq["sources"] for sq in result["sub_queries"])
    assert any(s["server"] == "searxng" for s in result["sources"])
    assert searxng.search_requests()


async def test_a_page_both_web_sources_find_is_one_source(
    settings: Settings, searxng: FakeSearxng, tavily: FakeTavily
) -> None:
    searxng.pages = [
        {
            "url": SHARED_URL,
            "title": "Web search engine - Wikipedia",
            "content": "A search engine finds pages for a query.",
            "engines": ["wikipedia"],
            "score": 3.0,
            "category": "general",
        },
        {
            "url": "https://example.org/search-history",
            "title": "A history of web search",
            "content": "Web search began with directories.",
            "engines": ["brave"],
            "score": 1.0,
            "category": "general",
        },
    ]
    both = settings.model_copy(
        update={
            "searxng_url": searxng.url,
            "tavily_api_key": SecretStr(tavily.api_key),
            "tavily_base_url": tavily.url,
        }
    )
    result = await research(both, ["web", "searxng"], "What is a web search engine?")
    assert result["status"] == "done", result["errors"]
    assert {"web.search", "searxng.search"} <= calls(result)
    urls = [s["url"] for s in result["sources"]]
    assert urls.count(SHARED_URL) == 1
    assert "https://example.org/search-history" in urls  # found by SearXNG alone
