"""MARSA_MCP_TOKEN over real HTTP: a built-in server started with ``--transport http`` (the
GitHub server, against a local fake GitHub) refuses MCP requests without the bearer token,
and the MARSA client, given the same setting, reaches it."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator

import httpx
import pytest
from fastmcp import Client
from pydantic import SecretStr

from backend.config import Settings
from backend.mcp_client import MCPHub, server_env
from backend.mcp_client.session import call_tool, server_session
from tests.fakes.github_api import FakeGitHub, sample_github
from tests.fakes.github_data import SAMPLE_TOKEN as GITHUB_TOKEN
from tests.helpers import REPO_ROOT, free_port, running_process

TOKEN = "mcp-test-token-5b1f0c2e9d7a4f3b"
MODULE = "mcp_servers.github_server"
INITIALIZE = {
    "jsonrpc": "2.0",
    "id": 1,
    "method": "initialize",
    "params": {
        "protocolVersion": "2025-06-18",
        "capabilities": {},
        "clientInfo": {"name": "auth-test", "version": "0"},
    },
}
SEARCH = {"query": "make_widget", "language": "rust"}


def _server_env(api: FakeGitHub, **extra: str) -> dict[str, str]:
    settings = Settings(github_base_url=api.url, github_token=SecretStr(GITHUB_TOKEN))
    env = server_env("github", settings)
    return {**env, "PYTHONPATH": REPO_ROOT, **extra}


@pytest.fixture(scope="module")
def github() -> Iterator[FakeGitHub]:
    api = sample_github()
    yield api
    api.stop()


@pytest.fixture(scope="module")
def url(github: FakeGitHub) -> Iterator[str]:
    """The MCP endpoint of the GitHub server over HTTP, started with MARSA_MCP_TOKEN."""
    port = free_port()
    command = [sys.executable, "-m", MODULE, "--transport", "http", "--port", str(port)]
    env = _server_env(github, MARSA_MCP_TOKEN=TOKEN)
    with running_process(command, f"http://127.0.0.1:{port}/health", env):
        yield f"http://127.0.0.1:{port}/mcp"


def _initialize(url: str, authorization: str | None) -> httpx.Response:
    headers = {"Accept": "application/json, text/event-stream"}
    if authorization is not None:
        headers["Authorization"] = authorization
    return httpx.post(url, json=INITIALIZE, headers=headers, timeout=10)


def test_an_mcp_request_without_a_token_gets_401(url: str) -> None:
    response = _initialize(url, None)
    assert response.status_code == 401
    assert response.headers["www-authenticate"].lower().startswith("bearer")


def test_an_mcp_request_with_a_wrong_token_gets_401(url: str) -> None:
    assert _initialize(url, "Bearer not-the-token").status_code == 401


def test_the_right_token_under_another_scheme_gets_401(url: str) -> None:
    assert _initialize(url, f"Basic {TOKEN}").status_code == 401


def test_an_mcp_request_with_the_token_is_served(url: str) -> None:
    assert _initialize(url, f"Bearer {TOKEN}").status_code == 200


def test_health_stays_open_for_container_checks_and_shows_no_token(url: str) -> None:
    response = httpx.get(url.removesuffix("/mcp") + "/health", timeout=10)
    assert response.status_code == 200 and TOKEN not in response.text


async def test_an_mcp_client_with_the_token_calls_a_tool(url: str) -> None:
    async with Client(url, auth=TOKEN) as client:
        result = await client.call_tool("search_code", SEARCH)
    assert isinstance(result.structured_content, dict)
    assert [r["path"] for r in result.structured_content["results"]] == ["lib.rs"]


async def test_the_marsa_client_sends_the_token_it_is_configured_with(url: str) -> None:
    settings = Settings(github_server_url=url, mcp_token=SecretStr(TOKEN))
    async with server_session("github", settings) as session:
        found = await call_tool(session, "github", "search_code", SEARCH)
    assert [r["path"] for r in found["results"]] == ["lib.rs"]
    async with MCPHub(settings, servers=["github"]) as hub:
        assert hub.available() == ["github"]
        result = await hub.call("github", "search_code", SEARCH)
    assert [r["path"] for r in result.structured["results"]] == ["lib.rs"]


async def test_the_marsa_client_without_the_token_finds_the_server_unavailable(url: str) -> None:
    async with MCPHub(Settings(github_server_url=url), servers=["github"]) as hub:
        status = hub.status["github"]
    assert not status.available
    assert "401" in status.reason and "MARSA_MCP_TOKEN" in status.reason


# docker-compose passes an unset variable as "": that is no token either.
@pytest.mark.parametrize("token", [{}, {"MARSA_MCP_TOKEN": ""}], ids=["unset", "blank"])
def test_a_server_on_every_interface_without_a_token_refuses_to_start(
    github: FakeGitHub, token: dict[str, str]
) -> None:
    port = free_port()
    command = [sys.executable, "-m", MODULE, "--transport", "http", "--host", "0.0.0.0"]
    done = subprocess.run(
        [*command, "--port", str(port)],
        env=_server_env(github, **token),
        cwd=REPO_ROOT,
        capture_output=True,
        text=True,
        timeout=30,  # a server that starts serves until killed: this raises, and the test fails
    )
    assert done.returncode == 2
    assert "MARSA_MCP_TOKEN" in done.stderr and "0.0.0.0" in done.stderr
