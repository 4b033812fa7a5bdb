"""The SearXNG server as a real process: stdio, streamable HTTP with a bearer token, and the
MCP Inspector CLI as an outside client. One test of each; behaviour is tested in memory."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from fastmcp import Client

from tests.fakes.searxng_api import FakeSearxng
from tests.helpers import http_server, inspector_available, process_env, run_inspector, stdio_client

MODULE = "mcp_servers.searxng"
TOKEN = "mcp-test-token-searxng-41d9"


@pytest.fixture
def fake() -> Iterator[FakeSearxng]:
    instance = FakeSearxng().start()
    yield instance
    instance.stop()


async def test_search_works_over_stdio_with_the_url_from_the_environment(
    fake: FakeSearxng, tmp_path: Path
) -> None:
    async with stdio_client(MODULE, {"MARSA_SEARXNG_URL": fake.url}, tmp_path) as client:
        result = await client.call_tool("search", {"query": "python", "max_results": 2})

    assert isinstance(result.structured_content, dict)
    assert [r["domain"] for r in result.structured_content["results"]] == [
        "python.org",
        "en.wikipedia.org",
    ]


async def test_http_transport_with_a_token_refuses_without_it_and_serves_with_it(
    fake: FakeSearxng, tmp_path: Path
) -> None:
    env = {"MARSA_SEARXNG_URL": fake.url, "MARSA_MCP_TOKEN": TOKEN}
    with http_server(MODULE, env, tmp_path) as url:
        health = httpx.get(f"{url}/health", timeout=10).json()
        refused = httpx.post(f"{url}/mcp", json={}, timeout=10)
        async with Client(f"{url}/mcp", auth=TOKEN) as client:
            result = await client.call_tool("search", {"query": "python"})

    assert health["tools"] == ["search"] and health["url_configured"] is True
    assert TOKEN not in str(health)
    assert refused.status_code == 401
    assert isinstance(result.structured_content, dict)
    assert result.structured_content["results"][0]["url"] == "https://www.python.org/doc/"


@pytest.mark.outside
@pytest.mark.skipif(not inspector_available(), reason="npx is not installed")
def test_inspector_cli_gets_an_error_for_an_instance_with_json_disabled(
    fake: FakeSearxng, tmp_path: Path
) -> None:
    fake.json_enabled = False
    env = process_env({"MARSA_SEARXNG_URL": fake.url})
    pairs = [arg for key, value in env.items() for arg in ("-e", f"{key}={value}")]
    code, payload, _ = run_inspector(
        [
            *pairs,
            "--cwd",
            str(tmp_path),
            "--method",
            "tools/call",
            "--tool-name",
            "search",
            "--tool-arg",
            "query=python",
            "--",
            sys.executable,
            "-m",
            MODULE,
        ]
    )

    assert code != 0
    assert payload["isError"] is True
    assert "refused format=json (HTTP 403)" in payload["content"][0]["text"]
    assert fake.search_requests()[0]["format"] == "json"
