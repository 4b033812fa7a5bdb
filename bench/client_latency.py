"""Tool-call latency through a held MCPHub session versus a fresh session per call.

Usage: python bench/client_latency.py [--calls 200] [--fresh-calls 20]
Prints one JSON object. ``held``: ``list_documents`` calls to the docs server over the one
session an MCPHub keeps open. ``fresh_session``: the same call through a tool from
``MultiServerMCPClient.get_tools()``, which opens a new session, so a new subprocess,
for every call. Both run on an empty store in a temporary data directory.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from langchain_mcp_adapters.client import MultiServerMCPClient

from backend.config import Settings
from backend.mcp_client import MCPHub, connection_for

ARGUMENTS = {"limit": 5}


def summary(samples_ms: list[float]) -> dict[str, Any]:
    """Count, p50, p95 and mean of a list of durations in milliseconds."""
    cuts = statistics.quantiles(samples_ms, n=100, method="inclusive")
    return {
        "calls": len(samples_ms),
        "p50_ms": round(statistics.median(samples_ms), 2),
        "p95_ms": round(cuts[94], 2),
        "mean_ms": round(statistics.fmean(samples_ms), 2),
    }


async def held(settings: Settings, calls: int) -> tuple[float, list[float]]:
    """Start time of the hub (ms) and the duration of each call over its held session."""
    started = time.perf_counter()
    async with MCPHub(settings, servers=["docs"]) as hub:
        start_ms = (time.perf_counter() - started) * 1000
        await hub.call("docs", "list_documents", ARGUMENTS)  # warm-up: first-call imports
        samples = []
        for _ in range(calls):
            began = time.perf_counter()
            await hub.call("docs", "list_documents", ARGUMENTS)
            samples.append((time.perf_counter() - began) * 1000)
    return start_ms, samples


async def fresh(settings: Settings, calls: int) -> list[float]:
    """The duration of each call made with a get_tools() tool: a new session per call."""
    client = MultiServerMCPClient({"docs": connection_for("docs", settings)})  # type: ignore[dict-item]
    tools = {tool.name: tool for tool in await client.get_tools(server_name="docs")}
    samples = []
    for _ in range(calls):
        began = time.perf_counter()
        await tools["list_documents"].ainvoke(ARGUMENTS)
        samples.append((time.perf_counter() - began) * 1000)
    return samples


async def run(calls: int, fresh_calls: int) -> dict[str, Any]:
    with tempfile.TemporaryDirectory(prefix="marsa-bench-") as tmp:
        settings = Settings(data_dir=Path(tmp))
        start_ms, held_ms = await held(settings, calls)
        fresh_ms = await fresh(settings, fresh_calls)
    held_summary, fresh_summary = summary(held_ms), summary(fresh_ms)
    return {
        "server": "docs",
        "tool": "list_documents",
        "hub_start_ms": round(start_ms, 2),
        "held": held_summary,
        "fresh_session": fresh_summary,
        "p50_ratio": round(fresh_summary["p50_ms"] / held_summary["p50_ms"], 1),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=200, help="calls over the held session")
    parser.add_argument(
        "--fresh-calls", type=int, default=20, help="calls that each open a new session"
    )
    args = parser.parse_args()
    print(json.dumps(asyncio.run(run(args.calls, args.fresh_calls))))


if __name__ == "__main__":
    main()
