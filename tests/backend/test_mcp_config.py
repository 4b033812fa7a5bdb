"""The mcp_config file: the usual {"mcpServers": {...}} shape, and errors that say where to look."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from backend.mcp_client import MCPConfigError, load_mcp_config


def write(tmp_path: Path, document: Any) -> Path:
    path = tmp_path / "mcp.json"
    path.write_text(document if isinstance(document, str) else json.dumps(document))
    return path


def error_of(path: Path) -> str:
    with pytest.raises(MCPConfigError) as caught:
        load_mcp_config(path)
    return str(caught.value)


def test_stdio_and_http_entries_become_connections(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        {
            "mcpServers": {
                "notes": {"command": "notes-mcp", "args": ["--ro"], "env": {"NOTES": "/n"}},
                "remote": {"url": "http://127.0.0.1:9000/mcp", "headers": {"X-Team": "a"}},
                "legacy": {"url": "https://example.org/sse", "type": "sse"},
            }
        },
    )
    servers = load_mcp_config(path)
    assert servers["notes"].connection() == {
        "transport": "stdio",
        "command": "notes-mcp",
        "args": ["--ro"],
        "env": {"NOTES": "/n"},
    }
    assert servers["remote"].connection() == {
        "transport": "streamable_http",
        "url": "http://127.0.0.1:9000/mcp",
        "headers": {"X-Team": "a"},
    }
    assert [s.transport for s in servers.values()] == ["stdio", "http", "sse"]


def test_disabled_entries_are_skipped(tmp_path: Path) -> None:
    path = write(tmp_path, {"mcpServers": {"off": {"command": "x", "disabled": True}}})
    assert load_mcp_config(path) == {}


def test_invalid_json_names_the_file_and_the_position(tmp_path: Path) -> None:
    path = write(tmp_path, '{"mcpServers": {"a": {"command": "x",}}}')
    message = error_of(path)
    assert str(path) in message and "not valid JSON at line 1" in message


def test_missing_mcp_servers_object_shows_the_expected_shape(tmp_path: Path) -> None:
    message = error_of(write(tmp_path, {"servers": {}}))
    assert '{"mcpServers": {"<name>": {...}}}' in message


def test_entry_with_neither_command_nor_url_is_named(tmp_path: Path) -> None:
    message = error_of(write(tmp_path, {"mcpServers": {"broken": {"args": ["x"]}}}))
    assert "server 'broken'" in message and "'command'" in message and "'url'" in message


def test_wrongly_typed_field_says_which_field(tmp_path: Path) -> None:
    message = error_of(write(tmp_path, {"mcpServers": {"bad": {"command": "x", "args": "-v"}}}))
    assert "server 'bad': args: Input should be a valid list" in message


def test_unknown_key_is_refused_rather_than_ignored(tmp_path: Path) -> None:
    message = error_of(write(tmp_path, {"mcpServers": {"typo": {"command": "x", "arg": []}}}))
    assert "server 'typo': arg: Extra inputs are not permitted" in message


def test_url_must_be_http(tmp_path: Path) -> None:
    message = error_of(write(tmp_path, {"mcpServers": {"ws": {"url": "ws://host/mcp"}}}))
    assert "server 'ws': url:" in message


def test_built_in_names_cannot_be_reused(tmp_path: Path) -> None:
    message = error_of(write(tmp_path, {"mcpServers": {"docs": {"command": "x"}}}))
    assert "'docs' is a built-in server" in message


def test_missing_file_is_named(tmp_path: Path) -> None:
    message = error_of(tmp_path / "absent.json")
    assert "absent.json" in message and "cannot be read" in message


def test_a_toml_file_gives_the_same_entries_as_json(tmp_path: Path) -> None:
    path = tmp_path / "mcp.toml"
    path.write_text(
        '[mcpServers.notes]\ncommand = "python"\nargs = ["-m", "notes"]\n\n'
        '[mcpServers.wiki]\nurl = "http://127.0.0.1:9000/mcp"\n'
    )
    entries = load_mcp_config(path)
    assert list(entries) == ["notes", "wiki"]
    assert entries["notes"].connection()["args"] == ["-m", "notes"]
    assert entries["wiki"].connection()["url"] == "http://127.0.0.1:9000/mcp"


def test_invalid_toml_names_the_file(tmp_path: Path) -> None:
    path = tmp_path / "mcp.toml"
    path.write_text("[mcpServers.notes\ncommand = 1")
    message = error_of(path)
    assert str(path) in message and "not valid TOML" in message
