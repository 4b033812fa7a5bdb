"""Importing a module builds no MCP server and starts nothing: each import below runs in a
fresh interpreter that counts every FastMCP built."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from tests.helpers import REPO_ROOT

_PROBE = """
import json, sys
import fastmcp
built = []
original = fastmcp.FastMCP.__init__
def counting(self, *args, **kwargs):
    built.append(args[0] if args else kwargs.get("name"))
    original(self, *args, **kwargs)
fastmcp.FastMCP.__init__ = counting
import importlib
importlib.import_module(sys.argv[1])
loaded = sorted(m for m in sys.modules if m.split(".")[0] in ("mcp_servers", "backend"))
print(json.dumps({"built": built, "loaded": loaded}))
"""


def _import(module: str) -> dict[str, list[str]]:
    done = subprocess.run(
        [sys.executable, "-c", _PROBE, module],
        capture_output=True,
        text=True,
        cwd=REPO_ROOT,
        timeout=300,
        check=True,
    )
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_importing_the_offline_engine_builds_no_server_and_loads_none() -> None:
    seen = _import("backend.reasoning.offline.engine")
    assert seen["built"] == []
    assert [m for m in seen["loaded"] if m.startswith("mcp_servers")] == []


@pytest.mark.parametrize(
    "module",
    [
        "mcp_servers.document_store",
        "mcp_servers.tavily_search",
        "mcp_servers.github_server",
        "mcp_servers.document_store.server",
        "mcp_servers.tavily_search.server",
        "mcp_servers.github_server.server",
        "backend.api.main",
        "backend.cli",
    ],
)
def test_importing_a_module_builds_no_mcp_server(module: str) -> None:
    assert _import(module)["built"] == []


def test_the_cli_loads_the_mcp_client_only_for_a_command_that_uses_it() -> None:
    # `marsa --help` took 2.8 s, 1.5 s of it importing langchain-mcp-adapters through the
    # MCP client; a command that talks to a server imports it when it runs.
    loaded = _import("backend.cli")["loaded"]
    assert [m for m in loaded if m.startswith("backend.mcp_client")] == []
