"""The distributed shape as real processes: two `marsa serve` replicas with MARSA_RUN_IN=workers
and two `marsa worker` processes on a fresh PostgreSQL database and the local Redis, sharing
one small document store and the gate search server (tests/fakes/gate_search_server.py)."""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import ExitStack
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import httpx
import psycopg
import pytest

from tests.backend.api.conftest import CORPUS, ApiServer, fresh_postgres
from tests.helpers import free_port, gate_mcp_config, serve_env

SHARED_REDIS = os.environ.get("MARSA_TEST_REDIS", "redis://127.0.0.1:6379/0")
"""The machine's Redis: used when no redis-server binary is there to start one of our own."""
STALE_SECONDS = "4"
"""A killed worker's run is taken over after this (short, for the test)."""


def reachable(url: str) -> bool:
    parts = urlsplit(url)
    try:
        with socket.create_connection((parts.hostname or "127.0.0.1", parts.port or 6379), 2):
            return True
    except OSError:
        return False


class Redis:
    """The cluster's Redis: a redis-server of its own on a free port (so a test may stop and
    start it without touching anyone else's), or the machine's when there is no binary."""

    def __init__(self) -> None:
        self.binary = shutil.which("redis-server")
        self.port = free_port()
        self.proc: subprocess.Popen[bytes] | None = None
        self.url = f"redis://127.0.0.1:{self.port}/0" if self.binary else SHARED_REDIS

    @property
    def own(self) -> bool:
        return self.binary is not None

    def start(self) -> None:
        if self.binary is None:
            if not reachable(self.url):
                if os.environ.get("CI"):
                    raise RuntimeError(f"Redis not reachable at {self.url}")
                pytest.skip(f"no redis-server binary and no Redis at {self.url}")
            return
        self.proc = subprocess.Popen(
            [self.binary, "--port", str(self.port), "--bind", "127.0.0.1", "--save", ""],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        end = time.monotonic() + 20
        while not reachable(self.url):
            assert self.proc.poll() is None, "redis-server stopped"
            assert time.monotonic() < end, "redis-server did not start"
            time.sleep(0.05)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            self.proc.wait(timeout=20)
        self.proc = None


@dataclass
class Worker:
    """A running `marsa worker` and the file its output goes to."""

    proc: subprocess.Popen[bytes]
    log: Path

    def output(self) -> str:
        return self.log.read_text(errors="replace")


@dataclass
class Cluster:
    """Two API replicas and the workers, all on one database, Redis and document store."""

    home: Path
    database_url: str
    settings: dict[str, str]
    redis: Redis
    a: ApiServer | None = None
    b: ApiServer | None = None
    deaf: ApiServer | None = None
    """A third replica whose Redis URL leads nowhere (it streams by polling the database)."""
    single: ApiServer | None = None
    """One `marsa serve` in the default shape (run_in=api, SQLite) on the same documents."""
    workers: list[Worker] = field(default_factory=list)
    servers: list[subprocess.Popen[bytes]] = field(default_factory=list)
    stack: ExitStack = field(default_factory=ExitStack)

    @property
    def gate(self) -> Path:
        return self.home / "gate"

    def env(self, **extra: str) -> dict[str, str]:
        return serve_env(self.home, **{**self.settings, **extra})

    def start_worker(self) -> Worker:
        log = self.home / f"worker-{len(self.workers)}.log"
        with log.open("wb") as out:  # the child keeps its own copy of the file
            proc = subprocess.Popen(
                [sys.executable, "-m", "backend.cli", "worker"],
                env=self.env(),
                stdout=out,
                stderr=subprocess.STDOUT,
            )
        worker = Worker(proc, log)
        self.workers.append(worker)
        return worker

    def wait_ready(self, worker: Worker, deadline_s: float = 90.0) -> None:
        self.wait_output(worker, "ready", deadline_s)

    def wait_output(self, worker: Worker, text: str, deadline_s: float = 90.0) -> None:
        """Until the worker has printed ``text``."""
        end = time.monotonic() + deadline_s
        while text not in worker.output():
            assert worker.proc.poll() is None, f"worker stopped:\n{worker.output()}"
            assert time.monotonic() < end, f"worker did not say {text!r}:\n{worker.output()}"
            time.sleep(0.1)

    def live_workers(self) -> list[Worker]:
        return [w for w in self.workers if w.proc.poll() is None]

    def ensure_workers(self, count: int = 2) -> None:
        """``count`` live workers (a test may have killed one)."""
        new = [self.start_worker() for _ in range(count - len(self.live_workers()))]
        for worker in new:
            self.wait_ready(worker)

    def holder_pid(self, run_id: str, deadline_s: float = 60.0, other_than: int = 0) -> int:
        """The pid of the worker that holds the run (its id is host:pid:random), once it is
        not ``other_than``."""
        end = time.monotonic() + deadline_s
        with psycopg.connect(self.database_url, autocommit=True) as conn:
            while True:
                row = conn.execute(
                    "SELECT worker_id FROM marsa_run_control WHERE run_id = %s", (run_id,)
                ).fetchone()
                if row and row[0] and int(row[0].split(":")[1]) != other_than:
                    return int(row[0].split(":")[1])
                assert time.monotonic() < end, f"no worker took run {run_id}"
                time.sleep(0.1)

    def stop(self) -> None:
        # Every process is told at once; each is then waited for (they stop side by side).
        for proc in [*self.servers, *(w.proc for w in self.workers)]:
            if proc.poll() is None:
                proc.send_signal(signal.SIGTERM)
        for worker in self.workers:
            try:
                worker.proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                worker.proc.kill()
        self.stack.close()


def _replica(
    stack: ExitStack, cluster: Cluster, env: dict[str, str] | None = None, **extra: str
) -> tuple[subprocess.Popen, str]:
    """A `marsa serve` of the cluster, started (``env`` instead of the cluster's, if given)."""
    port = free_port()
    with (cluster.home / f"serve-{port}.log").open("wb") as out:
        proc = subprocess.Popen(
            [sys.executable, "-m", "backend.cli", "serve", "--port", str(port)],
            env=env or cluster.env(**extra),
            stdout=out,
            stderr=subprocess.STDOUT,
        )
    cluster.servers.append(proc)

    def stop() -> None:
        proc.terminate()
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()

    stack.callback(stop)
    return proc, f"http://127.0.0.1:{port}"


def _api(stack: ExitStack, proc: subprocess.Popen, url: str, gate: Path) -> ApiServer:
    end = time.monotonic() + 120
    while True:
        assert proc.poll() is None, f"replica at {url} stopped: see {proc.args} output"
        try:
            if httpx.get(f"{url}/openapi.json", timeout=2).status_code == 200:
                break
        except httpx.TransportError:
            pass
        assert time.monotonic() < end, f"replica at {url} did not start"
        time.sleep(0.2)
    client = stack.enter_context(httpx.Client(base_url=url, timeout=60))
    return ApiServer(url=url, proc=proc, client=client, gate=gate)


def ingest(cluster: Cluster) -> None:
    """The tide corpus into the shared document store, before any process opens it."""
    folder = cluster.home / "corpus"
    folder.mkdir()
    for i, doc in enumerate(CORPUS):
        (folder / f"doc{i}.md").write_text(doc["content"])
    done = subprocess.run(
        [sys.executable, "-m", "backend.cli", "ingest", str(folder)],
        env=cluster.env(),
        capture_output=True,
        timeout=180,
    )
    assert done.returncode == 0, done.stderr.decode()


@pytest.fixture(scope="package")
def cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Cluster]:
    """Replicas A and B and two workers, on a fresh database (dropped afterwards)."""
    redis = Redis()
    redis.start()
    home = tmp_path_factory.mktemp("cluster")
    with fresh_postgres() as database_url:
        config, _gate = gate_mcp_config(home)
        settings = {
            "database_url": database_url,
            "run_in": "workers",
            "redis_url": redis.url,
            "sse_heartbeat_seconds": "0.3",
            "mcp_config": str(config),
            "worker_stale_seconds": STALE_SECONDS,
        }
        cluster = Cluster(home=home, database_url=database_url, settings=settings, redis=redis)
        ingest(cluster)
        try:
            # Every process starts at once (a start is mostly imports and MCP subprocesses):
            # the replicas, the workers, and the two servers some tests compare with.
            started = [_replica(cluster.stack, cluster) for _ in range(2)]
            workers = [cluster.start_worker() for _ in range(2)]
            deaf = _replica(cluster.stack, cluster, redis_url="redis://127.0.0.1:9/0")
            single_env = serve_env(
                home,
                sse_heartbeat_seconds="0.3",
                mcp_config=str(config),
                database_url=f"sqlite:///{home / 'single.db'}",
            )
            single = _replica(cluster.stack, cluster, env=single_env)
            cluster.a, cluster.b = (_api(cluster.stack, p, u, cluster.gate) for p, u in started)
            cluster.deaf = _api(cluster.stack, *deaf, cluster.gate)
            cluster.single = _api(cluster.stack, *single, cluster.gate)
            for worker in workers:
                cluster.wait_ready(worker)
            yield cluster
        finally:
            cluster.stop()
            redis.stop()


def trace_of(stream: Any) -> list[dict[str, Any]]:
    return [e["data"] for e in stream.of("trace")]
