"""The API as a real process: `marsa serve` with real MCP server subprocesses, the offline
engine, and SQLite or a fresh PostgreSQL database."""

from __future__ import annotations

import json
import os
import sys
import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.helpers import free_port, gate_mcp_config, running_process, serve_env

PG_ADMIN = os.environ.get("MARSA_TEST_PG", "postgresql://postgres@127.0.0.1:5432/postgres")
CORPUS = [
    {
        "title": "Tides and the moon",
        "content": "# Tides\n\nSpring tides happen a day or two after the full moon and the "
        "new moon, when the sun and the moon pull in line. Neap tides happen at the quarter "
        "moons, when the pulls are at right angles.",
        "source_url": "https://oceans.example.edu/tides",
    },
    {
        "title": "Coastal almanac",
        "content": "# Almanac\n\nThe almanac lists spring tides shortly after each full moon "
        "and new moon. Tidal range is largest at spring tides and smallest at neap tides.",
        "source_url": "https://almanac.example.org/coast",
    },
    {
        "title": "Harbour guide",
        "content": "# Harbour\n\nBoats leave the harbour at high water. Spring tides after "
        "the full moon give the deepest water over the bar.",
    },
]
QUESTION = "When do spring tides happen?"


@dataclass
class SSE:
    """What an event stream sent."""

    events: list[dict[str, Any]] = field(default_factory=list)
    """Each as {event, id, data}."""
    heartbeats: int = 0

    def of(self, kind: str) -> list[dict[str, Any]]:
        return [e for e in self.events if e["event"] == kind]


def read_sse(
    client: httpx.Client,
    path: str,
    *,
    headers: dict[str, str] | None = None,
    until: Callable[[dict[str, Any]], bool] = lambda e: e["event"] == "end",
    deadline_s: float = 90.0,
    heartbeats: int | None = None,
    on_event: Callable[[dict[str, Any]], None] = lambda e: None,
) -> SSE:
    """Read an event stream until an event satisfies ``until``, ``heartbeats`` heartbeats
    have come, or the server closes it; ``on_event`` sees each event as it comes."""
    seen = SSE()
    current: dict[str, Any] = {"event": "message", "id": None, "data": ""}
    end = time.monotonic() + deadline_s
    with client.stream("GET", path, headers=headers, timeout=deadline_s) as response:
        assert response.status_code == 200, response.read()
        assert response.headers["content-type"].startswith("text/event-stream")
        for line in response.iter_lines():
            assert time.monotonic() < end, f"the awaited event did not come in {deadline_s}s"
            if line.startswith(":"):
                seen.heartbeats += 1
                if heartbeats is not None and seen.heartbeats >= heartbeats:
                    return seen
            elif line.startswith("event: "):
                current["event"] = line[7:]
            elif line.startswith("id: "):
                current["id"] = int(line[4:])
            elif line.startswith("data: "):
                current["data"] = json.loads(line[6:])
            elif line == "" and current["data"] != "":
                seen.events.append(current)
                on_event(current)
                if until(current):
                    return seen
                current = {"event": "message", "id": None, "data": ""}
    return seen


@dataclass
class ApiServer:
    """A running `marsa serve` and an HTTP client for it."""

    url: str
    proc: Any
    client: httpx.Client
    gate: Path

    def wait_status(self, run_id: str, wanted: set[str], deadline_s: float = 90.0) -> dict:
        end = time.monotonic() + deadline_s
        while True:
            run = self.client.get(f"/api/research/{run_id}").json()
            if run["status"] in wanted:
                return run
            assert time.monotonic() < end, f"run {run_id} stayed {run['status']}"
            time.sleep(0.1)

    def research(self, query: str = QUESTION, **options: Any) -> dict[str, Any]:
        options.setdefault("sources", ["docs"])
        response = self.client.post("/api/research", json={"query": query, **options})
        assert response.status_code == 202, response.text
        return response.json()

    def wait_event(self, run_id: str, kind: str, node: str, deadline_s: float = 60.0) -> SSE:
        """Follow the run's stream until it emits an event of this kind from this node."""
        stream = read_sse(
            self.client,
            f"/api/research/{run_id}/events",
            until=lambda e: (
                e["event"] == "end"
                or (
                    e["event"] == "trace" and (e["data"]["kind"], e["data"]["node"]) == (kind, node)
                )
            ),
            deadline_s=deadline_s,
        )
        assert stream.events[-1]["event"] == "trace", stream.events[-1]
        return stream


