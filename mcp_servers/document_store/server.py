"""The document-store MCP server: ingest, search and read local documents."""

from __future__ import annotations

import os
import stat
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any

from fastmcp import FastMCP
from fastmcp.exceptions import ToolError
from pydantic import BeforeValidator, Field

from marsa_common import validation
from marsa_common.embeddings import EmbedderError
from marsa_common.files import MAX_FILE_BYTES, SUPPORTED_SUFFIXES
from mcp_servers.common.logging import ToolCallLogMiddleware
from mcp_servers.document_store.ingest import (
    LIFECYCLE_KEYS,
    Document,
    IngestError,
    load_bytes,
)
from mcp_servers.document_store.models import (
    ChunkOut,
    ContextWindow,
    DeleteResult,
    DocumentDetail,
    DocumentInfo,
    DocumentList,
    IngestFileResult,
    IngestResult,
    SearchHit,
    SearchMode,
    SearchResponse,
    TopicCount,
    TopicList,
)
from mcp_servers.document_store.search import FilterError, FilterValue
from mcp_servers.document_store.settings import DocsSettings
from mcp_servers.document_store.store import DocumentStore, StoreError

MAX_CONTENT_CHARS = validation.MAX_CONTENT_CHARS
READ_ONLY = {"readOnlyHint": True, "openWorldHint": False}
_DETAIL_KEYS = ("doc_id", "title", "source", "source_url", "published_date")


class _LazyStore:
    """Opens the store on first use, so starting the server and listing tools stay cheap."""

    def __init__(self, settings: DocsSettings, store: DocumentStore | None):
        self._settings = settings
        self._store = store
        self._lock = threading.Lock()

    def get(self) -> DocumentStore:
        if self._store is None:
            with self._lock:
                if self._store is None:
                    try:
                        self._store = DocumentStore(self._settings)
                    except (StoreError, EmbedderError) as exc:
                        raise ToolError(str(exc)) from exc
        return self._store


def _chunks_of(store: DocumentStore, doc_id: str) -> tuple[dict[str, Any], list[ChunkOut]]:
    rows = store.document(doc_id)
    if not rows:
        raise ToolError(f"no document with doc_id {doc_id!r}; list_documents shows the ids")
    chunks = [
        ChunkOut(
            chunk_id=cid, index=int(m["chunk_index"]), section=str(m.get("section", "")), text=text
        )
        for cid, text, m in rows
    ]
    return dict(rows[0][2]), chunks


_HIT_FACTS = ("relative_path", *LIFECYCLE_KEYS)


def _with_file_facts(store: DocumentStore, hits: list[SearchHit]) -> list[SearchHit]:
    """Hits with where their file sat (relative_path) and what the document says of itself
    (status, draft, deprecated, superseded_by), from the chunks' stored metadata."""
    indexed = store._indexed()
    facts = []
    for hit in hits:
        position = indexed.position.get(hit.chunk_id)
        meta = indexed.metadatas[position] if position is not None else {}
        facts.append(hit.model_copy(update={k: meta[k] for k in _HIT_FACTS if k in meta}))
    return facts


def _flat_filters(value: object) -> object:
    """Refuse nested lists in filters, and too many filters, with a plain message (the
    schema allows a value or a list of values; pydantic alone would list eight failed
    alternatives per level)."""
    if isinstance(value, dict):
        if len(value) > validation.MAX_FILTER_KEYS:
            raise ValueError(f"at most {validation.MAX_FILTER_KEYS} filters")
        for key, item in value.items():
            if isinstance(item, dict) or validation.depth(item, 1) > 1:
                raise ValueError(
                    f"filter {key!r} must be a string, number, boolean or a list of them "
                    "(no nested lists or objects)"
                )
    return value


FilterMap = Annotated[
    dict[str, FilterValue],
    BeforeValidator(_flat_filters),
    Field(json_schema_extra={"maxProperties": validation.MAX_FILTER_KEYS}),
]


