"""The web-search server's settings: the Tavily key and how Tavily is asked. Read from
``TAVILY_API_KEY`` and ``MARSA_TAVILY_*`` variables (or ``.env``)."""

from __future__ import annotations

from pydantic import AliasChoices, Field, SecretStr

from mcp_servers.common.settings import ServerSettings


class WebSettings(ServerSettings):
    """What the web-search server reads: ``TAVILY_API_KEY`` and ``MARSA_TAVILY_*``."""

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
