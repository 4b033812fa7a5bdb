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


async def _try_lock(conn: Any, key: int) -> bool:
    row = await (await conn.execute("SELECT pg_try_advisory_lock(%s)", (key,))).fetchone()
    return bool(row and row[0])


@asynccontextmanager
async def open_checkpointer(
    db: Database, *, fence: Fence | None = None
) -> AsyncIterator[BaseCheckpointSaver]:
    """An async checkpointer with its tables in place, closed on exit; on PostgreSQL,
    ``fence`` (if given) may refuse a run's checkpoint writes."""
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
    async with saver_class.from_conn_string(db.libpq_url) as pg_saver:
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
