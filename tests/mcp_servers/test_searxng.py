"""The SearXNG server in memory (fastmcp.Client), against a local SearXNG look-alike so the
real HTTP code runs."""

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

from mcp_servers.searxng import create_server, health_check
from mcp_servers.searxng.settings import SearxngSettings
from tests.fakes.searxng_api import FakeSearxng
from tests.helpers import REPO_ROOT


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
    """No MARSA_ setting of the developer's shell reaches SearxngSettings."""
    for name in list(os.environ):
        if name.startswith("MARSA_"):
            monkeypatch.delenv(name)


@pytest.fixture
def fake() -> Iterator[FakeSearxng]:
    instance = FakeSearxng().start()
    yield instance
    instance.stop()


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
async def web(fake: FakeSearxng, clock: FakeClock) -> AsyncIterator[Client]:
    server = create_server(SearxngSettings(searxng_url=fake.url), clock=clock, sleep=clock.sleep)
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


# --- results ------------------------------------------------------------------------


async def test_search_returns_title_url_snippet_engines_and_domain(web: Client) -> None:
    body = await search(web, query="  python   docs ")

    assert body["query"] == "python docs" and body["cached"] is False
    first = body["results"][0]
    assert first == {
        "title": "Python documentation",
        "url": "https://www.python.org/doc/",
        "content": "The official home of the Python documentation.",
        "engines": ["duckduckgo", "brave"],
        "score": 4.0,
        "category": "general",
        "published_date": None,
        "domain": "python.org",
    }
    assert body["suggestions"] == ["python docs tutorial"]


async def test_a_published_date_is_passed_on_when_an_engine_gives_one(web: Client) -> None:
    body = await search(web, query="python", categories=["news"])

    assert [r["published_date"] for r in body["results"]] == ["2025-10-07T09:00:00"]


async def test_search_asks_for_json_with_the_normalized_filters(
    web: Client, fake: FakeSearxng
) -> None:
    await search(
        web,
        query="python",
        categories=["science", "news", "science"],
        language="en",
        time_range="year",
        page=2,
    )

    assert fake.search_requests() == [
        {
            "q": "python",
            "format": "json",
            "pageno": "2",
            "categories": "news,science",
            "language": "en",
            "time_range": "year",
        }
    ]


async def test_max_results_cuts_the_list(web: Client) -> None:
    body = await search(web, query="python", max_results=1)

    assert len(body["results"]) == 1


async def test_engines_that_did_not_answer_are_reported(web: Client, fake: FakeSearxng) -> None:
    fake.unresponsive = [["google", "CAPTCHA"], ["bing", "timeout"]]

    body = await search(web, query="python")

    assert body["unresponsive_engines"] == [
        {"engine": "google", "reason": "CAPTCHA"},
        {"engine": "bing", "reason": "timeout"},
    ]


async def test_a_repeated_search_is_answered_from_the_cache(web: Client, fake: FakeSearxng) -> None:
    await search(web, query="Python")
    again = await search(web, query="python")

    assert again["cached"] is True
    assert len(fake.requests) == 1


async def test_searches_in_a_burst_are_spaced_by_the_rate_limit(
    web: Client, fake: FakeSearxng, clock: FakeClock
) -> None:
    await search(web, query="one")
    await search(web, query="two")

    assert clock.slept == [2.0]
    assert len(fake.requests) == 2


async def test_the_tool_is_read_only_and_its_bounds_are_in_the_schema(web: Client) -> None:
    [tool] = await web.list_tools()

    assert tool.annotations is not None and tool.annotations.readOnlyHint is True
    assert tool.inputSchema["properties"]["max_results"]["maximum"] == 30
    assert tool.outputSchema is not None
    with pytest.raises(ToolError):
        await web.call_tool("search", {"query": "x", "language": "not a language"})


# --- failures -----------------------------------------------------------------------


async def test_an_unset_url_is_a_tool_error_saying_which_setting_to_set() -> None:
    async with Client(create_server(SearxngSettings())) as client:
        message = await search_error(client, query="python")

    assert "MARSA_SEARXNG_URL" in message and "search: formats" in message


