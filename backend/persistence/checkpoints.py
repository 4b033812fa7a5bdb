"""The LangGraph checkpointer on MARSA's own database, so a run can resume after a restart."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from langgraph.checkpoint.base import BaseCheckpointSaver

from backend.persistence.database import Database


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
    from langgraph.checkpoint.postgres.aio import AsyncPostgresSaver

    async with AsyncPostgresSaver.from_conn_string(db.libpq_url) as pg_saver:
        await pg_saver.setup()
        yield pg_saver
