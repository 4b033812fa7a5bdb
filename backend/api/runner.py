"""Research runs in the background of the API process.

A run is started, followed (its TraceEvents, as they happen or replayed from the database),
paused after the planner for review, resumed from its last LangGraph checkpoint, cancelled
or deleted. Every event is written to the database; the graph checkpoints to the same one.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import AsyncGenerator
from dataclasses import dataclass, field
from typing import Any, Literal

from langgraph.checkpoint.base import BaseCheckpointSaver
from langgraph.graph import START
from sqlalchemy.exc import SQLAlchemyError

from backend.config import Settings
from backend.graph.builder import build_graph
from backend.graph.context import ResearchContext
from backend.graph.follow_up import EarlierRun, FollowUpError
from backend.graph.result import RunResult
from backend.graph.run import emit_run_start, initial_state
from backend.graph.state import REPLACE, AgentState
from backend.mcp_client import MCPHub, ServerStatus
from backend.persistence import RunRecord, RunStore, WriteRefused, new_run_id
from backend.reasoning.factory import make_engine, warm_engine
from backend.reasoning.models import SubQuery
from backend.trace import TraceEvent, Tracer
from marsa_common.embeddings import EmbedderError

log = logging.getLogger("marsa.api")

TERMINAL = frozenset({"done", "failed", "cancelled", "interrupted"})
"""Statuses after which nothing more happens unless the person resumes the run."""

Mode = Literal["start", "resume"]


class RunStateError(Exception):
    """The run is not in a state that allows what was asked (HTTP 409)."""


class PlanError(ValueError):
    """A reviewed plan that cannot be run as posted, e.g. a source that is not available
    (HTTP 422)."""


class UnknownRun(Exception):
    """No run has this id (HTTP 404)."""


@dataclass
class Notice:
    """What a follower is woken for: a new event, or a change of status."""

    kind: Literal["event", "status"]


@dataclass
class LiveRun:
    """A run this process is working on or holding (awaiting review)."""

    record: RunRecord
    tracer: Tracer | None = None
    task: asyncio.Task[None] | None = None
    followers: set[asyncio.Queue[Notice]] = field(default_factory=set)
    unsaved: list[TraceEvent] = field(default_factory=list)
    stored_seq: int = 0
    """The last event the writer has stored: streams send no event past it, so a client
    never sees an event a crash could take back (and renumber after a resume)."""
    wanted: asyncio.Event = field(default_factory=asyncio.Event)
    closing: bool = False
    last_seq: int = 0
    """The run's last stored event when this segment starts (its events number on)."""
    write_error: str | None = None
    fenced: bool = False
    """This process no longer owns the run (a worker stalled and was taken over): it
    writes nothing more to it."""

    def notify(self, notice: Notice) -> None:
        for queue in self.followers:
            queue.put_nowait(notice)


@dataclass
class StreamItem:
    """One thing to send on a run's event stream."""

    kind: Literal["trace", "status", "end", "heartbeat"]
    event: TraceEvent | None = None
    status: str | None = None