async def test_an_instance_with_json_disabled_says_how_to_enable_it(
    web: Client, fake: FakeSearxng
) -> None:
    fake.json_enabled = False

    message = await search_error(web, query="python")

    assert "refused format=json (HTTP 403)" in message
    assert "formats: [html, json]" in message


async def test_an_unreachable_instance_names_its_url() -> None:
    settings = SearxngSettings(searxng_url="http://127.0.0.1:9")
    async with Client(create_server(settings)) as client:
        message = await search_error(client, query="python")

    assert "Could not reach SearXNG at http://127.0.0.1:9" in message


async def test_a_429_with_retry_after_says_when_and_holds_further_searches(
    web: Client, fake: FakeSearxng, clock: FakeClock
) -> None:
    fake.status, fake.retry_after = 429, "120"

    message = await search_error(web, query="python")
    assert "HTTP 429" in message and "retry after 120 s" in message
    assert "limiter" in message

    fake.status = 200
    held = await search_error(web, query="other")
    assert "retry in 120 s" in held and len(fake.requests) == 1


async def test_a_server_that_is_not_searxng_is_named_as_such(
    web: Client, fake: FakeSearxng
) -> None:
    fake.not_searxng = True

    message = await search_error(web, query="python")

    assert "something other than SearXNG's JSON (text/html)" in message


async def test_a_url_with_no_search_page_asks_for_the_root_url(fake: FakeSearxng) -> None:
    async with Client(create_server(SearxngSettings(searxng_url=f"{fake.url}/x"))) as client:
        message = await search_error(client, query="python")

    assert "was not found (HTTP 404)" in message and "root URL" in message


async def test_an_unanswered_search_times_out_with_a_hint(fake: FakeSearxng) -> None:
    fake.hold = True
    settings = SearxngSettings(searxng_url=fake.url, searxng_timeout=0.2)
    async with Client(create_server(settings)) as client:
        message = await search_error(client, query="python")

    assert "did not answer within 0.2 s" in message and "MARSA_SEARXNG_TIMEOUT" in message


async def test_a_whitespace_query_is_refused_before_any_request(
    web: Client, fake: FakeSearxng
) -> None:
    message = await search_error(web, query="   ")

    assert "empty or only whitespace" in message and fake.requests == []


# --- the server as a whole ------------------------------------------------------------


async def test_every_call_writes_one_log_line(
    web: Client, capsys: pytest.CaptureFixture[str]
) -> None:
    await search(web, query="python")

    lines = [ln for ln in capsys.readouterr().err.splitlines() if '"server": "searxng"' in ln]
    assert len(lines) == 1 and '"tool": "search"' in lines[0]


async def test_an_injected_http_client_is_used_and_left_open(fake: FakeSearxng) -> None:
    async with httpx.AsyncClient(headers={"X-Test": "injected"}) as http:
        server = create_server(SearxngSettings(searxng_url=fake.url), client=http)
        async with Client(server) as client:
            await search(client, query="python")
        assert not http.is_closed

    assert fake.requests[0].headers["X-Test"] == "injected"


def test_settings_come_from_their_documented_environment_variables(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("MARSA_SEARXNG_URL", "http://127.0.0.1:8888")
    monkeypatch.setenv("MARSA_SEARXNG_RATE_PER_MINUTE", "5")

    settings = SearxngSettings()

    assert settings.searxng_url == "http://127.0.0.1:8888"
    assert settings.searxng_rate_per_minute == 5


async def test_health_says_whether_a_url_is_set() -> None:
    facts = await health_check(SearxngSettings(searxng_url=""))()

    assert facts["url_configured"] is False


def test_the_server_package_imports_nothing_from_the_backend() -> None:
    code = (
        "import sys, mcp_servers.searxng.__main__, mcp_servers.searxng.server;"
        "print(sorted(n for n in sys.modules if n.split('.')[0] == 'backend'))"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=REPO_ROOT, capture_output=True, text=True, check=True
    )
    assert done.stdout.strip() == "[]"
