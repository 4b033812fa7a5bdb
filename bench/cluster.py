"""Runs across API replicas and workers: N runs submitted at once to 2 replicas and 2 workers
(MARSA_RUN_IN=workers) against one single-process `marsa serve`, then the cluster again with
one worker killed (SIGKILL) halfway.

Usage: python bench/cluster.py [--runs 50] [--phases single,cluster,kill] [--stale-seconds 10]
                               [--corpus DIR --questions FILE]
Everything runs on this machine with the offline engine and the local document store holding a
tiny corpus (four short files, ten questions; a run costs about 0.2 CPU-s, so the distributed
plumbing weighs heavily), or with --corpus a folder of real documentation (e.g. the one
`python bench/corpus.py structlog` prints) and --questions its questions (a .jsonl file with a
"question" field per line, e.g. bench/data/structlog_questions.jsonl, or one question a line).
The single process runs on a SQLite file, the cluster on a fresh PostgreSQL database
(created and dropped here) and Redis (a redis-server of its own when the binary is there, else
--redis-url). Prints one JSON object. Per phase: completed, failed, lost (a run that did not end
in a terminal state, or whose event numbers are not 1..n), throughput in runs per minute (from
the first submit to the last run's end), and p50/p95 latency of a run (submit to done, the
server's own timestamps). Failures are listed by example.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import httpx

from backend.evals.metrics import percentile

REPO = Path(__file__).resolve().parents[1]
PG_ADMIN = "postgresql://postgres@127.0.0.1:5432/postgres"
TERMINAL = {"done", "failed", "cancelled", "interrupted"}
CORPUS = {
    "tides.md": "# Tides\n\nSpring tides happen a day or two after the full moon and the new "
    "moon, when the sun and the moon pull in line. Neap tides happen at the quarter moons, when "
    "the pulls are at right angles.\n",
    "almanac.md": "# Almanac\n\nThe almanac lists spring tides shortly after each full moon and "
    "new moon. Tidal range is largest at spring tides and smallest at neap tides.\n",
    "harbour.md": "# Harbour\n\nBoats leave the harbour at high water. Spring tides after the "
    "full moon give the deepest water over the bar. The harbour master posts the tide table "
    "each week.\n",
    "moon.md": "# The moon\n\nThe moon goes round the earth in about 27 days; its phases repeat "
    "every 29.5 days. The moon's pull raises two bulges of water on opposite sides of the "
    "earth.\n",
}
QUESTIONS = [
    "When do spring tides happen?",
    "When do neap tides happen?",
    "Why is the tidal range largest at spring tides?",
    "When do boats leave the harbour?",
    "What gives the deepest water over the bar?",
    "How long does the moon take to go round the earth?",
    "How often do the moon's phases repeat?",
    "What does the almanac list?",
    "What raises two bulges of water on the earth?",
    "Who posts the tide table?",
]


def questions(runs: int, asked: list[str] | None = None) -> list[str]:
    """The bench's questions (``asked``, else the toy corpus's): the list repeated, each run
    its own numbered copy."""
    pool = asked or QUESTIONS
    return [f"{pool[i % len(pool)]} ({i + 1})" for i in range(runs)]


def read_questions(path: Path) -> list[str]:
    """Questions from a .jsonl file (each line's "question") or a text file (one a line)."""
    lines = [line.strip() for line in path.read_text().splitlines() if line.strip()]
    if path.suffix == ".jsonl":
        return [str(json.loads(line)["question"]) for line in lines]
    return lines


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def reachable(url: str) -> bool:
    parts = urlsplit(url)
    try:
        with socket.create_connection((parts.hostname or "127.0.0.1", parts.port or 6379), 2):
            return True
    except OSError:
        return False


def wait_until(check: Callable[[], bool], what: str, deadline_s: float, proc: Any = None) -> None:
    end = time.monotonic() + deadline_s
    while not check():
        if proc is not None and proc.poll() is not None:
            raise RuntimeError(f"{what}: the process stopped (code {proc.returncode})")
        if time.monotonic() > end:
            raise TimeoutError(f"{what}: not within {deadline_s}s")
        time.sleep(0.1)


def _ppid_and_cpu() -> dict[int, tuple[int, float]]:
    """Every process's parent and CPU seconds so far (user + system), from /proc."""
    tick = os.sysconf("SC_CLK_TCK")
    table = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue  # ended meanwhile
        table[int(entry.name)] = (int(fields[1]), (int(fields[11]) + int(fields[12])) / tick)
    return table


@dataclass
class CpuMeter:
    """CPU seconds a phase's processes spend: each named process with its descendants (its MCP
    servers), and the PostgreSQL backends serving ``database_url``. Linux only (/proc)."""

    roots: dict[str, int]
    database_url: str | None = None
    began: dict[str, dict[int, float]] = field(default_factory=dict)

    def _backends(self) -> set[int]:
        if self.database_url is None:
            return set()
        import psycopg

        with psycopg.connect(self.database_url, autocommit=True) as conn:
            rows = conn.execute(
                "SELECT pid FROM pg_stat_activity "
                "WHERE datname = current_database() AND pid <> pg_backend_pid()"
            ).fetchall()
        return {int(row[0]) for row in rows}

    def _read(self) -> dict[str, dict[int, float]]:
        table = _ppid_and_cpu()
        children: dict[int, list[int]] = {}
        for pid, (parent, _) in table.items():
            children.setdefault(parent, []).append(pid)
        out: dict[str, dict[int, float]] = {}
        for name, root in self.roots.items():
            tree, todo = {}, [root]
            while todo:
                pid = todo.pop()
                if pid in table:
                    tree[pid] = table[pid][1]
                todo += children.get(pid, [])
            out[name] = tree
        out["postgres"] = {pid: table[pid][1] for pid in self._backends() if pid in table}
        return out

    def start(self) -> None:
        self.began = self._read() if Path("/proc/self/stat").exists() else {}

    def stop(self) -> dict[str, Any]:
        """CPU seconds since start() by process (a process gone meanwhile is not counted)."""
        if not self.began:
            return {}
        spent = {
            name: round(sum(now - self.began[name].get(pid, 0.0) for pid, now in pids.items()), 2)
            for name, pids in self._read().items()
        }
        return {"cpu_s": round(sum(spent.values()), 2), "cpu_s_by_process": spent}


def stamp(text: str) -> float:
    return datetime.fromisoformat(text).timestamp()


@dataclass
class Proc:
    """A process of the bench and the file its output goes to."""

    proc: subprocess.Popen[bytes]
    log: Path

    def output(self) -> str:
        return self.log.read_text(errors="replace")


@dataclass
class Place:
    """Where the processes of a phase keep their things, and their environment."""

    home: Path
    settings: dict[str, str]
    procs: list[Proc] = field(default_factory=list)

    def env(self) -> dict[str, str]:
        env = {
            k: v
            for k, v in os.environ.items()
            if k not in ("TAVILY_API_KEY", "GITHUB_TOKEN") and not k.startswith("MARSA_")
        }
        env |= {
            "MARSA_DATA_DIR": str(self.home / "data"),
            "MARSA_SEED_DOCS": "false",
            "MARSA_GITHUB_BASE_URL": "http://127.0.0.1:9",  # nothing leaves the machine
            "PYTHONPATH": str(REPO),
        }
        return env | {f"MARSA_{k.upper()}": v for k, v in self.settings.items()}

    def start(self, *args: str) -> Proc:
        log = self.home / f"{args[0]}-{len(self.procs)}.log"
        with log.open("wb") as out:
            proc = subprocess.Popen(
                [sys.executable, "-m", "backend.cli", *args],
                env=self.env(),
                cwd=REPO,
                stdout=out,
                stderr=subprocess.STDOUT,
            )
        started = Proc(proc, log)
        self.procs.append(started)
        return started

    def serve(self) -> str:
        """A `marsa serve` on a free port, once it answers; its URL."""
        port = free_port()
        proc = self.start("serve", "--port", str(port))
        url = f"http://127.0.0.1:{port}"

        def up() -> bool:
            try:
                return httpx.get(f"{url}/api/health", timeout=2).status_code == 200
            except httpx.TransportError:
                return False

        wait_until(up, f"marsa serve at {url}", 180, proc.proc)
        return url

    def worker(self) -> Proc:
        worker = self.start("worker")
        wait_until(lambda: "ready" in worker.output(), "marsa worker", 180, worker.proc)
        return worker

    def stop(self) -> None:
        for each in self.procs:
            if each.proc.poll() is None:
                each.proc.terminate()
        for each in self.procs:
            try:
                each.proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                each.proc.kill()
                each.proc.wait(timeout=10)
        self.procs.clear()


def ingest(place: Place, corpus: Path | None = None) -> None:
    """Put ``corpus`` (a folder), or the toy corpus, in the phases' document store."""
    folder = corpus
    if folder is None:
        folder = place.home / "corpus"
        folder.mkdir(exist_ok=True)
        for name, text in CORPUS.items():
            (folder / name).write_text(text)
    done = subprocess.run(
        [sys.executable, "-m", "backend.cli", "ingest", str(folder)],
        env=place.env(),
        cwd=REPO,
        capture_output=True,
        timeout=1800,
    )
    if done.returncode != 0:
        raise RuntimeError(f"marsa ingest failed:\n{done.stderr.decode()}")


@contextmanager
def fresh_postgres(admin_url: str) -> Iterator[str]:
    """A database made for the bench, dropped afterwards."""
    import psycopg

    name = f"marsa_bench_{uuid.uuid4().hex[:10]}"
    with psycopg.connect(admin_url, autocommit=True, connect_timeout=5) as admin:
        admin.execute(f'CREATE DATABASE "{name}"')
        try:
            yield admin_url.rsplit("/", 1)[0] + f"/{name}"
        finally:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@contextmanager
def redis(fallback_url: str) -> Iterator[str]:
    """A redis-server of the bench's own on a free port, or ``fallback_url`` without one."""
    binary = shutil.which("redis-server")
    if binary is None:
        if not reachable(fallback_url):
            raise RuntimeError(f"no redis-server binary and no Redis at {fallback_url}")
        yield fallback_url
        return
    port = free_port()
    url = f"redis://127.0.0.1:{port}/0"
    proc = subprocess.Popen(
        [binary, "--port", str(port), "--bind", "127.0.0.1", "--save", ""],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        wait_until(lambda: reachable(url), "redis-server", 20, proc)
        yield url
    finally:
        proc.terminate()
        proc.wait(timeout=20)


def event_numbers(client: httpx.Client, run_id: str) -> list[int]:
    """The ids of a finished run's trace events, read from its event stream (an event is the
    lines up to a blank one: its id, event and data lines come in any order)."""
    seqs: list[int] = []
    block: dict[str, str] = {}
    with client.stream("GET", f"/api/research/{run_id}/events", timeout=60) as response:
        response.raise_for_status()
        for line in response.iter_lines():
            if line:
                name, _, value = line.partition(": ")
                block[name] = value
                continue
            if block.get("event") == "end":
                break
            if block.get("event") == "trace" and "id" in block:
                seqs.append(int(block["id"]))
            block = {}
    return seqs


def history(client: httpx.Client, newest: int) -> list[dict[str, Any]]:
    """The ``newest`` runs of the history, one page of 100 at a time: one request per poll
    instead of one per run keeps the bench's own load off the processes it measures."""
    items: list[dict[str, Any]] = []
    while len(items) < newest:
        page = client.get("/api/research", params={"limit": 100, "offset": len(items)}).json()
        items += page["items"]
        if not page["items"]:
            break
    return items


def measure(
    urls: list[str],
    asked: list[str],
    *,
    deadline_s: float,
    halfway: Callable[[], dict[str, Any]] | None = None,
    meter: CpuMeter | None = None,
) -> dict[str, Any]:
    """Submit every question at once (round robin over ``urls``), wait until each run is in a
    terminal state or the deadline passes, and count. ``halfway`` is called once half of the
    runs have ended; what it returns goes into the figures. ``meter`` counts the CPU seconds
    spent from the first submit to the last run's end (the bench's own checks after excluded)."""
    clients = [httpx.Client(base_url=url, timeout=120) for url in urls]
    cpu: dict[str, Any] = {}
    try:
        if meter is not None:
            meter.start()
        began = time.time()

        def submit(i: int) -> dict[str, Any]:
            response = clients[i % len(clients)].post(
                "/api/research", json={"query": asked[i], "sources": ["docs"]}
            )
            response.raise_for_status()
            return dict(response.json())

        with ThreadPoolExecutor(max_workers=len(asked)) as pool:
            runs = list(pool.map(submit, range(len(asked))))
        submitted_s = time.time() - began
        ids = [run["id"] for run in runs]
        latest: dict[str, dict[str, Any]] = {run["id"]: run for run in runs}
        extra: dict[str, Any] = {}
        end = time.monotonic() + deadline_s
        while time.monotonic() < end:
            for page in history(clients[0], len(ids)):
                if page["id"] in latest:
                    latest[page["id"]] |= page
            ended = sum(latest[i]["status"] in TERMINAL for i in ids)
            if halfway is not None and not extra and ended * 2 >= len(ids):
                extra = {
                    "halfway_at_s": round(time.time() - began, 1),
                    "ended_at_halfway": ended,
                    **halfway(),
                }
            if ended == len(ids):
                break
            time.sleep(0.5)
        wall_s = time.time() - began
        if meter is not None:
            cpu = meter.stop()
        statuses = {i: latest[i]["status"] for i in ids}
        for run_id in ids:
            if statuses[run_id] != "done":  # what went wrong, for the failures by example
                latest[run_id] = clients[0].get(f"/api/research/{run_id}").json()
        gaps: dict[str, list[int]] = {}
        for number, run_id in enumerate(ids):
            if statuses[run_id] in TERMINAL:
                seqs = event_numbers(clients[(number + 1) % len(clients)], run_id)
                if seqs != list(range(1, len(seqs) + 1)) or not seqs:
                    gaps[run_id] = seqs
    finally:
        for client in clients:
            client.close()
    done = [i for i in ids if statuses[i] == "done"]
    latencies = [stamp(latest[i]["updated_at"]) - stamp(latest[i]["created_at"]) for i in done]
    last_end = max((stamp(latest[i]["updated_at"]) for i in done), default=began)
    lost = [i for i in ids if statuses[i] not in TERMINAL or i in gaps]
    failed = [i for i in ids if statuses[i] in TERMINAL - {"done"}]
    return {
        "runs": len(ids),
        "completed": len(done),
        "failed": len(failed),
        "lost": len(lost),
        "submit_s": round(submitted_s, 2),
        "wall_s": round(wall_s, 1),
        "runs_per_minute": round(len(done) / max(last_end - began, 1e-9) * 60, 2),
        "latency_p50_s": round(percentile(latencies, 50), 2) if latencies else None,
        "latency_p95_s": round(percentile(latencies, 95), 2) if latencies else None,
        "failures": [
            {
                "id": i,
                "query": latest[i]["query"],
                "status": statuses[i],
                "errors": latest[i].get("errors"),
                "event_numbers": gaps.get(i),
            }
            for i in ids
            if i in failed or i in lost
        ],
        **cpu,
        **({"cpu_s_per_run": round(cpu["cpu_s"] / len(ids), 3)} if cpu and ids else {}),
        **extra,
        "run_ids": ids,
    }


def single(home: Path, asked: list[str], deadline_s: float) -> dict[str, Any]:
    """One `marsa serve` (MARSA_RUN_IN=api, SQLite) researching every run in its process."""
    place = Place(home, {"database_url": f"sqlite:///{home / 'single.db'}"})
    try:
        url = place.serve()
        meter = CpuMeter({"serve": place.procs[-1].proc.pid})
        figures = measure([url], asked, deadline_s=deadline_s, meter=meter)
        figures.pop("run_ids")
    finally:
        place.stop()
    return {"processes": "1 marsa serve (run_in=api, SQLite)", **figures}


@dataclass
class Cluster:
    place: Place
    urls: list[str]
    replicas: list[Proc]
    workers: list[Proc]
    database_url: str


@contextmanager
def cluster(home: Path, database_url: str, redis_url: str, stale_s: float) -> Iterator[Cluster]:
    """Two replicas (MARSA_RUN_IN=workers) and two workers on one database and Redis."""
    place = Place(
        home,
        {
            "database_url": database_url,
            "run_in": "workers",
            "redis_url": redis_url,
            "worker_stale_seconds": str(stale_s),
        },
    )
    try:
        urls = [place.serve() for _ in range(2)]
        replicas = list(place.procs)
        workers = [place.worker() for _ in range(2)]
        yield Cluster(place, urls, replicas, workers, database_url)
    finally:
        place.stop()


def kill_busiest(topology: Cluster, deadline_s: float = 30.0) -> dict[str, Any]:
    """SIGKILL the worker that holds the most runs, once one holds any (between two jobs a
    worker may briefly hold none, and killing it then would test nothing)."""
    import psycopg

    held: dict[int, list[str]] = {w.proc.pid: [] for w in topology.workers}
    end = time.monotonic() + deadline_s
    with psycopg.connect(topology.database_url, autocommit=True) as conn:
        while not any(held.values()) and time.monotonic() < end:
            rows = conn.execute(
                "SELECT c.worker_id, c.run_id FROM marsa_run_control c "
                "JOIN marsa_runs r ON r.id = c.run_id "
                "WHERE r.status = 'running' AND c.worker_id IS NOT NULL"
            ).fetchall()
            for worker_id, run_id in rows:
                pid = int(worker_id.split(":")[1])
                if pid in held:
                    held[pid].append(run_id)
            if not any(held.values()):
                time.sleep(0.05)
    pid = max(held, key=lambda p: len(held[p]))
    os.kill(pid, signal.SIGKILL)
    return {"killed_worker_pid": pid, "killed_at": time.time(), "runs_it_held": held[pid]}


def held_runs(url: str, ids: list[str], killed_at: float) -> list[dict[str, Any]]:
    """How each run the killed worker held ended, the run_start messages of its trace (a
    take-over says `taken over from a stopped worker`, as a run_start, or as a note after the
    question's run_start when nothing had been checkpointed yet), and the seconds from the kill
    to that take-over."""
    out = []
    with httpx.Client(base_url=url, timeout=60) as client:
        for run_id in ids:
            status = client.get(f"/api/research/{run_id}").json()["status"]
            report = client.get(f"/api/research/{run_id}/report.json")
            trace = report.json()["trace"] if report.status_code == 200 else []
            starts = [
                e for e in trace if e["kind"] == "run_start" or "stopped worker" in e["message"]
            ]
            out.append(
                {
                    "id": run_id,
                    "status": status,
                    "run_starts": [e["message"] for e in starts],
                    "taken_over_after_s": taken_over_after(trace, killed_at),
                }
            )
    return out


def taken_over_after(trace: list[dict[str, Any]], killed_at: float) -> float | None:
    """Seconds from the kill (a Unix time) to the first event of the trace that says the run
    was taken over from a stopped worker; None if none does."""
    for event in trace:
        if "stopped worker" in event["message"]:
            return round(stamp(event["ts"]) - killed_at, 2)
    return None


def run(
    runs: int,
    phases: list[str],
    *,
    pg_admin: str = PG_ADMIN,
    redis_url: str = "redis://127.0.0.1:6379/0",
    stale_s: float = 10.0,
    deadline_s: float = 900.0,
    home: Path | None = None,
    corpus: Path | None = None,
    asked_from: list[str] | None = None,
) -> dict[str, Any]:
    """The bench's figures for the phases asked (single, cluster, kill), on the toy corpus or
    on ``corpus`` with the questions ``asked_from``."""
    asked = questions(runs, asked_from)
    report: dict[str, Any] = {
        "runs": runs,
        "engine": "offline",
        "cpus": os.cpu_count(),
        "corpus": str(corpus) if corpus else "toy (4 files)",
        "distinct_questions": len(asked_from or QUESTIONS),
    }
    with ExitStack() as stack:
        if home is None:
            home = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="marsa-cluster-")))
        ingest(Place(home, {}), corpus)
        if "single" in phases:
            report["single"] = single(home, asked, deadline_s)
        if "cluster" in phases or "kill" in phases:
            database_url = stack.enter_context(fresh_postgres(pg_admin))
            topology = stack.enter_context(
                cluster(home, database_url, stack.enter_context(redis(redis_url)), stale_s)
            )
            shape = "2 marsa serve replicas (run_in=workers) + 2 marsa worker, PostgreSQL, Redis"
            if "cluster" in phases:
                meter = CpuMeter(
                    {
                        **{f"replica{i}": p.proc.pid for i, p in enumerate(topology.replicas)},
                        **{f"worker{i}": w.proc.pid for i, w in enumerate(topology.workers)},
                    },
                    database_url,
                )
                figures = measure(topology.urls, asked, deadline_s=deadline_s, meter=meter)
                figures.pop("run_ids")
                report["cluster"] = {"processes": shape, **figures}
            if "kill" in phases:
                figures = measure(
                    topology.urls,
                    asked,
                    deadline_s=deadline_s,
                    halfway=lambda: kill_busiest(topology),
                )
                figures.pop("run_ids")
                held = held_runs(
                    topology.urls[1],
                    figures.pop("runs_it_held", []),
                    figures.pop("killed_at", time.time()),
                )
                waits = sorted(
                    h["taken_over_after_s"] for h in held if h["taken_over_after_s"] is not None
                )
                report["cluster_worker_killed"] = {
                    "processes": shape + ", one worker SIGKILLed once half the runs ended",
                    "worker_stale_seconds": stale_s,
                    **figures,
                    "runs_it_held": len(held),
                    "held_runs_done": sum(h["status"] == "done" for h in held),
                    "held_runs_taken_over": sum(
                        any("stopped worker" in m for m in h["run_starts"]) for h in held
                    ),
                    "taken_over_after_s": {"first": waits[0], "last": waits[-1]} if waits else None,
                    "held_runs": held,
                }
    for name in ("cluster", "cluster_worker_killed"):
        if name in report and "single" in report and report["single"]["runs_per_minute"]:
            ratio = report[name]["runs_per_minute"] / report["single"]["runs_per_minute"]
            report[name]["throughput_vs_single"] = round(ratio, 2)
    return report


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=50, help="runs submitted at once per phase")
    parser.add_argument(
        "--phases", default="single,cluster,kill", help="comma-separated: single,cluster,kill"
    )
    parser.add_argument("--pg-admin", default=PG_ADMIN, help="where to create the database")
    parser.add_argument(
        "--redis-url", default="redis://127.0.0.1:6379/0", help="without a redis-server binary"
    )
    parser.add_argument(
        "--stale-seconds", type=float, default=10.0, help="MARSA_WORKER_STALE_SECONDS"
    )
    parser.add_argument("--deadline", type=float, default=900.0, help="seconds per phase")
    parser.add_argument("--corpus", type=Path, help="a folder of documents instead of the toy")
    parser.add_argument(
        "--questions", type=Path, help='with --corpus: .jsonl (a "question" a line) or text'
    )
    args = parser.parse_args()
    if (args.corpus is None) != (args.questions is None):
        parser.error("--corpus and --questions go together")
    if args.corpus is not None and not args.corpus.is_dir():
        parser.error(f"--corpus {args.corpus}: not a folder")
    figures = run(
        args.runs,
        [p.strip() for p in args.phases.split(",") if p.strip()],
        pg_admin=args.pg_admin,
        redis_url=args.redis_url,
        stale_s=args.stale_seconds,
        deadline_s=args.deadline,
        corpus=args.corpus,
        asked_from=read_questions(args.questions) if args.questions else None,
    )
    print(json.dumps(figures, indent=2))


if __name__ == "__main__":
    main()
