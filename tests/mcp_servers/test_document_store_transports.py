"""The document-store server as a real process: stdio, streamable HTTP, a Chroma server,
and the MCP Inspector CLI."""

from __future__ import annotations

import sys
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastmcp import Client

from backend.config import Settings
from mcp_servers.document_store import create_server
from mcp_servers.document_store.settings import DocsSettings
from tests.helpers import (
    REPO_ROOT,
    http_mcp_server,
    inspector_available,
    run_inspector,
    stdio_session,
    structured,
)
from tests.mcp_servers.docs_fixtures import CORPUS

TOOLS = {
    "search_documents",
    "ingest_document",
    "ingest_file",
    "list_documents",
    "get_document",
    "get_context",
    "list_topics",
    "delete_document",
}
RUST = CORPUS[0]


@pytest.fixture(scope="module")
def http_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """``python -m mcp_servers.document_store --transport http`` over a fresh data directory."""
    settings = Settings(data_dir=tmp_path_factory.mktemp("docs-http"))
    with http_mcp_server("mcp_servers.document_store", settings) as url:
        yield url


def text_of(result: Any) -> str:
    return str(getattr(result.content[0], "text", ""))


# --- stdio (langchain-mcp-adapters, one held session) --------------------------------


async def test_stdio_session_ingests_searches_and_reads_a_document(settings: Settings) -> None:
    async with stdio_session("docs", settings) as session:
        added = structured(await session.call_tool("ingest_document", RUST))
        found = structured(
            await session.call_tool(
                "search_documents", {"query": "memory safety without a garbage collector"}
            )
        )
        doc = structured(await session.call_tool("get_document", {"doc_id": added["doc_id"]}))
    assert added["status"] == "added" and added["chunks"] == 2
    assert found["results"][0]["doc_id"] == added["doc_id"]
    assert found["results"][0]["section"] == "Borrowing"
    assert [c["section"] for c in doc["chunks"]] == ["Borrowing", "Lifetimes"]
    assert doc["metadata"]["language"] == "rust"
    assert (settings.data_dir / "chroma").is_dir()


async def test_stdio_session_survives_a_bad_call_and_serves_the_next(settings: Settings) -> None:
    async with stdio_session("docs", settings) as session:
        structured(await session.call_tool("ingest_document", RUST))
        bad = await session.call_tool(
            "search_documents", {"query": "memory", "filters": {"colour": "red"}}
        )
        good = await session.call_tool("search_documents", {"query": "lifetimes of references"})
    assert bad.isError
    assert "unknown filter key 'colour'" in text_of(bad)
    assert structured(good)["results"][0]["section"] == "Lifetimes"


# --- streamable HTTP ----------------------------------------------------------------


def test_http_health_reports_status_tools_and_the_chunk_count(http_server: str) -> None:
    body = httpx.get(f"{http_server}/health", timeout=30).json()
    assert body["status"] == "ok"
    assert body["server"] == "marsa-documents"
    assert set(body["tools"]) == TOOLS
    assert body["embedder"] == "minilm-onnx"
    assert isinstance(body["chunks"], int) and body["chunks"] >= 0


async def test_http_health_chunk_count_grows_by_what_is_ingested(http_server: str) -> None:
    before = httpx.get(f"{http_server}/health", timeout=30).json()["chunks"]
    unique = uuid.uuid4().hex
    async with Client(f"{http_server}/mcp") as client:
        result = await client.call_tool(
            "ingest_document",
            {"title": f"Note {unique}", "content": f"# A\none {unique}\n# B\ntwo"},
        )
    after = httpx.get(f"{http_server}/health", timeout=30).json()["chunks"]
    assert isinstance(result.structured_content, dict)
    assert result.structured_content["chunks"] == 2
    assert after - before == 2


async def test_http_transport_ingests_and_searches(http_server: str) -> None:
    unique = f"zq{uuid.uuid4().hex[:10]}"
    async with Client(f"{http_server}/mcp") as client:
        added = await client.call_tool(
            "ingest_document",
            {"title": "Tide tables", "content": f"The moon drives the tides ({unique}) daily."},
        )
        found = await client.call_tool("search_documents", {"query": unique, "mode": "keyword"})
    assert isinstance(added.structured_content, dict)
    assert isinstance(found.structured_content, dict)
    hits = found.structured_content["results"]
    assert [h["doc_id"] for h in hits] == [added.structured_content["doc_id"]]
    assert unique in hits[0]["text"]


# --- a real Chroma server (chroma_url) ------------------------------------------------


