"""`marsa worker`: takes runs from the queue and researches several at once.

A worker holds its own MCP sessions and engine (as `marsa serve` does in the single-process
shape) and checkpoints every step to the shared PostgreSQL database. For each job it claims
the run (control.py), researches it with the same RunManager code the API uses in-process,
and announces each batch of stored events on Redis. A run claimed by a worker that died is
taken over once that worker has no database session left (its job comes back from the queue
within JOB_HEARTBEAT_SECONDS), or once its heartbeat is stale, and goes on from its last
checkpoint; its event numbers go on from the last stored event (the (run_id, seq) primary key
refuses a duplicate).

Every write a worker makes to a run (events, status, result, checkpoints) is fenced by its
claim: a worker that was stalled (SIGSTOP, a long pause) and whose run was taken over in the
meantime writes nothing more to it when it wakes. A job dropped on a database error at pickup
is handed back to the queue, and a sweep every MARSA_WORKER_STALE_SECONDS queues again any
run left queued or running with no job and no live claim. A run whose pickups keep failing
(MAX_PICKUPS in a row) is failed with the last error instead of being queued again.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import signal
import socket
import time
import uuid
from datetime import timedelta
from typing import Any

import psycopg
from langgraph.checkpoint.base import BaseCheckpointSaver
from pgqueuer import Job, Queries
from pgqueuer.domain.settings import DBSettings
from sqlalchemy.exc import SQLAlchemyError

from backend.api.runner import TERMINAL, LiveRun, Notice, RunManager
from backend.config import Settings
from backend.mcp_client import MCPHub
from backend.persistence import (
    RunRecord,
    RunStore,
    WriteRefused,
    database_target,
    open_checkpointer,
)
from backend.trace import TraceEvent, Tracer
from backend.workers.bus import POLL_SECONDS, EventBus
from backend.workers.control import Claim, RunControl
from backend.workers.queue import (
    ENTRYPOINT,
    ListeningApartDriver,
    Mode,
    RunJob,
    RunQueue,
    SlotAwareQueueManager,
    connect,
    install,
)

log = logging.getLogger("marsa.worker")

HAND_BACK_WAITS = (0.5, 1.0, 2.0, 4.0)
"""Pauses between tries to queue a run again after a database error at its pickup."""
MAX_PICKUPS = 5
"""Pickups in a row that may fail to take a run to an end, a review or a stop (an error at
pickup, or a worker that stopped with it) before the run is failed instead of queued again."""
JOB_HEARTBEAT_SECONDS = 2.0
"""The queue's heartbeat timeout (pgqueuer beats each job at half of it): a job whose worker
has not beaten for this long goes to another worker, which takes the run over at once when
the first has no database session left (killed), else once its claim is stale."""


class WorkerRunManager(RunManager):
    """Researches queued runs in this worker process."""

    write_linger = 0.15
    """Each stored batch costs a guarded PostgreSQL transaction and a Redis message: gathering
    what a run emits within 150 ms stores a toy-corpus run in about 4 batches (19 without a
    wait, 7 with 50 ms; bench/cluster.py). Streams see events up to 150 ms later."""

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
        self.claims: dict[str, Claim] = {}
        self.confirmed: dict[str, float] = {}
        """When each claim was last known good (monotonic time from just before the claim
        or heartbeat that the database accepted)."""
        self.queue_table = DBSettings().queue_table
        bus.on_cancel = self.cancel_here

    def cancel_here(self, run_id: str) -> None:
        """Stop the run if this worker is researching it (a cancel sent over Redis)."""
        live = self.live.get(run_id)
        if live is not None and live.task is not None and not live.task.done():
            live.task.cancel()

    async def take(self, job: RunJob) -> None:
        """Research one queued run to its end, its review or its cancel. A database error
        while picking it up does not drop it: the run is queued again."""
        try:
            await self._take(job)
        except SQLAlchemyError as exc:
            log.error("worker %s: run %s not picked up: %s", self.worker_id, job.run_id, exc)
            await self._hand_back(job, exc)
        except Exception as exc:
            # Not the database: the queue logs it and the sweep queues the run again; noted
            # on the run, whose error it becomes if every pickup ends so.
            try:
                await self.control.pickup_failed(job.run_id, f"{type(exc).__name__}: {exc}")
            except SQLAlchemyError as again:
                log.error("worker %s: run %s: %s", self.worker_id, job.run_id, again)
            raise

    async def _hand_back(self, job: RunJob, exc: Exception) -> None:
        """Queue the run again (another worker, or this one, takes it), unless it has moved
        on meanwhile. With the database away for longer, the sweep does it later."""
        why = f"queued again after a database error at pickup ({type(exc).__name__})"
        for wait in HAND_BACK_WAITS:
            await asyncio.sleep(wait)
            try:
                record = await self.store.get(job.run_id)
                if record is None or record.status not in ("queued", "running"):
                    return
                if await self.control.holder(job.run_id) not in (None, self.worker_id):
                    return  # another worker has it
                mode: Mode = "resume" if record.status == "running" else job.mode
                await self.control.pickup_failed(job.run_id, f"{type(exc).__name__}: {exc}")
                await self.store.update(job.run_id, status="queued")
                await self.queue.put(RunJob(job.run_id, mode, job.note or why))
                await self.control.release(job.run_id, self.worker_id)
                log.warning("worker %s: run %s %s", self.worker_id, job.run_id, why)
                return
            except (SQLAlchemyError, psycopg.Error) as again:
                log.error(
                    "worker %s: run %s not queued again yet: %s", self.worker_id, job.run_id, again
                )
        log.error("worker %s: run %s left to the sweep", self.worker_id, job.run_id)

    async def sweep(self) -> list[str]:
        """Queue again the runs nothing will move (queued or running, no job in the queue,
        no live claim, unchanged for the stale time); which ones."""
        requeued = []
        for run_id in await self.control.orphans(self.queue_table, self.control.stale):
            record = await self.store.get(run_id)
            if record is None or not await self.control.requeue(run_id, record.updated_at):
                continue  # moved meanwhile, or another worker's sweep got it first
            # From its last checkpoint if it has one, else from the start.
            note = "queued again: its job was lost"
            await self.queue.put(RunJob(run_id, "resume", note))
            log.warning("worker %s: run %s %s", self.worker_id, run_id, note)
            requeued.append(run_id)
        return requeued

    async def _take(self, job: RunJob) -> None:
        run_id = job.run_id
        if run_id in self.live:
            return  # a second job for a run this worker is researching
        record = await self.store.get(run_id)
        if record is None or record.status in TERMINAL or record.status == "awaiting_review":
            return  # deleted, cancelled while queued, or a duplicate job
        before = time.monotonic()
        claim = await self.control.claim(run_id, self.worker_id)
        seen = claim.heartbeat
        while not claim.won:
            # Held by a worker that is connected and beating lately. If it beats again it is
            # alive and has the run (this job is a duplicate, or came back from the queue
            # while that worker was slow to beat): leave the run to it. If it stalled, its
            # claim goes stale: take the run over then.
            await asyncio.sleep(POLL_SECONDS)
            record = await self.store.get(run_id)
            if record is None or record.status in TERMINAL or record.status == "awaiting_review":
                return
            before = time.monotonic()
            claim = await self.control.claim(run_id, self.worker_id)
            if not claim.won and claim.heartbeat != seen:
                log.warning(
                    "worker %s: run %s is researched by %s, alive: job not needed",
                    self.worker_id,
                    run_id,
                    claim.previous,
                )
                return
        self.claims[run_id] = claim
        self.confirmed[run_id] = before
        try:
            if claim.pickups > MAX_PICKUPS:
                await self._give_up(record, claim)
                return
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
            self.claims.pop(run_id, None)
            self.confirmed.pop(run_id, None)
            await self.control.release(run_id, self.worker_id)

    # --- fencing: writes only while this worker holds the run ---------------------------

    def _guard(self, live: LiveRun) -> Any:
        claim = self.claims.get(live.record.id)
        if claim is None:
            return None
        return self.control.guard(live.record.id, self.worker_id, claim.epoch)

    async def _save_events(self, live: LiveRun, batch: list[TraceEvent]) -> None:
        await self.store.add_events(batch, guard=self._guard(live))

    async def _save_run(self, live: LiveRun, **values: Any) -> None:
        await self.store.update(live.record.id, guard=self._guard(live), **values)

    async def check_claim(self, run_id: str) -> None:
        """Before a checkpoint write of the run: refuse it if another worker has the run now.
        While a heartbeat went through lately the claim is known good without asking."""
        claim = self.claims.get(run_id)
        if claim is None:
            return
        if time.monotonic() - self.confirmed.get(run_id, 0.0) < self.control.stale / 2:
            return
        before = time.monotonic()
        if await self.control.holds(run_id, self.worker_id, claim.epoch):
            self.confirmed[run_id] = before
            return
        live = self.live.get(run_id)
        if live is not None:
            self._fence(live)
        raise WriteRefused(f"run {run_id} was taken over by another worker")

    async def _give_up(self, record: RunRecord, claim: Claim) -> None:
        """Fail a run whose pickups keep failing, saying why, instead of queueing it again."""
        tries = claim.pickups - 1
        why = (
            f"not researched: {tries} pickups in a row failed"
            + (
                f" (the last: {claim.pickup_error})"
                if claim.pickup_error
                else " (each time the worker that had it stopped before the run could go on)"
            )
            + f"; POST /api/research/{record.id}/resume tries again"
        )
        tracer = Tracer(record.id, last_seq=await self.store.last_seq(record.id))
        tracer.emit("run", "error", f"run failed: {why}")
        end = tracer.emit("run", "run_end", "run failed", status="failed")
        guard = self.control.guard(record.id, self.worker_id, claim.epoch)
        await self.store.add_events(tracer.events, guard=guard)
        await self.store.update(record.id, status="failed", error=why, guard=guard)
        log.error("worker %s: run %s %s", self.worker_id, record.id, why)
        await self.bus.announce(record.id, end.seq, "failed")

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
            if live.fenced:
                break
            await self.bus.announce(run_id, live.stored_seq, live.record.status)
            if task.done():
                break
        await asyncio.gather(task, return_exceptions=True)
        if not live.fenced:
            await self.bus.announce(run_id, live.stored_seq, live.record.status)

    async def watch_cancels(self) -> None:
        """Keep claims fresh and catch cancels whose Redis message was lost."""
        beat = max(self.control.stale / 3, POLL_SECONDS)
        since_beat = since_sweep = 0.0
        while True:
            await asyncio.sleep(POLL_SECONDS)
            since_beat += POLL_SECONDS
            since_sweep += POLL_SECONDS
            running = list(self.live)
            claimed = list(self.claims)  # every run this worker has claimed
            try:
                for run_id in await self.control.cancelled(running):
                    self.cancel_here(run_id)
                if since_beat >= beat:
                    since_beat = 0.0
                    before = time.monotonic()
                    held = await self.control.heartbeat(self.worker_id, claimed)
                    for run_id in claimed:
                        if run_id in held:
                            self.confirmed[run_id] = before
                        elif (live := self.live.get(run_id)) is not None:
                            self._fence(live)  # taken over while this worker was stalled
                if since_sweep >= self.control.stale:
                    since_sweep = 0.0
                    await self.sweep()
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


class Fence:
    """The checkpointer's fence: asks the worker's manager (made after the checkpointer)."""

    manager: WorkerRunManager | None = None

    async def __call__(self, run_id: str) -> None:
        if self.manager is not None:
            await self.manager.check_claim(run_id)


def new_worker_id() -> str:
    """Host, process and a random part: unique, and says where the worker runs. At most 63
    characters, the longest application name PostgreSQL keeps (the host is cut)."""
    rest = f":{os.getpid()}:{uuid.uuid4().hex[:6]}"
    return socket.gethostname()[: 63 - len(rest)] + rest


async def run_worker(settings: Settings) -> None:
    """Serve queued runs until SIGTERM or SIGINT."""
    db = database_target(settings)
    if db.kind != "postgresql":
        raise SystemExit(
            "marsa worker needs PostgreSQL: set MARSA_DATABASE_URL=postgresql://… "
            "(the queue and the runs live there)"
        )
    worker_id = new_worker_id()
    # Every connection of this worker carries its id: while one is open, it is alive.
    db = db.named(worker_id)
    store = RunStore(db)
    await store.open()
    assert store.engine is not None
    control = RunControl(store.engine, settings.worker_stale_seconds)
    await control.setup()
    queue = await RunQueue.open(db.libpq_url)
    bus = EventBus(settings.redis_url, hear_runs=False)
    await bus.start()
    taking = await connect(db.libpq_url)
    listening = await connect(db.libpq_url)  # the queue's LISTEN waits here, not on `taking`
    try:
        fence = Fence()
        async with (
            open_checkpointer(
                store.db, fence=fence, connections=max(1, settings.max_active_runs)
            ) as saver,
            MCPHub(settings) as hub,
        ):
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
            fence.manager = manager
            queries = Queries(ListeningApartDriver(taking, listening))
            await install(queries)
            slots = max(2, settings.max_active_runs)  # pgqueuer wants twice the batch size
            qm = SlotAwareQueueManager(queries, slots=slots)

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
            await manager.warm()  # before taking jobs: ready means ready to research
            watcher = asyncio.create_task(manager.watch_cancels())
            log.warning(
                "worker %s ready: up to %d runs at once", worker_id, settings.max_active_runs
            )
            try:
                await qm.run(
                    batch_size=1,
                    max_concurrent_tasks=slots,
                    heartbeat_timeout=timedelta(
                        seconds=min(settings.worker_stale_seconds, JOB_HEARTBEAT_SECONDS)
                    ),
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
        await listening.close()
        await queue.close()
        await bus.close()
        await store.close()
