"""The SearXNG server's own settings (environment or a ``.env`` file; prefix ``MARSA_``)."""

from __future__ import annotations

from pathlib import Path

from pydantic import Field, SecretStr, field_validator
from pydantic_settings import BaseSettings, SettingsConfigDict


class SearxngSettings(BaseSettings):
    """Which SearXNG instance to ask, how politely, and how to log."""

    model_config = SettingsConfigDict(
        env_prefix="MARSA_", env_file=".env", extra="ignore", populate_by_name=True
    )

    searxng_url: str | None = Field(
        default=None,
        description="Root URL of a SearXNG instance whose JSON output is on, e.g. "
        "http://127.0.0.1:8888 (the server asks <url>/search?format=json).",
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
    log_level: str = Field(
        default="INFO", description="INFO logs every tool call; WARNING silences that."
    )
    server_log_dir: Path | None = Field(
        default=None, description="Write tool-call log lines to <dir>/searxng.jsonl."
    )
    mcp_token: SecretStr | None = Field(
        default=None,
        description="Bearer token every MCP request must carry over HTTP (MARSA_MCP_TOKEN).",
    )

    @field_validator("mcp_token", "searxng_url", mode="before")
    @classmethod
    def _blank_is_unset(cls, value: object) -> object:
        # docker-compose passes an unset variable as "": nothing set, not an empty value.
        return None if isinstance(value, str) and not value.strip() else value

    def secrets(self) -> list[str]:
        """Values that must never appear in a log line or an error message."""
        token = self.mcp_token.get_secret_value() if self.mcp_token else ""
        return [token] if token else []
