"""The three built-in MCP servers and the connection settings that reach them.

Stdio servers do not inherit the parent's environment, so ``server_env`` builds
the environment each one needs (paths, keys) explicitly.
"""

from __future__ import annotations

import json
import os
import sys
from dataclasses import dataclass
from typing import Any

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


def server_env(settings: Settings) -> dict[str, str]:
    """The environment passed to a stdio server: settings made explicit, keys included."""
    env = {k: v for k in _PASSTHROUGH if (v := os.environ.get(k))}
    env.update(
        {
            "FASTMCP_SHOW_CLI_BANNER": "false",
            "FASTMCP_SHOW_SERVER_BANNER": "false",
            "FASTMCP_CHECK_FOR_UPDATES": "off",
            "ANONYMIZED_TELEMETRY": "False",
            "PYTHONUNBUFFERED": "1",
        }
    )
    if (pythonpath := os.environ.get("PYTHONPATH")) is not None:
        env["PYTHONPATH"] = pythonpath
    plain = settings.model_dump(
        exclude={
            "tavily_api_key",
            "github_token",
            "embedder_api_key",
            "llm_api_key",
            "llm",
            "llm_base_url",
            "llm_temperature",
            "llm_price_input",
            "llm_price_output",
            "docs_server_url",
            "web_server_url",
            "github_server_url",
            "database_url",
            "api_token",
            "cors_origins",
            "allowed_hosts",
            "sse_heartbeat_seconds",
            "max_upload_bytes",
            "max_active_runs",
            "seed_docs",
        },
        exclude_none=True,
    )
    plain.setdefault("server_log_dir", settings.data_dir / "logs")
    for key, value in plain.items():
        # pydantic-settings reads a list or an object from the environment as JSON.
        shown = json.dumps(value) if isinstance(value, list | dict) else str(value)
        env[f"MARSA_{key.upper()}"] = shown
    if settings.tavily_api_key is not None:
        env["TAVILY_API_KEY"] = settings.tavily_api_key.get_secret_value()
    if settings.github_token is not None:
        env["GITHUB_TOKEN"] = settings.github_token.get_secret_value()
    if settings.embedder_api_key is not None:
        env["MARSA_EMBEDDER_API_KEY"] = settings.embedder_api_key.get_secret_value()
    return env


def connection_for(name: str, settings: Settings) -> dict[str, Any]:
    """A langchain-mcp-adapters connection for one built-in server."""
    spec = SERVERS[name]
    url = getattr(settings, spec.url_setting)
    if url:
        return {"transport": "streamable_http", "url": url}
    return {
        "transport": "stdio",
        "command": sys.executable,
        "args": ["-m", spec.module],
        "env": server_env(settings),
    }