def _checked(check: Callable[..., str], *args: object) -> str:
    try:
        return check(*args)
    except validation.InvalidInput as exc:
        raise ToolError(str(exc)) from None


def read_allowed_file(path: str, roots: list[str]) -> tuple[bytes, Path]:
    """The bytes of a file that lies, symbolic links followed, inside one of the roots, and
    its real path. Anything else is refused before the file is looked at, so a caller
    learns nothing about files outside the roots."""
    if not roots:
        raise ToolError(
            "this server reads no file by path: send the file's bytes in data_base64, or "
            "have the operator list the folders it may read in MARSA_DOCS_INGEST_ROOTS"
        )
    real = Path(path).expanduser().resolve()
    allowed = [Path(root).expanduser().resolve() for root in roots]
    if not any(real.is_relative_to(root) for root in allowed):
        raise ToolError(
            f"{path} is outside the folders this server may read "
            f"({', '.join(map(str, allowed))}); send the file's bytes in data_base64, or add "
            "its folder to MARSA_DOCS_INGEST_ROOTS"
        )
    try:
        # O_NOFOLLOW: a link put in place of the checked file after the check is not read.
        fd = os.open(
            real, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)
        )
    except OSError as exc:
        raise ToolError(f"{path} is not a readable file on the server's machine") from exc
    with os.fdopen(fd, "rb") as handle:
        if not stat.S_ISREG(os.fstat(handle.fileno()).st_mode):
            raise ToolError(f"{path} is not a readable file on the server's machine")
        data = handle.read(MAX_FILE_BYTES + 1)
    if len(data) > MAX_FILE_BYTES:
        raise ToolError(f"{path} is larger than {MAX_FILE_BYTES // 2**20} MiB; split it")
    return data, real


