"""The document store's settings: where it keeps its files, how it embeds and chunks, what
it may read by path. Read from ``MARSA_*`` variables (or ``.env``)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

from pydantic import AliasChoices, Field, SecretStr, field_validator
from pydantic_settings import NoDecode

from marsa_common.env import path_list
from mcp_servers.common.settings import ServerSettings


def _default_data_dir() -> Path:
    return Path.home() / ".marsa"


class DocsSettings(ServerSettings):
    """What the document store reads: ``MARSA_DATA_DIR``, ``MARSA_EMBEDDER``, … (or ``.env``)."""

    data_dir: Path = Field(
        default_factory=_default_data_dir,
        description="Where the embedded ChromaDB keeps its files (created on first use).",
    )
    chroma_url: str | None = Field(
        default=None,
        description="URL of a Chroma server (e.g. http://127.0.0.1:8000); "
        "when set it is used instead of the embedded store.",
    )
    collection: str = Field(default="marsa_documents", description="Chroma collection name.")
    embedder: str = Field(
        default="minilm-onnx",
        description="Embedding function: 'minilm-onnx' (built in, offline), "
        "'sentence-transformers:<name or path>', 'openai:<model>' or 'ollama:<model>'.",
    )
    embedder_base_url: str | None = Field(
        default=None, description="Base URL for the openai/ollama embedders."
    )
    embedder_api_key: SecretStr | None = Field(
        default=None,
        validation_alias=AliasChoices("MARSA_EMBEDDER_API_KEY", "OPENAI_API_KEY"),
        description="Key for the openai embedder.",
    )
    embed_batch_size: int = Field(
        default=32,
        ge=1,
        le=512,
        description="Texts per embedding batch at most (minilm-onnx also caps a batch at 512 "
        "tokens: long texts run faster alone).",
    )
    chunk_words: int = Field(
        default=200,
        ge=20,
        le=2000,
        description="Words per chunk (a section up to 1.5x stays whole).",
    )
    chunk_overlap: int = Field(
        default=40, ge=0, le=500, description="Words shared by consecutive chunks."
    )
    hybrid_keyword_weight: float = Field(
        default=0.4, ge=0.0, le=1.0, description="Weight of BM25 in hybrid search."
    )
    docs_ingest_roots: Annotated[list[str], NoDecode] = Field(
        default=[],
        description="Folders (or files) whose files the document store's ingest_file may read "
        "by path, symbolic links followed (a JSON list, or paths separated by the system's "
        "path separator, ':' on Linux and macOS); empty: no path is read and files must be "
        "sent as bytes. `marsa ingest` sets it to the paths it is given for the server it "
        "starts.",
    )

    @field_validator("docs_ingest_roots", mode="before")
    @classmethod
    def _path_list(cls, value: object) -> object:
        return path_list(value)
