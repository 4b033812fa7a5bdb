"""The document store: ChromaDB for chunks and vectors, BM25 beside it, one search path.

Embedded and persistent by default (``data_dir``), or a Chroma server when
``chroma_url`` is set. Vectors are computed here by the configured embedder and
handed to Chroma, so Chroma's own embedding function (which downloads a model)
is never used.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any
from urllib.parse import urlparse

import chromadb
import numpy as np
from chromadb.config import Settings as ChromaSettings

from marsa_common.embeddings import Embedder, make_embedder
from mcp_servers.document_store.changes import ChangeMarker
from mcp_servers.document_store.ingest import Document, chunk_text, make_doc_id
from mcp_servers.document_store.keyword import KeywordIndex
from mcp_servers.document_store.models import IngestResult, IngestStatus, SearchHit, SearchMode
from mcp_servers.document_store.revisions import (
    REVISION,
    REVISION_CHUNKS,
    chunk_id,
    next_revision,
    read_revisions,
    revision_of,
)
from mcp_servers.document_store.search import (
    RESERVED_KEYS,
    FilterValue,
    build_where,
    date_ordinal,
    fuse,
    matches,
)
from mcp_servers.document_store.settings import DocsSettings

ADD_BATCH = 1000  # below Chroma's max batch size
_LOOKUP_BATCH = 500


class StoreError(RuntimeError):
    """The store cannot do what was asked, with what to do about it."""


@dataclass
class _Pending:
    """A document to write: its id, what its ingestion will report, the revision to pass."""

    doc: Document
    doc_id: str
    status: IngestStatus
    after: int


@dataclass
class _Row:
    """One chunk ready to embed and add."""

    chunk_id: str
    text: str
    context: str
    metadata: dict[str, Any]


def make_chroma_client(settings: DocsSettings) -> Any:
    """A Chroma client: HTTP when ``chroma_url`` is set, else persistent on disk."""
    chroma_settings = ChromaSettings(anonymized_telemetry=False, allow_reset=False)
    if settings.chroma_url:
        url = urlparse(settings.chroma_url)
        return chromadb.HttpClient(
            host=url.hostname or "127.0.0.1",
            port=url.port or 8000,
            ssl=url.scheme == "https",
            settings=chroma_settings,
        )
    settings.data_dir.mkdir(parents=True, exist_ok=True)
    return chromadb.PersistentClient(
        path=str(settings.data_dir / "chroma"), settings=chroma_settings
    )


class DocumentStore:
    """Chunks, vectors and a keyword index for one collection."""

    def __init__(
        self,
        settings: DocsSettings,
        embedder: Embedder | None = None,
        client: Any = None,
        add_batch: int = ADD_BATCH,
    ):
        self.settings = settings
        self.add_batch = add_batch
        self.embedder = embedder or make_embedder(
            settings.embedder,
            batch_size=settings.embed_batch_size,
            base_url=settings.embedder_base_url,
            api_key=settings.embedder_api_key.get_secret_value()
            if settings.embedder_api_key
            else None,
        )
        self.client = client if client is not None else make_chroma_client(settings)
        self.collection = self.client.get_or_create_collection(
            settings.collection,
            embedding_function=None,
            configuration={"hnsw": {"space": "cosine"}},
            metadata={"embedder": self.embedder.name},
        )
        built_with = (self.collection.metadata or {}).get("embedder")
        if built_with and built_with != self.embedder.name:
            raise StoreError(
                f"collection {settings.collection!r} was built with embedder {built_with!r} but "
                f"MARSA_EMBEDDER is {self.embedder.name!r}: set MARSA_EMBEDDER={built_with} or use "
                "another MARSA_COLLECTION and re-ingest"
            )
        self._write_lock = threading.Lock()
        self.changes = ChangeMarker(self.client, settings.collection)
        self._hidden: list[int] = []  # revisions stored but not shown, as of the last load
        self.keyword = KeywordIndex(self._load_all)

    # --- reading the whole collection (for BM25 and listings) -----------------
    def _load_all(self) -> tuple[list[str], list[str], list[dict[str, Any]], np.ndarray]:
        """The shown chunks of the collection; leftovers of replaced or abandoned versions
        that turn up on the way are removed."""
        ids, texts, metas, matrix = self._read_everything()
        revisions = read_revisions(metas)
        now = time.time_ns()
        shown = [n for n, meta in enumerate(metas) if revisions.shows(meta)]
        hidden = [n for n, meta in enumerate(metas) if not revisions.shows(meta)]
        # Removing only versions older than the shown one (or long abandoned) is safe even
        # while an ingestion runs: the version it writes is newer and not yet complete.
        gone = {n for n in hidden if revisions.leftovers(metas[n], now)}
        if gone:
            self._remove([ids[n] for n in sorted(gone)])
        self._hidden = sorted({revision_of(metas[n]) for n in hidden if n not in gone})
        if len(shown) == len(ids):
            return ids, texts, metas, matrix
        return (
            [ids[n] for n in shown],
            [texts[n] for n in shown],
            [metas[n] for n in shown],
            matrix[shown] if len(matrix) else matrix,
        )

    def _read_everything(self) -> tuple[list[str], list[str], list[dict[str, Any]], np.ndarray]:
        # Vectors are kept in memory too (1.5 KB a chunk) so hybrid search can score a
        # keyword-only candidate semantically without another round trip to Chroma.
        ids: list[str] = []
        texts: list[str] = []
        metas: list[dict[str, Any]] = []
        vectors: list[np.ndarray] = []
        total = self.collection.count()
        for offset in range(0, total, 5000):
            page = self.collection.get(
                include=["documents", "metadatas", "embeddings"], limit=5000, offset=offset
            )
            ids.extend(page["ids"])
            texts.extend(page["documents"] or [])
            metas.extend(dict(m) for m in page["metadatas"] or [])
            if page["embeddings"] is not None and len(page["embeddings"]):
                vectors.append(np.asarray(page["embeddings"], dtype=np.float32))
        matrix = np.vstack(vectors) if vectors else np.zeros((0, 0), dtype=np.float32)
        return ids, texts, metas, matrix

    def _indexed(self) -> Any:
        # The marker is read before the load the refresh may do (see KeywordIndex.refresh).
        return self.keyword.refresh(self.changes.read())

    def known_filter_keys(self) -> set[str]:
        """Metadata keys that filters may name (the reserved ones and any ingested)."""
        return set(RESERVED_KEYS) | self._indexed().metadata_keys

    def count(self) -> int:
        """Number of chunks in the collection."""
        return int(self.collection.count())

    # --- writing --------------------------------------------------------------
    def ingest(
        self, documents: Iterable[Document], progress: Callable[[int, int], None] | None = None
    ) -> list[IngestResult]:
        """Chunk, embed and store documents; unchanged ones are skipped, changed ones replaced.

        Unchanged means the document already shows this text, or it is not stored yet and
        another document shows the text (it is not stored twice; the result names that one).

        A replaced document keeps its old version visible until the new one is stored whole
        (``revisions``): stopped at any point, the store still shows the old version, and
        the next ingestion of the document finishes the job and clears what was left.
        """
        documents = list(documents)
        results: list[IngestResult] = []
        pending: list[_Pending] = []
        stale: list[str] = []  # every stored chunk of the documents being written
        with self._write_lock:
            seen: dict[str, str] = {}  # content hash -> doc_id, shown or added in this call
            holds: dict[str, str] = {}  # doc_id -> content hash of its shown or queued version
            queued: dict[str, int] = {}  # doc_id -> its place in pending
            shown_chunks: dict[str, int] = {}  # doc_id -> chunks of its visible version
            source_of: dict[str, str] = {}  # doc_id -> its source, stored or in this call
            for start in range(0, len(documents), _LOOKUP_BATCH):
                batch = documents[start : start + _LOOKUP_BATCH]
                keyed = [
                    (
                        doc,
                        doc.doc_id or make_doc_id(doc.source or doc.content_hash()),
                        doc.content_hash(),
                    )
                    for doc in batch
                ]
                # Two lookups per batch, not two per document: Chroma's metadata queries cost
                # tens of milliseconds each, which would rival the embedding itself. The
                # second reads every chunk of the documents concerned, because only all of
                # them together say which version of each is complete and shown.
                same = self.collection.get(
                    where={"content_hash": {"$in": sorted({h for _, _, h in keyed})}},
                    include=["metadatas"],
                )
                doc_ids = {d for _, d, _ in keyed} | {
                    str(m["doc_id"]) for m in same["metadatas"] or []
                }
                stored = self.collection.get(
                    where={"doc_id": {"$in": sorted(doc_ids)}}, include=["metadatas"]
                )
                metas = stored["metadatas"] or []
                revisions = read_revisions(metas)
                chunks_of: dict[str, list[str]] = {}
                newest: dict[str, int] = {}
                for cid, meta in zip(stored["ids"], metas, strict=True):
                    doc_id = str(meta["doc_id"])
                    source_of.setdefault(doc_id, str(meta.get("source", "")))
                    chunks_of.setdefault(doc_id, []).append(cid)
                    newest[doc_id] = max(newest.get(doc_id, 0), revision_of(meta))
                    if revisions.shows(meta):
                        seen.setdefault(str(meta["content_hash"]), doc_id)
                        holds[doc_id] = str(meta["content_hash"])
                        shown_chunks[doc_id] = shown_chunks.get(doc_id, 0) + 1
                for doc, doc_id, digest in keyed:
                    # Unchanged when the document itself holds this text, or when it is new and
                    # another document holds it. A stored document whose new text another one
                    # holds is replaced: taking it as that other one would leave its own old
                    # version listed, and every later upload of the new text "unchanged".
                    same_doc = holds.get(doc_id) == digest
                    if same_doc or (doc_id not in holds and digest in seen):
                        found = doc_id if same_doc else seen[digest]
                        results.append(
                            IngestResult(
                                doc_id=found,
                                title=doc.title,
                                source=doc.source,
                                status="unchanged",
                                # A version written earlier in this call has its size in
                                # ``pending``; otherwise the stored version's size.
                                chunks=self._planned_chunks(pending, queued, found)
                                if found in queued
                                else shown_chunks.get(found, 0),
                                same_as=None if same_doc else source_of.get(found, found),
                            )
                        )
                        continue
                    source_of[doc_id] = doc.source
                    if seen.get(holds.get(doc_id, "")) == doc_id:
                        del seen[holds[doc_id]]  # that text is no longer this document's
                    seen.setdefault(digest, doc_id)
                    holds[doc_id] = digest
                    stale.extend(chunks_of.pop(doc_id, []))
                    if doc_id in queued:  # a newer version of a document earlier in this call
                        earlier = pending[queued[doc_id]]
                        pending[queued[doc_id]] = _Pending(
                            doc, doc_id, earlier.status, earlier.after
                        )
                        continue
                    queued[doc_id] = len(pending)
                    status: IngestStatus = "replaced" if doc_id in revisions.visible else "added"
                    pending.append(_Pending(doc, doc_id, status, newest.get(doc_id, 0)))
            try:
                results.extend(self._write(pending, progress))
                # Only now is every new version whole: the old ones (and any leftovers of an
                # earlier attempt) can go.
                self._remove(stale)
            finally:
                self.keyword.mark_dirty()
                self.changes.bump()
        return results

    def _planned_chunks(self, pending: list[_Pending], queued: dict[str, int], doc_id: str) -> int:
        """Chunks a document queued earlier in the same ingestion will have."""
        if doc_id not in queued:
            return 0
        doc = pending[queued[doc_id]].doc
        return len(chunk_text(doc.content, self.settings.chunk_words, self.settings.chunk_overlap))

    def _write(
        self, pending: list[_Pending], progress: Callable[[int, int], None] | None
    ) -> list[IngestResult]:
        """Store each pending document as a new revision, its chunk 0 last of all."""
        rows: list[_Row] = []
        markers: list[_Row] = []
        results = []
        now = datetime.now(UTC).isoformat(timespec="seconds")
        revision = 0
        for item in pending:
            doc, doc_id = item.doc, item.doc_id
            chunks = chunk_text(doc.content, self.settings.chunk_words, self.settings.chunk_overlap)
            if not chunks:
                continue
            revision = next_revision([item.after, revision])
            base: dict[str, Any] = {k: v for k, v in doc.metadata.items() if k not in RESERVED_KEYS}
            base.update(
                doc_id=doc_id,
                title=doc.title,
                source=doc.source,
                source_type="url" if doc.source_url else "file",
                doc_word_count=sum(c.word_count for c in chunks),
                content_hash=doc.content_hash(),
                ingested_at=now,
                revision=revision,
            )
            if doc.source_url:
                base["source_url"] = doc.source_url
            if doc.published_date:
                base["published_date"] = doc.published_date
                base["published_ts"] = date_ordinal(doc.published_date)
            for chunk in chunks:
                meta = {
                    **base,
                    "section": chunk.section,
                    "chunk_index": chunk.index,
                    "word_count": chunk.word_count,
                }
                context = (
                    f"{doc.title}. {chunk.section}\n{chunk.text}"
                    if chunk.section
                    else f"{doc.title}.\n{chunk.text}"
                )
                row = _Row(chunk_id(doc_id, revision, chunk.index), chunk.text, context, meta)
                if chunk.index == 0:
                    meta[REVISION_CHUNKS] = len(chunks)  # the completion mark
                    markers.append(row)
                else:
                    rows.append(row)
            results.append(
                IngestResult(
                    doc_id=doc_id,
                    title=doc.title,
                    source=doc.source,
                    status=item.status,
                    chunks=len(chunks),
                )
            )
        # Every chunk 0 after every other chunk: a revision whose chunk 0 is stored is whole,
        # without a second write per chunk or per document to say so.
        rows.extend(markers)
        written = 0
        try:
            for start in range(0, len(rows), self.add_batch):
                part = rows[start : start + self.add_batch]
                vectors = self.embedder.embed([r.context for r in part])
                self.collection.add(
                    ids=[r.chunk_id for r in part],
                    documents=[r.text for r in part],
                    metadatas=[r.metadata for r in part],
                    embeddings=vectors,
                )
                written = start + len(part)
                if progress:
                    progress(written, len(rows))
        except Exception as exc:
            # The unfinished revisions are hidden either way; removing them now saves the
            # space, and if that fails too the next ingestion or opening removes them.
            try:
                self._remove([r.chunk_id for r in rows[:written]])
            except Exception as cleanup:
                exc.add_note(f"leftover chunks of the unfinished version stay hidden: {cleanup}")
            raise
        return results

    def _remove(self, chunk_ids: list[str]) -> None:
        for start in range(0, len(chunk_ids), self.add_batch):
            self.collection.delete(ids=chunk_ids[start : start + self.add_batch])

    def delete(self, doc_id: str) -> int:
        """Remove every version of a document; returns how many chunks were shown."""
        with self._write_lock:
            old = self.collection.get(where={"doc_id": doc_id}, include=["metadatas"])
            metas = old["metadatas"] or []
            revisions = read_revisions(metas)
            try:
                self._remove(list(old["ids"]))
            finally:
                self.keyword.mark_dirty()
                self.changes.bump()
        return sum(1 for meta in metas if revisions.shows(meta))

    # --- reading one document -----------------------------------------------------
    def document(self, doc_id: str) -> list[tuple[str, str, dict[str, Any]]]:
        """The shown version of a document as (chunk_id, text, metadata), in order; [] if none."""
        found = self.collection.get(where={"doc_id": doc_id}, include=["documents", "metadatas"])
        metas = [dict(m) for m in found["metadatas"] or []]
        revisions = read_revisions(metas)
        rows = [
            (cid, text, meta)
            for cid, text, meta in zip(found["ids"], found["documents"] or [], metas, strict=True)
            if revisions.shows(meta)
        ]
        return sorted(rows, key=lambda row: int(row[2]["chunk_index"]))

    def doc_id_of(self, chunk_id: str) -> str | None:
        """The document a chunk id belongs to, or None when no such chunk is stored."""
        found = self.collection.get(ids=[chunk_id], include=["metadatas"])
        metas = found["metadatas"] or []
        return str(metas[0]["doc_id"]) if metas else None

    # --- searching ------------------------------------------------------------
    def search(
        self,
        query: str,
        n_results: int = 10,
        mode: SearchMode = "hybrid",
        filters: Mapping[str, FilterValue] | None = None,
        candidates: int | None = None,
    ) -> list[SearchHit]:
        """The ranked chunks for ``query``; one code path for the MCP tool and the benchmark."""
        indexed = self._indexed()
        # Bad filters fail even when the store is empty.
        where = build_where(filters, set(RESERVED_KEYS) | indexed.metadata_keys)
        if not indexed.ids:
            return []
        pool = max(candidates or 0, n_results * 4, 50)
        semantic: dict[str, float] = {}
        keyword: dict[str, float] = {}
        qvec = self.embedder.embed([query])[0] if mode != "keyword" else None
        if qvec is not None:
            semantic = self._semantic(qvec, pool, where, indexed)
        if mode in ("keyword", "hybrid"):
            keyword = self._keyword(query, pool, where, indexed)
        if mode == "semantic":
            ranked = sorted(semantic.items(), key=lambda kv: -kv[1])
        elif mode == "keyword":
            ranked = sorted(((k, v) for k, v in keyword.items() if v > 0), key=lambda kv: -kv[1])
        else:
            assert qvec is not None
            ranked = self._hybrid(query, qvec, semantic, keyword, indexed)
        top = ranked[:n_results]
        return [
            self._hit(indexed, cid, score, semantic.get(cid), keyword.get(cid))
            for cid, score in top
        ]

    def _semantic(
        self, qvec: np.ndarray, pool: int, where: dict[str, Any] | None, indexed: Any
    ) -> dict[str, float]:
        hidden = list(self._hidden)
        if hidden:  # versions being written, or cut short: they must not fill the pool
            shown_only = {REVISION: {"$nin": hidden}}
            where = {"$and": [where, shown_only]} if where else shown_only
        found = self.collection.query(
            query_embeddings=qvec[None, :], n_results=pool, where=where, include=["distances"]
        )
        # A chunk written since the index was loaded is not in it, nor ready to be shown.
        return {
            cid: 1.0 - float(d)
            for cid, d in zip(found["ids"][0], found["distances"][0], strict=True)
            if cid in indexed.position
        }

    def _keyword(
        self, query: str, pool: int, where: dict[str, Any] | None, indexed: Any
    ) -> dict[str, float]:
        scores = self.keyword.scores(query)
        if where:
            mask = np.array([matches(m, where) for m in indexed.metadatas], dtype=bool)
            scores = np.where(mask, scores, -1.0)
        top = np.argsort(-scores)[:pool]
        return {indexed.ids[i]: float(scores[i]) for i in top if scores[i] >= 0}

    def _hybrid(
        self,
        query: str,
        qvec: np.ndarray,
        semantic: dict[str, float],
        keyword: dict[str, float],
        indexed: Any,
    ) -> list[tuple[str, float]]:
        ids = list(dict.fromkeys([*semantic, *keyword]))
        if not ids:
            return []
        missing = [cid for cid in ids if cid not in semantic]
        if missing:
            rows = indexed.embeddings[[indexed.position[cid] for cid in missing]]
            for cid, value in zip(missing, (rows @ qvec).tolist(), strict=True):
                semantic[cid] = float(value)
        all_scores = self.keyword.scores(query)
        for cid in ids:
            if cid not in keyword:
                keyword[cid] = float(all_scores[indexed.position[cid]])
        fused = fuse(
            np.array([semantic[c] for c in ids]),
            np.array([keyword[c] for c in ids]),
            self.settings.hybrid_keyword_weight,
        )
        return sorted(zip(ids, fused.tolist(), strict=True), key=lambda kv: -kv[1])

    def _hit(
        self, indexed: Any, cid: str, score: float, sem: float | None, kw: float | None
    ) -> SearchHit:
        pos = indexed.position[cid]
        meta = indexed.metadatas[pos]
        text = indexed.texts[pos]
        return SearchHit(
            doc_id=str(meta["doc_id"]),
            chunk_id=cid,
            title=str(meta.get("title", "")),
            source=str(meta.get("source", "")),
            source_url=meta.get("source_url"),
            section=str(meta.get("section", "")),
            published_date=meta.get("published_date"),
            score=round(score, 6),
            semantic_score=None if sem is None else round(sem, 6),
            keyword_score=None if kw is None else round(kw, 6),
            text=text,
            word_count=int(meta.get("word_count", 0)),
            doc_word_count=int(meta.get("doc_word_count", 0)),
        )
