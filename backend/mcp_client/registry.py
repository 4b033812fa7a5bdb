"""How the built-in MCP servers are started or reached, as their source modules declare.

Stdio servers do not inherit the parent's environment, so ``server_env`` builds the
environment each one needs from that server's own settings only (paths, its own key).
"""

from __future__ import annotations

import json
import os
import sys
from typing import Any

from pydantic import AliasChoices, SecretStr

from backend.config import Settings
from backend.sources import BUILTINS, SourceSpec

ServerSpec = SourceSpec
SERVERS: dict[str, SourceSpec] = BUILTINS
"""The built-in servers, as their source modules declare them (``backend/sources``)."""

# Variables a Python subprocess needs to start at all (locale, temp dir, home).
_PASSTHROUGH = ("PATH", "HOME", "LANG", "LC_ALL", "TMPDIR", "SYSTEMROOT", "VIRTUAL_ENV")
_QUIET = {
    "FASTMCP_SHOW_CLI_BANNER": "false",
    "FASTMCP_SHOW_SERVER_BANNER": "false",
    "FASTMCP_CHECK_FOR_UPDATES": "off",
    "ANONYMIZED_TELEMETRY": "False",
    "PYTHONUNBUFFERED": "1",
}


def settings_for(name: str) -> list[str]:
    """The names of the settings the built-in server ``name`` is given: its own, as its source
    module declares them (they are its settings class's fields; a test checks)."""
    return list(SERVERS[name].settings)


def _variable(field: str) -> str:
    """The environment variable a setting is read from (the first, when it has several)."""
    if field not in Settings.model_fields:
        return f"MARSA_{field.upper()}"
    alias = Settings.model_fields[field].validation_alias
    if isinstance(alias, AliasChoices) and isinstance(alias.choices[0], str):
        return alias.choices[0]
    return f"MARSA_{field.upper()}"


def setting_value(settings: Settings, field: str) -> object:
    """A server's setting as the client sees it: from ``settings`` when the backend holds it,
    else the variable it is read from, as set."""
    if field in Settings.model_fields:
        return getattr(settings, field)
    return os.environ.get(_variable(field))


def server_env(name: str, settings: Settings) -> dict[str, str]:
    """The environment passed to the built-in server ``name`` over stdio: the bare process
    essentials and that server's own settings, its key included; no other server's."""
    env = {k: v for k in _PASSTHROUGH if (v := os.environ.get(k))}
    env.update(_QUIET)
    if (pythonpath := os.environ.get("PYTHONPATH")) is not None:
        env["PYTHONPATH"] = pythonpath
    plain = settings.model_dump(mode="json")
    for field in settings_for(name):
        if field not in plain:
            # A setting of the server's that the backend does not hold: passed on as set.
            if (given := os.environ.get(_variable(field))) is not None:
                env[_variable(field)] = given
            continue
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
    url = setting_value(settings, spec.url_setting)
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
