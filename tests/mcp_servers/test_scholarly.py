"""The scholarly server in memory (fastmcp.Client), against local OpenAlex and arXiv look-alikes
so the real HTTP code runs."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import AsyncIterator, Iterator
from typing import Any

import httpx
import pytest
from fastmcp import Client
from fastmcp.exceptions import ToolError

from mcp_servers.scholarly import create_server, health_check
from mcp_servers.scholarly.settings import ScholarlySettings
from tests.fakes.arxiv_api import FakeArxiv
from tests.fakes.openalex_api import FakeOpenAlex
from tests.helpers import REPO_ROOT

RAG = "Retrieval-Augmented Generation for Knowledge-Intensive NLP Tasks"
DPR = "Dense Passage Retrieval for Open-Domain Question Answering"


class FakeClock:
    """Monotonic time that moves only when told to (or when the server sleeps)."""

    def __init__(self) -> None:
        self.now = 1000.0
        self.slept: list[float] = []

    def __call__(self) -> float:
        return self.now

    async def sleep(self, seconds: float) -> None:
        self.slept.append(seconds)
        self.now += seconds


@pytest.fixture(autouse=True)
def no_marsa_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    """No MARSA_ setting of the developer's shell reaches ScholarlySettings."""
    for name in list(os.environ):
        if name.startswith("MARSA_"):
            monkeypatch.delenv(name)


@pytest.fixture
def openalex() -> Iterator[FakeOpenAlex]:
    fake = FakeOpenAlex().start()
    yield fake
    fake.stop()


@pytest.fixture
def arxiv() -> Iterator[FakeArxiv]:
    fake = FakeArxiv().start()
    yield fake
    fake.stop()


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


def scholarly_settings(
    openalex: FakeOpenAlex, arxiv: FakeArxiv, **values: Any
) -> ScholarlySettings:
    """Settings pointing at the fakes."""
    return ScholarlySettings(
        openalex_url=openalex.url, arxiv_url=f"{arxiv.url}/api/query", **values
    )


@pytest.fixture
async def papers(
    openalex: FakeOpenAlex, arxiv: FakeArxiv, clock: FakeClock
) -> AsyncIterator[Client]:
    server = create_server(scholarly_settings(openalex, arxiv), clock=clock, sleep=clock.sleep)
    async with Client(server) as client:
        yield client


async def call(client: Client, tool: str, **arguments: Any) -> dict[str, Any]:
    result = await client.call_tool(tool, arguments)
    assert isinstance(result.structured_content, dict)
    return result.structured_content


async def call_error(client: Client, tool: str, **arguments: Any) -> str:
    with pytest.raises(ToolError) as caught:
        await client.call_tool(tool, arguments)
    return str(caught.value)


