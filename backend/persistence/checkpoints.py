"""The LangGraph checkpointer on MARSA's own database, so a run can resume after a restart."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from langgraph.checkpoint.base import BaseCheckpointSaver

from backend.persistence.database import Database

CHECKPOINT_LOCK = 0x4D41525343
"""PostgreSQL advisory lock key held while the checkpointer's tables are set up."""


async def _try_lock(conn: Any, key: int) -> bool:
    row = await (await conn.execute("SELECT pg_try_advisory_lock(%s)", (key,))).fetchone()
    return bool(row and row[0])


@asynccontextmanager
async def open_checkpointer(db: Database) -> AsyncIterator[BaseCheckpointSaver]:
    """An async checkpointer with its tables in place, closed on exit."""
    if db.kind == "sqlite":
        from langgraph.checkpoint.sqlite.aio import AsyncSqliteSaver

        assert db.sqlite_path is not None
        db.sqlite_path.parent.mkdir(parents=True, exist_ok=True)
        async with AsyncSqliteSaver.from_conn_string(str(db.sqlite_path)) as saver:
            await saver.setup()
            yield saver
        return
    import psycopg
    from langgraph.checkpoint.postgres.aio import AsyncPostgresSaver

    async with AsyncPostgresSaver.from_conn_string(db.libpq_url) as pg_saver:
        # One process at a time: replicas and workers starting together race otherwise. A
        # try-lock, polled: the setup builds indexes CONCURRENTLY, which waits for every open
        # transaction, a blocked pg_advisory_lock() call included (a deadlock).
        async with await psycopg.AsyncConnection.connect(db.libpq_url, autocommit=True) as lock:
            while not await _try_lock(lock, CHECKPOINT_LOCK):
                await asyncio.sleep(0.2)
            await pg_saver.setup()
        yield pg_saver