def chroma_settings(url: str, data_dir: Path) -> Settings:
    """Settings on the Chroma server, in a collection no other test uses."""
    return Settings(data_dir=data_dir, chroma_url=url, collection=f"t_{uuid.uuid4().hex[:12]}")


@pytest.mark.chroma_server
async def test_chroma_server_store_ingests_and_searches(
    chroma_server: str, isolated_env: Path
) -> None:
    settings = chroma_settings(chroma_server, isolated_env)
    async with Client(create_server(DocsSettings.taken_from(settings))) as client:
        for doc in CORPUS:
            await client.call_tool("ingest_document", doc)
        found = await client.call_tool(
            "search_documents", {"query": "chloroplasts turn sunlight into glucose"}
        )
    assert isinstance(found.structured_content, dict)
    assert found.structured_content["results"][0]["title"] == "Photosynthesis"
    assert not (isolated_env / "chroma").exists()  # nothing went to the embedded store


@pytest.mark.chroma_server
async def test_a_second_server_on_the_same_chroma_url_sees_the_documents(
    chroma_server: str, tmp_path: Path
) -> None:
    settings = chroma_settings(chroma_server, tmp_path / "first")
    async with Client(create_server(DocsSettings.taken_from(settings))) as first:
        added = await first.call_tool("ingest_document", RUST)
    assert isinstance(added.structured_content, dict)
    # Another data directory too: what the second server sees can only come from Chroma.
    other = settings.model_copy(update={"data_dir": tmp_path / "second"})
    async with Client(create_server(DocsSettings.taken_from(other))) as second:
        listed = await second.call_tool("list_documents", {})
        found = await second.call_tool("search_documents", {"query": "borrowing and ownership"})
    assert isinstance(listed.structured_content, dict)
    assert isinstance(found.structured_content, dict)
    assert [d["doc_id"] for d in listed.structured_content["documents"]] == [
        added.structured_content["doc_id"]
    ]
    assert found.structured_content["results"][0]["title"] == "Rust ownership"


# --- an outside client: the MCP Inspector CLI over stdio ---------------------------------


def inspector_args(data_dir: Path, *method: str) -> list[str]:
    env = {
        "PYTHONPATH": REPO_ROOT,
        "MARSA_DATA_DIR": str(data_dir),
        "ANONYMIZED_TELEMETRY": "False",
        "FASTMCP_SHOW_CLI_BANNER": "false",
        "FASTMCP_SHOW_SERVER_BANNER": "false",
        "FASTMCP_CHECK_FOR_UPDATES": "off",
    }
    pairs = [item for key, value in env.items() for item in ("-e", f"{key}={value}")]
    return [*pairs, sys.executable, "-m", "mcp_servers.document_store", *method]


def tool_call(data_dir: Path, tool: str, *args: str) -> list[str]:
    call = ["--method", "tools/call", "--tool-name", tool, "--tool-arg", *args]
    return inspector_args(data_dir, *call)


@pytest.mark.outside
@pytest.mark.skipif(not inspector_available(), reason="npx is not installed")
def test_inspector_cli_lists_the_eight_tools(isolated_env: Path) -> None:
    code, payload, stderr = run_inspector(inspector_args(isolated_env, "--method", "tools/list"))
    assert code == 0, stderr
    assert {t["name"] for t in payload["tools"]} == TOOLS


@pytest.mark.outside
@pytest.mark.skipif(not inspector_available(), reason="npx is not installed")
def test_inspector_cli_searches_what_an_earlier_call_ingested(isolated_env: Path) -> None:
    content = "Rust guarantees memory safety without a garbage collector."
    code, added, stderr = run_inspector(
        tool_call(isolated_env, "ingest_document", "title=Rust notes", f"content={content}")
    )
    assert code == 0, stderr
    code, found, stderr = run_inspector(
        tool_call(isolated_env, "search_documents", "query=garbage collector")
    )
    assert code == 0, stderr
    hits = found["structuredContent"]["results"]
    assert hits[0]["doc_id"] == added["structuredContent"]["doc_id"]
    assert hits[0]["title"] == "Rust notes"


@pytest.mark.outside
@pytest.mark.skipif(not inspector_available(), reason="npx is not installed")
def test_inspector_cli_exits_non_zero_on_an_invalid_call(isolated_env: Path) -> None:
    code, payload, _ = run_inspector(
        tool_call(isolated_env, "search_documents", "query=anything", "n_results=0")
    )
    assert code != 0
    assert payload["isError"] is True
    assert "n_results" in payload["content"][0]["text"]
