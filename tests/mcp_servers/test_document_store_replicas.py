"""Several docs servers on one Chroma collection: what one writes, every other one finds (or
no longer finds) by keyword and semantic search, including a delete plus an add of the same
size, which leaves the chunk count as it was. In process over one embedded Chroma, and as
two real server processes over streamable HTTP on a real ``chroma run`` server."""

from __future__ import annotations

import asyncio
import time
import uuid
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest
from fastmcp import Client

from backend.config import Settings
from marsa_common.embeddings import make_embedder
from mcp_servers.document_store.ingest import Document
from mcp_servers.document_store.settings import DocsSettings
from mcp_servers.document_store.store import DocumentStore
from tests.helpers import http_mcp_server

DEADLINE_S = 30.0


def note(word: str, topic: str) -> dict[str, str]:
    """A one-chunk document carrying a word found nowhere else."""
    return {
        "title": f"Note on {topic}",
        "content": f"Field notes about {topic}. The marker word is {word}, seen only here.",
    }


# --- in process: two stores on one embedded Chroma -----------------------------------


def document(word: str, topic: str) -> Document:
    return Document(**note(word, topic), source=f"{topic}.md")


def test_a_delete_and_an_add_of_the_same_size_elsewhere_reach_this_stores_keyword_search(
    settings: Settings,
) -> None:
    docs = DocsSettings.taken_from(settings)
    embedder = make_embedder("minilm-onnx")
    writer = DocumentStore(docs, embedder=embedder)
    reader = DocumentStore(docs, embedder=embedder)  # its own keyword index, same collection
    old_word, new_word = f"zq{uuid.uuid4().hex[:8]}", f"zq{uuid.uuid4().hex[:8]}"
    [old] = writer.ingest([document(old_word, "glaciers")])
    assert [h.doc_id for h in reader.search(old_word, mode="keyword")] == [old.doc_id]
    count = reader.count()

    writer.delete(old.doc_id)
    [new] = writer.ingest([document(new_word, "moraines")])

    assert reader.count() == count  # what a count check would have compared
    assert reader.search(old_word, mode="keyword") == []
    assert [h.doc_id for h in reader.search(new_word, mode="keyword")] == [new.doc_id]


def test_every_ingest_and_delete_replaces_the_change_marker(settings: Settings) -> None:
    store = DocumentStore(DocsSettings.taken_from(settings), embedder=make_embedder("minilm-onnx"))
    seen = [store.changes.read()]
    [added] = store.ingest([document("basalt", "lava")])
    seen.append(store.changes.read())
    store.ingest([document("basalt", "lava")])  # unchanged: still a write attempt
    seen.append(store.changes.read())
    store.delete(added.doc_id)
    seen.append(store.changes.read())
    assert seen[0] is None
    assert len(set(seen)) == 4


# --- real processes: two docs servers over HTTP on a Chroma server -------------------------


async def hits(client: Client, query: str, mode: str) -> list[str]:
    result = await client.call_tool("search_documents", {"query": query, "mode": mode})
    assert isinstance(result.structured_content, dict)
    return [h["doc_id"] for h in result.structured_content["results"]]


async def seconds_until(check: Callable[[], Awaitable[bool]]) -> float:
    """How long until ``check`` holds, polled until DEADLINE_S passes."""
    start = time.monotonic()
    while not await check():
        if time.monotonic() - start > DEADLINE_S:
            raise TimeoutError(f"not seen within {DEADLINE_S}s")
        await asyncio.sleep(0.1)
    return time.monotonic() - start


async def doc_id_of(client: Client, tool: str, args: dict[str, Any]) -> str:
    result = await client.call_tool(tool, args)
    assert isinstance(result.structured_content, dict)
    return str(result.structured_content["doc_id"])


@pytest.mark.chroma_server
async def test_what_one_replica_ingests_or_deletes_the_other_finds_or_not(
    chroma_server: str, tmp_path: Path
) -> None:
    base = Settings(
        data_dir=tmp_path / "one", chroma_url=chroma_server, collection=f"r_{uuid.uuid4().hex[:12]}"
    )
    other = base.model_copy(update={"data_dir": tmp_path / "two"})
    old_word, new_word = f"zq{uuid.uuid4().hex[:8]}", f"zq{uuid.uuid4().hex[:8]}"
    with (
        http_mcp_server("mcp_servers.document_store", base) as one_url,
        http_mcp_server("mcp_servers.document_store", other) as two_url,
    ):
        async with Client(f"{one_url}/mcp") as one, Client(f"{two_url}/mcp") as two:
            assert await hits(two, old_word, "keyword") == []  # replica 2 has built its index
            old = await doc_id_of(one, "ingest_document", note(old_word, "glaciers"))

            async def two_finds_old() -> bool:
                return await hits(two, old_word, "keyword") == [old]

            seen_add = await seconds_until(two_finds_old)
            semantic = await hits(two, "notes about glaciers", "semantic")
            assert semantic[:1] == [old]

            deleted = await one.call_tool("delete_document", {"doc_id": old})
            assert not deleted.is_error
            new = await doc_id_of(one, "ingest_document", note(new_word, "moraines"))

            async def two_finds_new() -> bool:
                return await hits(two, new_word, "keyword") == [new]

            seen_swap = await seconds_until(two_finds_new)
            assert await hits(two, old_word, "keyword") == []
            assert old not in await hits(two, "notes about glaciers", "semantic")
    print(f"replica 2 saw the add after {seen_add:.2f}s, the delete+add after {seen_swap:.2f}s")
