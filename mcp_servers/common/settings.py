"""What every server's settings hold, and the HTTP token only the HTTP transport reads.

Each server has its own pydantic-settings class (``<server>/settings.py``) built on
``ServerSettings``: the fields it reads and nothing else. The client starts a stdio server with
exactly those variables, so a server never holds another's key.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Self

from pydantic import Field, SecretStr, field_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

_CONFIG = SettingsConfigDict(
    env_prefix="MARSA_", env_file=".env", extra="ignore", populate_by_name=True
)


class ServerSettings(BaseSettings):
    """The settings every built-in server reads."""

    model_config = _CONFIG

    log_level: str = Field(
        default="INFO", description="INFO logs every tool call; WARNING silences that."
    )
    server_log_dir: Path | None = Field(
        default=None,
        description="Write the JSON tool-call log lines to <dir>/<server>.jsonl, not stderr.",
    )

    def secrets(self) -> list[str]:
        """This server's secret values: never in a log line or an error message."""
        values = [getattr(self, name) for name in type(self).model_fields]
        return [
            v.get_secret_value()
            for v in values
            if isinstance(v, SecretStr) and v.get_secret_value()
        ]

    @classmethod
    def taken_from(cls, other: Any) -> Self:
        """These settings with the values of the same-named attributes of ``other`` (any
        object: a test's or a benchmark's configuration); the environment is not read."""
        values = {name: getattr(other, name) for name in cls.model_fields if hasattr(other, name)}
        return cls.model_validate(values)


class HttpSettings(BaseSettings):
    """Read only by a server started with ``--transport http``."""

    model_config = _CONFIG

    mcp_token: SecretStr | None = Field(
        default=None, description="Bearer token every MCP request over HTTP must carry."
    )

    @field_validator("mcp_token", mode="before")
    @classmethod
    def _blank_is_unset(cls, value: object) -> object:
        # docker-compose passes an unset variable as "": no token, not an empty one.
        if isinstance(value, str) and not value.strip():
            return None
        return value
