"""The SearXNG server's own settings (environment or a ``.env`` file; prefix ``MARSA_``)."""

from __future__ import annotations

from pydantic import Field, field_validator

from mcp_servers.common.settings import ServerSettings


class SearxngSettings(ServerSettings):
    """Which SearXNG instance to ask, how politely, and how to log."""

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

    @field_validator("searxng_url", mode="before")
    @classmethod
    def _blank_is_unset(cls, value: object) -> object:
        # docker-compose passes an unset variable as "": nothing set, not an empty value.
        return None if isinstance(value, str) and not value.strip() else value
