"""The three built-in MCP servers and the connection settings that reach them.

Stdio servers do not inherit the parent's environment, so ``server_env`` builds
the environment each one needs (paths, its own key) from an allow-list per server.
"""

from __future__ import annotations

import json
import os
import sys
from dataclasses import dataclass
from typing import Any

from pydantic import AliasChoices, SecretStr

from backend.config import Settings


@dataclass(frozen=True)
class ServerSpec:
    """A built-in server: its short name, module and default HTTP port."""

    name: str
    module: str
    port: int
    description: str
    url_setting: str


SERVERS: dict[str, ServerSpec] = {
    "docs": ServerSpec(
        "docs", "mcp_servers.document_store", 8101, "local documents (ChromaDB)", "docs_server_url"
    ),
    "web": ServerSpec(
        "web", "mcp_servers.tavily_search", 8102, "web search (Tavily)", "web_server_url"
    ),
    "github": ServerSpec(
        "github", "mcp_servers.github_server", 8103, "GitHub code and issues", "github_server_url"
    ),
}

# Variables a Python subprocess needs to start at all (locale, temp dir, home).
_PASSTHROUGH = ("PATH", "HOME", "LANG", "LC_ALL", "TMPDIR", "SYSTEMROOT", "VIRTUAL_ENV")
_QUIET = {
    "FASTMCP_SHOW_CLI_BANNER": "false",
    "FASTMCP_SHOW_SERVER_BANNER": "false",
    "FASTMCP_CHECK_FOR_UPDATES": "off",
    "ANONYMIZED_TELEMETRY": "False",
    "PYTHONUNBUFFERED": "1",
}

# The settings each built-in server reads, and nothing else: a server never holds another
# server's key. Besides these, every setting named after the server (``docs_…``,
# ``tavily_…``, ``github_…``) except the URL the client reaches it at.
_EVERY_SERVER = ("log_level", "server_log_dir")
SERVER_SETTINGS: dict[str, tuple[str, ...]] = {
    "docs": (
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
    ),
    "web": ("tavily_api_key",),
    "github": ("github_token",),
}
_OWN_PREFIX = {"docs": "docs_", "web": "tavily_", "github": "github_"}


def settings_for(name: str) -> list[str]:
    """The names of the settings the built-in server ``name`` is given."""
    spec = SERVERS[name]
    prefixed = [
        field
        for field in Settings.model_fields
        if field.startswith(_OWN_PREFIX[name]) and field != spec.url_setting
    ]
    return list(dict.fromkeys([*_EVERY_SERVER, *SERVER_SETTINGS[name], *prefixed]))


def _variable(field: str) -> str:
    """The environment variable a setting is read from (the first, when it has several)."""
    alias = Settings.model_fields[field].validation_alias
    if isinstance(alias, AliasChoices) and isinstance(alias.choices[0], str):
        return alias.choices[0]
    return f"MARSA_{field.upper()}"


def server_env(name: str, settings: Settings) -> dict[str, str]:
    """The environment passed to the built-in server ``name`` over stdio: the bare process
    essentials and that server's own settings, its key included; no other server's."""
    env = {k: v for k in _PASSTHROUGH if (v := os.environ.get(k))}
    env.update(_QUIET)
    if (pythonpath := os.environ.get("PYTHONPATH")) is not None:
        env["PYTHONPATH"] = pythonpath
    plain = settings.model_dump(mode="json")
    for field in settings_for(name):
        value = getattr(settings, field)
        if field == "server_log_dir" and value is None:
            value = settings.data_dir / "logs"
        if value is None:
            continue
        if isinstance(value, SecretStr):
            shown = value.get_secret_value()
        elif isinstance(plain[field], list | dict):
            # pydantic-settings reads a list or an object from the environment as JSON.
            shown = json.dumps(plain[field])
        else:
            shown = str(value)
        env[_variable(field)] = shown
    return env


def connection_for(name: str, settings: Settings) -> dict[str, Any]:
    """A langchain-mcp-adapters connection for one built-in server: over HTTP with
    ``MARSA_MCP_TOKEN`` as its bearer token when one is set, else a stdio subprocess."""
    spec = SERVERS[name]
    url = getattr(settings, spec.url_setting)
    if url:
        connection: dict[str, Any] = {"transport": "streamable_http", "url": url}
        if settings.mcp_token is not None:
            token = settings.mcp_token.get_secret_value()
            connection["headers"] = {"Authorization": f"Bearer {token}"}
        return connection
    return {
        "transport": "stdio",
        "command": sys.executable,
        "args": ["-m", spec.module],
        "env": server_env(name, settings),
    }
