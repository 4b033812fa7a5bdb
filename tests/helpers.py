"""Helpers for tests that run servers as real processes or drive them with outside clients."""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import AsyncIterator, Iterator, Mapping
from contextlib import asynccontextmanager, contextmanager
from pathlib import Path
from typing import Any

import httpx
from fastmcp import Client
from fastmcp.client.transports import StdioTransport
from langchain_mcp_adapters.client import MultiServerMCPClient
from mcp import ClientSession

from backend.config import Settings
from backend.mcp_client import SERVERS, connection_for, server_env

REPO_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on right now."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@asynccontextmanager
async def stdio_session(name: str, settings: Settings) -> AsyncIterator[ClientSession]:
    """One held session to a built-in server started as a real stdio subprocess."""
    connection = connection_for(name, settings)
    connection["env"]["PYTHONPATH"] = REPO_ROOT
    client = MultiServerMCPClient({name: connection})  # type: ignore[dict-item]
    async with client.session(name) as session:
        yield session


def structured(result: Any) -> Any:
    """The structured content of a CallToolResult (mcp types)."""
    assert not result.isError, result.content
    return result.structuredContent


def wait_for_http(url: str, deadline_s: float = 60.0) -> httpx.Response:
    """GET ``url`` until it answers 200 or the deadline passes."""
    end = time.monotonic() + deadline_s
    last: Exception | None = None
    while time.monotonic() < end:
        try:
            response = httpx.get(url, timeout=2.0)
            if response.status_code == 200:
                return response
        except httpx.HTTPError as exc:
            last = exc
        time.sleep(0.2)
    raise TimeoutError(f"{url} did not answer within {deadline_s}s: {last}")


def inspector_available() -> bool:
    """Whether npx exists (the MCP Inspector CLI is fetched from the npm registry)."""
    return shutil.which("npx") is not None


def run_inspector(args: list[str], timeout: float = 180.0) -> tuple[int, Any, str]:
    """Run ``npx -y @modelcontextprotocol/inspector@2 --cli ARGS``; return (code, json, stderr).

    The Inspector gives a server 15 s to connect by default; a stdio server importing
    ChromaDB on a loaded 2-core machine can need more, so it gets 120 s."""
    command = [
        "npx",
        "-y",
        "@modelcontextprotocol/inspector@2",
        "--cli",
        "--connect-timeout",
        "120000",
        *args,
    ]
    proc = subprocess.run(
        command, capture_output=True, text=True, timeout=timeout, cwd=REPO_ROOT, check=False
    )
    try:
        payload = json.loads(proc.stdout)
    except json.JSONDecodeError:
        payload = proc.stdout
    return proc.returncode, payload, proc.stderr


@contextmanager
def running_process(
    command: list[str],
    ready_url: str,
    env: Mapping[str, str] | None = None,
    cwd: str | Path = REPO_ROOT,
) -> Iterator[subprocess.Popen[bytes]]:
    """Start a process, wait until ``ready_url`` answers 200, and stop it afterwards.

    If it never answers, the error carries everything the process printed.
    """
    with tempfile.TemporaryFile() as log:
        proc = subprocess.Popen(
            command,
            env=dict(env) if env is not None else None,
            cwd=cwd,
            stdout=log,
            stderr=subprocess.STDOUT,
        )
        try:
            try:
                wait_for_http(ready_url)
            except TimeoutError as exc:
                log.seek(0)
                raise RuntimeError(f"{command[:3]} did not start:\n{log.read().decode()}") from exc
            yield proc
        finally:
            proc.terminate()
            try:
                proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait(timeout=20)


QUIET_FASTMCP = {
    "FASTMCP_SHOW_CLI_BANNER": "false",
    "FASTMCP_SHOW_SERVER_BANNER": "false",
    "FASTMCP_CHECK_FOR_UPDATES": "off",
}