def by_title(body: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {paper["title"]: paper for paper in body["results"]}


# --- search_papers ----------------------------------------------------------------


async def test_a_paper_both_sources_know_by_arxiv_id_is_listed_once_from_both(
    papers: Client,
) -> None:
    body = await call(papers, "search_papers", query="retrieval augmented generation")

    assert [p["title"] for p in body["results"]].count(RAG) == 1
    rag = by_title(body)[RAG]
    assert rag["sources"] == ["arxiv", "openalex"]
    assert rag["arxiv_id"] == "2005.11401"
    assert rag["citation_count"] == 3100


async def test_a_merged_paper_takes_a_journal_venue_over_a_preprint_servers_name(
    papers: Client,
) -> None:
    body = await call(papers, "search_papers", query="retrieval augmented generation")

    assert by_title(body)[RAG]["venue"] == "NeurIPS 2020"  # OpenAlex said 'arXiv (Cornell …)'


async def test_a_paper_both_sources_know_by_doi_is_listed_once_with_the_venue_of_openalex(
    papers: Client,
) -> None:
    body = await call(papers, "search_papers", query="dense passage retrieval")

    [dpr] = [p for p in body["results"] if p["title"] == DPR]
    assert dpr["doi"] == "10.18653/v1/2020.emnlp-main.550"
    assert dpr["venue"] == "Empirical Methods in Natural Language Processing"
    assert dpr["sources"] == ["arxiv", "openalex"]


async def test_an_openalex_abstract_is_rebuilt_from_its_inverted_index(papers: Client) -> None:
    body = await call(papers, "search_papers", query="library users", sources=["openalex"])

    [paper] = body["results"]
    assert paper["abstract"] == (
        "A survey of how library users retrieval strategies changed with online catalogues."
    )


async def test_an_openalex_paper_carries_authors_venue_year_citations_and_links(
    papers: Client,
) -> None:
    body = await call(papers, "search_papers", query="surface code", sources=["openalex"])

    [paper] = body["results"]
    assert paper == {
        "title": "Quantum error correction below the surface code threshold",
        "authors": ["Ada Lovelace", "Alan Turing"],
        "author_count": 2,
        "venue": "Nature",
        "year": 2024,
        "published_date": "2024-05-22",
        "abstract": None,
        "citation_count": 150,
        "doi": "10.1038/s41586-024-08449-y",
        "arxiv_id": None,
        "openalex_id": "W3030000004",
        "url": "https://doi.org/10.1038/s41586-024-08449-y",
        "pdf_url": "https://www.nature.com/articles/s41586-024-08449-y.pdf",
        "is_open_access": True,
        "sources": ["openalex"],
    }


async def test_an_arxiv_paper_has_a_collapsed_title_an_abstract_url_and_pdf(
    papers: Client,
) -> None:
    body = await call(papers, "search_papers", query="survey large language", sources=["arxiv"])

    [paper] = body["results"]
    assert paper["title"] == "Retrieval-Augmented Generation for Large Language Models: A Survey"
    assert paper["url"] == "https://arxiv.org/abs/2312.10997"
    assert paper["pdf_url"] == "http://arxiv.org/pdf/2312.10997v5"
    assert paper["venue"] == "arXiv" and paper["year"] == 2023
    assert paper["abstract"].startswith("Retrieval-augmented generation gives")
    assert paper["citation_count"] is None and paper["is_open_access"] is True


async def test_years_become_openalex_date_filters_and_an_arxiv_submitted_date_range(
    papers: Client, openalex: FakeOpenAlex, arxiv: FakeArxiv
) -> None:
    body = await call(papers, "search_papers", query="retrieval", from_year=2021, to_year=2024)

    assert openalex.search_requests()[0]["filter"] == (
        "from_publication_date:2021-01-01,to_publication_date:2024-12-31"
    )
    assert (
        "submittedDate:[202101010000 TO 202412312359]" in arxiv.query_requests()[0]["search_query"]
    )
    assert all(2021 <= p["year"] <= 2024 for p in body["results"])


async def test_open_access_only_filters_openalex_and_drops_closed_papers(
    papers: Client, openalex: FakeOpenAlex
) -> None:
    body = await call(papers, "search_papers", query="retrieval", open_access_only=True)

    assert openalex.search_requests()[0]["filter"] == "open_access.is_oa:true"
    assert "Retrieval habits of library users" not in by_title(body)
    assert all(p["is_open_access"] for p in body["results"])


async def test_limit_is_the_page_size_asked_and_the_number_returned(
    papers: Client, openalex: FakeOpenAlex, arxiv: FakeArxiv
) -> None:
    body = await call(papers, "search_papers", query="retrieval", limit=2)

    assert len(body["results"]) == 2
    assert openalex.search_requests()[0]["per-page"] == "2"
    assert arxiv.query_requests()[0]["max_results"] == "2"


async def test_openalex_is_asked_only_for_the_fields_a_paper_needs(
    papers: Client, openalex: FakeOpenAlex
) -> None:
    await call(papers, "search_papers", query="retrieval", sources=["openalex"])

    selected = set(openalex.search_requests()[0]["select"].split(","))
    assert {"abstract_inverted_index", "cited_by_count", "authorships"} <= selected
    assert "concepts" not in selected


async def test_the_contact_email_goes_to_openalex_as_mailto_and_in_the_user_agent(
    openalex: FakeOpenAlex, arxiv: FakeArxiv
) -> None:
    settings = scholarly_settings(openalex, arxiv, scholarly_email="me@example.org")
    async with Client(create_server(settings)) as client:
        await call(client, "search_papers", query="retrieval")

    assert openalex.search_requests()[0]["mailto"] == "me@example.org"
    assert "mailto:me@example.org" in arxiv.requests[0].headers["User-Agent"]


async def test_without_an_email_no_mailto_is_sent(papers: Client, openalex: FakeOpenAlex) -> None:
    await call(papers, "search_papers", query="retrieval", sources=["openalex"])

    assert "mailto" not in openalex.search_requests()[0]


async def test_a_year_range_backwards_is_refused_before_any_request(
    papers: Client, openalex: FakeOpenAlex, arxiv: FakeArxiv
) -> None:
    message = await call_error(papers, "search_papers", query="x", from_year=2024, to_year=2020)

    assert "from_year 2024 is after to_year 2020" in message
    assert openalex.requests == [] and arxiv.requests == []


async def test_a_whitespace_query_is_refused_before_any_request(
    papers: Client, openalex: FakeOpenAlex
) -> None:
    message = await call_error(papers, "search_papers", query="   ")

    assert "empty or only whitespace" in message
    assert openalex.requests == []


async def test_the_limit_is_bounded_in_the_input_schema(papers: Client) -> None:
    tools = {tool.name: tool for tool in await papers.list_tools()}

    limit = tools["search_papers"].inputSchema["properties"]["limit"]
    assert (limit["minimum"], limit["maximum"]) == (1, 50)
    with pytest.raises(ToolError):
        await papers.call_tool("search_papers", {"query": "x", "limit": 51})


async def test_both_tools_are_read_only_with_an_output_schema(papers: Client) -> None:
    tools = {tool.name: tool for tool in await papers.list_tools()}

    assert set(tools) == {"search_papers", "get_paper"}
    for tool in tools.values():
        assert tool.annotations is not None and tool.annotations.readOnlyHint is True
        assert tool.outputSchema is not None and tool.description


# --- failures and degradation -------------------------------------------------------


async def test_a_429_with_retry_after_becomes_a_tool_error_saying_when_to_retry(
    papers: Client, openalex: FakeOpenAlex
) -> None:
    openalex.status, openalex.retry_after = 429, "30"

    message = await call_error(papers, "search_papers", query="x", sources=["openalex"])

    assert "OpenAlex is rate limiting this server (HTTP 429); retry after 30 s" in message
    assert "MARSA_SCHOLARLY_EMAIL" in message


async def test_after_a_429_nothing_is_sent_until_retry_after_has_passed(
    papers: Client, openalex: FakeOpenAlex, clock: FakeClock
) -> None:
    openalex.status, openalex.retry_after = 429, "30"
    await call_error(papers, "search_papers", query="x", sources=["openalex"])
    openalex.status = 200

    message = await call_error(papers, "search_papers", query="y", sources=["openalex"])
    assert "answered 429" in message and "retry in 30 s" in message
    assert len(openalex.requests) == 1

    clock.now += 31
    await call(papers, "search_papers", query="y", sources=["openalex"])
    assert len(openalex.requests) == 2


async def test_when_one_source_fails_the_other_answers_and_the_failure_is_reported(
    papers: Client, arxiv: FakeArxiv
) -> None:
    arxiv.status = 503

    body = await call(papers, "search_papers", query="retrieval")

    assert body["results"] and all(p["sources"] == ["openalex"] for p in body["results"])
    assert body["failed_sources"] == [
        {"source": "arxiv", "error": "arXiv had a server error (HTTP 503); retry in a minute"}
    ]


async def test_when_every_source_fails_the_error_names_each(
    papers: Client, openalex: FakeOpenAlex, arxiv: FakeArxiv
) -> None:
    openalex.status, arxiv.status = 500, 429

    message = await call_error(papers, "search_papers", query="retrieval")

    assert "OpenAlex had a server error (HTTP 500)" in message
    assert "arXiv is rate limiting this server (HTTP 429)" in message


async def test_an_unanswered_request_times_out_with_a_hint(
    openalex: FakeOpenAlex, arxiv: FakeArxiv
) -> None:
    openalex.hold = True
    settings = scholarly_settings(openalex, arxiv, scholarly_timeout=0.2)
    async with Client(create_server(settings)) as client:
        message = await call_error(client, "search_papers", query="x", sources=["openalex"])

    assert "OpenAlex did not answer within 0.2 s" in message
    assert "MARSA_SCHOLARLY_TIMEOUT" in message


async def test_an_unreachable_api_names_the_url_setting(arxiv: FakeArxiv) -> None:
    settings = ScholarlySettings(openalex_url="http://127.0.0.1:9", arxiv_url=arxiv.url)
    async with Client(create_server(settings)) as client:
        message = await call_error(client, "search_papers", query="x", sources=["openalex"])

    assert "Could not reach OpenAlex at http://127.0.0.1:9" in message
    assert "MARSA_OPENALEX_URL" in message


async def test_an_openalex_400_passes_on_its_message(
    papers: Client, openalex: FakeOpenAlex
) -> None:
    openalex.status = 400

    message = await call_error(papers, "search_papers", query="x", sources=["openalex"])

    assert "OpenAlex refused the search (HTTP 400: search is not valid here)" in message


async def test_an_arxiv_error_entry_becomes_a_tool_error_with_its_text(
    papers: Client, arxiv: FakeArxiv
) -> None:
    arxiv.status = 400

    message = await call_error(papers, "get_paper", id="2312.10997")

    assert "arXiv refused the request (forced refusal)" in message


# --- cache and rate limits ------------------------------------------------------------


async def test_a_repeated_search_is_answered_from_the_cache(
    papers: Client, openalex: FakeOpenAlex, arxiv: FakeArxiv
) -> None:
    first = await call(papers, "search_papers", query="Dense  retrieval")
    again = await call(papers, "search_papers", query="dense retrieval")

    assert first["cached"] is False and again["cached"] is True
    assert again["results"] == first["results"]
    assert len(openalex.requests) == 1 and len(arxiv.requests) == 1


async def test_a_cached_search_expires_after_the_ttl(
    papers: Client, openalex: FakeOpenAlex, clock: FakeClock
) -> None:
    await call(papers, "search_papers", query="retrieval", sources=["openalex"])
    clock.now += 601

    body = await call(papers, "search_papers", query="retrieval", sources=["openalex"])

    assert body["cached"] is False
    assert len(openalex.requests) == 2


async def test_arxiv_requests_are_spaced_three_seconds_apart(
    papers: Client, arxiv: FakeArxiv, clock: FakeClock
) -> None:
    await call(papers, "search_papers", query="retrieval", sources=["arxiv"])
    await call(papers, "search_papers", query="supergravity", sources=["arxiv"])

    assert clock.slept == [3.0]
    assert len(arxiv.requests) == 2


async def test_a_request_further_away_than_the_longest_wait_is_refused(
    openalex: FakeOpenAlex, arxiv: FakeArxiv, clock: FakeClock
) -> None:
    settings = scholarly_settings(openalex, arxiv, arxiv_rate_per_minute=6)
    async with Client(create_server(settings, clock=clock, sleep=clock.sleep)) as client:
        await call(client, "search_papers", query="retrieval", sources=["arxiv"])
        message = await call_error(client, "search_papers", query="other", sources=["arxiv"])

    assert "this server's limit of 6 requests/min" in message and "retry in 10 s" in message
    assert "MARSA_ARXIV_RATE_PER_MINUTE" in message
    assert len(arxiv.requests) == 1


# --- get_paper ----------------------------------------------------------------------


async def test_get_paper_reads_a_doi_from_openalex(papers: Client, openalex: FakeOpenAlex) -> None:
    paper = await call(papers, "get_paper", id="https://doi.org/10.18653/V1/2020.emnlp-main.550")

    assert paper["title"] == DPR and paper["sources"] == ["openalex"]
    assert openalex.requests[0].path == "/works/doi:10.18653/v1/2020.emnlp-main.550"


async def test_get_paper_reads_an_openalex_id_given_as_a_url(papers: Client) -> None:
    paper = await call(papers, "get_paper", id="https://openalex.org/W3030000003")

    assert paper["openalex_id"] == "W3030000003"
    assert paper["is_open_access"] is False and paper["pdf_url"] is None


async def test_get_paper_reads_an_old_style_arxiv_id_from_arxiv(
    papers: Client, arxiv: FakeArxiv
) -> None:
    paper = await call(papers, "get_paper", id="arXiv:hep-th/9711200v3")

    assert paper["authors"] == ["Juan M. Maldacena"] and paper["year"] == 1997
    assert arxiv.query_requests()[0]["id_list"] == "hep-th/9711200"


async def test_get_paper_sends_arxivs_own_doi_to_arxiv(papers: Client, arxiv: FakeArxiv) -> None:
    paper = await call(papers, "get_paper", id="10.48550/arXiv.2312.10997")

    assert paper["arxiv_id"] == "2312.10997"
    assert arxiv.query_requests()[0]["id_list"] == "2312.10997"


async def test_get_paper_says_when_no_paper_has_the_id(papers: Client) -> None:
    message = await call_error(papers, "get_paper", id="10.9999/missing")

    assert "OpenAlex has no paper with doi '10.9999/missing'" in message


async def test_get_paper_refuses_an_unknown_id_form_before_any_request(
    papers: Client, openalex: FakeOpenAlex, arxiv: FakeArxiv
) -> None:
    message = await call_error(papers, "get_paper", id="attention is all you need")

    assert "DOI" in message and "arXiv id" in message and "OpenAlex work id" in message
    assert openalex.requests == [] and arxiv.requests == []


# --- the server as a whole ------------------------------------------------------------


async def test_every_call_writes_one_log_line(
    papers: Client, capsys: pytest.CaptureFixture[str]
) -> None:
    await call(papers, "search_papers", query="retrieval", sources=["openalex"])

    err = capsys.readouterr().err
    lines = [ln for ln in err.splitlines() if '"server": "scholarly"' in ln]
    assert len(lines) == 1
    assert '"tool": "search_papers"' in lines[0] and '"result_count": 3' in lines[0]


async def test_an_injected_http_client_is_used_and_left_open(
    openalex: FakeOpenAlex, arxiv: FakeArxiv
) -> None:
    async with httpx.AsyncClient(headers={"X-Test": "injected"}) as http:
        server = create_server(scholarly_settings(openalex, arxiv), client=http)
        async with Client(server) as client:
            await call(client, "search_papers", query="retrieval", sources=["openalex"])
        assert not http.is_closed

    assert openalex.requests[0].headers["X-Test"] == "injected"


def test_settings_come_from_their_documented_environment_variables(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("MARSA_OPENALEX_URL", "http://127.0.0.1:1")
    monkeypatch.setenv("MARSA_ARXIV_URL", "http://127.0.0.1:2/api/query")
    monkeypatch.setenv("MARSA_SCHOLARLY_EMAIL", "me@example.org")
    monkeypatch.setenv("MARSA_ARXIV_RATE_PER_MINUTE", "10")

    settings = ScholarlySettings()

    assert settings.openalex_url == "http://127.0.0.1:1"
    assert settings.arxiv_url == "http://127.0.0.1:2/api/query"
    assert settings.scholarly_email == "me@example.org"
    assert settings.arxiv_rate_per_minute == 10


async def test_health_says_where_the_apis_are_and_whether_an_email_is_set() -> None:
    facts = await health_check(ScholarlySettings(scholarly_email="me@example.org"))()

    assert facts["openalex_url"] == "https://api.openalex.org"
    assert facts["email_configured"] is True


def test_the_server_package_imports_nothing_from_the_backend() -> None:
    code = (
        "import sys, mcp_servers.scholarly.__main__ as m, mcp_servers.scholarly.server;"
        "print(sorted(n for n in sys.modules if n.split('.')[0] == 'backend'))"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=REPO_ROOT, capture_output=True, text=True, check=True
    )
    assert done.stdout.strip() == "[]"