@pytest.fixture(params=["sqlite", "postgresql"])
def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """A SQLite file, or a PostgreSQL database made for this test and dropped after it."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'runs.db'}"
        return
    with fresh_postgres() as url:
        yield url


@contextmanager
def fresh_postgres() -> Iterator[str]:
    import psycopg

    name = f"marsa_test_{uuid.uuid4().hex[:10]}"
    try:
        admin = psycopg.connect(PG_ADMIN, autocommit=True, connect_timeout=5)
    except psycopg.OperationalError as exc:
        if os.environ.get("CI"):
            raise
        pytest.skip(f"PostgreSQL not reachable at {PG_ADMIN}: {exc}")
    with admin:
        admin.execute(f'CREATE DATABASE "{name}"')
        try:
            yield PG_ADMIN.rsplit("/", 1)[0] + f"/{name}"
        finally:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@contextmanager
def api_server(
    home: Path, database_url: str | None = None, module: str = "backend.cli", **settings: str
) -> Iterator[ApiServer]:
    """`marsa serve` on a free port with the data directory ``home`` (reused on restart);
    ``module`` is the command's module (a test's own, to run with a scripted engine)."""
    home.mkdir(parents=True, exist_ok=True)
    config, gate = gate_mcp_config(home)
    port = free_port()
    env = serve_env(
        home,
        sse_heartbeat_seconds="0.3",
        mcp_config=str(config),
        **({"database_url": database_url} if database_url else {}),
        **settings,
    )
    command = [sys.executable, "-m", module, "serve", "--port", str(port)]
    url = f"http://127.0.0.1:{port}"
    headers = {}
    if "api_token" in settings:
        headers["Authorization"] = f"Bearer {settings['api_token']}"
    ready = f"{url}/openapi.json"
    with (
        running_process(command, ready, env) as proc,
        httpx.Client(base_url=url, timeout=60, headers=headers) as client,
    ):
        yield ApiServer(url=url, proc=proc, client=client, gate=gate)


def ingest_corpus(server: ApiServer) -> None:
    for doc in CORPUS:
        response = server.client.post("/api/documents", json=doc)
        assert response.status_code == 201, response.text


@contextmanager
def corpus_server(home: Path, kind: str) -> Iterator[ApiServer]:
    """A server with the small tide corpus on SQLite or a fresh PostgreSQL database."""
    if kind == "sqlite":
        with api_server(home) as server:
            ingest_corpus(server)
            yield server
        return
    with fresh_postgres() as url, api_server(home, url) as server:
        ingest_corpus(server)
        yield server


# Package scope: a `marsa serve` takes 10-15 s to start (imports and three MCP
# subprocesses), so the API modules share one per role and database kind. The servers stay
# up together until the package ends: a parametrized package fixture is set up again at
# every change of parameter, and a worker given whole files (--dist loadfile) changes it in
# every file (sqlite tests, then postgresql ones), which started 14 servers where 4 do.
@pytest.fixture(scope="package")
def _api_servers(
    tmp_path_factory: pytest.TempPathFactory,
) -> Iterator[Callable[[str, str], ApiServer]]:
    """Start a server with the small tide corpus for a role and a database kind on first
    use; the same one after."""
    started: dict[tuple[str, str], ApiServer] = {}
    with ExitStack() as stack:

        def server(role: str, kind: str) -> ApiServer:
            if (role, kind) not in started:
                home = tmp_path_factory.mktemp(role)
                started[role, kind] = stack.enter_context(corpus_server(home, kind))
            return started[role, kind]

        yield server


@pytest.fixture(params=["sqlite", "postgresql"])
def shared_server(
    request: pytest.FixtureRequest, _api_servers: Callable[[str, str], ApiServer]
) -> ApiServer:
    """One server per database kind with the small tide corpus, for tests that add runs
    (each reading only its own) or read; tests that add documents use
    ``documents_server``, so no run's sources depend on which tests ran before it."""
    return _api_servers("api", request.param)


@pytest.fixture(params=["sqlite", "postgresql"])
def documents_server(
    request: pytest.FixtureRequest, _api_servers: Callable[[str, str], ApiServer]
) -> ApiServer:
    """One server per database kind with the tide corpus, for tests that add documents
    (each with its own title) and look only at their own."""
    return _api_servers("api-docs", request.param)


class Restartable:
    """`marsa serve` on one data directory and database, stopped and started again by the
    restart tests; the server a test restarts into is the one the next test starts from,
    so each restart costs one start, not two."""

    def __init__(self, home: Path, database_url: str) -> None:
        self.home = home
        self.database_url = database_url
        self._running: ExitStack | None = None
        self._server: ApiServer | None = None

    def current(self) -> ApiServer:
        """The running server, started if none runs (with the tide corpus the first time)."""
        if self._server is not None and self._server.proc.poll() is None:
            return self._server
        self.stop()
        first = not self.home.exists()
        stack = ExitStack()
        self._server = stack.enter_context(api_server(self.home, self.database_url))
        self._running = stack
        if first:
            ingest_corpus(self._server)
        return self._server

    def stop(self, *, kill: bool = False) -> None:
        """Stop the server: SIGKILL with ``kill`` (no goodbye: runs are left "running" in
        the database), else the graceful stop of SIGTERM."""
        if self._server is not None and kill:
            self._server.proc.kill()
            self._server.proc.wait(timeout=20)
        if self._running is not None:
            self._running.close()
        self._running = self._server = None


@pytest.fixture(scope="module", params=["sqlite", "postgresql"])
def restartable(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Restartable]:
    """A server home per database kind, with the tide corpus, for tests that restart it;
    each test's checks hold whatever runs the others left (its own runs, or the history as
    a whole before and after its restart)."""
    home = tmp_path_factory.mktemp("restart") / "home"
    with ExitStack() as stack:
        if request.param == "sqlite":
            url = f"sqlite:///{home.parent / 'runs.db'}"
        else:
            url = stack.enter_context(fresh_postgres())
        restartable = Restartable(home, url)
        stack.callback(restartable.stop)
        yield restartable


API_TOKEN = "s3cret-token"
CORS_ORIGIN = "http://app.example"


@pytest.fixture(scope="package")
def token_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ApiServer]:
    """A server with MARSA_API_TOKEN (its client sends it) and one allowed CORS origin,
    for the token and CORS tests; no documents."""
    home = tmp_path_factory.mktemp("token")
    with api_server(home, api_token=API_TOKEN, cors_origins=f'["{CORS_ORIGIN}"]') as server:
        yield server


def docs_server_pid(server: ApiServer) -> int:
    """The document-store subprocess of a running `marsa serve`."""
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            ppid = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
            cmdline = (entry / "cmdline").read_bytes()
        except OSError:
            continue
        if ppid == server.proc.pid and b"mcp_servers.document_store" in cmdline:
            return int(entry.name)
    raise AssertionError("no document-store subprocess")
