"""The local document store (``mcp_servers.document_store``): ChromaDB + BM25."""

from __future__ import annotations

from typing import Any

from backend.sources.base import SearchCall, SourceSpec


def adapt(hit: dict[str, Any]) -> dict[str, Any]:
    """A ``search_documents`` hit -> Source fields: its document, chunk and section."""
    source = str(hit.get("source", ""))
    url = hit.get("source_url") or (source if source.startswith(("http://", "https://")) else None)
    chunk_id = hit.get("chunk_id")
    return {
        "title": hit["title"],
        "url": url,
        "path": None if url == source else source,
        "relative_path": hit.get("relative_path"),
        "doc_id": hit.get("doc_id"),
        "chunk_id": chunk_id,
        "chunk_ids": [chunk_id] if chunk_id else [],
        "chunks": [hit["text"]] if chunk_id else [],
        "sections": [hit["section"]] if hit.get("section") else [],
        "chunk_sections": [str(hit.get("section") or "")] if chunk_id else [],
        "text": hit["text"],
        "published_date": hit.get("published_date"),
        "word_count": int(hit.get("doc_word_count") or hit.get("word_count") or 0),
        "retrieval_score": float(hit.get("score") or 0.0),
    }


SOURCE = SourceSpec(
    name="docs",
    module="mcp_servers.document_store",
    port=8101,
    description="local documents (ChromaDB)",
    url_setting="docs_server_url",
    settings=(
        "log_level",
        "server_log_dir",
        "data_dir",
        "chroma_url",
        "collection",
        "embedder",
        "embedder_base_url",
        "embedder_api_key",
        "embed_batch_size",
        "chunk_words",
        "chunk_overlap",
        "hybrid_keyword_weight",
        "docs_ingest_roots",
    ),
    searches=(
        SearchCall(
            "search_documents",
            adapt,
            kind="docs",
            limit_arg="n_results",
            lifecycle=True,
            max_query=2000,
        ),
    ),
    route="always",
    rank=0,
    prompt="docs = the user's local documents",
    prompt_route="use docs whenever it is available",
    health_call=("list_documents", {"limit": 1}),
    health_note=lambda listing: f"{listing['total']} documents",
)
