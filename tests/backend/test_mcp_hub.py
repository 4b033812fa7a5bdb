"""MCPHub over real subprocesses: built-in servers, a toy server from an mcp_config file, and a
toy server over streamable HTTP. Processes are counted from /proc, so a held session is
proved to be one subprocess and a restart to be a new one."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp.types import Tool, ToolAnnotations
from pydantic import SecretStr

from backend.config import Settings
from backend.mcp_client import (
    CallRecord,
    MCPConfigError,
    MCPHub,
    ServerConnectionLost,
    ServerUnavailable,
    ToolCallError,
    ToolTimeout,
)
from backend.mcp_client.held import _start_failure
from backend.mcp_client.models import ToolInfo, tool_info
from tests.fakes.tavily_api import FakeTavily
from tests.helpers import REPO_ROOT, free_port, running_process

TOY_MODULE = "tests.fakes.toy_server"
QUIET = {
    "PYTHONPATH": REPO_ROOT,
    "FASTMCP_LOG_LEVEL": "WARNING",
    "FASTMCP_SHOW_CLI_BANNER": "false",
    "FASTMCP_SHOW_SERVER_BANNER": "false",
    "FASTMCP_CHECK_FOR_UPDATES": "off",
}
TOY = {"command": sys.executable, "args": ["-m", TOY_MODULE], "env": QUIET}


def children_running(module: str) -> list[int]:
    """Pids of live (not zombie) child processes of this test process running ``module``."""
    pids = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
            cmdline = (entry / "cmdline").read_bytes().split(b"\0")
        except OSError:
            continue  # the process ended while we looked
        state, ppid = stat.rsplit(")", 1)[1].split()[:2]
        if int(ppid) == os.getpid() and state != "Z" and module.encode() in cmdline:
            pids.append(int(entry.name))
    return pids


def wait_until_gone(pid: int, deadline_s: float = 10.0) -> None:
    """Wait until ``pid`` has exited (a zombie counts as exited)."""
    end = time.monotonic() + deadline_s
    while time.monotonic() < end:
        try:
            state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
        except OSError:
            return
        if state == "Z":
            return
        time.sleep(0.02)
    raise TimeoutError(f"process {pid} still runs after {deadline_s}s")


def with_config(settings: Settings, tmp_path: Path, servers: dict[str, Any]) -> Settings:
    """Settings whose mcp_config file lists ``servers``."""
    path = tmp_path / "mcp.json"
    path.write_text(json.dumps({"mcpServers": servers}))
    return settings.model_copy(update={"mcp_config": path})


@pytest.fixture(autouse=True)
def repo_on_pythonpath(monkeypatch: pytest.MonkeyPatch) -> None:
    """Built-in servers get PYTHONPATH from the environment (registry.server_env)."""
    monkeypatch.setenv("PYTHONPATH", REPO_ROOT)


@pytest.fixture
def toy_settings(settings: Settings, tmp_path: Path) -> Settings:
    return with_config(settings, tmp_path, {"toy": TOY})


@pytest.fixture
def fake() -> Iterator[FakeTavily]:
    tavily = FakeTavily().start()
    yield tavily
    tavily.stop()


# --- built-in servers -------------------------------------------------------------------


async def test_hub_starts_docs_and_github_and_leaves_web_unstarted_without_a_key(
    settings: Settings,
) -> None:
    async with MCPHub(settings) as hub:
        web_processes = children_running("mcp_servers.tavily_search")
        assert sorted(hub.available()) == ["docs", "github"]
        web, github, docs = hub.status["web"], hub.status["github"], hub.status["docs"]
    assert web_processes == []
    assert (web.available, web.reason, web.tools) == (False, "no TAVILY_API_KEY set", [])
    assert github.available and "60 requests/hour" in github.reason
    read_only = {tool.name: tool.read_only for tool in docs.tools}
    assert read_only["list_documents"] is True and read_only["ingest_document"] is False
    assert docs.transport == "stdio"


async def test_twenty_calls_reuse_one_docs_subprocess(settings: Settings) -> None:
    async with MCPHub(settings, servers=["docs"]) as hub:
        before = children_running("mcp_servers.document_store")
        results = [await hub.call("docs", "list_documents", {"limit": 5}) for _ in range(20)]
        after = children_running("mcp_servers.document_store")
    assert len(before) == 1
    assert after == before
    assert all(r.result_count == 0 and r.structured["total"] == 0 for r in results)
    assert children_running("mcp_servers.document_store") == []


async def test_web_search_returns_results_with_provenance_when_a_key_is_set(
    settings: Settings, fake: FakeTavily
) -> None:
    web = settings.model_copy(
        update={"tavily_api_key": SecretStr(fake.api_key), "tavily_base_url": fake.url}
    )
    async with MCPHub(web, servers=["web"]) as hub:
        assert hub.available() == ["web"]
        result = await hub.call("web", "search", {"query": "agents", "max_results": 3})
    assert (result.server, result.tool, result.arguments["query"]) == ("web", "search", "agents")
    assert result.result_count == 3
    first = result.structured["results"][0]
    assert first["url"].startswith("https://") and first["domain"] == "nature.com"
    assert len(fake.search_requests()) == 1


async def test_calling_a_server_without_its_key_raises_unavailable_with_the_reason(
    settings: Settings,
) -> None:
    records: list[CallRecord] = []
    async with MCPHub(settings, servers=["web"], on_call=records.append) as hub:
        with pytest.raises(ServerUnavailable, match="no TAVILY_API_KEY set"):
            await hub.call("web", "search", {"query": "agents"})
    assert records[0].error is not None and "TAVILY_API_KEY" in records[0].error


# --- an extra server from the mcp_config file ---------------------------------------------


async def test_extra_server_tools_are_discovered_with_their_read_only_hints(
    toy_settings: Settings,
) -> None:
    async with MCPHub(toy_settings, servers=[]) as hub:
        status = hub.status["toy"]
    assert status.available and not status.builtin and status.transport == "stdio"
    hints = {tool.name: tool.read_only for tool in status.tools}
    assert hints == {"echo": True, "slow": True, "crash": False, "count": True}
    echo = next(tool for tool in status.tools if tool.name == "echo")
    assert echo.input_schema["required"] == ["text"]
    assert echo.description == "Send the text back."


async def test_slow_read_only_tool_times_out_after_one_retry(toy_settings: Settings) -> None:
    records: list[CallRecord] = []
    async with MCPHub(toy_settings, servers=[], on_call=records.append) as hub:
        started = time.monotonic()
        with pytest.raises(ToolTimeout) as timeout:
            await hub.call("toy", "slow", {"seconds": 5}, timeout=0.5)
        elapsed = time.monotonic() - started
        still_serving = await hub.call("toy", "echo", {"text": "hi"})
    assert elapsed < 3.0
    assert records[0].retried and not records[0].restarted
    assert still_serving.structured == {"text": "hi"}
    # The message counts both tries: what the caller waited, not half of it.
    assert str(timeout.value).startswith("toy.slow: no answer in 2 tries of 0.5 s each (1")
    assert timeout.value.tries == 2 and 1.0 <= timeout.value.total < 3.0


async def test_arguments_nested_past_the_limit_are_refused_at_once_not_left_unanswered(
    settings: Settings,
) -> None:
    deep: Any = "rust"
    for _ in range(200):
        deep = [deep]
    async with MCPHub(settings, servers=["docs"], call_timeout=20) as hub:
        started = time.monotonic()
        with pytest.raises(ToolCallError, match="more than 32 levels deep") as refused:
            await hub.call("docs", "search_documents", {"query": "q", "filters": {"k": deep}})
        elapsed = time.monotonic() - started
        still_serving = await hub.call("docs", "list_documents", {})
    assert not isinstance(refused.value, ToolTimeout) and elapsed < 2.0
    assert still_serving.structured["total"] == 0


async def test_crash_restarts_the_server_and_the_next_call_runs_in_a_new_process(
    toy_settings: Settings,
) -> None:
    records: list[CallRecord] = []
    async with MCPHub(toy_settings, servers=[], on_call=records.append) as hub:
        first = (await hub.call("toy", "count")).structured
        with pytest.raises(ServerConnectionLost, match="restarted, the call not repeated"):
            await hub.call("toy", "crash")
        second = (await hub.call("toy", "count")).structured
    assert second["pid"] != first["pid"]
    assert second["count"] == 1  # a fresh process counts from one again
    crash = records[1]
    assert crash.restarted and not crash.retried and crash.error is not None


async def test_killed_server_is_restarted_and_a_read_only_call_is_retried_once(
    toy_settings: Settings,
) -> None:
    records: list[CallRecord] = []
    async with MCPHub(toy_settings, servers=[], on_call=records.append) as hub:
        old_pid = (await hub.call("toy", "count")).structured["pid"]
        os.kill(old_pid, signal.SIGKILL)
        wait_until_gone(old_pid)
        result = await hub.call("toy", "count")
        answer = result.structured
        live = children_running(TOY_MODULE)
    assert answer["pid"] != old_pid and live == [answer["pid"]]
    assert records[1].restarted and records[1].retried and records[1].error is None
    assert result.restarted and result.retried  # the researcher's trace shows it


async def test_tool_error_raises_tool_call_error_and_is_not_retried(
    toy_settings: Settings,
) -> None:
    records: list[CallRecord] = []
    async with MCPHub(toy_settings, servers=[], on_call=records.append) as hub:
        with pytest.raises(ToolCallError, match="text") as caught:
            await hub.call("toy", "echo", {})
        count = (await hub.call("toy", "count")).structured["count"]
    assert type(caught.value) is ToolCallError
    assert not records[0].retried and not records[0].restarted
    assert count == 1  # the failed call did not cost the server a restart


async def test_concurrent_calls_share_the_one_session(toy_settings: Settings) -> None:
    async with MCPHub(toy_settings, servers=[]) as hub:
        texts = [f"call {i}" for i in range(10)]
        results = await asyncio.gather(*(hub.call("toy", "echo", {"text": t}) for t in texts))
        processes = children_running(TOY_MODULE)
    assert [r.structured["text"] for r in results] == texts
    assert len(processes) == 1


async def test_async_on_call_receives_a_record_of_each_call(toy_settings: Settings) -> None:
    seen: list[CallRecord] = []

    async def on_call(record: CallRecord) -> None:
        seen.append(record)

    async with MCPHub(toy_settings, servers=[], on_call=on_call) as hub:
        await hub.call("toy", "echo", {"text": "one"})
    assert [(r.server, r.tool, r.arguments, r.error) for r in seen] == [
        ("toy", "echo", {"text": "one"}, None)
    ]
    assert seen[0].duration_ms > 0


async def test_hub_stops_its_subprocesses_when_it_exits(toy_settings: Settings) -> None:
    async with MCPHub(toy_settings, servers=[]) as hub:
        pids = children_running(TOY_MODULE)
        assert hub.available() == ["toy"]
    assert len(pids) == 1
    wait_until_gone(pids[0])


async def test_missing_command_is_unavailable_while_the_others_start(
    settings: Settings, tmp_path: Path
) -> None:
    servers = {
        "toy": TOY,
        "ghost": {"command": str(tmp_path / "no-such-server")},
        "quitter": {"command": sys.executable, "args": ["-c", "pass"]},
    }
    async with MCPHub(with_config(settings, tmp_path, servers), servers=[]) as hub:
        assert hub.available() == ["toy"]
        echoed = await hub.call("toy", "echo", {"text": "still here"})
        ghost, quitter = hub.status["ghost"], hub.status["quitter"]
    assert echoed.structured == {"text": "still here"}
    assert not ghost.available and "No such file or directory" in ghost.reason
    assert not quitter.available and "before the MCP handshake" in quitter.reason


async def test_server_that_never_answers_is_unavailable_after_the_start_timeout(
    settings: Settings, tmp_path: Path
) -> None:
    silent = {"command": sys.executable, "args": ["-c", "import time; time.sleep(60)"]}
    config = with_config(settings, tmp_path, {"silent": silent})
    async with MCPHub(config, servers=[], start_timeout=1.0) as hub:
        status = hub.status["silent"]
        assert children_running("time.sleep(60)") == []
    assert status.reason == "could not start: did not finish starting within 1 s"


def test_malformed_mcp_config_names_the_file_and_the_entry(
    settings: Settings, tmp_path: Path
) -> None:
    config = with_config(settings, tmp_path, {"toy": TOY, "broken": {"args": ["x"]}})
    with pytest.raises(MCPConfigError) as caught:
        MCPHub(config)
    message = str(caught.value)
    assert str(config.mcp_config) in message
    assert "server 'broken'" in message and "'command'" in message


# --- an extra server over streamable HTTP ----------------------------------------------------


@pytest.fixture
def toy_http() -> Iterator[tuple[str, subprocess.Popen[bytes]]]:
    port = free_port()
    command = [sys.executable, "-m", TOY_MODULE, "--port", str(port)]
    env = {**os.environ, **QUIET}
    with running_process(command, f"http://127.0.0.1:{port}/health", env) as process:
        yield f"http://127.0.0.1:{port}/mcp", process


async def test_extra_http_server_is_reached_by_url(
    settings: Settings, tmp_path: Path, toy_http: tuple[str, subprocess.Popen[bytes]]
) -> None:
    config = with_config(settings, tmp_path, {"remote": {"url": toy_http[0]}})
    async with MCPHub(config, servers=[]) as hub:
        status = hub.status["remote"]
        echoed = await hub.call("remote", "echo", {"text": "over http"})
    assert status.available and status.transport == "http"
    assert echoed.structured == {"text": "over http"}


async def test_stopped_http_server_fails_the_call_and_becomes_unavailable(
    settings: Settings, tmp_path: Path, toy_http: tuple[str, subprocess.Popen[bytes]]
) -> None:
    url, process = toy_http
    records: list[CallRecord] = []
    config = with_config(settings, tmp_path, {"remote": {"url": url}})
    async with MCPHub(config, servers=[], on_call=records.append) as hub:
        await hub.call("remote", "count")
        process.kill()
        process.wait(timeout=10)
        with pytest.raises(ServerUnavailable, match="could not be restarted"):
            await hub.call("remote", "count", timeout=30)
        status = hub.status["remote"]
    assert not status.available and status.reason.startswith("restart failed")
    assert records[1].restarted and not records[1].retried


def test_tool_hints_say_which_tools_declare_writes() -> None:
    def info(**hints: bool) -> ToolInfo:
        schema = {"type": "object"}
        return tool_info(Tool(name="t", inputSchema=schema, annotations=ToolAnnotations(**hints)))

    assert info(readOnlyHint=False).declares_writes
    assert info(destructiveHint=True).declares_writes
    assert not info().declares_writes and not info(readOnlyHint=True).declares_writes


@pytest.mark.parametrize(
    "error", [anyio.BrokenResourceError(), anyio.ClosedResourceError(), BrokenPipeError()]
)
def test_a_server_gone_before_the_handshake_is_named_so_however_the_pipe_broke(
    error: BaseException,
) -> None:
    # A process that exits at once: which of these the client meets first depends on load
    # (CI once saw "could not start: BrokenResourceError: " with nothing after it).
    assert "before the MCP handshake" in _start_failure(error)
