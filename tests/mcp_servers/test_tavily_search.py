"""The web-search server, driven against a local Tavily look-alike with the real tavily-python.

In memory with fastmcp.Client, over a stdio subprocess, over streamable HTTP and
with the MCP Inspector CLI as an outside client.
"""

from __future__ import annotations

import sys
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastmcp import Client
from fastmcp.exceptions import ToolError
from pydantic import SecretStr

from backend.config import Settings
from mcp_servers.tavily_search import create_server, health_check
from mcp_servers.tavily_search.api import TavilySearch
from mcp_servers.tavily_search.settings import WebSettings
from tests.fakes.tavily_api import FakeTavily
from tests.helpers import (
    REPO_ROOT,
    free_port,
    http_mcp_server,
    inspector_available,
    run_inspector,
    stdio_session,
    structured,
)


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


@pytest.fixture
def fake() -> Iterator[FakeTavily]:
    tavily = FakeTavily().start()
    yield tavily
    tavily.stop()


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


def web_settings(settings: Settings, fake: FakeTavily, **overrides: Any) -> Settings:
    """Settings pointing at the fake, with its key set."""
    values: dict[str, Any] = {
        "tavily_api_key": SecretStr(fake.api_key),
        "tavily_base_url": fake.url,
        **overrides,
    }
    return settings.model_copy(update=values)


@pytest.fixture
async def web(settings: Settings, fake: FakeTavily, clock: FakeClock) -> AsyncIterator[Client]:
    server = create_server(
        WebSettings.taken_from(web_settings(settings, fake)), clock=clock, sleep=clock.sleep
    )
    async with Client(server) as client:
        yield client


async def search(client: Client, **arguments: Any) -> dict[str, Any]:
    result = await client.call_tool("search", arguments)
    assert isinstance(result.structured_content, dict)
    return result.structured_content


async def search_error(client: Client, **arguments: Any) -> str:
    with pytest.raises(ToolError) as caught:
        await client.call_tool("search", arguments)
    return str(caught.value)


# --- results -------------------------------------------------------------


async def test_search_returns_ranked_results_with_url_domain_and_score(web: Client) -> None:
    body = await search(web, query="  quantum computing ", max_results=3)

    assert body["query"] == "quantum computing"
    assert body["cached"] is False
    assert body["response_time_ms"] >= 0
    first = body["results"][0]
    assert first["url"] == "https://www.nature.com/articles/quantum-error-correction"
    assert first["domain"] == "nature.com"
    assert first["title"] == "Quantum error correction"
    assert "quantum computing" in first["content"]
    assert first["published_date"] is None
    assert [r["score"] for r in body["results"]] == [0.95, 0.85, 0.75]


async def test_search_sends_bearer_key_and_normalized_arguments(
    web: Client, fake: FakeTavily
) -> None:
    await search(
        web,
        query="agents",
        max_results=2,
        search_depth="advanced",
        topic="news",
        days=7,
        include_domains=["WWW.Example.com", "arxiv.org", "arxiv.org"],
        exclude_domains=["wikipedia.org"],
    )

    [request] = fake.search_requests()
    assert request.headers["Authorization"] == f"Bearer {fake.api_key}"
    assert request.body == {
        "query": "agents",
        "max_results": 2,
        "search_depth": "advanced",
        "topic": "news",
        "days": 7,
        "include_domains": ["arxiv.org", "example.com"],
        "exclude_domains": ["wikipedia.org"],
    }


async def test_news_results_carry_their_published_date(web: Client) -> None:
    body = await search(web, query="election", topic="news", max_results=1)

    assert body["results"][0]["published_date"] == "Mon, 01 Jun 2026 09:00:00 GMT"


