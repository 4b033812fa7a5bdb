"""Extra MCP servers from a JSON or TOML file in the usual ``{"mcpServers": {...}}`` shape.

A file ending in ``.toml`` is read as TOML (``[mcpServers.<name>]`` tables); any other as JSON.

A stdio entry names a command (``command``, ``args``, ``env``, ``cwd``); an HTTP entry a
``url`` (streamable HTTP unless ``"type": "sse"``) and optional ``headers``. Every problem is
reported with the file and the entry, so a broken config says where to look.
"""

from __future__ import annotations

import json
import re
import tomllib
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from backend.mcp_client.models import Transport
from backend.mcp_client.registry import SERVERS

_NAME = re.compile(r"^[A-Za-z0-9_.-]{1,64}$")


class MCPConfigError(ValueError):
    """The MCP config file is missing, not JSON, or has an entry the hub cannot use."""


class StdioServer(BaseModel):
    """A server the hub starts as a subprocess speaking MCP over stdin/stdout."""

    model_config = ConfigDict(extra="forbid")

    command: str = Field(min_length=1)
    args: list[str] = Field(default_factory=list)
    env: dict[str, str] | None = None
    """Added to a minimal default environment (PATH, HOME…): the hub's own is not inherited."""
    cwd: str | None = None
    type: Literal["stdio"] = "stdio"
    description: str = ""
    disabled: bool = False

    @property
    def transport(self) -> Transport:
        return "stdio"

    def connection(self) -> dict[str, Any]:
        """The langchain-mcp-adapters connection for this entry."""
        connection: dict[str, Any] = {
            "transport": "stdio",
            "command": self.command,
            "args": self.args,
            "env": self.env,
        }
        if self.cwd is not None:
            connection["cwd"] = self.cwd
        return connection


class HttpServer(BaseModel):
    """A running server the hub reaches over streamable HTTP (or SSE)."""

    model_config = ConfigDict(extra="forbid")

    url: str = Field(pattern=r"^https?://\S+$")
    headers: dict[str, str] | None = None
    type: Literal["http", "streamable-http", "streamable_http", "sse"] = "http"
    description: str = ""
    disabled: bool = False

    @property
    def transport(self) -> Transport:
        return "sse" if self.type == "sse" else "http"

    def connection(self) -> dict[str, Any]:
        """The langchain-mcp-adapters connection for this entry."""
        transport = "sse" if self.type == "sse" else "streamable_http"
        connection: dict[str, Any] = {"transport": transport, "url": self.url}
        if self.headers:
            connection["headers"] = self.headers
        return connection


ExtraServer = StdioServer | HttpServer


def _describe(error: ValidationError) -> str:
    parts = []
    for item in error.errors():
        where = ".".join(str(part) for part in item["loc"])
        parts.append(f"{where}: {item['msg']}" if where else str(item["msg"]))
    return "; ".join(parts)


def parse_entry(name: str, raw: Any) -> ExtraServer:
    """Validate one ``mcpServers`` entry; the error message says what to fix (no file name)."""
    if not _NAME.match(name):
        raise ValueError("a server name may only hold letters, digits, '_', '-' and '.'")
    if name in SERVERS:
        raise ValueError(f"'{name}' is a built-in server; give the extra server another name")
    if not isinstance(raw, dict):
        raise ValueError(f"expected an object with 'command' or 'url', got {type(raw).__name__}")
    if ("command" in raw) == ("url" in raw):
        raise ValueError(
            "needs exactly one of 'command' (a stdio server) or 'url' (an HTTP server)"
        )
    model = StdioServer if "command" in raw else HttpServer
    try:
        return model.model_validate(raw)
    except ValidationError as exc:
        raise ValueError(_describe(exc)) from None


def load_mcp_config(path: Path) -> dict[str, ExtraServer]:
    """The enabled extra servers of an MCP config file, by name, in file order."""
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise MCPConfigError(f"MCP config {path}: cannot be read ({exc.strerror or exc})") from exc
    document = (
        _parse_toml(path, text) if path.suffix.lower() == ".toml" else _parse_json(path, text)
    )
    servers = document.get("mcpServers") if isinstance(document, dict) else None
    if not isinstance(servers, dict):
        shape = (
            "a table [mcpServers.<name>]"
            if path.suffix.lower() == ".toml"
            else 'an object {"mcpServers": {"<name>": {...}}}'
        )
        raise MCPConfigError(f"MCP config {path}: expected {shape}")
    entries: dict[str, ExtraServer] = {}
    for name, raw in servers.items():
        try:
            entry = parse_entry(name, raw)
        except ValueError as exc:
            raise MCPConfigError(f"MCP config {path}: server '{name}': {exc}") from None
        if not entry.disabled:
            entries[name] = entry
    return entries


def _parse_json(path: Path, text: str) -> Any:
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise MCPConfigError(
            f"MCP config {path}: not valid JSON at line {exc.lineno}, column {exc.colno}: {exc.msg}"
        ) from None


def _parse_toml(path: Path, text: str) -> Any:
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise MCPConfigError(f"MCP config {path}: not valid TOML: {exc}") from None
