"""`marsa research`: run the graph with live progress in the terminal, then print the report."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from rich.console import Console

from backend.config import Settings
from backend.graph.context import ResearchContext
from backend.graph.run import run_research
from backend.mcp_client import SERVERS, MCPHub, ToolCallError
from backend.reasoning.factory import make_engine
from backend.trace import TraceEvent, Tracer

PROJECT_DOCS = Path(__file__).resolve().parents[1] / "docs"
_COLOURS = {
    "planner": "cyan",
    "researcher": "blue",
    "fact_checker": "magenta",
    "synthesizer": "green",
    "run": "white",
    "client": "yellow",
}


def live_printer(console: Console) -> Any:
    """A trace listener that prints each event as one line."""

    def show(event: TraceEvent) -> None:
        if event.kind == "node_start":
            return
        colour = "red" if event.kind in ("error", "fallback") else _COLOURS.get(event.node, "white")
        took = f" [dim]({event.duration_ms:.0f} ms)[/]" if event.duration_ms else ""
        console.print(f"[{colour}]{event.node:>12}[/] {event.message}{took}", highlight=False)

    return show


async def ensure_documents(hub: MCPHub, console: Console) -> None:
    """On first use with an empty store, ingest the project's own docs/ and say so."""
    if "docs" not in hub.available():
        return
    listing = await hub.call("docs", "list_documents", {"limit": 1})
    if listing.structured.get("total", 0) or not PROJECT_DOCS.is_dir():
        return
    files = sorted(p for p in PROJECT_DOCS.rglob("*.md") if p.is_file())
    console.print(
        f"[yellow]The document store is empty: ingesting MARSA's own docs/ "
        f"({len(files)} files) so there is something to research.[/]"
    )
    for file in files:
        try:
            await hub.call("docs", "ingest_file", {"filename": file.name, "path": str(file)})
        except ToolCallError as exc:
            console.print(f"[red]not ingested[/] {file}: {exc.message}")


async def research_command(
    query: str,
    settings: Settings,
    *,
    sources: list[str] | None,
    max_iterations: int,
    quiet: bool,
    console: Console,
) -> dict[str, Any]:
    """Run one research question end to end and return the result JSON."""
    tracer = Tracer()
    if not quiet:
        tracer.subscribe(live_printer(console))
    engine = make_engine(settings, tracer)
    builtins = [s for s in sources if s in SERVERS] if sources is not None else None
    async with MCPHub(settings, servers=builtins) as hub:
        unknown = sorted(set(sources or []) - set(hub.status))
        if unknown:
            raise ValueError(
                f"unknown source(s) {', '.join(unknown)}; "
                f"configured: {', '.join(sorted(hub.status))}"
            )
        for name, status in hub.status.items():
            if not status.available and (sources is None or name in sources):
                tracer.emit("client", "info", f"{name} unavailable: {status.reason}")
        await ensure_documents(hub, console)
        ctx = ResearchContext(
            hub=hub,
            engine=engine,
            tracer=tracer,
            settings=settings,
            max_iterations=max_iterations,
            sources=sources,
        )
        result = await run_research(query, ctx)
    result["engine"] = engine.name
    usage = getattr(engine, "usage", None)
    if usage:
        result["llm_usage"] = usage
        result["llm_usage_by_node"] = engine.usage_by_node()  # type: ignore[attr-defined]
    return result


def render(result: dict[str, Any], fmt: str) -> str:
    """The report as Markdown, or the whole result as JSON."""
    if fmt == "json":
        return json.dumps(result, indent=2, default=str)
    return str(result["report"])
