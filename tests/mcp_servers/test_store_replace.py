"""Replacing a document is safe at every point: the old version stays found and listed until
the new one is whole, a partial version never passes for complete, and the next ingestion of
the file repairs what a failure left. In process (a failing embedder, a crash simulated at a
chosen call) and as a real server process killed with SIGKILL mid-replacement."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pytest
from fastmcp import Client

from backend.config import Settings
from mcp_servers.document_store import create_server
from mcp_servers.document_store.embeddings import Embedder, EmbedderError, make_embedder
from mcp_servers.document_store.ingest import Document, chunk_text
from mcp_servers.document_store.store import DocumentStore

SOURCE = "notes/volcanoes.md"


def content(topic: str, chunks: int) -> str:
    """Text that chunks into ``chunks`` windows of 20 words, every one naming ``topic``."""
    phrase = "{topic} layer{i} holds ten words of {topic} text right here"
    return " ".join(phrase.format(topic=topic, i=i) for i in range(chunks * 2))


OLD = Document(title="Volcanoes", content=content("basalt", 8), source=SOURCE)
NEW = Document(title="Volcanoes", content=content("obsidian", 12), source=SOURCE)


class SimulatedKill(BaseException):  # noqa: N818 (it stands for a process dying, not an error)
    """Stops the store where it stands, like SIGKILL: no except-Exception cleanup runs."""


@dataclass
class Flaky:
    """The real embedder, made to raise on a chosen call."""

    inner: Embedder
    fail_on: int | None = None  # 1-based count of calls from when it was armed
    error: BaseException = field(default_factory=lambda: EmbedderError("embedding server gone"))
    calls: int = 0

    @property
    def name(self) -> str:
        return self.inner.name

    def arm(self, fail_on: int, error: BaseException) -> None:
        self.fail_on, self.error, self.calls = fail_on, error, 0

    def embed(self, texts: list[str]) -> np.ndarray:
        self.calls += 1
        if self.fail_on is not None and self.calls == self.fail_on:
            self.fail_on = None
            raise self.error
        return self.inner.embed(texts)


@pytest.fixture
def small(settings: Settings) -> Settings:
    return settings.model_copy(update={"chunk_words": 20, "chunk_overlap": 0})


@pytest.fixture
def flaky(small: Settings) -> Flaky:
    return Flaky(make_embedder(small.embedder))


def open_store(settings: Settings, embedder: Flaky) -> DocumentStore:
    """A store writing 4 chunks a batch, so a 12-chunk document takes three."""
    return DocumentStore(settings, embedder=embedder, add_batch=4)


async def shown(store: DocumentStore, query: str) -> tuple[list[dict[str, Any]], list[str]]:
    """(list_documents entries, texts of the keyword hits for ``query``) through the tools."""
    async with Client(create_server(store.settings, store=store)) as client:
        listed = (await client.call_tool("list_documents", {})).structured_content
        found = (
            await client.call_tool(
                "search_documents", {"query": query, "mode": "keyword", "n_results": 50}
            )
        ).structured_content
    assert isinstance(listed, dict) and isinstance(found, dict)
    return listed["documents"], [hit["text"] for hit in found["results"]]


def assert_only_old_shown(docs: list[dict[str, Any]], old_hits: list[str], new_hits: list[str]):
    assert [(d["title"], d["chunks"]) for d in docs] == [("Volcanoes", 8)]
    assert len(old_hits) == 8 and all("basalt" in text for text in old_hits)
    assert new_hits == []


async def test_an_embedder_failing_mid_replacement_leaves_the_old_version_found_and_listed(
    small: Settings, flaky: Flaky
) -> None:
    store = open_store(small, flaky)
    store.ingest([OLD])
    flaky.arm(fail_on=2, error=EmbedderError("embedding server gone"))
    with pytest.raises(EmbedderError):
        store.ingest([NEW])
    docs, old_hits = await shown(store, "basalt")
    _, new_hits = await shown(store, "obsidian")
    assert_only_old_shown(docs, old_hits, new_hits)
    assert store.count() == 8  # the batch written before the failure was taken back


async def test_the_next_ingestion_after_a_failed_replacement_replaces_the_document(
    small: Settings, flaky: Flaky
) -> None:
    store = open_store(small, flaky)
    store.ingest([OLD])
    flaky.arm(fail_on=3, error=EmbedderError("embedding server gone"))
    with pytest.raises(EmbedderError):
        store.ingest([NEW])
    [result] = store.ingest([NEW])
    docs, new_hits = await shown(store, "obsidian")
    _, old_hits = await shown(store, "basalt")
    assert (result.status, result.chunks) == ("replaced", 12)
    assert [(d["title"], d["chunks"]) for d in docs] == [("Volcanoes", 12)]
    assert len(new_hits) == 12 and old_hits == []
    assert store.count() == 12


@pytest.mark.parametrize("killed_on", [1, 2, 3])
async def test_a_replacement_killed_between_batches_shows_the_old_version_after_a_restart(
    small: Settings, flaky: Flaky, killed_on: int
) -> None:
    store = open_store(small, flaky)
    store.ingest([OLD])
    flaky.arm(fail_on=killed_on, error=SimulatedKill())
    with pytest.raises(SimulatedKill):
        store.ingest([NEW])
    assert store.count() == 8 + 4 * (killed_on - 1)  # the batches written stay, unfinished
    restarted = open_store(small, Flaky(flaky.inner))
    docs, old_hits = await shown(restarted, "basalt")
    _, new_hits = await shown(restarted, "obsidian")
    assert_only_old_shown(docs, old_hits, new_hits)
    whole = restarted.document(docs[0]["doc_id"])
    assert [text for _, text, _ in whole] == [c.text for c in chunk_text(OLD.content, 20, 0)]


async def test_a_partial_version_left_by_a_kill_is_not_taken_as_unchanged(
    small: Settings, flaky: Flaky
) -> None:
    store = open_store(small, flaky)
    store.ingest([OLD])
    flaky.arm(fail_on=3, error=SimulatedKill())
    with pytest.raises(SimulatedKill):
        store.ingest([NEW])
    restarted = open_store(small, Flaky(flaky.inner))
    [result] = restarted.ingest([NEW])
    docs, new_hits = await shown(restarted, "obsidian")
    assert (result.status, result.chunks) == ("replaced", 12)
    assert [(d["title"], d["chunks"]) for d in docs] == [("Volcanoes", 12)]
    assert len(new_hits) == 12
    assert restarted.count() == 12  # the old version and the partial one are gone


class _CrashOnDelete:
    """A collection that dies at its first delete: after the new version is whole, before
    the old one is removed."""

    def __init__(self, collection: Any):
        self._collection = collection

    def __getattr__(self, name: str) -> Any:
        return getattr(self._collection, name)

    def delete(self, **_: Any) -> None:
        raise SimulatedKill()


async def test_a_kill_after_the_new_version_is_whole_shows_the_new_version_only(
    small: Settings, flaky: Flaky
) -> None:
    store = open_store(small, flaky)
    store.ingest([OLD])
    store.collection = _CrashOnDelete(store.collection)
    with pytest.raises(SimulatedKill):
        store.ingest([NEW])
    assert store.count() == 8 + 12  # both versions are stored
    restarted = open_store(small, Flaky(flaky.inner))
    docs, new_hits = await shown(restarted, "obsidian")
    _, old_hits = await shown(restarted, "basalt")
    assert [(d["title"], d["chunks"]) for d in docs] == [("Volcanoes", 12)]
    assert len(new_hits) == 12 and old_hits == []
    assert restarted.count() == 12  # opening it removed the replaced version


async def test_semantic_search_never_returns_a_chunk_of_an_unfinished_version(
    small: Settings, flaky: Flaky
) -> None:
    store = open_store(small, flaky)
    store.ingest([OLD])
    flaky.arm(fail_on=3, error=SimulatedKill())
    with pytest.raises(SimulatedKill):
        store.ingest([NEW])
    restarted = open_store(small, Flaky(flaky.inner))
    hits = restarted.search("obsidian layer holds text", n_results=50, mode="semantic")
    assert len(hits) == 8 and all("basalt" in hit.text for hit in hits)