async def test_tool_listing_shows_output_schema_and_read_only_open_world_hints(
    web: Client,
) -> None:
    [tool] = await web.list_tools()

    assert tool.name == "search"
    assert tool.outputSchema is not None
    assert set(tool.outputSchema["required"]) == {"query", "results", "cached", "response_time_ms"}
    assert tool.annotations is not None
    assert tool.annotations.readOnlyHint is True
    assert tool.annotations.openWorldHint is True
    assert tool.inputSchema["properties"]["max_results"]["maximum"] == 20


# --- cache -----------------------------------------------------------------


async def test_repeated_search_is_served_from_cache_without_a_second_request(
    web: Client, fake: FakeTavily
) -> None:
    first = await search(web, query="Retrieval augmented generation")
    second = await search(web, query="  retrieval   AUGMENTED generation ")

    assert len(fake.search_requests()) == 1
    assert second["cached"] is True
    assert second["results"] == first["results"]


async def test_searches_with_different_arguments_are_not_shared_in_cache(
    web: Client, fake: FakeTavily
) -> None:
    await search(web, query="agents", max_results=2)
    await search(web, query="agents", max_results=3)

    assert len(fake.search_requests()) == 2


async def test_cached_entry_expires_after_the_ttl(
    web: Client, fake: FakeTavily, clock: FakeClock, settings: Settings
) -> None:
    await search(web, query="agents")
    clock.now += settings.tavily_cache_ttl + 1
    again = await search(web, query="agents")

    assert again["cached"] is False
    assert len(fake.search_requests()) == 2


# --- client-side rate limit -------------------------------------------------


def rate_limited_client(settings: Settings, fake: FakeTavily, clock: FakeClock) -> Client:
    limited = web_settings(settings, fake, tavily_rate_per_minute=2)
    return Client(create_server(WebSettings.taken_from(limited), clock=clock, sleep=clock.sleep))


async def test_rate_limit_waits_briefly_when_a_slot_frees_within_a_second(
    settings: Settings, fake: FakeTavily, clock: FakeClock
) -> None:
    async with rate_limited_client(settings, fake, clock) as web:
        await search(web, query="one")
        await search(web, query="two")
        clock.now += 59.5
        await search(web, query="three")

    assert clock.slept == [pytest.approx(0.5)]
    assert len(fake.search_requests()) == 3


async def test_rate_limit_refuses_with_the_seconds_to_wait_when_the_wait_is_long(
    settings: Settings, fake: FakeTavily, clock: FakeClock
) -> None:
    async with rate_limited_client(settings, fake, clock) as web:
        await search(web, query="one")
        await search(web, query="two")
        clock.now += 10
        message = await search_error(web, query="three")

    assert "retry in 50 s" in message
    assert "MARSA_TAVILY_RATE_PER_MINUTE" in message
    assert len(fake.search_requests()) == 2


async def test_cache_hits_do_not_use_up_the_rate_limit(
    settings: Settings, fake: FakeTavily, clock: FakeClock
) -> None:
    async with rate_limited_client(settings, fake, clock) as web:
        for _ in range(5):
            await search(web, query="same question")
        await search(web, query="another question")

    assert len(fake.search_requests()) == 2


# --- refusals before any request ------------------------------------------


async def test_missing_key_explains_how_to_set_it_and_sends_no_request(
    settings: Settings, fake: FakeTavily
) -> None:
    keyless = settings.model_copy(update={"tavily_base_url": fake.url})
    async with Client(create_server(WebSettings.taken_from(keyless))) as web:
        message = await search_error(web, query="agents")

    assert "TAVILY_API_KEY" in message
    assert ".env" in message
    assert fake.requests == []


async def test_whitespace_only_query_is_refused_with_what_to_fix(
    web: Client, fake: FakeTavily
) -> None:
    message = await search_error(web, query=" \n\t ")

    assert "empty or only whitespace" in message
    assert fake.requests == []


async def test_ten_megabyte_query_is_refused_with_the_length_limit(
    web: Client, fake: FakeTavily
) -> None:
    message = await search_error(web, query="x" * 10_000_000)

    assert "the limit is 2000" in message
    assert "Shorten it" in message
    assert fake.requests == []


