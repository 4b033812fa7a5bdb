"""`marsa research`: run the graph with live progress in the terminal, then print the report."""

from __future__ import annotations

import asyncio
import contextlib
import json
import re
from typing import Any

from rich.console import Console
from rich.markup import escape
from sqlalchemy.exc import SQLAlchemyError

from backend.config import Settings
from backend.graph.context import ResearchContext
from backend.graph.follow_up import EarlierRun, FollowUpError
from backend.graph.result import RunResult
from backend.graph.run import run_research
from backend.mcp_client import SERVERS, MCPHub
from backend.persistence import RUN_ID_PATTERN, RunRecord, RunStore, database_target
from backend.persistence.database import DatabaseURLError
from backend.persistence.runs import now_iso
from backend.reasoning.factory import make_engine, warm_engine
from backend.seed import ensure_documents
from backend.trace import TraceEvent, Tracer

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
        message = escape(event.message)  # a quoted "[detailed validation](…)" is no markup
        # (written to a file, a line is one event: a new user's saved trace was cut at 80
        # columns in mid-sentence)
        console.print(
            f"[{colour}]{event.node:>12}[/] {message}{took}",
            highlight=False,
            soft_wrap=not console.is_terminal,
        )

    return show


async def research_command(
    query: str,
    settings: Settings,
    *,
    sources: list[str] | None,
    max_iterations: int,
    quiet: bool,
    console: Console,
    follow_up: str | None = None,
) -> RunResult:
    """Run one research question end to end, keep it in the runs database (the API's
    history) when that can be written, and return its result. With ``follow_up`` (a run id
    from that history) the run starts from that run's sources and answer, and takes its
    sources option unless ``sources`` is given."""
    earlier = None
    if follow_up is not None:
        earlier, parent_sources = await earlier_run(settings, follow_up)
        if sources is None:
            sources = parent_sources
    tracer = Tracer()
    started = now_iso()
    if not quiet:
        tracer.subscribe(live_printer(console))
    engine = make_engine(settings, tracer)
    builtins = [s for s in sources if s in SERVERS] if sources is not None else None
    hub = MCPHub(settings, servers=builtins)  # reads the extra servers' config; starts nothing
    # Checked before any server starts: the servers started are only those asked for, so
    # they cannot say which names were meant ("--sources doc" has none of them).
    configured = [*SERVERS, *hub.extras]
    unknown = sorted(set(sources or []) - set(configured))
    if unknown:
        raise ValueError(
            f"unknown source(s) {', '.join(unknown)}; configured: {', '.join(sorted(configured))}"
        )
    # The sentence embedder loads (about half a second) while the servers start, not in the
    # run's first step: every engine falls back to the offline one, which uses it.
    warming = asyncio.create_task(asyncio.to_thread(warm_engine))
    async with hub:
        off = {n: st.reason for n, st in hub.status.items() if not st.available}
        for name in [n for n in off if sources is not None and n in sources]:
            tracer.emit("client", "info", f"{name} unavailable: {off[name]}")  # (asked for)
        if sources is None and off:
            # (not asked for by name: one line, not one per source a docs-only user never set up)
            said = "; ".join(f"{n} ({reason})" for n, reason in off.items())
            tracer.emit("client", "info", f"not searched: {said}")
        await ensure_documents(hub, console)
        with contextlib.suppress(Exception):  # (a model that cannot load fails the run's step,
            await warming  # which says why)
        ctx = ResearchContext(
            hub=hub,
            engine=engine,
            tracer=tracer,
            settings=settings,
            max_iterations=max_iterations,
            sources=sources,
        )
        result = await run_research(query, ctx, earlier)
    options = {"sources": sources, "max_iterations": max_iterations, "review_plan": False}
    problem = await keep_run(settings, query, options, result, tracer.events, started)
    if problem:
        console.print(f"[yellow]This run was not kept in the history:[/] {problem}")
    elif not quiet:  # (its id is what --follow-up takes; the report itself does not show it)
        console.print(f"run {result.run_id} kept in the history; follow it up with:")
        # (on a line of its own, never broken, so that it can be copied whole)
        console.print(
            f'  marsa research --follow-up {result.run_id} "…"', highlight=False, soft_wrap=True
        )
    return result


async def earlier_run(settings: Settings, run_id: str) -> tuple[EarlierRun, list[str] | None]:
    """The run a follow-up starts from, from the runs database, and its sources option.
    ValueError says why it cannot be followed up (unknown, not finished, nothing to start
    from, or no database to read)."""
    if not re.fullmatch(RUN_ID_PATTERN, run_id):
        raise ValueError(
            f"--follow-up takes a run id (12 lowercase hex characters), not {run_id!r}"
        )
    try:
        store = RunStore(database_target(settings))
        await store.open()
        try:
            parent = await store.get(run_id)
        finally:
            await store.close()
    except (SQLAlchemyError, OSError, DatabaseURLError) as exc:
        reason = (str(exc).splitlines() or [""])[0][:300]
        raise ValueError(
            f"the runs database could not be read: {type(exc).__name__}: {reason}"
        ) from None
    if parent is None:
        raise ValueError(
            f"no run {run_id} in the history (runs made with `marsa research` or the API)"
        )
    try:
        earlier = EarlierRun.of(parent.id, parent.query, parent.status, parent.result)
    except FollowUpError as exc:
        raise ValueError(str(exc)) from None
    return earlier, parent.options.get("sources")


async def keep_run(
    settings: Settings,
    query: str,
    options: dict[str, Any],
    result: RunResult,
    events: list[TraceEvent],
    created_at: str,
) -> str | None:
    """Store a finished CLI run and its events where the API keeps its runs, so the web UI
    lists, opens, exports and deletes it like its own. Returns why it could not, or None."""
    status = "failed" if result.status == "failed" else "done"
    record = RunRecord(
        id=result.run_id,
        query=query,
        status=status,
        options=options,
        created_at=created_at,
        updated_at=now_iso(),
        plan=result.plan,
        sub_queries=result.sub_queries,
        result=result.as_json(trace=False),  # events go in their own table
        answer=result.answer or None,
        answer_found=result.answer_found,
        error=("; ".join(result.errors) or None) if status == "failed" else None,
        elapsed_ms=float(result.timings.get("total", 0.0)),
        parent_run_id=result.parent_run_id,
    )
    try:
        store = RunStore(database_target(settings))
        await store.open()
        try:
            await store.add_finished(record, events)
        finally:
            await store.close()
    except (SQLAlchemyError, OSError, DatabaseURLError) as exc:
        where = "MARSA_DATABASE_URL" if settings.database_url else str(settings.data_dir)
        # The first line only: SQLAlchemy appends the statement and its (large) parameters.
        reason = (str(exc).splitlines() or [""])[0][:300]
        return f"the runs database ({where}) could not be written: {type(exc).__name__}: {reason}"
    return None


def render(result: RunResult, fmt: str) -> str:
    """The report as Markdown, or the whole result as JSON."""
    if fmt == "json":
        return json.dumps(result.as_json(), indent=2, default=str)
    return result.report
