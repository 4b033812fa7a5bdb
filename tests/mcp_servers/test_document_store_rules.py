"""The document store's MCP tools refuse what the REST API refuses (one set of rules,
marsa_common/validation.py), and say what they did."""

from __future__ import annotations

import base64
from collections.abc import AsyncIterator
from typing import Any

import pytest
from fastmcp import Client
from fastmcp.exceptions import ToolError

from backend.config import Settings
from marsa_common import validation
from mcp_servers.document_store import create_server
from mcp_servers.document_store.settings import DocsSettings

BAD_DOCUMENTS: list[tuple[dict[str, Any], str]] = [
    ({"title": "t", "content": "c", "source_url": "javascript:alert(1)"}, "http"),
    ({"title": "t", "content": "c", "source_url": "data:text/html,<b>x</b>"}, "http"),
    ({"title": "t", "content": "c", "source_url": "https://x.org/\x00"}, "NUL"),
    ({"title": "t\x00", "content": "c"}, "NUL"),
    ({"title": "t", "content": "c\x00c"}, "NUL"),
    ({"title": " \u3000\x1c", "content": "c"}, "blank"),
    ({"title": "t", "content": "\n\t "}, "blank"),
]
"""Documents both paths refuse, with a word the reason must hold (the REST API's tests use
the same list: tests/backend/api/test_documents_api.py)."""


@pytest.fixture
async def client(settings: Settings) -> AsyncIterator[Client]:
    async with Client(create_server(DocsSettings.taken_from(settings))) as c:
        yield c


async def total(client: Client) -> int:
    return int((await client.call_tool("list_documents", {})).structured_content["total"])


@pytest.mark.parametrize(("document", "reason"), BAD_DOCUMENTS)
async def test_ingest_document_refuses_what_the_rest_api_refuses(
    client: Client, document: dict[str, Any], reason: str
) -> None:
    with pytest.raises(ToolError, match=reason):
        await client.call_tool("ingest_document", document)
    assert await total(client) == 0


async def test_ingest_document_refuses_a_date_that_is_not_a_day(client: Client) -> None:
    with pytest.raises(ToolError, match="YYYY-MM-DD"):
        await client.call_tool(
            "ingest_document",
            {"title": "t", "content": "c", "metadata": {"published_date": "2024-02-30"}},
        )
    assert await total(client) == 0


@pytest.mark.parametrize(
    ("args", "reason"),
    [
        ({"filename": "empty.md", "data_base64": ""}, "empty"),
        ({"filename": "\x00.md", "data_base64": base64.b64encode(b"# A").decode()}, "NUL"),
        ({"filename": "blank.md", "data_base64": base64.b64encode(b"  \n ").decode()}, "no"),
    ],
)
async def test_ingest_file_refuses_a_file_with_nothing_in_it(
    client: Client, args: dict[str, Any], reason: str
) -> None:
    with pytest.raises(ToolError, match=reason):
        await client.call_tool("ingest_file", args)
    assert await total(client) == 0


async def test_an_unchanged_document_reports_the_chunks_it_has(settings: Settings) -> None:
    settings = settings.model_copy(update={"chunk_words": 40, "chunk_overlap": 0})
    content = "\n\n".join(f"Paragraph {n} " + "word " * 39 for n in range(13))
    async with Client(create_server(DocsSettings.taken_from(settings))) as client:
        first = (
            await client.call_tool("ingest_document", {"title": "Long", "content": content})
        ).structured_content
        again = (
            await client.call_tool("ingest_document", {"title": "Long", "content": content})
        ).structured_content
    assert first["chunks"] > 1
    assert again["status"] == "unchanged" and again["chunks"] == first["chunks"]


async def test_a_document_twice_in_one_file_reports_its_chunks_both_times(
    client: Client,
) -> None:
    line = b'{"title": "Twin", "content": "Two copies of one line."}\n'
    result = (
        await client.call_tool(
            "ingest_file",
            {"filename": "twins.jsonl", "data_base64": base64.b64encode(line * 2).decode()},
        )
    ).structured_content
    statuses = [(d["status"], d["chunks"]) for d in result["documents"]]
    assert sorted(statuses) == [("added", 1), ("unchanged", 1)]


@pytest.mark.parametrize("value", [[["rust"]], {"$in": ["rust"]}, [[[[[[[[[[[["rust"]]]]]]]]]]]]])
async def test_a_nested_filter_value_is_refused_with_what_to_send(
    client: Client, value: Any
) -> None:
    with pytest.raises(ToolError, match="no nested lists or objects"):
        await client.call_tool("search_documents", {"query": "q", "filters": {"language": value}})


async def test_the_filters_schema_bounds_their_number(client: Client) -> None:
    tools = {t.name: t for t in await client.list_tools()}
    filters = tools["search_documents"].inputSchema["properties"]["filters"]
    assert validation.MAX_FILTER_KEYS in [
        branch.get("maxProperties") for branch in [filters, *filters.get("anyOf", [])]
    ]
    many = {f"key{n}": "x" for n in range(validation.MAX_FILTER_KEYS + 1)}
    with pytest.raises(ToolError):
        await client.call_tool("search_documents", {"query": "q", "filters": many})


def test_blank_is_what_str_strip_removes() -> None:
    every = "".join(chr(c) for c in range(0x110000) if chr(c).isspace())
    assert every == validation.WHITESPACE


def test_depth_counts_lists_and_objects_and_stops_past_the_limit() -> None:
    deep: Any = "x"
    for _ in range(10_000):
        deep = [deep]
    assert validation.depth("x") == 0
    assert validation.depth({"a": [1, {"b": "c"}]}) == 3
    assert validation.depth(deep, limit=32) == 33
