"""`marsa worker`: takes runs from the queue and researches several at once.

A worker holds its own MCP sessions and engine (as `marsa serve` does in the single-process
shape) and checkpoints every step to the shared PostgreSQL database. For each job it claims
the run (control.py), researches it with the same RunManager code the API uses in-process,
and announces each batch of stored events on Redis. A run claimed by a worker that died is
taken over once its heartbeat is stale, and goes on from its last checkpoint; its event
numbers go on from the last stored event (the (run_id, seq) primary key refuses a duplicate).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import signal
import socket
import uuid
from datetime import timedelta

from langgraph.checkpoint.base import BaseCheckpointSaver
from pgqueuer import Job, Queries, QueueManager
from sqlalchemy.exc import SQLAlchemyError

from backend.api.runner import TERMINAL, LiveRun, Notice, RunManager
from backend.config import Settings
from backend.mcp_client import MCPHub
from backend.persistence import RunStore, database_target, open_checkpointer
from backend.workers.bus import POLL_SECONDS, EventBus
from backend.workers.control import RunControl
from backend.workers.queue import ENTRYPOINT, Mode, RunJob, RunQueue, connect, install

log = logging.getLogger("marsa.worker")


class WorkerRunManager(RunManager):
    """Researches queued runs in this worker process."""

    def __init__(
        self,
        settings: Settings,
        store: RunStore,
        checkpointer: BaseCheckpointSaver,
        hub: MCPHub,
        *,
        bus: EventBus,
        control: RunControl,
        queue: RunQueue,
        worker_id: str,
    ):
        super().__init__(settings, store, checkpointer, hub)
        self.bus = bus
        self.control = control
        self.queue = queue
        self.worker_id = worker_id
        bus.on_cancel = self.cancel_here

    def cancel_here(self, run_id: str) -> None:
        """Stop the run if this worker is researching it (a cancel sent over Redis)."""
        live = self.live.get(run_id)
        if live is not None and live.task is not None and not live.task.done():
            live.task.cancel()

    async def take(self, job: RunJob) -> None:
        """Research one queued run to its end, its review or its cancel."""
        run_id = job.run_id
        record = await self.store.get(run_id)
        if record is None or record.status in TERMINAL or record.status == "awaiting_review":
            return  # deleted, cancelled while queued, or a duplicate job
        claim = await self.control.claim(run_id, self.worker_id)
        while not claim.won:
            # Held by a worker whose heartbeat is still fresh: a duplicate job, or the queue
            # noticed a dead worker before its claim went stale. Wait for one or the other.
            await asyncio.sleep(POLL_SECONDS)
            record = await self.store.get(run_id)
            if record is None or record.status in TERMINAL or record.status == "awaiting_review":
                return
            claim = await self.control.claim(run_id, self.worker_id)
        try:
            mode, note = job.mode, job.note
            if record.status == "running":
                # Its worker died (the queue handed its job on): go on from the checkpoint.
                mode = "resume"
                note = f"taken over from a stopped worker ({claim.previous or 'unknown'})"
            elif not await self.control.move(run_id, ("queued",), "running"):
                return  # cancelled by a replica just now
            record.status = "running"
            if run_id in await self.control.cancelled([run_id]):
                await self._cancel_before_start(run_id)
                return
            live = LiveRun(record=record, last_seq=await self.store.last_seq(run_id))
            self.live[run_id] = live
            await self._follow_and_announce(live, mode, note)
        finally:
            self.live.pop(run_id, None)
            await self.control.release(run_id, self.worker_id)

    async def _cancel_before_start(self, run_id: str) -> None:
        live = LiveRun(record=(await self.get(run_id)), last_seq=await self.store.last_seq(run_id))
        self.live[run_id] = live
        await self._cancel(run_id)
        await self.bus.announce(run_id, await self.store.last_seq(run_id), "cancelled")

    async def _follow_and_announce(self, live: LiveRun, mode: Mode, note: str) -> None:
        """Run the segment; after each stored batch or status change, tell every replica."""
        notices: asyncio.Queue[Notice] = asyncio.Queue()
        live.followers.add(notices)
        await self._launch(live, mode, note)
        task = live.task
        assert task is not None
        run_id = live.record.id
        while True:
            getter = asyncio.ensure_future(notices.get())
            await asyncio.wait({getter, task}, return_when=asyncio.FIRST_COMPLETED)
            getter.cancel()
            while not notices.empty():
                notices.get_nowait()
            await self.bus.announce(run_id, live.stored_seq, live.record.status)
            if task.done():
                break
        await asyncio.gather(task, return_exceptions=True)
        await self.bus.announce(run_id, live.stored_seq, live.record.status)

    async def watch_cancels(self) -> None:
        """Keep claims fresh and catch cancels whose Redis message was lost."""
        beat = max(self.control.stale / 3, POLL_SECONDS)
        since_beat = 0.0
        while True:
            await asyncio.sleep(POLL_SECONDS)
            since_beat += POLL_SECONDS
            running = list(self.live)
            try:
                for run_id in await self.control.cancelled(running):
                    self.cancel_here(run_id)
                if since_beat >= beat:
                    since_beat = 0.0
                    await self.control.heartbeat(self.worker_id, running)
            except SQLAlchemyError as exc:
                # The database is away: no heartbeat now (the runs' own writes fail and say
                # so); try again on the next round rather than stop watching.
                log.error("worker %s: run control unreachable: %s", self.worker_id, exc)

    async def stop(self) -> None:
        """A graceful stop: this worker's runs are interrupted at their last checkpoint and
        queued again, for another worker (or this one, restarted) to go on with."""
        held = dict(self.live)
        # Runs stop at their next step; a tool call under way is let finish first.
        log.warning("worker %s stopping: %d run(s) to queue again", self.worker_id, len(held))
        await self.shutdown()
        for run_id, live in held.items():
            if live.record.status == "interrupted":
                await self.store.update(run_id, status="queued", error=None)
                await self.queue.put(RunJob(run_id, "resume", "resumed after a worker stopped"))
                await self.bus.announce(run_id, live.stored_seq, "queued")


def new_worker_id() -> str:
    """Host, process and a random part: unique, and says where the worker runs."""
    return f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:6]}"


async def run_worker(settings: Settings) -> None:
    """Serve queued runs until SIGTERM or SIGINT."""
    db = database_target(settings)
    if db.kind != "postgresql":
        raise SystemExit(
            "marsa worker needs PostgreSQL: set MARSA_DATABASE_URL=postgresql://… "
            "(the queue and the runs live there)"
        )
    worker_id = new_worker_id()
    store = RunStore(db)
    await store.open()
    assert store.engine is not None
    control = RunControl(store.engine, settings.worker_stale_seconds)
    await control.setup()
    queue = await RunQueue.open(db.libpq_url)
    bus = EventBus(settings.redis_url)
    await bus.start()
    taking = await connect(db.libpq_url)
    try:
        async with open_checkpointer(store.db) as saver, MCPHub(settings) as hub:
            manager = WorkerRunManager(
                settings,
                store,
                saver,
                hub,
                bus=bus,
                control=control,
                queue=queue,
                worker_id=worker_id,
            )
            queries = Queries.from_psycopg_connection(taking)
            await install(queries)
            qm = QueueManager(queries)

            @qm.entrypoint(ENTRYPOINT)
            async def research(job: Job) -> None:
                await manager.take(RunJob.of(job.payload))

            stopping: list[asyncio.Task[None]] = []

            async def stop() -> None:
                await manager.stop()  # first: the queue waits for its jobs to end
                qm.shutdown.set()

            def on_signal() -> None:
                if not stopping:
                    stopping.append(asyncio.create_task(stop()))

            loop = asyncio.get_running_loop()
            for sig in (signal.SIGTERM, signal.SIGINT):
                loop.add_signal_handler(sig, on_signal)
            watcher = asyncio.create_task(manager.watch_cancels())
            log.warning(
                "worker %s ready: up to %d runs at once", worker_id, settings.max_active_runs
            )
            try:
                await qm.run(
                    batch_size=1,
                    max_concurrent_tasks=max(2, settings.max_active_runs),
                    heartbeat_timeout=timedelta(seconds=settings.worker_stale_seconds),
                    dequeue_timeout=timedelta(seconds=5),
                )
            finally:
                watcher.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await watcher
                if not stopping:
                    await manager.stop()
                else:
                    await asyncio.gather(*stopping)
    finally:
        await taking.close()
        await queue.close()
        await bus.close()
        await store.close()