class RunManager:
    """Starts and tracks research runs; the API's routes are thin calls into this."""

    write_linger: float = 0.0
    """Seconds the event writer waits after the first unsaved event, so that events emitted
    close together are stored (and announced) in one batch."""

    def __init__(
        self,
        settings: Settings,
        store: RunStore,
        checkpointer: BaseCheckpointSaver,
        hub: MCPHub,
    ):
        self.settings = settings
        self.store = store
        self.hub = hub
        self.graph = build_graph(checkpointer=checkpointer)
        self.checkpointer = checkpointer
        self.live: dict[str, LiveRun] = {}
        self.slots = asyncio.Semaphore(settings.max_active_runs)
        self.stopping = False
        self._locks: dict[str, asyncio.Lock] = {}

    # --- lifetime --------------------------------------------------------------------

    async def recover(self) -> list[str]:
        """After a restart: runs that were going on are now interrupted (resumable);
        runs awaiting review are held again."""
        interrupted = await self.store.mark_interrupted()
        for run_id in interrupted:
            last = await self.store.last_seq(run_id)
            tracer = Tracer(run_id, last_seq=last)
            event = tracer.emit(
                "run",
                "error",
                "interrupted: the API stopped while this run was going; "
                "POST /api/research/{id}/resume goes on from the last checkpoint",
                status="interrupted",
            )
            await self.store.add_events([event])
        for record in await self.store.with_status("awaiting_review"):
            self.live[record.id] = LiveRun(record=record)
        return interrupted

    async def warm(self) -> None:
        """Load the engine's models before the first run needs them (in a thread: the loop
        goes on). A model that cannot load is logged; the runs then fail and say why."""
        try:
            await asyncio.to_thread(warm_engine)
        except EmbedderError as exc:
            log.error("the offline engine's embedder did not load: %s", exc)

    async def shutdown(self) -> None:
        """Stop the runs of this process: they become interrupted, resumable from their
        checkpoints; event streams close."""
        self.stopping = True
        for live in self.live.values():
            live.notify(Notice("status"))
        tasks = [live.task for live in self.live.values() if live.task and not live.task.done()]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    # --- commands ----------------------------------------------------------------------

    def hub_status(self) -> dict[str, ServerStatus]:
        """Every configured server and whether it can be called."""
        return self.hub.status

    def usable_sources(self) -> list[str]:
        """Servers a run may be routed to now."""
        return self.hub.available()

    async def start(
        self,
        query: str,
        *,
        sources: list[str] | None,
        max_iterations: int,
        review_plan: bool,
        parent_run_id: str | None = None,
    ) -> RunRecord:
        """Record a new run and research it in the background."""
        run_id = new_run_id()
        options = {
            "sources": sources,
            "max_iterations": max_iterations,
            "review_plan": review_plan,
        }
        record = await self.store.create(run_id, query, options, parent_run_id=parent_run_id)
        live = LiveRun(record=record)
        self.live[run_id] = live
        await self._launch(live, "start")
        return record

    async def follow_up(self, parent_id: str, question: str) -> RunRecord:
        """Start a run that follows up a finished one: it begins from that run's sources and
        answer, with its sources option and rounds."""
        parent = await self.get(parent_id)
        if parent.status not in TERMINAL:
            raise RunStateError(
                f"run {parent_id} is {parent.status}: follow it up once it has finished"
            )
        try:
            EarlierRun.of(parent.id, parent.query, parent.status, parent.result)
        except FollowUpError as exc:
            raise RunStateError(str(exc)) from None
        return await self.start(
            question,
            sources=parent.options.get("sources"),
            max_iterations=parent.options.get("max_iterations", 2),
            review_plan=False,
            parent_run_id=parent.id,
        )

    async def _earlier(self, record: RunRecord) -> EarlierRun | None:
        """The run a follow-up starts from, read when its graph starts (None for others)."""
        if record.parent_run_id is None:
            return None
        parent = await self.store.get(record.parent_run_id)
        if parent is None:
            raise UnknownRun(f"the earlier run {record.parent_run_id} was deleted")
        return EarlierRun.of(parent.id, parent.query, parent.status, parent.result)

    async def get(self, run_id: str) -> RunRecord:
        """The run as it stands (the live copy when this process is working on it)."""
        live = self.live.get(run_id)
        if live is not None:
            return live.record
        record = await self.store.get(run_id)
        if record is None:
            raise UnknownRun(run_id)
        return record

    def _lock(self, run_id: str) -> asyncio.Lock:
        """One command at a time per run: two plan posts, resumes or a cancel racing a
        resume must not start two graph runs on one thread."""
        return self._locks.setdefault(run_id, asyncio.Lock())

    async def review(self, run_id: str, sub_queries: list[dict[str, Any]] | None) -> RunRecord:
        """Approve the plan of a run awaiting review, or replace its sub-queries; resume it."""
        async with self._lock(run_id):
            return await self._review(run_id, sub_queries)

    async def _review(self, run_id: str, sub_queries: list[dict[str, Any]] | None) -> RunRecord:
        record = await self.get(run_id)
        if record.status != "awaiting_review":
            raise RunStateError(f"run {run_id} is {record.status}, not awaiting_review")
        live = self.live.setdefault(run_id, LiveRun(record=record))
        if live.task is not None and not live.task.done():
            raise RunStateError(f"run {run_id} is already resuming")
        config = self._config(run_id)
        if sub_queries is None:
            note = "plan approved as proposed"
        else:
            usable = set(self.usable_sources())
            available = ", ".join(sorted(usable)) or "none"
            # A sub-query without sources keeps to what the run was started with.
            requested = record.options.get("sources")
            chosen = [s for s in requested or sorted(usable) if s in usable]
            replaced = []
            for i, item in enumerate(sub_queries, start=1):
                wanted = item.get("sources") or chosen
                if not wanted:
                    asked = ", ".join(requested) if requested else "any"
                    raise PlanError(
                        f"sub-query {i}: none of the run's sources ({asked}) is available now; "
                        f"available: {available}"
                    )
                unknown = sorted(set(wanted) - usable)
                if unknown:
                    raise PlanError(
                        f"sub-query {i}: source(s) {', '.join(unknown)} not available; "
                        f"available: {available}"
                    )
                replaced.append(
                    SubQuery(
                        id=f"q{i}", text=item["text"], sources=wanted, purpose="reviewed"
                    ).model_dump(mode="json")
                )
            plan = dict(record.plan or {})
            plan["sub_queries"] = replaced
            await self.graph.aupdate_state(
                config, {"sub_queries": {REPLACE: replaced}, "plan": plan}, as_node="planner"
            )
            record.plan, record.sub_queries = plan, replaced
            note = f"plan edited: {len(replaced)} sub-queries"
        await self.store.update(
            run_id, status="queued", plan=record.plan, sub_queries=record.sub_queries
        )
        record.status = "queued"
        live.last_seq = await self.store.last_seq(run_id)
        live.notify(Notice("status"))
        await self._launch(live, "resume", note=note)
        return record

    async def resume(self, run_id: str) -> RunRecord:
        """Go on with an interrupted (or failed) run from its last checkpoint."""
        async with self._lock(run_id):
            return await self._resume(run_id)

    async def _resume(self, run_id: str) -> RunRecord:
        record = await self.get(run_id)
        if record.status not in ("interrupted", "failed"):
            raise RunStateError(
                f"run {run_id} is {record.status}; only interrupted or failed runs resume"
            )
        await self.store.update(run_id, status="queued", error=None)
        record.status, record.error = "queued", None
        live = LiveRun(record=record, last_seq=await self.store.last_seq(run_id))
        self.live[run_id] = live
        await self._launch(live, "resume", note="resumed from the last checkpoint")
        return record

    async def cancel(self, run_id: str) -> RunRecord:
        """Stop a run that is queued, running or awaiting review."""
        async with self._lock(run_id):
            return await self._cancel(run_id)

    async def _cancel(self, run_id: str) -> RunRecord:
        record = await self.get(run_id)
        if record.status in TERMINAL:
            raise RunStateError(f"run {run_id} is already {record.status}")
        live = self.live.get(run_id)
        if live is not None and live.task is not None and not live.task.done():
            live.task.cancel()
            await asyncio.gather(live.task, return_exceptions=True)
            if live.record.status in TERMINAL:
                return live.record
            # Cancelled before its first step ran: nothing recorded the end yet.
            record = live.record
        # Awaiting review (nothing running) or not started: record the end here.
        last = await self.store.last_seq(run_id)
        event = Tracer(run_id, last_seq=last).emit(
            "run", "run_end", "run cancelled", status="cancelled"
        )
        await self.store.add_events([event])
        await self.store.update(run_id, status="cancelled")
        record.status = "cancelled"
        if live is not None:
            live.notify(Notice("status"))
            self.live.pop(run_id, None)
        return record

    async def delete(self, run_id: str) -> None:
        """Forget a run: its record, events and checkpoints (a running one is cancelled)."""
        async with self._lock(run_id):
            record = await self.get(run_id)
            if record.status not in TERMINAL:
                await self._cancel(run_id)
            await self.store.delete(run_id)
            await self.checkpointer.adelete_thread(run_id)
            self.live.pop(run_id, None)
        self._locks.pop(run_id, None)

    # --- following ---------------------------------------------------------------------

    async def follow(
        self, run_id: str, after: int, heartbeat: float
    ) -> AsyncGenerator[StreamItem, None]:
        """Events with seq > ``after`` (stored first, then live), status changes,
        heartbeats while nothing happens, and a final item when the run is over."""
        record = await self.get(run_id)
        live = self.live.get(run_id)
        queue: asyncio.Queue[Notice] = asyncio.Queue()
        if live is not None:
            live.followers.add(queue)  # before reading the database: no gap
        try:
            for event in await self.store.events(run_id, after):
                after = event.seq
                yield StreamItem("trace", event=event)
            sent_status = None
            while True:
                if live is not None and live.tracer is not None:
                    stored = [e for e in live.tracer.events if after < e.seq <= live.stored_seq]
                    for event in stored:
                        after = event.seq
                        yield StreamItem("trace", event=event)
                status = live.record.status if live is not None else record.status
                if status != sent_status:
                    sent_status = status
                    yield StreamItem("status", status=status)
                if status in TERMINAL:
                    yield StreamItem("end", status=status)
                    return
                if self.stopping:
                    return  # the client reconnects to the next process and is replayed
                try:
                    await asyncio.wait_for(queue.get(), timeout=heartbeat)
                except TimeoutError:
                    yield StreamItem("heartbeat")
        finally:
            if live is not None:
                live.followers.discard(queue)

    async def all_events(self, run_id: str) -> list[TraceEvent]:
        """Every event of a run, stored and not yet stored."""
        stored = await self.store.events(run_id)
        live = self.live.get(run_id)
        last = stored[-1].seq if stored else 0
        if live is not None and live.tracer is not None:
            stored += [e for e in live.tracer.events if e.seq > last]
        return stored

    # --- the work ----------------------------------------------------------------------

    def _config(self, run_id: str) -> dict[str, Any]:
        return {"configurable": {"thread_id": run_id}}

    async def _launch(self, live: LiveRun, mode: Mode, note: str = "") -> None:
        """Research the run (here: a task of this process; workers mode: a queued job)."""
        live.task = asyncio.create_task(self._execute(live, mode, note), name=live.record.id)

    def _on_event(self, live: LiveRun) -> Any:
        def listen(event: TraceEvent) -> None:
            live.unsaved.append(event)
            live.wanted.set()  # followers hear of it once the writer has stored it

        return listen

    async def _writer(self, live: LiveRun) -> None:
        """Write emitted events to the database in order, in batches, until closed.
        A database error is kept (the run then fails and says why) rather than lost."""
        while True:
            await live.wanted.wait()
            if self.write_linger and not live.closing:
                await asyncio.sleep(self.write_linger)
            live.wanted.clear()
            batch, live.unsaved = live.unsaved, []
            if live.fenced:
                return
            try:
                await self._save_events(live, batch)
            except WriteRefused:
                self._fence(live)
                return
            except SQLAlchemyError as exc:
                live.write_error = f"events not saved: {type(exc).__name__}: {exc}"[:500]
                log.error("run %s: %s", live.record.id, live.write_error)
            if batch:  # sent even when the write failed: the run then fails and says why
                live.stored_seq = max(live.stored_seq, batch[-1].seq)
                live.notify(Notice("event"))
            if live.closing and not live.unsaved:
                return

    async def _save_events(self, live: LiveRun, batch: list[TraceEvent]) -> None:
        """Store a batch of the run's events (a worker guards this with its claim)."""
        await self.store.add_events(batch)

    async def _save_run(self, live: LiveRun, **values: Any) -> None:
        """Change the run's record (a worker guards this with its claim)."""
        await self.store.update(live.record.id, **values)

    def _fence(self, live: LiveRun) -> None:
        """The run is no longer this process's: stop its segment without another write."""
        if not live.fenced:
            live.fenced = True
            log.warning("run %s: taken over elsewhere; this segment stops here", live.record.id)
        if (
            live.task is not None
            and not live.task.done()
            and live.task is not asyncio.current_task()
        ):
            live.task.cancel()

    async def _set_status(self, live: LiveRun, status: str, **values: Any) -> None:
        if live.fenced:
            raise WriteRefused(f"run {live.record.id} belongs to another worker now")
        await self._save_run(live, status=status, **values)
        live.record.status = status
        for key, value in values.items():
            setattr(live.record, key, value)
        live.notify(Notice("status"))

    async def _execute(self, live: LiveRun, mode: Mode, note: str) -> None:
        # No await before the try: a cancel arriving at any point is handled below.
        record = live.record
        run_id = record.id
        tracer = Tracer(run_id, last_seq=live.last_seq)
        live.tracer = tracer
        live.stored_seq = live.last_seq
        tracer.subscribe(self._on_event(live))
        live.closing = False
        writer = asyncio.create_task(self._writer(live))
        started = time.perf_counter()
        options = record.options
        try:
            engine = make_engine(self.settings, tracer)
            async with self.slots:
                await self._set_status(live, "running")
                ctx = ResearchContext(
                    hub=self.hub,
                    engine=engine,
                    tracer=tracer,
                    settings=self.settings,
                    max_iterations=options.get("max_iterations", 2),
                    sources=options.get("sources"),
                )
                state = await self._invoke(ctx, record, mode, note)
            snapshot = await self.graph.aget_state(self._config(run_id))
            elapsed = self._elapsed(record, started)
            if snapshot.next:
                tracer.emit(
                    "run",
                    "info",
                    "awaiting review: approve or edit the plan to go on",
                    status="awaiting_review",
                )
                await self._stop_writer(live, writer)
                await self._set_status(
                    live,
                    "awaiting_review",
                    plan=state.get("plan"),
                    sub_queries=state.get("sub_queries", []),
                    elapsed_ms=elapsed,
                )
                return
            status = "failed" if state.get("status") == "failed" or live.write_error else "done"
            tracer.emit("run", "run_end", f"run {status}", duration_ms=elapsed, status=status)
            await self._stop_writer(live, writer)
            events = await self.store.events(run_id)
            result = RunResult.build(state, events, elapsed, run_id, engine)
            await self._set_status(
                live,
                status,
                result=result.as_json(trace=False),  # the events are stored on their own
                plan=state.get("plan"),
                sub_queries=state.get("sub_queries", []),
                answer=state.get("answer") or None,
                answer_found=result.answer_found,
                error="; ".join([*state.get("errors", []), *filter(None, [live.write_error])])
                if status == "failed"
                else None,
                elapsed_ms=elapsed,
            )
        except asyncio.CancelledError:
            current = asyncio.current_task()
            if current is not None:
                current.uncancel()
            if live.fenced:
                return  # another worker has the run: nothing of this segment is written
            if self.stopping:
                why = "the API stopped while this run was going; resume it"
                tracer.emit("run", "error", f"interrupted: {why}", status="interrupted")
                await self._stop_writer(live, writer)
                await self._set_status(
                    live, "interrupted", error=why, elapsed_ms=self._elapsed(record, started)
                )
                return
            tracer.emit("run", "run_end", "run cancelled", status="cancelled")
            await self._stop_writer(live, writer)
            await self._set_status(live, "cancelled", elapsed_ms=self._elapsed(record, started))
        except Exception as exc:  # the run's boundary: record why it failed, keep the API up
            if isinstance(exc, WriteRefused) or live.fenced:
                self._fence(live)
                return
            tracer.emit("run", "error", f"run failed: {type(exc).__name__}: {exc}")
            tracer.emit("run", "run_end", "run failed", status="failed")
            await self._stop_writer(live, writer)
            await self._set_status(live, "failed", error=f"{type(exc).__name__}: {exc}")
        finally:
            if not writer.done():
                await self._stop_writer(live, writer)
            if live.record.status in TERMINAL:
                self.live.pop(run_id, None)

    @staticmethod
    def _elapsed(record: RunRecord, started: float) -> float:
        """Milliseconds of work on the run: earlier segments plus this one."""
        return record.elapsed_ms + (time.perf_counter() - started) * 1000

    async def _stop_writer(self, live: LiveRun, writer: asyncio.Task[None]) -> None:
        """Let the writer store what is left, then end it."""
        live.closing = True
        live.wanted.set()
        # Shielded: cancelling the run while it waits here must not cancel the writer too.
        await asyncio.shield(writer)

    async def _invoke(
        self, ctx: ResearchContext, record: RunRecord, mode: Mode, note: str
    ) -> AgentState:
        config = self._config(record.id)
        if mode == "resume":
            snapshot = await self.graph.aget_state(config)
            if snapshot.values:
                if ctx.tracer.last_seq == 0:
                    # Checkpointed, but the worker that began it died before storing its
                    # first events: the trace still opens with the question.
                    emit_run_start(ctx, record.query, await self._earlier(record))
                ctx.tracer.emit("run", "run_start", note or "resumed", resumed=True)
                if not snapshot.next:  # finished before the process stopped
                    return snapshot.values
                # Stopped before the planner had finished: the plan still awaits its review.
                unplanned = "planner" in snapshot.next
                review = ["planner"] if record.options.get("review_plan") and unplanned else None
                result = await self.graph.ainvoke(
                    None, config, context=ctx, interrupt_after=review, durability="sync"
                )
                return result
        earlier = await self._earlier(record)
        # The question is checkpointed before the run's first event is stored: whoever goes on
        # with a run that has events (a worker taking over a dead one's) finds a checkpoint to
        # resume from. Given as the input of ainvoke, it would be saved in the background
        # while the planner runs, after the planner's first events.
        # Shielded: a cancel landing mid-write (a run cancelled right after it was posted)
        # must not leave the checkpointer's SQLite connection inside an open transaction,
        # which would lock the database for every other write.
        await asyncio.shield(
            self.graph.aupdate_state(
                config, initial_state(record.query, ctx.max_iterations, earlier), as_node=START
            )
        )
        emit_run_start(ctx, record.query, earlier)
        if mode == "resume" and note:
            # Nothing was checkpointed before it stopped (a worker killed just after taking
            # the run): the trace still says what happened.
            ctx.tracer.emit("run", "info", f"{note}: nothing checkpointed yet, from the start")
        interrupt = ["planner"] if record.options.get("review_plan") else None
        result = await self.graph.ainvoke(
            None,
            config,
            context=ctx,
            interrupt_after=interrupt,
            durability="sync",  # each step is on disk before the next starts: resumable
        )
        return result
