"""The API under use: start-up, time to the first streamed event, run time, history reads,
concurrent runs, and memory.

Usage: python bench/api.py [--runs 10] [--concurrent 4] [--database-url URL]
Starts `marsa serve` on a free port with a fresh data directory (the project's docs/ are
ingested on start), runs questions about them with the offline engine, and prints one JSON
object. Times are wall-clock milliseconds seen by an HTTP client on the same machine.
"""

from __future__ import annotations

import argparse
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

import httpx

REPO = Path(__file__).resolve().parents[1]
QUESTIONS = [
    "How does MARSA score source quality?",
    "How does the document store combine keyword and semantic search?",
    "What happens when a citation cannot be verified?",
    "How does the GitHub server handle rate limits?",
    "Which embedder does MARSA use offline?",
]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def summary(samples: list[float]) -> dict[str, float]:
    cuts = statistics.quantiles(samples, n=20, method="inclusive") if len(samples) > 1 else samples
    return {"p50_ms": round(statistics.median(samples), 1), "p95_ms": round(cuts[-1], 1)}


def rss_mb(pid: int) -> dict[str, float]:
    """Resident memory of the API process and of each child (the MCP servers), in MiB."""
    pids = [pid]
    children = Path(f"/proc/{pid}/task/{pid}/children")
    if children.exists():
        pids += [int(p) for p in children.read_text().split()]
    sizes: dict[str, float] = {}
    for each in pids:
        status = Path(f"/proc/{each}/status").read_text().splitlines()
        rss = next(int(line.split()[1]) for line in status if line.startswith("VmRSS:"))
        args = Path(f"/proc/{each}/cmdline").read_bytes().split(b"\0")
        name = (
            "api"
            if each == pid
            else next(
                (a.decode().rsplit(".", 1)[-1] for a in args if a.startswith(b"mcp_servers.")),
                str(each),
            )
        )
        sizes[name] = round(rss / 1024, 1)
    sizes["total"] = round(sum(sizes.values()), 1)
    return sizes


def one_run(client: httpx.Client, question: str) -> dict[str, float]:
    """POST a run and follow its stream to the end: (post, first event, end) in ms."""
    started = time.perf_counter()
    run = client.post("/api/research", json={"query": question, "sources": ["docs"]})
    run.raise_for_status()
    posted = time.perf_counter()
    first = None
    with client.stream("GET", f"/api/research/{run.json()['id']}/events") as stream:
        for line in stream.iter_lines():
            if first is None and line.startswith("event: trace"):
                first = time.perf_counter()
            if line.startswith("event: end"):
                break
    ended = time.perf_counter()
    status = client.get(f"/api/research/{run.json()['id']}").json()["status"]
    if status != "done":
        raise RuntimeError(f"run ended {status}")
    return {
        "post_ms": (posted - started) * 1000,
        "first_event_ms": ((first or ended) - started) * 1000,
        "run_ms": (ended - started) * 1000,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=10)
    parser.add_argument("--concurrent", type=int, default=4)
    parser.add_argument("--database-url", default=None)
    args = parser.parse_args()

    home = Path(tempfile.mkdtemp(prefix="marsa-bench-api-"))
    port = free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith("MARSA_")}
    env |= {"MARSA_DATA_DIR": str(home), "PYTHONPATH": str(REPO)}
    env.pop("TAVILY_API_KEY", None)
    if args.database_url:
        env["MARSA_DATABASE_URL"] = args.database_url
    command = [sys.executable, "-m", "backend.cli", "serve", "--port", str(port)]
    started = time.perf_counter()
    proc = subprocess.Popen(
        command, env=env, cwd=REPO, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    url = f"http://127.0.0.1:{port}"
    try:
        with httpx.Client(base_url=url, timeout=120) as client:
            while True:
                try:
                    if client.get("/api/health").status_code == 200:
                        break
                except httpx.TransportError:
                    pass
                if proc.poll() is not None or time.perf_counter() - started > 180:
                    raise RuntimeError("marsa serve did not start")
                time.sleep(0.1)
            startup_ms = (time.perf_counter() - started) * 1000
            rss_idle = rss_mb(proc.pid)
            one_run(client, QUESTIONS[0])  # warm-up: the sentence embedder loads once

            sequential = [one_run(client, QUESTIONS[i % len(QUESTIONS)]) for i in range(args.runs)]

            results: list[dict[str, float]] = []
            errors: list[str] = []

            def worker(i: int) -> None:
                with httpx.Client(base_url=url, timeout=120) as own:
                    try:
                        results.append(one_run(own, QUESTIONS[i % len(QUESTIONS)]))
                    except (httpx.HTTPError, RuntimeError) as exc:
                        errors.append(str(exc))

            wall = time.perf_counter()
            threads = [threading.Thread(target=worker, args=(i,)) for i in range(args.concurrent)]
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join()
            concurrent_wall = (time.perf_counter() - wall) * 1000

            history = []
            for _ in range(50):
                t = time.perf_counter()
                client.get("/api/research", params={"limit": 20}).raise_for_status()
                history.append((time.perf_counter() - t) * 1000)
            detail_id = client.get("/api/research", params={"limit": 1}).json()["items"][0]["id"]
            details = []
            for _ in range(50):
                t = time.perf_counter()
                client.get(f"/api/research/{detail_id}").raise_for_status()
                details.append((time.perf_counter() - t) * 1000)
            report: dict[str, Any] = {
                "database": client.get("/api/health").json()["database"].split("://")[0],
                "startup_ms": round(startup_ms, 1),
                "sequential_runs": args.runs,
                "post": summary([r["post_ms"] for r in sequential]),
                "first_event": summary([r["first_event_ms"] for r in sequential]),
                "run_to_end": summary([r["run_ms"] for r in sequential]),
                "concurrent_runs": args.concurrent,
                "concurrent_wall_ms": round(concurrent_wall, 1),
                "concurrent_run_to_end": summary([r["run_ms"] for r in results] or [0.0]),
                "concurrent_errors": errors,
                "history_page": summary(history),
                "run_detail": summary(details),
                "rss_mb_idle": rss_idle,
                "rss_mb_after": rss_mb(proc.pid),
            }
    finally:
        proc.terminate()
        proc.wait(timeout=30)
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
