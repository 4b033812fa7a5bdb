"""MARSA settings: every key, path and URL the project reads, in one place.

Values come from the environment (prefix ``MARSA_``; the usual names
``TAVILY_API_KEY`` and ``GITHUB_TOKEN`` are read as they are) or from a
``.env`` file in the working directory. ``get_settings()`` is the singleton.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Annotated, Literal

from pydantic import AliasChoices, Field, SecretStr, field_validator
from pydantic_settings import BaseSettings, NoDecode, SettingsConfigDict

from marsa_common.env import comma_list, path_list


def _default_data_dir() -> Path:
    return Path.home() / ".marsa"


class Settings(BaseSettings):
    """Configuration for the servers, the client and the CLI."""

    model_config = SettingsConfigDict(
        env_prefix="MARSA_", env_file=".env", extra="ignore", populate_by_name=True
    )

    # --- document store -------------------------------------------------
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

    # --- web search (Tavily) --------------------------------------------
    tavily_api_key: SecretStr | None = Field(
        default=None,
        validation_alias=AliasChoices("TAVILY_API_KEY", "MARSA_TAVILY_API_KEY"),
        description="Tavily API key (https://app.tavily.com); web search refuses without it.",
    )
    tavily_base_url: str = Field(
        default="https://api.tavily.com", description="Tavily API base URL."
    )
    tavily_cache_ttl: float = Field(
        default=300.0, ge=0, description="Seconds a search result stays cached (0: no cache)."
    )
    tavily_rate_per_minute: int = Field(
        default=60, ge=1, description="Client-side limit on Tavily requests per minute."
    )
    tavily_timeout: float = Field(
        default=30.0, gt=0, description="Seconds before a search times out."
    )

    # --- GitHub -----------------------------------------------------------
    github_token: SecretStr | None = Field(
        default=None,
        validation_alias=AliasChoices("GITHUB_TOKEN", "MARSA_GITHUB_TOKEN"),
        description="GitHub token (optional; without it: 60 requests/hour, no code search).",
    )
    github_base_url: str = Field(
        default="https://api.github.com",
        description="GitHub API base URL (Enterprise: .../api/v3).",
    )
    github_timeout: float = Field(
        default=15.0, gt=0, description="Seconds before a request times out."
    )
    github_retries: int = Field(
        default=2, ge=0, le=5, description="Retries on 5xx; never waits for a rate-limit reset."
    )

    # --- scholarly papers (OpenAlex + arXiv) ------------------------------
    scholarly_email: str | None = Field(
        default=None,
        description="Contact address sent to OpenAlex as `mailto` (its 'polite pool': faster, "
        "more reliable) and to both APIs in the User-Agent. Scholarly search is on only when "
        "it is set: both APIs ask their users to say who they are.",
    )
    openalex_url: str = Field(
        default="https://api.openalex.org",
        description="Base URL of the OpenAlex API (tests point it at a local fake).",
    )
    arxiv_url: str = Field(
        default="https://export.arxiv.org/api/query",
        description="The arXiv API's query endpoint (tests point it at a local fake).",
    )
    scholarly_timeout: float = Field(
        default=20.0, gt=0, le=120, description="Seconds to wait for one API response."
    )
    scholarly_cache_ttl: float = Field(
        default=600.0, ge=0, description="Seconds a result stays cached; 0 turns the cache off."
    )
    scholarly_max_wait: float = Field(
        default=5.0,
        ge=0,
        le=60,
        description="Longest a call waits for its turn under the rate limits before it is "
        "refused with 'retry in N s'.",
    )
    openalex_rate_per_minute: int = Field(
        default=300,
        ge=1,
        le=600,
        description="Requests per minute sent to OpenAlex, evenly spaced (it allows 10/s).",
    )
    arxiv_rate_per_minute: int = Field(
        default=20,
        ge=1,
        le=60,
        description="Requests per minute sent to arXiv, evenly spaced (arXiv asks for at most "
        "one every 3 s).",
    )

    # --- key-free web search (SearXNG) ------------------------------------
    searxng_url: str | None = Field(
        default=None,
        description="Root URL of a SearXNG instance whose JSON output is on, e.g. "
        "http://127.0.0.1:8888 (the server asks <url>/search?format=json); the searxng "
        "source is on only when it is set.",
    )
    searxng_timeout: float = Field(
        default=15.0, gt=0, le=120, description="Seconds to wait for the instance."
    )
    searxng_cache_ttl: float = Field(
        default=300.0, ge=0, description="Seconds a result stays cached; 0 turns the cache off."
    )
    searxng_rate_per_minute: int = Field(
        default=30,
        ge=1,
        le=600,
        description="Searches per minute sent to the instance, evenly spaced (public "
        "instances block bursts).",
    )
    searxng_max_wait: float = Field(
        default=2.0,
        ge=0,
        le=60,
        description="Longest a search waits for its turn before it is refused with 'retry in N s'.",
    )

    # --- reasoning ------------------------------------------------------
    llm: str | None = Field(
        default=None,
        description="Chat model as provider:model (anthropic:…, openai:…, ollama:…, "
        "openai-compatible:… with MARSA_LLM_BASE_URL); unset: the built-in offline engine.",
    )
    llm_base_url: str | None = Field(
        default=None,
        description="Base URL of the model's server: an OpenAI-compatible server (…/v1), "
        "ollama, or another address for the OpenAI or Anthropic API (a proxy, a gateway).",
    )
    llm_structured: Literal["auto", "json_schema", "tools", "off"] = Field(
        default="auto",
        description="How the model is held to each step's JSON schema: auto (the provider's "
        "own way: json_schema for OpenAI and OpenAI-compatible servers, tool calling for "
        "Anthropic, format for Ollama), json_schema, tools, or off (the schema in the prompt, "
        "the answer parsed). A server that refuses it (HTTP 400) is asked with the prompt "
        "instead for the rest of the run, and the trace says so.",
    )
    llm_api_key: SecretStr | None = Field(
        default=None,
        validation_alias=AliasChoices("MARSA_LLM_API_KEY", "ANTHROPIC_API_KEY", "OPENAI_API_KEY"),
        description="Key for the chat model's provider.",
    )
    llm_temperature: float = Field(default=0.0, ge=0.0, le=2.0, description="Sampling temperature.")
    llm_max_tokens: int = Field(
        default=2048,
        ge=16,
        le=200_000,
        description="Most tokens the chat model may write in one step (a runaway answer is cut).",
    )
    llm_timeout: float = Field(
        default=60.0,
        gt=0,
        le=3600,
        description="Seconds one chat-model request may take before it is given up.",
    )
    llm_run_token_budget: int | None = Field(
        default=None,
        ge=1,
        description="Most tokens (in and out) the chat model may use in one run; once spent, "
        "the remaining steps use the offline engine and the run says so. Unset: no limit.",
    )
    llm_run_cost_budget: float | None = Field(
        default=None,
        gt=0,
        description="Most US dollars the chat model may cost in one run (needs the prices); "
        "once spent, the remaining steps use the offline engine. Unset: no limit.",
    )
    llm_reasoning_effort: Literal["minimal", "low", "medium", "high"] | None = Field(
        default=None,
        description="How hard an OpenAI reasoning model (o1, o3, o4-mini, gpt-5 …) thinks "
        "(its reasoning_effort); ignored by other models. Unset: the model's default.",
    )
    llm_max_retries: int = Field(
        default=1,
        ge=0,
        le=10,
        description="Times the provider's client retries a failed request (its own default "
        "could hold a step for half an hour).",
    )
    llm_price_input: float | None = Field(
        default=None,
        ge=0,
        description="US dollars per million input tokens of the chat model; with "
        "MARSA_LLM_PRICE_OUTPUT, runs report their cost per node.",
    )
    llm_price_output: float | None = Field(
        default=None, ge=0, description="US dollars per million output tokens."
    )

    # --- servers and client ---------------------------------------------
    docs_server_url: str | None = Field(
        default=None,
        description="Streamable-HTTP URL of a running document-store server "
        "(e.g. http://docs:8101/mcp); when unset the client starts it over stdio.",
    )
    web_server_url: str | None = Field(default=None, description="Same, for web search.")
    github_server_url: str | None = Field(default=None, description="Same, for GitHub.")
    scholarly_server_url: str | None = Field(
        default=None, description="Same, for scholarly papers."
    )
    searxng_server_url: str | None = Field(
        default=None, description="Same, for SearXNG web search."
    )
    log_level: str = Field(
        default="INFO", description="INFO logs every tool call; WARNING silences that."
    )
    server_log_dir: Path | None = Field(
        default=None,
        description="Servers write their JSON tool-call log lines to "
        "<dir>/<server>.jsonl instead of stderr (the client sets <data_dir>/logs).",
    )
    mcp_config: Path | None = Field(
        default=None, description="Extra MCP servers in the usual {'mcpServers': {...}} JSON shape."
    )
    mcp_token: SecretStr | None = Field(
        default=None,
        description="Bearer token of the built-in MCP servers over HTTP: a server started with "
        "--transport http answers 401 to any MCP request without 'Authorization: Bearer "
        "<token>', and the client sends it to every MARSA_*_SERVER_URL. Without it a "
        "server only binds a loopback address (--host 0.0.0.0 refuses to start).",
    )
    mcp_call_timeout: float = Field(
        default=60.0,
        gt=0,
        le=3600,
        description="Seconds a tool call may take before it counts as unanswered (a read-only "
        "tool is tried twice; ingestion through the API has its own, longer limit).",
    )

    # --- API and persistence ----------------------------------------------
    database_url: str | None = Field(
        default=None,
        description="Where runs, their events and the graph's checkpoints are kept: "
        "sqlite:///path/to/file.db or postgresql://user@host:port/db; "
        "unset: SQLite at <data_dir>/marsa.db.",
    )
    api_token: SecretStr | None = Field(
        default=None,
        description="When set, every /api route asks for 'Authorization: Bearer <token>' "
        "(or ?access_token= on the event stream).",
    )
    cors_origins: list[str] = Field(
        default=[],
        description="Origins allowed to call the API from a browser (JSON list); "
        "the UI served by the API needs none.",
    )
    allowed_hosts: Annotated[list[str], NoDecode] = Field(
        default=["localhost", "127.0.0.1", "[::1]"],
        description="Host names the API answers to (comma-separated or a JSON list; "
        "'*.example.org' for subdomains, '*' for any); other Host headers get 400, so a site "
        "that rebinds its DNS name to this machine cannot reach it. The host "
        "`marsa serve --host` names, and an IP address the server is reached on, are "
        "allowed too.",
    )
    sse_heartbeat_seconds: float = Field(
        default=15.0, gt=0, le=300, description="Seconds between event-stream heartbeats."
    )
    sse_max_seconds: float = Field(
        default=600.0,
        gt=0,
        le=86400,
        description="Longest an event stream is kept open; then the server closes it and "
        "the client reconnects with Last-Event-ID (browsers do this by themselves) and goes "
        "on from there. A run awaiting review holds no connection for days.",
    )
    max_upload_bytes: int = Field(
        default=10 * 1024 * 1024, ge=1024, description="Largest document upload accepted."
    )
    seed_docs: bool = Field(
        default=True,
        description="When the API starts with an empty document store, ingest the project's "
        "own docs/ so there is something to research.",
    )
    max_active_runs: int = Field(
        default=4,
        ge=1,
        le=64,
        description="Runs that may research at the same time (in the API process, or in "
        "each `marsa worker`).",
    )
    run_in: Literal["api", "workers"] = Field(
        default="api",
        description="Where runs are researched: 'api' (in the `marsa serve` process that "
        "started them) or 'workers' (`marsa serve` only queues and follows runs; `marsa "
        "worker` processes research them; needs PostgreSQL, see docs/deployment.md).",
    )
    redis_url: str | None = Field(
        default=None,
        description="Redis for live events and cancels between API replicas and workers "
        "(e.g. redis://127.0.0.1:6379/0); unset or down: streams read the database "
        "every half second.",
    )
    worker_stale_seconds: float = Field(
        default=30.0,
        ge=1.0,
        le=3600.0,
        description="A worker whose heartbeat is older than this is taken for dead: "
        "another worker resumes its runs from their last checkpoints.",
    )

    @field_validator("mcp_token", "scholarly_email", "searxng_url", mode="before")
    @classmethod
    def _blank_is_unset(cls, value: object) -> object:
        # docker-compose passes an unset variable as "": no token, not an empty one.
        if isinstance(value, str) and not value.strip():
            return None
        return value

    @field_validator("docs_ingest_roots", mode="before")
    @classmethod
    def _path_list(cls, value: object) -> object:
        return path_list(value)

    @field_validator("allowed_hosts", mode="before")
    @classmethod
    def _host_list(cls, value: object) -> object:
        return comma_list(value)

    def secrets(self) -> list[str]:
        """Secret values that must never appear in a log line or an error message."""
        values = [
            self.tavily_api_key,
            self.github_token,
            self.embedder_api_key,
            self.llm_api_key,
            self.api_token,
            self.mcp_token,
        ]
        return [v.get_secret_value() for v in values if v is not None and v.get_secret_value()]


@lru_cache(maxsize=1)
def get_settings() -> Settings:
    """The process-wide settings object."""
    return Settings()
