"""The scholarly server's own settings (environment or a ``.env`` file; prefix ``MARSA_``)."""

from __future__ import annotations

from pydantic import Field, field_validator

from mcp_servers.common.settings import ServerSettings


class ScholarlySettings(ServerSettings):
    """Where OpenAlex and arXiv are, how politely to use them, and how to log."""

    openalex_url: str = Field(
        default="https://api.openalex.org",
        description="Base URL of the OpenAlex API (tests point it at a local fake).",
    )
    arxiv_url: str = Field(
        default="https://export.arxiv.org/api/query",
        description="The arXiv API's query endpoint (tests point it at a local fake).",
    )
    scholarly_email: str | None = Field(
        default=None,
        description="Contact address sent to OpenAlex as `mailto` (its 'polite pool': faster, "
        "more reliable) and to both APIs in the User-Agent.",
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

    @field_validator("scholarly_email", mode="before")
    @classmethod
    def _blank_is_unset(cls, value: object) -> object:
        # docker-compose passes an unset variable as "": nothing set, not an empty value.
        return None if isinstance(value, str) and not value.strip() else value
