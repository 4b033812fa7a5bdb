"""The GitHub server's settings: the token and how GitHub is asked. Read from
``GITHUB_TOKEN`` and ``MARSA_GITHUB_*`` variables (or ``.env``)."""

from __future__ import annotations

from pydantic import AliasChoices, Field, SecretStr

from mcp_servers.common.settings import ServerSettings


class GithubSettings(ServerSettings):
    """What the GitHub server reads: ``GITHUB_TOKEN`` and ``MARSA_GITHUB_*``."""

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
