"""The document-store server in memory (fastmcp.Client) over a real ChromaDB in a temp dir."""

from __future__ import annotations

import base64
import io
from collections.abc import AsyncIterator
from typing import Any

import pytest
from fastmcp import Client
from fastmcp.exceptions import ToolError

from backend.config import Settings
from mcp_servers.document_store import create_server
from mcp_servers.document_store.settings import DocsSettings
from tests.mcp_servers.docs_fixtures import CORPUS


@pytest.fixture
async def client(settings: Settings) -> AsyncIterator[Client]:
    async with Client(create_server(DocsSettings.taken_from(settings))) as c:
        yield c


async def call(client: Client, tool: str, **args: Any) -> Any:
    return (await client.call_tool(tool, args)).structured_content


async def ingest_corpus(client: Client) -> list[dict[str, Any]]:
    return [await call(client, "ingest_document", **doc) for doc in CORPUS]


def b64(data: bytes) -> str:
    return base64.b64encode(data).decode()


def make_pdf(text: str) -> bytes:
    from reportlab.pdfgen import canvas

    buffer = io.BytesIO()
    pdf = canvas.Canvas(buffer)
    pdf.setTitle("A PDF about tides")
    pdf.drawString(72, 720, text)
    pdf.save()
    return buffer.getvalue()


async def test_tools_list_input_and_output_schemas_and_read_only_hints(client: Client) -> None:
    tools = {t.name: t for t in await client.list_tools()}
    expected = {
        "search_documents",
        "ingest_document",
        "ingest_file",
        "list_documents",
        "get_document",
        "get_context",
        "list_topics",
        "delete_document",
    }
    assert expected <= set(tools)
    for name in expected:
        assert tools[name].outputSchema, name
        assert tools[name].inputSchema["properties"] or name == "list_topics"
    for name in (
        "search_documents",
        "list_documents",
        "get_document",
        "get_context",
        "list_topics",
    ):
        assert tools[name].annotations and tools[name].annotations.readOnlyHint is True
    assert not (
        tools["ingest_document"].annotations and tools["ingest_document"].annotations.readOnlyHint
    )
    n_results = tools["search_documents"].inputSchema["properties"]["n_results"]
    assert n_results["minimum"] == 1 and n_results["maximum"] == 50


async def test_search_finds_the_relevant_document_with_provenance(client: Client) -> None:
    await ingest_corpus(client)
    found = await call(
        client,
        "search_documents",
        query="which language guarantees memory safety without a garbage collector?",
        n_results=3,
    )
    top = found["results"][0]
    assert top["title"] == "Rust ownership"
    assert top["section"] == "Borrowing"
    assert top["source"] == "https://doc.rust-lang.org/book/ownership.html"
    assert top["chunk_id"].startswith(top["doc_id"] + ":")
    assert "garbage collector" in top["text"]


@pytest.mark.parametrize("mode", ["semantic", "keyword", "hybrid"])
async def test_every_mode_ranks_the_matching_document_first(client: Client, mode: str) -> None:
    await ingest_corpus(client)
    found = await call(client, "search_documents", query="chloroplasts glucose sunlight", mode=mode)
    assert found["mode"] == mode
    assert found["results"][0]["title"] == "Photosynthesis"


async def test_keyword_mode_returns_nothing_for_words_no_document_has(client: Client) -> None:
    await ingest_corpus(client)
    found = await call(client, "search_documents", query="zyxwvut", mode="keyword")
    assert found["results"] == []


async def test_keyword_mode_finds_a_release_by_its_number(client: Client) -> None:
    for version, change in (("1.3.0", "Support for Python 3.9"), ("1.4.0", "Support for pytest 9")):
        await call(
            client,
            "ingest_document",
            title=f"Release {version}",
            content=f"# Changelog\n## {version} - 2025-11-10\n### Removed\n- {change}\n",
        )
    # ("1.4.0" and "3.9" are single-character pieces to a tokeniser of words)
    found = await call(client, "search_documents", query="what changed in 1.4.0", mode="keyword")
    assert [r["title"] for r in found["results"]] == ["Release 1.4.0"]
    found = await call(client, "search_documents", query="Python 3.9", mode="keyword")
    assert found["results"][0]["title"] == "Release 1.3.0"