def create_server(
    settings: DocsSettings | None = None, store: DocumentStore | None = None
) -> FastMCP:
    """Build the server; tests pass their own settings or an open store."""
    settings = settings or DocsSettings()
    lazy = _LazyStore(settings, store)
    server = FastMCP(
        "marsa-documents",
        instructions="Local document store: search with search_documents, read a whole "
        "document with get_document, widen a hit with get_context.",
    )
    server.add_middleware(
        ToolCallLogMiddleware(
            "docs", settings.secrets(), settings.log_level, settings.server_log_dir
        )
    )

    @server.tool(annotations=READ_ONLY)
    def search_documents(
        query: Annotated[
            str,
            Field(min_length=1, max_length=2000, description="What to look for, in plain words."),
        ],
        n_results: Annotated[int, Field(ge=1, le=50, description="How many chunks to return.")] = 5,
        mode: Annotated[
            SearchMode, Field(description="semantic, keyword (BM25) or hybrid.")
        ] = "hybrid",
        filters: Annotated[
            FilterMap | None,
            Field(
                description="Metadata filters: {key: value} equality, {key: [v1, v2]} any of; "
                "date_from / date_to (YYYY-MM-DD) bound published_date. Keys: source, title, "
                "doc_id, section, source_type, and any metadata given at ingestion."
            ),
        ] = None,
    ) -> SearchResponse:
        """Search the ingested documents; each result carries doc_id, chunk_id, title, source,
        score and the chunk's text."""
        if not query.strip():
            raise ToolError("query is blank; give some words to search for")
        try:
            store = lazy.get()
            hits = store.search(query, n_results=n_results, mode=mode, filters=filters)
        except FilterError as exc:
            raise ToolError(str(exc)) from exc
        return SearchResponse(query=query, mode=mode, results=_with_file_facts(store, hits))

    @server.tool
    def ingest_document(
        title: Annotated[
            str,
            Field(
                min_length=1,
                max_length=validation.MAX_TITLE_CHARS,
                description="Not blank; no NUL characters.",
            ),
        ],
        content: Annotated[
            str,
            Field(
                min_length=1,
                max_length=MAX_CONTENT_CHARS,
                description="The document's text (Markdown headings become sections).",
            ),
        ],
        source_url: Annotated[
            str | None,
            Field(
                max_length=validation.MAX_URL_CHARS,
                description="The document's http:// or https:// address.",
            ),
        ] = None,
        metadata: Annotated[
            dict[str, str | int | float | bool] | None,
            Field(
                description="Extra facts to keep and filter on, "
                'e.g. {"published_date": "2024-05-01"}.'
            ),
        ] = None,
    ) -> IngestResult:
        """Add one document. The same content again adds nothing; new content for the same
        source_url replaces the old version. The REST API's rules apply
        (marsa_common/validation.py): title and content not blank and without NUL, an
        http(s) source_url, published_date as YYYY-MM-DD."""
        title = _checked(validation.text, "title", title, validation.MAX_TITLE_CHARS)
        _checked(validation.text, "content", content, MAX_CONTENT_CHARS)
        if source_url is not None:
            source_url = _checked(validation.source_url, source_url)
        meta = dict(metadata or {})
        date = meta.pop("published_date", None)
        doc = Document(
            title=title,
            content=content,
            source=source_url or f"text:{title}",
            source_url=source_url,
            metadata=meta,
            published_date=None if date is None else _checked(validation.published_date, date),
        )
        try:
            return lazy.get().ingest([doc])[0]
        except (IngestError, FilterError) as exc:
            raise ToolError(str(exc)) from exc

    @server.tool
    def ingest_file(
        filename: Annotated[
            str,
            Field(
                min_length=1,
                max_length=500,
                description="The file's name; its extension picks the format ("
                + " ".join(sorted(SUPPORTED_SUFFIXES))
                + ").",
            ),
        ],
        data_base64: Annotated[
            str | None,
            Field(
                max_length=MAX_FILE_BYTES * 4 // 3 + 4,
                description=("The file's bytes, base64-encoded."),
            ),
        ] = None,
        path: Annotated[
            str | None,
            Field(
                max_length=4000,
                description="A path on the server's machine to read instead of data_base64; "
                "only inside the folders the server is configured to read "
                "(MARSA_DOCS_INGEST_ROOTS).",
            ),
        ] = None,
        relative_path: Annotated[
            str | None,
            Field(
                min_length=1,
                max_length=1000,
                description="Where the file sits in the folder it was ingested from "
                "(e.g. guide/intro.md); search results show it. Default: its name.",
            ),
        ] = None,
    ) -> IngestFileResult:
        """Add a file: Markdown or MDX, reStructuredText, text, HTML, PDF, Word (.docx), or
        JSON lines (one document a line). A file that holds something, but no text to
        search (an include line only), adds no document."""
        if (data_base64 is None) == (path is None):
            raise ToolError("give exactly one of data_base64 or path")
        _checked(validation.filename, Path(filename).name)
        shown = relative_path or Path(filename).name
        if path is not None:
            data, real = read_allowed_file(path, settings.docs_ingest_roots)
            source = str(real)
        else:
            try:
                data = validation.file_bytes(data_base64 or "")
            except validation.InvalidInput as exc:
                raise ToolError(str(exc)) from None
            # Two files of one name in different folders are two documents, not one replaced.
            source = relative_path or filename
        try:
            docs = load_bytes(data, filename, source)
            for doc in docs:
                doc.metadata["relative_path"] = shown
            kept = [doc for doc in docs if doc.content.strip()]
            if not kept and not data.strip():
                raise IngestError(f"{filename} holds no document (no text was found in it)")
            # A file with something in it but no text to search (an include line only, a page
            # of directives) adds nothing; the caller names it ("nothing indexed").
            results = lazy.get().ingest(kept) if kept else []
        except IngestError as exc:
            raise ToolError(str(exc)) from exc
        return IngestFileResult(filename=filename, documents=results)

    @server.tool(annotations=READ_ONLY)
    def list_documents(
        limit: Annotated[int, Field(ge=1, le=1000)] = 100,
        offset: Annotated[int, Field(ge=0)] = 0,
    ) -> DocumentList:
        """The documents in the store, one entry each, newest ingestion first."""
        docs: dict[str, DocumentInfo] = {}
        indexed = lazy.get()._indexed()
        for meta in indexed.metadatas:
            doc_id = str(meta["doc_id"])
            info = docs.get(doc_id)
            if info is None:
                docs[doc_id] = DocumentInfo(
                    doc_id=doc_id,
                    title=str(meta.get("title", "")),
                    source=str(meta.get("source", "")),
                    source_url=meta.get("source_url"),
                    published_date=meta.get("published_date"),
                    chunks=1,
                    word_count=int(meta.get("doc_word_count", 0)),
                    ingested_at=str(meta.get("ingested_at", "")),
                )
            else:
                info.chunks += 1
        ordered = sorted(docs.values(), key=lambda d: (d.ingested_at, d.title), reverse=True)
        return DocumentList(total=len(ordered), documents=ordered[offset : offset + limit])

    @server.tool(annotations=READ_ONLY)
    def get_document(doc_id: Annotated[str, Field(min_length=1, max_length=200)]) -> DocumentDetail:
        """A whole document: its facts and all its chunks in order."""
        meta, chunks = _chunks_of(lazy.get(), doc_id)
        extra = {k: v for k, v in meta.items() if k not in _DETAIL_KEYS}
        facts = {k: meta.get(k) for k in _DETAIL_KEYS}
        return DocumentDetail.model_validate({**facts, "metadata": extra, "chunks": chunks})

    @server.tool(annotations=READ_ONLY)
    def get_context(
        chunk_id: Annotated[
            str,
            Field(min_length=3, max_length=250, description="A chunk_id from a search result."),
        ],
        window: Annotated[int, Field(ge=0, le=10, description="Chunks on each side.")] = 1,
    ) -> ContextWindow:
        """A chunk with its neighbouring chunks from the same document."""
        store = lazy.get()
        doc_id = store.doc_id_of(chunk_id)
        if doc_id is None:
            raise ToolError(f"no chunk {chunk_id!r}; search_documents returns chunk ids")
        meta, chunks = _chunks_of(store, doc_id)
        positions = [n for n, c in enumerate(chunks) if c.chunk_id == chunk_id]
        if not positions:
            raise ToolError(f"document {doc_id!r} has no chunk {chunk_id!r}")
        n = positions[0]
        return ContextWindow(
            doc_id=doc_id,
            title=str(meta.get("title", "")),
            center=chunk_id,
            chunks=chunks[max(0, n - window) : n + window + 1],
        )

    @server.tool(annotations=READ_ONLY)
    def list_topics(limit: Annotated[int, Field(ge=1, le=2000)] = 200) -> TopicList:
        """Sources and the sections within them, with chunk counts: what the store is about."""
        sources: dict[tuple[str, str], int] = {}
        sections: dict[tuple[str, str], int] = {}
        for meta in lazy.get()._indexed().metadatas:
            key = (str(meta.get("source", "")), str(meta["doc_id"]))
            sources[key] = sources.get(key, 0) + 1
            if meta.get("section"):
                skey = (str(meta["section"]), str(meta["doc_id"]))
                sections[skey] = sections.get(skey, 0) + 1
        topics = [
            TopicCount(kind="source", name=s, doc_id=d, chunks=c) for (s, d), c in sources.items()
        ]
        topics += [
            TopicCount(kind="section", name=s, doc_id=d, chunks=c) for (s, d), c in sections.items()
        ]
        topics.sort(key=lambda t: (t.kind != "source", -t.chunks, t.name))
        return TopicList(topics=topics[:limit])

    @server.tool(annotations={"destructiveHint": True, "idempotentHint": True})
    def delete_document(
        doc_id: Annotated[str, Field(min_length=1, max_length=200)],
    ) -> DeleteResult:
        """Remove a document and all its chunks."""
        removed = lazy.get().delete(doc_id)
        if not removed:
            raise ToolError(f"no document with doc_id {doc_id!r}; list_documents shows the ids")
        return DeleteResult(doc_id=doc_id, chunks_deleted=removed)

    server.lazy_store = lazy  # type: ignore[attr-defined]
    return server
