"""The scholarly server as a real process: stdio, streamable HTTP with a bearer token, and the
MCP Inspector CLI as an outside client. One test of each; behaviour is tested in memory."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from fastmcp import Client

from tests.fakes.arxiv_api import FakeArxiv
from tests.fakes.openalex_api import FakeOpenAlex
from tests.helpers import http_server, inspector_available, process_env, run_inspector, stdio_client

MODULE = "mcp_servers.scholarly"
TOKEN = "mcp-test-token-scholarly-7c3e"


@pytest.fixture
def apis() -> Iterator[tuple[FakeOpenAlex, FakeArxiv]]:
    openalex, arxiv = FakeOpenAlex().start(), FakeArxiv().start()
    yield openalex, arxiv
    openalex.stop()
    arxiv.stop()


def settings_env(apis: tuple[FakeOpenAlex, FakeArxiv], **extra: str) -> dict[str, str]:
    openalex, arxiv = apis
    return {
        "MARSA_OPENALEX_URL": openalex.url,
        "MARSA_ARXIV_URL": f"{arxiv.url}/api/query",
        "MARSA_SCHOLARLY_EMAIL": "me@example.org",
        **extra,
    }


async def test_search_papers_works_over_stdio_with_settings_from_the_environment(
    apis: tuple[FakeOpenAlex, FakeArxiv], tmp_path: Path
) -> None:
    async with stdio_client(MODULE, settings_env(apis), tmp_path) as client:
        result = await client.call_tool("search_papers", {"query": "dense passage retrieval"})

    assert isinstance(result.structured_content, dict)
    titles = [p["title"] for p in result.structured_content["results"]]
    assert titles[0] == "Dense Passage Retrieval for Open-Domain Question Answering"
    assert apis[0].search_requests()[0]["mailto"] == "me@example.org"


async def test_http_transport_with_a_token_refuses_without_it_and_serves_with_it(
    apis: tuple[FakeOpenAlex, FakeArxiv], tmp_path: Path
) -> None:
    env = settings_env(apis, MARSA_MCP_TOKEN=TOKEN)
    with http_server(MODULE, env, tmp_path) as url:
        health = httpx.get(f"{url}/health", timeout=10).json()
        refused = httpx.post(f"{url}/mcp", json={}, timeout=10)
        async with Client(f"{url}/mcp", auth=TOKEN) as client:
            result = await client.call_tool("get_paper", {"id": "W3030000004"})

    assert health["tools"] == ["get_paper", "search_papers"] and TOKEN not in str(health)
    assert refused.status_code == 401
    assert isinstance(result.structured_content, dict)
    assert result.structured_content["venue"] == "Nature"


@pytest.mark.outside
@pytest.mark.skipif(not inspector_available(), reason="npx is not installed")
def test_inspector_cli_calls_get_paper_over_stdio(
    apis: tuple[FakeOpenAlex, FakeArxiv], tmp_path: Path
) -> None:
    env = process_env(settings_env(apis))
    pairs = [arg for key, value in env.items() for arg in ("-e", f"{key}={value}")]
    code, payload, stderr = run_inspector(
        [
            *pairs,
            "--cwd",
            str(tmp_path),
            "--method",
            "tools/call",
            "--tool-name",
            "get_paper",
            "--tool-arg",
            "id=arXiv:2005.11401",
            "--",
            sys.executable,
            "-m",
            MODULE,
        ]
    )

    assert code == 0, stderr
    paper = payload["structuredContent"]
    assert paper["arxiv_id"] == "2005.11401" and paper["sources"] == ["arxiv"]
    assert paper["pdf_url"] == "http://arxiv.org/pdf/2005.11401v4"
