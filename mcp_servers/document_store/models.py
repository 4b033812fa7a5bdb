"""Pydantic models that cross the document store's MCP boundary."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

SearchMode = Literal["semantic", "keyword", "hybrid"]
IngestStatus = Literal["added", "replaced", "unchanged"]


class SearchHit(BaseModel):
    """One chunk that matched, with its provenance."""

    doc_id: str
    chunk_id: str
    title: str
    source: str = Field(description="File path, URL or label the document came from.")
    source_url: str | None = None
    section: str = ""
    published_date: str | None = None
    score: float = Field(description="The ranking score in the chosen mode (higher is better).")
    semantic_score: float | None = Field(None, description="Cosine similarity, when computed.")
    keyword_score: float | None = Field(None, description="BM25 score, when computed.")
    text: str
    word_count: int = 0
    doc_word_count: int = Field(0, description="Words in the whole document.")
    relative_path: str | None = Field(
        default=None,
        description="The file's path in the folder it was ingested from (or its name).",
    )
    status: str | None = Field(default=None, description="The document's declared status.")
    draft: bool | str | None = None
    deprecated: bool | str | None = None
    superseded_by: str | None = None


class SearchResponse(BaseModel):
    """What search_documents returns."""

    query: str
    mode: SearchMode
    results: list[SearchHit]


class IngestResult(BaseModel):
    """The outcome of ingesting one document."""

    doc_id: str
    title: str
    source: str
    status: IngestStatus
    chunks: int
    # "unchanged" because another document already holds the very same text: that document's
    # source (a docs folder with two copies of one page stores it once)
    same_as: str | None = None


class IngestFileResult(BaseModel):
    """The outcome of ingesting one file (which may hold several documents)."""

    filename: str
    documents: list[IngestResult]


class DocumentInfo(BaseModel):
    """A document in the store."""

    doc_id: str
    title: str
    source: str
    source_url: str | None = None
    published_date: str | None = None
    chunks: int
    word_count: int
    ingested_at: str


class DocumentList(BaseModel):
    """What list_documents returns."""

    total: int
    documents: list[DocumentInfo]


class ChunkOut(BaseModel):
    """One chunk of a document, in order."""

    chunk_id: str
    index: int
    section: str
    text: str


class DocumentDetail(BaseModel):
    """A whole document: its facts and all its chunks in order."""

    doc_id: str
    title: str
    source: str
    source_url: str | None = None
    published_date: str | None = None
    metadata: dict[str, str | int | float | bool] = Field(default_factory=dict)
    chunks: list[ChunkOut]


class ContextWindow(BaseModel):
    """A chunk with its neighbours on either side."""

    doc_id: str
    title: str
    center: str
    chunks: list[ChunkOut]


class TopicCount(BaseModel):
    """A source or section and how many chunks it has."""

    kind: Literal["source", "section"]
    name: str
    doc_id: str | None = None
    chunks: int


class TopicList(BaseModel):
    """What list_topics returns."""

    topics: list[TopicCount]


class DeleteResult(BaseModel):
    """What delete_document returns."""

    doc_id: str
    chunks_deleted: int