async def test_filters_restrict_by_metadata_and_date_range(client: Client) -> None:
    await ingest_corpus(client)
    by_key = await call(client, "search_documents", query="memory", filters={"language": "python"})
    assert {r["title"] for r in by_key["results"]} == {"Python garbage collection"}
    any_of = await call(
        client,
        "search_documents",
        query="memory",
        filters={"language": ["python", "none"]},
        n_results=10,
    )
    assert {r["title"] for r in any_of["results"]} == {
        "Python garbage collection",
        "Photosynthesis",
    }
    recent = await call(
        client,
        "search_documents",
        query="memory",
        n_results=10,
        filters={"date_from": "2022-01-01", "date_to": "2023-12-31"},
    )
    assert {r["title"] for r in recent["results"]} == {"Python garbage collection"}


async def test_unknown_filter_key_is_an_error_that_lists_the_keys(client: Client) -> None:
    await ingest_corpus(client)
    with pytest.raises(ToolError, match="unknown filter key 'colour'.*language"):
        await client.call_tool("search_documents", {"query": "x", "filters": {"colour": "red"}})


@pytest.mark.parametrize(
    "args",
    [
        {"query": ""},
        {"query": "   "},
        {"query": "x" * 10_000_000},
        {"query": "x", "n_results": 0},
        {"query": "x", "n_results": 10_000},
        {"query": "x", "mode": "psychic"},
        {"query": "x", "filters": {"date_from": "last tuesday"}},
    ],
)
async def test_bad_search_input_is_a_tool_error_and_the_server_keeps_serving(
    client: Client, args: dict[str, Any]
) -> None:
    await ingest_corpus(client)
    with pytest.raises(ToolError):
        await client.call_tool("search_documents", args)
    after = await call(client, "list_documents")
    assert after["total"] == len(CORPUS)


async def test_ingesting_the_same_content_again_adds_nothing(client: Client) -> None:
    first = await ingest_corpus(client)
    again = await ingest_corpus(client)
    assert [r["status"] for r in first] == ["added"] * len(CORPUS)
    assert [r["status"] for r in again] == ["unchanged"] * len(CORPUS)
    assert [r["doc_id"] for r in again] == [r["doc_id"] for r in first]
    assert (await call(client, "list_documents"))["total"] == len(CORPUS)


async def test_new_content_for_the_same_source_replaces_the_old_version(client: Client) -> None:
    doc = dict(CORPUS[1])
    first = await call(client, "ingest_document", **doc)
    doc["content"] = "CPython 3.14 adds an incremental garbage collector."
    second = await call(client, "ingest_document", **doc)
    assert second["status"] == "replaced" and second["doc_id"] == first["doc_id"]
    whole = await call(client, "get_document", doc_id=first["doc_id"])
    assert [c["text"] for c in whole["chunks"]] == [doc["content"]]


async def test_get_document_returns_all_chunks_in_order_with_metadata(client: Client) -> None:
    added = await ingest_corpus(client)
    whole = await call(client, "get_document", doc_id=added[0]["doc_id"])
    assert [c["index"] for c in whole["chunks"]] == list(range(len(whole["chunks"])))
    assert [c["section"] for c in whole["chunks"]] == ["Borrowing", "Lifetimes"]
    assert whole["published_date"] == "2024-03-01"
    assert whole["metadata"]["language"] == "rust"


async def test_get_context_returns_the_neighbouring_chunks(settings: Settings) -> None:
    long_text = "\n".join(
        f"## Part {i}\n" + " ".join(f"word{i}x{j}" for j in range(30)) for i in range(6)
    )
    async with Client(create_server(DocsSettings.taken_from(settings))) as client:
        added = await call(client, "ingest_document", title="Long", content=long_text)
        whole = await call(client, "get_document", doc_id=added["doc_id"])
        center = whole["chunks"][3]["chunk_id"]
        window = await call(client, "get_context", chunk_id=center, window=1)
        assert [c["index"] for c in window["chunks"]] == [2, 3, 4]
        with pytest.raises(ToolError, match="no chunk"):
            await client.call_tool("get_context", {"chunk_id": f"{added['doc_id']}:0099"})


async def test_list_topics_counts_sources_and_sections(client: Client) -> None:
    await ingest_corpus(client)
    topics = (await call(client, "list_topics"))["topics"]
    sources = {t["name"]: t["chunks"] for t in topics if t["kind"] == "source"}
    sections = {t["name"] for t in topics if t["kind"] == "section"}
    assert sources["https://doc.rust-lang.org/book/ownership.html"] == 2
    assert {"Borrowing", "Lifetimes"} <= sections