# --- Tavily failures ---------------------------------------------------------


@pytest.mark.parametrize(
    ("status", "retry_after", "expected"),
    [
        (403, None, "Tavily rejected the API key (HTTP 403); check TAVILY_API_KEY"),
        (429, "17", "retry after 17 s"),
        (429, None, "wait a minute and retry"),
        (432, None, "plan or usage limit is reached (HTTP 432)"),
        (433, None, "pay-as-you-go spending limit is reached (HTTP 433)"),
        (500, None, "Tavily had a server error (HTTP 500); retry"),
        (400, None, "Tavily rejected the arguments (HTTP 400)"),
    ],
)
async def test_tavily_error_status_becomes_an_actionable_tool_error(
    web: Client, fake: FakeTavily, status: int, retry_after: str | None, expected: str
) -> None:
    fake.status, fake.retry_after = status, retry_after

    assert expected in await search_error(web, query="agents")


async def test_rejected_key_names_the_fix_and_never_shows_the_key(
    settings: Settings, fake: FakeTavily
) -> None:
    wrong_key = "tvly-wrong-key-that-must-stay-secret"
    wrong = web_settings(settings, fake, tavily_api_key=SecretStr(wrong_key))
    async with Client(create_server(WebSettings.taken_from(wrong))) as web:
        message = await search_error(web, query="agents")

    assert "Tavily rejected the API key (HTTP 401); check TAVILY_API_KEY" in message
    assert "invalid API key ***" in message  # the fake echoed the key; it was scrubbed
    assert wrong_key not in message


async def test_log_line_of_a_failed_call_never_shows_the_key(
    settings: Settings, fake: FakeTavily, capsys: pytest.CaptureFixture[str]
) -> None:
    wrong_key = "tvly-wrong-key-that-must-stay-secret"
    wrong = web_settings(settings, fake, tavily_api_key=SecretStr(wrong_key))
    async with Client(create_server(WebSettings.taken_from(wrong))) as web:
        await search_error(web, query="agents")

    err = capsys.readouterr().err
    [line] = [ln for ln in err.splitlines() if ln.startswith("{") and '"server": "web"' in ln]
    assert '"tool": "search"' in line
    assert "Tavily rejected the API key" in line
    assert wrong_key not in err


async def test_unanswered_search_times_out_with_a_hint_to_raise_the_timeout(
    settings: Settings, fake: FakeTavily
) -> None:
    fake.hold = True
    impatient = web_settings(settings, fake, tavily_timeout=0.2)
    async with Client(create_server(WebSettings.taken_from(impatient))) as web:
        message = await search_error(web, query="agents")

    assert "did not answer within 0.2 s" in message
    assert "MARSA_TAVILY_TIMEOUT" in message


async def test_unreachable_tavily_says_which_url_it_tried(settings: Settings) -> None:
    nowhere = f"http://127.0.0.1:{free_port()}"
    offline = settings.model_copy(
        update={"tavily_api_key": SecretStr("tvly-k"), "tavily_base_url": nowhere}
    )
    async with Client(create_server(WebSettings.taken_from(offline))) as web:
        message = await search_error(web, query="agents")

    assert f"Could not reach Tavily at {nowhere}" in message


async def test_response_that_is_not_json_becomes_a_tool_error(
    web: Client, fake: FakeTavily
) -> None:
    fake.raw_body = b"<html>maintenance</html>"

    assert "not JSON" in await search_error(web, query="agents")


async def test_tavily_client_is_closed_when_the_server_stops(
    settings: Settings, fake: FakeTavily
) -> None:
    closed: list[bool] = []

    class RecordingTavily(TavilySearch):
        async def close(self) -> None:
            closed.append(True)
            await super().close()

    server = create_server(
        WebSettings.taken_from(web_settings(settings, fake)), client_factory=RecordingTavily
    )
    async with Client(server) as web:
        await search(web, query="agents")

    assert closed == [True]


