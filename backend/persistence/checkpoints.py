"""The LangGraph checkpointer on MARSA's own database, so a run can resume after a restart."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from typing import Any

from langgraph.checkpoint.base import BaseCheckpointSaver
from langgraph.checkpoint.postgres.aio import AsyncPostgresSaver

from backend.persistence.database import Database

CHECKPOINT_LOCK = 0x4D41525343
"""PostgreSQL advisory lock key held while the checkpointer's tables are set up."""

Fence = Callable[[str], Awaitable[None]]
"""Called with a run's id before each checkpoint write of it; raises to refuse the write."""


class FencedPostgresSaver(AsyncPostgresSaver):
    """The PostgreSQL checkpointer of a worker: a run's checkpoints are written only while
    the worker still holds the run (``fence`` says so), so a worker that stalled and lost its
    run cannot add a checkpoint behind the back of the one that took it over."""

    fence: Fence | None = None

    async def aput(self, config: Any, *args: Any, **kwargs: Any) -> Any:
        await self._check(config)
        return await super().aput(config, *args, **kwargs)

    async def aput_writes(self, config: Any, *args: Any, **kwargs: Any) -> None:
        await self._check(config)
        await super().aput_writes(config, *args, **kwargs)

    async def _check(self, config: Any) -> None:
        if self.fence is not None:
            await self.fence(str(config["configurable"]["thread_id"]))


def _unserialised(saver: AsyncPostgresSaver, connections: int) -> None:
    """Let a pooled saver use its pool: the library takes one instance-wide lock around every
    call, pooled or not (langgraph#7259), so a worker's runs would write their checkpoints one
    at a time on one connection. With a pool each call holds a connection of its own; the
    lock becomes a semaphore as wide as the pool."""
    saver.lock = asyncio.Semaphore(connections)  # type: ignore[assignment]


@asynccontextmanager
async def _saver(
    saver_class: type[AsyncPostgresSaver], libpq_url: str, connections: int
) -> AsyncIterator[AsyncPostgresSaver]:
    """The saver on one connection, or on a pool of ``connections``; closed on exit."""
    if connections <= 1:
        async with saver_class.from_conn_string(libpq_url) as saver:
            yield saver
        return
    from psycopg.rows import dict_row
    from psycopg_pool import AsyncConnectionPool

    # The connections' settings are those from_conn_string gives its single one.
    pool: AsyncConnectionPool[Any] = AsyncConnectionPool(
        libpq_url,
        min_size=connections,
        max_size=connections,
        kwargs={"autocommit": True, "prepare_threshold": 0, "row_factory": dict_row},
        open=False,
    )
    await pool.open(wait=True)
    try:
        saver = saver_class(conn=pool)
        _unserialised(saver, connections)
        yield saver
    finally:
        await pool.close()


async def _try_lock(conn: Any, key: int) -> bool:
    row = await (await conn.execute("SELECT pg_try_advisory_lock(%s)", (key,))).fetchone()
    return bool(row and row[0])


@asynccontextmanager
async def open_checkpointer(
    db: Database, *, fence: Fence | None = None, connections: int = 1
) -> AsyncIterator[BaseCheckpointSaver]:
    """An async checkpointer with its tables in place, closed on exit; on PostgreSQL,
    ``fence`` (if given) may refuse a run's checkpoint writes, and ``connections`` above one
    gives it a pool of that many connections, used at once by runs going on together (a
    worker's: with one connection, every checkpoint of every run waits for the one before)."""
    if db.kind == "sqlite":
        from langgraph.checkpoint.sqlite.aio import AsyncSqliteSaver

        assert db.sqlite_path is not None
        db.sqlite_path.parent.mkdir(parents=True, exist_ok=True)
        async with AsyncSqliteSaver.from_conn_string(str(db.sqlite_path)) as saver:
            await saver.setup()
            yield saver
        return
    import psycopg

    saver_class = AsyncPostgresSaver if fence is None else FencedPostgresSaver
    async with _saver(saver_class, db.libpq_url, connections) as pg_saver:
        if isinstance(pg_saver, FencedPostgresSaver):
            pg_saver.fence = fence
        # One process at a time: replicas and workers starting together race otherwise. A
        # try-lock, polled: the setup builds indexes CONCURRENTLY, which waits for every open
        # transaction, a blocked pg_advisory_lock() call included (a deadlock).
        async with await psycopg.AsyncConnection.connect(db.libpq_url, autocommit=True) as lock:
            while not await _try_lock(lock, CHECKPOINT_LOCK):
                await asyncio.sleep(0.2)
            await pg_saver.setup()
        yield pg_saver