async def test_ingest_file_reads_markdown_html_pdf_and_jsonl(client: Client) -> None:
    files = {
        "notes.md": b"---\ndate: 2025-02-03\n---\n# Tides\n"
        b"## Cause\nThe moon's gravity raises tides.",
        "page.html": b"<html><head><title>Volcanoes</title><script>alert(1)</script></head>"
        b"<body><h1>Volcanoes</h1><p>Magma rises through the crust.</p></body></html>",
        "paper.pdf": make_pdf("Spring tides happen at new and full moon."),
        "many.jsonl": b'{"id": "a1", "title": "Glaciers", "abstract": ["Ice flows.", "Slowly."]}\n'
        b'{"id": "a2", "title": "Deserts", "text": "Little rain falls."}\n',
    }
    statuses = {}
    for name, data in files.items():
        result = await call(client, "ingest_file", filename=name, data_base64=b64(data))
        statuses[name] = [d["status"] for d in result["documents"]]
    assert statuses == {
        "notes.md": ["added"],
        "page.html": ["added"],
        "paper.pdf": ["added"],
        "many.jsonl": ["added", "added"],
    }
    titles = {d["title"]: d for d in (await call(client, "list_documents"))["documents"]}
    assert {"Tides", "Volcanoes", "A PDF about tides", "Glaciers", "Deserts"} == set(titles)
    assert titles["Tides"]["published_date"] == "2025-02-03"
    html = await call(client, "get_document", doc_id=titles["Volcanoes"]["doc_id"])
    assert "alert" not in html["chunks"][0]["text"]
    pdf = await call(client, "search_documents", query="spring tides full moon", n_results=1)
    assert pdf["results"][0]["title"] == "A PDF about tides"


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ({"filename": "fake.pdf", "data_base64": b64(b"this is not a pdf")}, "not a PDF"),
        ({"filename": "broken.pdf", "data_base64": b64(b"%PDF-1.4 garbage")}, "PDF"),
        ({"filename": "x.exe", "data_base64": b64(b"MZ")}, "unsupported file type"),
        ({"filename": "x.md", "data_base64": "!!!not base64"}, "not valid base64"),
        ({"filename": "x.md"}, "exactly one"),
        ({"filename": "x.md", "path": "/nonexistent/x.md"}, "MARSA_DOCS_INGEST_ROOTS"),
        ({"filename": "bad.jsonl", "data_base64": b64(b'{"title": "t"}\nnot json\n')}, "content"),
    ],
)
async def test_bad_files_are_tool_errors_and_the_store_loses_nothing(
    client: Client, args: dict[str, Any], message: str
) -> None:
    await ingest_corpus(client)
    with pytest.raises(ToolError, match=message):
        await client.call_tool("ingest_file", args)
    assert (await call(client, "list_documents"))["total"] == len(CORPUS)
    found = await call(client, "search_documents", query="photosynthesis")
    assert found["results"][0]["title"] == "Photosynthesis"


async def test_delete_document_removes_it_from_every_search_mode(client: Client) -> None:
    added = await ingest_corpus(client)
    deleted = await call(client, "delete_document", doc_id=added[2]["doc_id"])
    assert deleted["chunks_deleted"] == 1
    for mode in ("semantic", "keyword", "hybrid"):
        found = await call(client, "search_documents", query="chloroplasts", mode=mode, n_results=5)
        assert "Photosynthesis" not in {r["title"] for r in found["results"]}
    with pytest.raises(ToolError, match="no document"):
        await client.call_tool("delete_document", {"doc_id": added[2]["doc_id"]})


async def test_store_persists_across_server_restarts(settings: Settings) -> None:
    async with Client(create_server(DocsSettings.taken_from(settings))) as first:
        await ingest_corpus(first)
    async with Client(create_server(DocsSettings.taken_from(settings))) as second:
        assert (await call(second, "list_documents"))["total"] == len(CORPUS)
        found = await call(second, "search_documents", query="ownership borrowing", mode="keyword")
        assert found["results"][0]["title"] == "Rust ownership"


async def test_each_tool_call_is_logged_as_one_json_line(
    settings: Settings, capsys: pytest.CaptureFixture[str]
) -> None:
    import json

    async with Client(create_server(DocsSettings.taken_from(settings))) as client:
        await ingest_corpus(client)
        await call(client, "search_documents", query="tides", n_results=2)
        with pytest.raises(ToolError):
            await client.call_tool("search_documents", {"query": "x" * 5000})
    lines = [
        json.loads(line) for line in capsys.readouterr().err.splitlines() if line.startswith("{")
    ]
    searches = [line for line in lines if line["tool"] == "search_documents"]
    assert searches[0]["result_count"] == 2 and searches[0]["duration_ms"] >= 0
    assert "ts" in searches[0]
    assert "error" in searches[1] and len(searches[1]["arguments"]["query"]) < 300
