"""Replacing a document is safe at every point: the old version stays found and listed until
the new one is whole, a partial version never passes for complete, and the next ingestion of
the file repairs what a failure left. In process (a failing embedder, a crash simulated at a
chosen call) and as a real server process killed with SIGKILL mid-replacement."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler
from typing import Any

import httpx
import numpy as np
import pytest
from fastmcp import Client

from backend.config import Settings
from backend.mcp_client import server_env
from marsa_common.embeddings import Embedder, EmbedderError, make_embedder
from mcp_servers.document_store import create_server
from mcp_servers.document_store.ingest import Document, chunk_text
from mcp_servers.document_store.settings import DocsSettings
from mcp_servers.document_store.store import ADD_BATCH, DocumentStore
from tests.fakes.embeddings_api import vector_for
from tests.fakes.loopback import base_url, close, serve
from tests.helpers import REPO_ROOT, free_port, running_process

SOURCE = "https://notes.example.org/volcanoes.md"


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
    return DocumentStore(DocsSettings.taken_from(settings), embedder=embedder, add_batch=4)


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


async def test_a_document_given_the_text_of_another_is_replaced_not_taken_as_that_one(
    small: Settings, flaky: Flaky
) -> None:
    store = open_store(small, flaky)
    twin = "https://notes.example.org/volcanoes-copy.md"
    store.ingest([OLD])
    store.ingest([NEW])
    store.ingest([Document(title="Volcanoes", content=OLD.content, source=twin)])
    [result] = store.ingest([Document(title="Volcanoes", content=NEW.content, source=twin)])
    [again] = store.ingest([Document(title="Volcanoes", content=NEW.content, source=twin)])
    docs, new_hits = await shown(store, "obsidian")
    _, old_hits = await shown(store, "basalt")
    assert (result.status, result.chunks, result.source) == ("replaced", 12, twin)
    assert (again.status, again.doc_id, again.chunks) == ("unchanged", result.doc_id, 12)
    assert sorted((d["source"], d["chunks"]) for d in docs) == [(twin, 12), (SOURCE, 12)]
    assert len(new_hits) == 24 and old_hits == []


# --- a real server process, killed with SIGKILL mid-replacement ------------------------------


class GatedEmbeddings:
    """OpenAI's embeddings API on 127.0.0.1 that can hold a request: once armed with ``n``,
    the first request arriving after ``n`` texts were answered waits, and ``held`` is set."""

    def __init__(self) -> None:
        self.answered = 0
        self.hold_after: int | None = None
        self.held = threading.Event()
        self.release = threading.Event()
        self._lock = threading.Lock()
        gate = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, format: str, *args: Any) -> None:  # noqa: A002
                """Quiet."""

            def do_POST(self) -> None:  # noqa: N802 (http.server's naming)
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                texts = list(body["input"])
                with gate._lock:
                    hold = gate.hold_after is not None and gate.answered >= gate.hold_after
                    if not hold:
                        gate.answered += len(texts)
                if hold:
                    gate.held.set()
                    gate.release.wait(timeout=120)
                    return  # the client is gone by now
                data = [{"index": i, "embedding": vector_for(t)} for i, t in enumerate(texts)]
                payload = json.dumps({"object": "list", "data": data}).encode()
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(payload)))
                self.end_headers()
                self.wfile.write(payload)

        self._server = serve(Handler)

    @property
    def url(self) -> str:
        return base_url(self._server)

    def arm(self, hold_after: int) -> None:
        with self._lock:
            self.answered, self.hold_after = 0, hold_after

    def stop(self) -> None:
        self.release.set()
        close(self._server)


@pytest.fixture
def gate() -> Iterator[GatedEmbeddings]:
    embeddings = GatedEmbeddings()
    yield embeddings
    embeddings.stop()


@contextmanager
def docs_process(settings: Settings) -> Iterator[tuple[Any, str]]:
    """``python -m mcp_servers.document_store --transport http`` with the client's env."""
    port = free_port()
    env = {**server_env("docs", settings), "PYTHONPATH": REPO_ROOT}
    command = [sys.executable, "-m", "mcp_servers.document_store", "--transport", "http"]
    command += ["--port", str(port)]
    url = f"http://127.0.0.1:{port}"
    with running_process(command, f"{url}/health", env) as proc:
        yield proc, url


def call_tool(url: str, tool: str, **args: Any) -> dict[str, Any]:
    async def go() -> Any:
        async with Client(f"{url}/mcp", timeout=300) as client:
            return (await client.call_tool(tool, args)).structured_content

    result = asyncio.run(go())
    assert isinstance(result, dict)
    return result


