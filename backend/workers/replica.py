"""The API side of MARSA_RUN_IN=workers: a replica that queues, follows and steers runs and
holds no run state of its own.

Every command works on any replica: start and approval queue a job, cancel flags the run in
the database and tells the workers over Redis, streams read the database (woken by Redis, or
polling it when Redis is away). Nothing here lives longer than one request.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncGenerator, AsyncIterator
from contextlib import asynccontextmanager

import psycopg
from langgraph.checkpoint.base import BaseCheckpointSaver

from backend.api.runner import (
    TERMINAL,
    LiveRun,
    Mode,
    RunManager,
    RunStateError,
    StreamItem,
)
from backend.config import Settings
from backend.mcp_client import MCPHub
from backend.persistence import RunRecord, RunStore, database_target
from backend.trace import Tracer
from backend.workers.bus import POLL_SECONDS, EventBus
from backend.workers.control import RunControl
from backend.workers.queue import RunJob, RunQueue

CANCEL_WAIT_SECONDS = 30.0
"""How long a cancel waits for the worker that holds the run to record the end."""
SAFETY_READ_SECONDS = 5.0
"""Even with Redis up, a follower reads the database this often (a lost message)."""


class QueuedRunManager(RunManager):
    """RunManager whose runs are researched by `marsa worker` processes."""

    def __init__(
        self,
        settings: Settings,
        store: RunStore,
        checkpointer: BaseCheckpointSaver,
        hub: MCPHub,
        *,
        queue: RunQueue,
        bus: EventBus,
        control: RunControl,
    ):
        super().__init__(settings, store, checkpointer, hub)
        self.queue = queue
        self.bus = bus
        self.control = control

    async def reachability(self) -> tuple[str | None, int | None, str | None]:
        """(why Redis cannot be reached or None, jobs in the queue, why the queue cannot be
        read or None), asked now."""
        redis = await self.bus.ping()
        try:
            return redis, await self.queue.size(), None
        except (psycopg.Error, OSError, TimeoutError) as exc:
            return redis, None, f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__

    async def recover(self) -> list[str]:
        """Nothing to recover: runs belong to workers, and a dead worker's runs are taken over
        by another worker (the queue re-delivers their jobs)."""
        return []

    async def shutdown(self) -> None:
        """Close open streams (their clients reconnect to another replica)."""
        self.stopping = True
        self.bus.wake_all()

    async def _launch(self, live: LiveRun, mode: Mode, note: str = "") -> None:
        run_id = live.record.id
        self.live.pop(run_id, None)  # no run state kept here
        last = 0  # a run just posted: no events, no control row, no id anyone knows yet
        if mode == "resume":
            await self.control.clear_cancel(run_id)
            last = await self.store.last_seq(run_id)
        await self.queue.put(RunJob(run_id=run_id, mode=mode, note=note))
        await self.bus.announce(run_id, last, live.record.status)

    async def _cancel(self, run_id: str) -> RunRecord:
        record = await self.get(run_id)
        if record.status in TERMINAL:
            raise RunStateError(f"run {run_id} is already {record.status}")
        await self.control.request_cancel(run_id)
        # Not held by a worker (still queued, or waiting for its review): end it here, unless
        # a worker takes it at this very moment (then that worker sees the flag).
        if await self.control.move(run_id, ("queued", "awaiting_review"), "cancelled"):
            last = await self.store.last_seq(run_id)
            event = Tracer(run_id, last_seq=last).emit(
                "run", "run_end", "run cancelled", status="cancelled"
            )
            await self.store.add_events([event])
            await self.bus.announce(run_id, event.seq, "cancelled")
            return await self.get(run_id)
        await self.bus.send_cancel(run_id)
        return await self._wait_terminal(run_id)

    async def _wait_terminal(self, run_id: str) -> RunRecord:
        """The run once its worker has recorded the end (or as it stands at the deadline)."""
        woken = self.bus.watch(run_id)
        try:
            end = time.monotonic() + CANCEL_WAIT_SECONDS
            while True:
                woken.clear()
                record = await self.get(run_id)
                if record.status in TERMINAL or time.monotonic() >= end:
                    return record
                await self._wait(woken, POLL_SECONDS)
        finally:
            self.bus.unwatch(run_id, woken)

    async def delete(self, run_id: str) -> None:
        await super().delete(run_id)
        await self.control.forget(run_id)

    @staticmethod
    async def _wait(event: asyncio.Event, timeout: float) -> bool:
        try:
            await asyncio.wait_for(event.wait(), timeout=timeout)
        except TimeoutError:
            return False
        return True

    async def follow(
        self, run_id: str, after: int, heartbeat: float
    ) -> AsyncGenerator[StreamItem, None]:
        """Stored events with seq > ``after`` and status changes, read from the database
        whenever Redis says the run moved, at the latest every SAFETY_READ_SECONDS (a lost
        message), and every POLL_SECONDS while Redis is away."""
        await self.get(run_id)
        woken = self.bus.watch(run_id)  # before reading: nothing announced in between is lost
        try:
            sent_status = None
            last_sent = last_read = time.monotonic()
            read = True
            while True:
                if read:
                    woken.clear()
                    last_read = time.monotonic()
                    for event in await self.store.events(run_id, after):
                        after = event.seq
                        last_sent = time.monotonic()
                        yield StreamItem("trace", event=event)
                    record = await self.store.get(run_id)
                    if record is None:  # deleted meanwhile
                        return
                    if record.status != sent_status:
                        sent_status = record.status
                        last_sent = time.monotonic()
                        yield StreamItem("status", status=record.status)
                    if record.status in TERMINAL:
                        # The end is recorded after the run's last event: read once more.
                        for event in await self.store.events(run_id, after):
                            after = event.seq
                            yield StreamItem("trace", event=event)
                        yield StreamItem("end", status=record.status)
                        return
                if self.stopping:
                    return
                every = SAFETY_READ_SECONDS if self.bus.healthy else POLL_SECONDS
                now = time.monotonic()
                wait = min(last_read + every, last_sent + heartbeat) - now
                read = await self._wait(woken, max(wait, 0.01))
                now = time.monotonic()
                if not read and now - last_sent >= heartbeat:
                    last_sent = now
                    yield StreamItem("heartbeat")
                read = read or now - last_read >= every
        finally:
            self.bus.unwatch(run_id, woken)


@asynccontextmanager
async def open_replica(
    settings: Settings, store: RunStore, checkpointer: BaseCheckpointSaver, hub: MCPHub
) -> AsyncIterator[QueuedRunManager]:
    """The run manager of an API replica in MARSA_RUN_IN=workers, with its queue, Redis and
    control table; closed on exit."""
    db = database_target(settings)
    if db.kind != "postgresql" or store.engine is None:
        raise RuntimeError(
            "MARSA_RUN_IN=workers needs PostgreSQL: set MARSA_DATABASE_URL=postgresql://… "
            "(the run queue lives there)"
        )
    control = RunControl(store.engine, settings.worker_stale_seconds)
    await control.setup()
    queue = await RunQueue.open(db.libpq_url)
    bus = EventBus(settings.redis_url, hear_cancels=False)
    await bus.start()
    try:
        yield QueuedRunManager(
            settings, store, checkpointer, hub, queue=queue, bus=bus, control=control
        )
    finally:
        await bus.close()
        await queue.close()
