"""The run queue: pgqueuer's tables in MARSA's own PostgreSQL database.

A job says "research run X (start it, or go on from its checkpoint)". pgqueuer hands each job
to one worker, keeps a heartbeat while the worker has it, and hands it to another worker when
that heartbeat goes stale (the worker died): that is how a killed worker's run is resumed.
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
from collections.abc import AsyncGenerator
from dataclasses import dataclass
from datetime import timedelta
from typing import Literal

import psycopg
from pgqueuer import Queries, QueueManager
from pgqueuer.adapters.drivers.psycopg import PsycopgDriver
from pgqueuer.domain import models
from pgqueuer.domain.settings import DBSettings
from pgqueuer.ports.driver import NotifyCallback
from psycopg import sql

ENTRYPOINT = "marsa_research"

Mode = Literal["start", "resume"]


@dataclass(frozen=True)
class RunJob:
    """What a queued job asks for."""

    run_id: str
    mode: Mode
    note: str = ""

    def payload(self) -> bytes:
        return json.dumps({"run_id": self.run_id, "mode": self.mode, "note": self.note}).encode()

    @classmethod
    def of(cls, payload: bytes | None) -> RunJob:
        body = json.loads(payload or b"{}")
        mode: Mode = "resume" if body.get("mode") == "resume" else "start"
        return cls(run_id=str(body["run_id"]), mode=mode, note=str(body.get("note", "")))


async def connect(libpq_url: str) -> psycopg.AsyncConnection:
    """A connection for pgqueuer (it needs autocommit)."""
    return await psycopg.AsyncConnection.connect(libpq_url, autocommit=True)


class ListeningApartDriver(PsycopgDriver):
    """pgqueuer's psycopg driver with its LISTEN on a connection of its own.

    psycopg's ``notifies()`` holds its connection's lock while it waits, and pgqueuer's driver
    waits up to 1 s at a time. On one connection, every query of the queue manager (taking a
    job, marking one done, heartbeats) waited for that wait to end: a worker's finished job
    freed its slot, and the next job was taken, only on a 1-second tick, with jobs queued and
    cores idle (bench/cluster.py). Here the waiting happens on the second connection; the
    first answers at once."""

    def __init__(self, connection: psycopg.AsyncConnection, listening: psycopg.AsyncConnection):
        super().__init__(connection)
        self.listening = PsycopgDriver(listening)

    async def add_listener(self, channel: str, callback: NotifyCallback) -> None:
        await self.listening.add_listener(channel, callback)

    async def remove_listener(self, channel: str, callback: NotifyCallback) -> None:
        await self.listening.remove_listener(channel, callback)

    async def __aenter__(self) -> ListeningApartDriver:
        await super().__aenter__()
        await self.listening.__aenter__()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.listening.__aexit__(*exc)
        await super().__aexit__(*exc)


@dataclasses.dataclass
class SlotAwareQueueManager(QueueManager):
    """pgqueuer's queue manager, asking for no job while all of this worker's slots are busy.

    pgqueuer asks the database for jobs after every NOTIFY on its table (a job queued, picked,
    beaten or done, by any worker) and again every 0.1 s while jobs are waiting, whether or not
    it could take one. With the LISTEN on a connection of its own nothing held those asks back
    any more: a full worker's dequeues were a quarter of the bench database's transactions. A
    full worker waits instead for one of its jobs to end; that job's deletion is a NOTIFY
    that wakes it (and ``dequeue_timeout`` bounds the wait if one were lost). It overrides one
    private method of pgqueuer (pinned to 1.6 in pyproject.toml); tests/backend/workers/
    test_queue.py says when an upgrade changes what it relies on."""

    slots: int = 0
    """The worker's ``max_concurrent_tasks`` (0: no limit, pgqueuer's own behaviour)."""

    def full(self) -> bool:
        return bool(self.slots) and len(self.job_context) >= self.slots

    async def fetch_jobs(
        self, batch_size: int, global_concurrency_limit: int | None, heartbeat_timeout: timedelta
    ) -> AsyncGenerator[models.Job, None]:
        if self.full():
            return
        async for job in super().fetch_jobs(
            batch_size, global_concurrency_limit, heartbeat_timeout
        ):
            yield job
            if self.full():
                return

    async def _effective_dequeue_timeout(self, dequeue_timeout: timedelta) -> timedelta:
        if self.full():
            return dequeue_timeout
        return await super()._effective_dequeue_timeout(dequeue_timeout)


async def install(queries: Queries) -> None:
    """Create pgqueuer's tables once; several processes starting together take turns."""
    async with queries.schema_lock():
        if not await queries.schema_is_installed():
            await queries.install()


class RunQueue:
    """Puts runs in the queue (API replicas use this; workers take from it)."""

    def __init__(self, connection: psycopg.AsyncConnection, libpq_url: str | None = None):
        self.connection = connection
        self.libpq_url = libpq_url
        self.queries = Queries.from_psycopg_connection(connection)

    @classmethod
    async def open(cls, libpq_url: str) -> RunQueue:
        queue = cls(await connect(libpq_url), libpq_url)
        await install(queue.queries)
        return queue

    async def put(self, job: RunJob) -> None:
        """Queue the run; a free worker picks it up (woken by PostgreSQL's NOTIFY). A
        connection lost since the last put (PostgreSQL restarted) is made again once."""
        try:
            await self.queries.enqueue(ENTRYPOINT, job.payload())
        except psycopg.OperationalError:
            if self.libpq_url is None or not (self.connection.closed or self.connection.broken):
                raise
            await self._reconnect()
            await self.queries.enqueue(ENTRYPOINT, job.payload())

    async def _reconnect(self) -> None:
        assert self.libpq_url is not None
        self.connection = await connect(self.libpq_url)
        self.queries = Queries.from_psycopg_connection(self.connection)

    async def size(self, timeout: float = 3.0) -> int:
        """Jobs in the queue now (waiting or being worked on); raises when the database does
        not answer within ``timeout``."""
        table = DBSettings().queue_table
        query = sql.SQL("SELECT count(*) FROM {} WHERE entrypoint = %s").format(
            sql.Identifier(table)
        )
        if self.libpq_url is not None and (self.connection.closed or self.connection.broken):
            await asyncio.wait_for(self._reconnect(), timeout)
        async with self.connection.cursor() as cursor:
            await asyncio.wait_for(cursor.execute(query, (ENTRYPOINT,)), timeout)
            row = await cursor.fetchone()
        return int(row[0]) if row else 0

    async def close(self) -> None:
        await self.connection.close()