async def test_health_reports_whether_a_key_is_set_without_revealing_it(
    settings: Settings, fake: FakeTavily
) -> None:
    facts = await health_check(web_settings(settings, fake))()

    assert facts["api_key_configured"] is True
    assert facts["base_url"] == fake.url
    assert fake.api_key not in str(facts)


# --- real transports ---------------------------------------------------------


async def test_search_works_over_stdio_with_key_and_url_passed_in_the_environment(
    settings: Settings, fake: FakeTavily
) -> None:
    async with stdio_session("web", web_settings(settings, fake)) as session:
        body = structured(await session.call_tool("search", {"query": "agents"}))

    assert body["results"][0]["domain"] == "nature.com"
    assert len(fake.search_requests()) == 1


@pytest.fixture
def http_server(settings: Settings, fake: FakeTavily, tmp_path: Path) -> Iterator[str]:
    """``python -m mcp_servers.tavily_search --transport http`` on a free port."""
    with http_mcp_server(
        "mcp_servers.tavily_search", web_settings(settings, fake), tmp_path
    ) as url:
        yield url


def test_http_health_route_reports_the_tool_and_a_configured_key(
    http_server: str, fake: FakeTavily
) -> None:
    body = httpx.get(f"{http_server}/health", timeout=5).json()

    assert body["status"] == "ok"
    assert body["tools"] == ["search"]
    assert body["api_key_configured"] is True
    assert body["base_url"] == fake.url
    assert fake.api_key not in str(body)


async def test_search_works_over_streamable_http(http_server: str, fake: FakeTavily) -> None:
    async with Client(f"{http_server}/mcp") as web:
        body = await search(web, query="agents", max_results=2)

    assert [r["domain"] for r in body["results"]] == ["nature.com", "arxiv.org"]
    assert len(fake.search_requests()) == 1


# --- outside client: MCP Inspector CLI ------------------------------------------

needs_npx = pytest.mark.skipif(not inspector_available(), reason="npx is not installed")


def inspector_args(fake: FakeTavily, cwd: Path, *env: str) -> list[str]:
    """Inspector CLI arguments that call search on the stdio server with ``env``."""
    pairs = [
        f"MARSA_TAVILY_BASE_URL={fake.url}",
        f"PYTHONPATH={REPO_ROOT}",
        "FASTMCP_CHECK_FOR_UPDATES=off",
        "FASTMCP_SHOW_SERVER_BANNER=false",
        *env,
    ]
    return [
        *[arg for pair in pairs for arg in ("-e", pair)],
        "--cwd",
        str(cwd),
        "--method",
        "tools/call",
        "--tool-name",
        "search",
        "--tool-arg",
        "query=research agents",
        "max_results=2",
        "--",
        sys.executable,
        "-m",
        "mcp_servers.tavily_search",
    ]


@pytest.mark.outside
@needs_npx
def test_inspector_cli_gets_structured_results_over_stdio(fake: FakeTavily, tmp_path: Path) -> None:
    code, payload, stderr = run_inspector(
        inspector_args(fake, tmp_path, f"TAVILY_API_KEY={fake.api_key}")
    )

    assert code == 0, stderr
    assert payload["isError"] is False
    results = payload["structuredContent"]["results"]
    assert [r["domain"] for r in results] == ["nature.com", "arxiv.org"]
    assert fake.search_requests()[0].body["query"] == "research agents"


@pytest.mark.outside
@needs_npx
def test_inspector_cli_exits_non_zero_when_no_key_is_set(fake: FakeTavily, tmp_path: Path) -> None:
    code, payload, _ = run_inspector(inspector_args(fake, tmp_path))

    assert code != 0
    assert "TAVILY_API_KEY" in str(payload)
    assert fake.requests == []
