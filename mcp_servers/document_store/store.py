"""The document store: ChromaDB for chunks and vectors, BM25 beside it, one search path.

Embedded and persistent by default (``data_dir``), or a Chroma server when
``chroma_url`` is set. Vectors are computed here by the configured embedder and
handed to Chroma, so Chroma's own embedding function (which downloads a model)
is never used.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable, Mapping
from datetime import UTC, datetime
from typing import Any
from urllib.parse import urlparse

import chromadb
import numpy as np
from chromadb.config import Settings as ChromaSettings

from backend.config import Settings
from mcp_servers.document_store.embeddings import Embedder, make_embedder
from mcp_servers.document_store.ingest import Document, chunk_text, make_doc_id
from mcp_servers.document_store.keyword import KeywordIndex
from mcp_servers.document_store.models import IngestResult, IngestStatus, SearchHit, SearchMode
from mcp_servers.document_store.search import (
    RESERVED_KEYS,
    FilterValue,
    build_where,
    date_ordinal,
    fuse,
    matches,
)

_ADD_BATCH = 1000  # below Chroma's max batch size
_LOOKUP_BATCH = 500


class StoreError(RuntimeError):
    """The store cannot do what was asked, with what to do about it."""


def make_chroma_client(settings: Settings) -> Any:
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

    def __init__(self, settings: Settings, embedder: Embedder | None = None, client: Any = None):
        self.settings = settings
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
        self.keyword = KeywordIndex(self._load_all)

    # --- reading the whole collection (for BM25 and listings) -----------------
    def _load_all(self) -> tuple[list[str], list[str], list[dict[str, Any]], np.ndarray]:
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
        return self.keyword.refresh(self.collection.count())

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
        """Chunk, embed and store documents; unchanged ones are skipped, changed ones replaced."""
        documents = list(documents)
        results: list[IngestResult] = []
        pending: list[tuple[Document, str, IngestStatus]] = []  # (doc, doc_id, status)
        with self._write_lock:
            seen: dict[str, str] = {}  # content hash -> doc_id, stored or added in this call
            queued: dict[str, int] = {}  # doc_id -> its place in pending
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
                # One lookup per batch, not two per document: Chroma's metadata queries cost
                # tens of milliseconds each, which would rival the embedding itself.
                stored = self.collection.get(
                    where={"content_hash": {"$in": sorted({h for _, _, h in keyed})}},
                    include=["metadatas"],
                )
                for meta in stored["metadatas"] or []:
                    seen.setdefault(str(meta["content_hash"]), str(meta["doc_id"]))
                old = self.collection.get(
                    where={"doc_id": {"$in": sorted({d for _, d, _ in keyed})}},
                    include=["metadatas"],
                )
                old_chunks: dict[str, list[str]] = {}
                for chunk_id, meta in zip(old["ids"], old["metadatas"] or [], strict=True):
                    old_chunks.setdefault(str(meta["doc_id"]), []).append(chunk_id)
                for doc, doc_id, digest in keyed:
                    if digest in seen:
                        results.append(
                            IngestResult(
                                doc_id=seen[digest],
                                title=doc.title,
                                source=doc.source,
                                status="unchanged",
                                chunks=0,
                            )
                        )
                        continue
                    seen[digest] = doc_id
                    stale = old_chunks.pop(doc_id, [])
                    if stale:
                        self.collection.delete(ids=stale)
                    if doc_id in queued:  # a newer version of a document earlier in this call
                        pending[queued[doc_id]] = (doc, doc_id, pending[queued[doc_id]][2])
                        continue
                    queued[doc_id] = len(pending)
                    pending.append((doc, doc_id, "replaced" if stale else "added"))
            results.extend(self._add(pending, progress))
            self.keyword.mark_dirty()
        return results

    def _add(
        self,
        pending: list[tuple[Document, str, IngestStatus]],
        progress: Callable[[int, int], None] | None,
    ) -> list[IngestResult]:
        ids: list[str] = []
        texts: list[str] = []
        contexts: list[str] = []
        metas: list[dict[str, Any]] = []
        results = []
        now = datetime.now(UTC).isoformat(timespec="seconds")
        for doc, doc_id, status in pending:
            chunks = chunk_text(doc.content, self.settings.chunk_words, self.settings.chunk_overlap)
            if not chunks:
                continue
            base: dict[str, Any] = {k: v for k, v in doc.metadata.items() if k not in RESERVED_KEYS}
            base.update(
                doc_id=doc_id,
                title=doc.title,
                source=doc.source,
                source_type="url" if doc.source_url else "file",
                doc_word_count=sum(c.word_count for c in chunks),
                content_hash=doc.content_hash(),
                ingested_at=now,
            )
            if doc.source_url:
                base["source_url"] = doc.source_url
            if doc.published_date:
                base["published_date"] = doc.published_date
                base["published_ts"] = date_ordinal(doc.published_date)
            for chunk in chunks:
                ids.append(f"{doc_id}:{chunk.index:04d}")
                texts.append(chunk.text)
                contexts.append(
                    f"{doc.title}. {chunk.section}\n{chunk.text}"
                    if chunk.section
                    else f"{doc.title}.\n{chunk.text}"
                )
                metas.append(
                    {
                        **base,
                        "section": chunk.section,
                        "chunk_index": chunk.index,
                        "word_count": chunk.word_count,
                    }
                )
            results.append(
                IngestResult(
                    doc_id=doc_id,
                    title=doc.title,
                    source=doc.source,
                    status=status,
                    chunks=len(chunks),
                )
            )
        for start in range(0, len(ids), _ADD_BATCH):
            end = start + _ADD_BATCH
            vectors = self.embedder.embed(contexts[start:end])
            self.collection.add(
                ids=ids[start:end],
                documents=texts[start:end],
                metadatas=metas[start:end],
                embeddings=vectors,
            )
            if progress:
                progress(min(end, len(ids)), len(ids))
        return results

    def delete(self, doc_id: str) -> int:
        """Remove a document's chunks; returns how many were removed."""
        with self._write_lock:
            old = self.collection.get(where={"doc_id": doc_id}, include=[])
            if old["ids"]:
                self.collection.delete(ids=old["ids"])
            self.keyword.mark_dirty()
        return len(old["ids"])

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
        where = build_where(filters, self.known_filter_keys())  # bad filters fail even when empty
        if not indexed.ids:
            return []
        pool = max(candidates or 0, n_results * 4, 50)
        semantic: dict[str, float] = {}
        keyword: dict[str, float] = {}
        qvec = self.embedder.embed([query])[0] if mode != "keyword" else None
        if qvec is not None:
            semantic = self._semantic(qvec, pool, where)
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
        self, qvec: np.ndarray, pool: int, where: dict[str, Any] | None
    ) -> dict[str, float]:
        found = self.collection.query(
            query_embeddings=qvec[None, :], n_results=pool, where=where, include=["distances"]
        )
        return {
            cid: 1.0 - float(d)
            for cid, d in zip(found["ids"][0], found["distances"][0], strict=True)
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