def process_env(settings: Mapping[str, str]) -> dict[str, str]:
    """A server's whole environment: its settings, the repository on the path, nothing else
    (no MARSA_ variable or key of the developer's shell)."""
    return {**QUIET_FASTMCP, "PYTHONPATH": REPO_ROOT, **settings}


@asynccontextmanager
async def stdio_client(
    module: str, settings: Mapping[str, str], cwd: str | Path = REPO_ROOT
) -> AsyncIterator[Client]:
    """``python -m MODULE`` as a stdio subprocess started by a fastmcp Client, given only
    ``settings`` as its environment."""
    transport = StdioTransport(
        command=sys.executable, args=["-m", module], env=process_env(settings), cwd=str(cwd)
    )
    async with Client(transport) as client:
        yield client


@contextmanager
def http_server(
    module: str, settings: Mapping[str, str], cwd: str | Path = REPO_ROOT
) -> Iterator[str]:
    """``python -m MODULE --transport http`` on a free port with only ``settings`` as its
    environment; yields http://127.0.0.1:PORT."""
    port = free_port()
    command = [sys.executable, "-m", module, "--transport", "http", "--port", str(port)]
    env = {"PATH": "/usr/bin:/bin", **process_env(settings)}
    with running_process(command, f"http://127.0.0.1:{port}/health", env, cwd):
        yield f"http://127.0.0.1:{port}"


@contextmanager
def http_mcp_server(module: str, settings: Settings, cwd: str | Path = REPO_ROOT) -> Iterator[str]:
    """``python -m MODULE --transport http`` on a free port, with the environment the MARSA
    client gives that server; yields the URL."""
    name = next(spec.name for spec in SERVERS.values() if spec.module == module)
    with http_server(module, server_env(name, settings), cwd) as url:
        yield url


RESULT_KEYS = (
    "query",
    "plan",
    "sub_queries",
    "sources",
    "claims",
    "report",
    "answer",
    "answer_found",
    "citations",
    "citation_check",
    "trace",
    "timings",
    "errors",
)


def assert_research_result(result: dict[str, Any]) -> None:
    """A research result has every key of the JSON shape, and every citation's quote is in
    the text of the source it names, with nothing removed by the citation check."""
    for key in RESULT_KEYS:
        assert key in result, key
    sources = {s["id"]: s for s in result["sources"]}
    for citation in result["citations"]:
        assert citation["quote"] in sources[citation["source_id"]]["text"]
    assert result["citation_check"]["removed"] == 0


def serve_env(home: Path, **settings: str) -> dict[str, str]:
    """The environment of a `marsa serve` under test: its own data directory, no keys or
    MARSA_ settings from the machine, no seeded docs, GitHub answering nothing (nothing
    leaves the machine); ``settings`` become MARSA_<NAME> variables."""
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in ("TAVILY_API_KEY", "GITHUB_TOKEN") and not k.startswith("MARSA_")
    }
    env.update(
        {
            "MARSA_DATA_DIR": str(home / "data"),
            "MARSA_SEED_DOCS": "false",
            "MARSA_GITHUB_BASE_URL": "http://127.0.0.1:9",
            "PYTHONPATH": REPO_ROOT,
        }
    )
    env.update({f"MARSA_{k.upper()}": v for k, v in settings.items()})
    return env


def gate_mcp_config(home: Path) -> tuple[Path, Path]:
    """(MCP config file, gate file) for a `marsa serve` under test: the config names the
    gate search server (tests/fakes/gate_search_server.py) as the extra server "gate", whose
    searches wait while the gate file holds them."""
    gate = home / "gate"
    config = home / "mcp.json"
    gate_server = {
        "command": sys.executable,
        "args": ["-m", "tests.fakes.gate_search_server"],
        "env": {"PYTHONPATH": REPO_ROOT, "GATE_FILE": str(gate)},
    }
    config.write_text(json.dumps({"mcpServers": {"gate": gate_server}}))
    return config, gate
