"""The GitHub MCP server as a real process: stdio, streamable HTTP, and the MCP Inspector CLI."""

from __future__ import annotations

import sys
from collections.abc import Iterator

import httpx
import pytest
from fastmcp import Client
from pydantic import SecretStr

from backend.config import Settings
from tests.fakes.github_api import FakeGitHub, sample_github
from tests.fakes.github_data import SAMPLE_TOKEN as TOKEN
from tests.helpers import (
    REPO_ROOT,
    http_mcp_server,
    inspector_available,
    run_inspector,
    stdio_session,
    structured,
)


@pytest.fixture
def fake() -> Iterator[FakeGitHub]:
    api = sample_github()
    yield api
    api.stop()


@pytest.fixture(scope="module")
def http_server() -> Iterator[tuple[str, FakeGitHub]]:
    """``python -m mcp_servers.github_server --transport http`` pointed at a fake GitHub."""
    api = sample_github()
    settings = Settings(github_base_url=api.url, github_token=SecretStr(TOKEN))
    try:
        with http_mcp_server("mcp_servers.github_server", settings) as url:
            yield url, api
    finally:
        api.stop()


async def test_stdio_subprocess_serves_get_issues_with_the_token(
    fake: FakeGitHub, settings: Settings
) -> None:
    settings = settings.model_copy(
        update={"github_base_url": fake.url, "github_token": SecretStr(TOKEN)}
    )
    async with stdio_session("github", settings) as session:
        out = structured(await session.call_tool("get_issues", {"repo": "octo/widgets"}))
    assert [i["number"] for i in out["results"]] == [2, 1]
    assert fake.requests[-1].headers["authorization"] == f"token {TOKEN}"


async def test_stdio_subprocess_returns_a_malformed_repo_as_a_tool_error(
    fake: FakeGitHub, settings: Settings
) -> None:
    settings = settings.model_copy(update={"github_base_url": fake.url})
    async with stdio_session("github", settings) as session:
        result = await session.call_tool("get_file", {"repo": "nope", "path": "README.md"})
    assert result.isError
    assert "expected 'owner/name'" in getattr(result.content[0], "text", "")
    assert fake.requests == []


def test_http_health_says_a_token_is_set_without_showing_it(
    http_server: tuple[str, FakeGitHub],
) -> None:
    url, api = http_server
    body = httpx.get(f"{url}/health", timeout=10).json()
    assert body["status"] == "ok" and body["token_configured"] is True
    assert body["base_url"] == api.url
    assert set(body["tools"]) == {"get_file", "get_issues", "search_code", "search_repositories"}
    assert TOKEN not in str(body)


async def test_http_transport_serves_search_code(http_server: tuple[str, FakeGitHub]) -> None:
    url, _ = http_server
    async with Client(f"{url}/mcp") as client:
        result = await client.call_tool("search_code", {"query": "make_widget", "language": "rust"})
    assert isinstance(result.structured_content, dict)
    assert [r["path"] for r in result.structured_content["results"]] == ["lib.rs"]


def _inspector_args(fake: FakeGitHub, *tool_args: str) -> list[str]:
    env = {
        "PYTHONPATH": REPO_ROOT,
        "GITHUB_TOKEN": TOKEN,
        "MARSA_GITHUB_BASE_URL": fake.url,
        "FASTMCP_SHOW_CLI_BANNER": "false",
        "FASTMCP_SHOW_SERVER_BANNER": "false",
        "FASTMCP_CHECK_FOR_UPDATES": "off",
    }
    pairs = [item for key, value in env.items() for item in ("-e", f"{key}={value}")]
    command = [sys.executable, "-m", "mcp_servers.github_server"]
    call = ["--method", "tools/call", "--tool-name", "get_issues", "--tool-arg", *tool_args]
    return [*pairs, *command, *call]


@pytest.mark.outside
@pytest.mark.skipif(not inspector_available(), reason="npx is not installed")
def test_inspector_cli_calls_get_issues_over_stdio(fake: FakeGitHub) -> None:
    code, payload, stderr = run_inspector(_inspector_args(fake, "repo=octo/widgets", "state=all"))
    assert code == 0, stderr
    issues = payload["structuredContent"]["results"]
    assert [i["number"] for i in issues] == [3, 2, 1]
    assert issues[0]["html_url"] == "https://github.com/octo/widgets/issues/3"


@pytest.mark.outside
@pytest.mark.skipif(not inspector_available(), reason="npx is not installed")
def test_inspector_cli_exits_non_zero_on_a_malformed_repo(fake: FakeGitHub) -> None:
    code, payload, _ = run_inspector(_inspector_args(fake, "repo=not-a-repo"))
    assert code != 0
    assert payload["isError"] is True
    assert "expected 'owner/name'" in payload["content"][0]["text"]
    assert fake.requests == []