def raw_call(url: str, tool: str, args: dict[str, Any]) -> None:
    """One tools/call over streamable HTTP with plain httpx, which fails as soon as the
    server's socket closes (an MCP client would keep its session waiting)."""
    headers = {"Accept": "application/json, text/event-stream"}
    hello = {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t"}}
    with httpx.Client(base_url=url, timeout=300) as http:
        opened = http.post(
            "/mcp",
            headers=headers,
            json={"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": hello},
        )
        opened.raise_for_status()
        headers["mcp-session-id"] = opened.headers["mcp-session-id"]
        http.post(
            "/mcp", headers=headers, json={"jsonrpc": "2.0", "method": "notifications/initialized"}
        ).raise_for_status()
        call = {"name": tool, "arguments": args}
        http.post(
            "/mcp",
            headers=headers,
            json={"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": call},
        ).raise_for_status()


BIG = 2 * ADD_BATCH + 100  # chunks: three batches of the real batch size
BIG_NEW = {"title": "Volcanoes", "content": content("obsidian", BIG), "source_url": SOURCE}
OLD_DOC = {"title": "Volcanoes", "content": content("basalt", 30), "source_url": SOURCE}


def shown_by(url: str) -> tuple[list[tuple[str, int]], list[str], list[str]]:
    """(listed documents as (title, chunks), texts found for basalt, for obsidian)."""
    listed = call_tool(url, "list_documents")["documents"]
    found = {
        word: [
            hit["text"]
            for hit in call_tool(url, "search_documents", query=word, mode="keyword", n_results=50)[
                "results"
            ]
        ]
        for word in ("basalt", "obsidian")
    }
    return [(d["title"], d["chunks"]) for d in listed], found["basalt"], found["obsidian"]


def _gated_small_chunks(settings: Settings, gate: GatedEmbeddings) -> Settings:
    """Settings whose server embeds through the gate, in chunks of 20 words."""
    return settings.model_copy(
        update={
            "embedder": "openai:gated",
            "embedder_base_url": gate.url,
            "chunk_words": 20,
            "chunk_overlap": 0,
        }
    )


@pytest.mark.parametrize("batches_written", [0, 1, 2])
def test_a_server_killed_mid_replacement_shows_the_old_version_and_the_next_ingest_repairs_it(
    settings: Settings, gate: GatedEmbeddings, batches_written: int
) -> None:
    small = _gated_small_chunks(settings, gate)
    with docs_process(small) as (proc, url):
        assert call_tool(url, "ingest_document", **OLD_DOC)["chunks"] == 30
        gate.arm(hold_after=batches_written * ADD_BATCH)
        outcome: list[httpx.HTTPError] = []

        def replace() -> None:
            try:
                raw_call(url, "ingest_document", BIG_NEW)
            except httpx.HTTPError as exc:  # the server dies under the call: that is the point
                outcome.append(exc)

        writer = threading.Thread(target=replace)
        writer.start()
        deadline = time.monotonic() + 120
        while not gate.held.wait(timeout=0.1):
            assert writer.is_alive(), f"the call ended before the held batch: {outcome}"
            assert time.monotonic() < deadline, "the server never asked for the held batch"
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(timeout=30)
        gate.release.set()
        writer.join(timeout=60)
    assert not writer.is_alive() and len(outcome) == 1  # the call died with the server
    gate.hold_after = None
    with docs_process(small) as (_, url):
        listed, basalt, obsidian = shown_by(url)
        assert listed == [("Volcanoes", 30)]
        assert len(basalt) == 30 and obsidian == []
        result = call_tool(url, "ingest_document", **BIG_NEW)
        listed, basalt, obsidian = shown_by(url)
        chunks = httpx.get(f"{url}/health", timeout=30).json()["chunks"]
    assert (result["status"], result["chunks"]) == ("replaced", BIG)
    assert listed == [("Volcanoes", BIG)]
    assert basalt == [] and len(obsidian) == 50
    assert chunks == BIG  # nothing of the old version or the killed attempt is left


def test_a_replacement_answered_before_a_kill_is_the_version_listed_after_the_restart(
    settings: Settings, gate: GatedEmbeddings
) -> None:
    """The hostile bench's fault: two files, the second given the text the first already has;
    the server is killed as soon as that replacement is answered."""
    small = _gated_small_chunks(settings, gate)
    twin = "https://notes.example.org/volcanoes-copy.md"
    new = {"title": "Volcanoes", "content": content("obsidian", 60), "source_url": SOURCE}
    with docs_process(small) as (proc, url):
        call_tool(url, "ingest_document", **OLD_DOC)
        call_tool(url, "ingest_document", **new)
        call_tool(url, "ingest_document", **{**OLD_DOC, "source_url": twin})
        answered = call_tool(url, "ingest_document", **{**new, "source_url": twin})
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(timeout=30)
    with docs_process(small) as (_, url):
        listed = call_tool(url, "list_documents")["documents"]
        again = call_tool(url, "ingest_document", **{**new, "source_url": twin})
    assert {d["source"]: d["chunks"] for d in listed} == {SOURCE: 60, twin: 60}
    assert (answered["status"], answered["chunks"]) == ("replaced", 60)
    assert answered["doc_id"] in [d["doc_id"] for d in listed if d["source"] == twin]
    assert (again["status"], again["doc_id"], again["chunks"]) == (
        "unchanged",
        answered["doc_id"],
        60,
    )
