"""The PostgreSQL checkpointer of a worker, on a fresh database: runs going on together write
their checkpoints at once, not one after the other."""

from __future__ import annotations

import asyncio
import time
from typing import Any

import psycopg
from langgraph.checkpoint.base import empty_checkpoint

from backend.config import Settings
from backend.persistence import database_target, open_checkpointer
from tests.backend.api.conftest import fresh_postgres


def thread(run_id: str) -> dict[str, Any]:
    return {"configurable": {"thread_id": run_id, "checkpoint_ns": ""}}


async def waiting_on_a_lock(url: str, deadline_s: float = 10.0) -> None:
    """Until some session of the database waits on a row lock."""
    end = time.monotonic() + deadline_s
    async with await psycopg.AsyncConnection.connect(url, autocommit=True) as probe:
        while True:
            row = await (
                await probe.execute(
                    "SELECT count(*) FROM pg_stat_activity "
                    "WHERE datname = current_database() AND wait_event_type = 'Lock'"
                )
            ).fetchone()
            if row and row[0]:
                return
            assert time.monotonic() < end, "no checkpoint write waited on the held row"
            await asyncio.sleep(0.02)


async def test_a_pooled_checkpointer_writes_one_runs_checkpoint_while_anothers_waits() -> None:
    with fresh_postgres() as url:
        db = database_target(Settings(database_url=url))
        async with open_checkpointer(db, connections=2) as saver:
            held, free = empty_checkpoint(), empty_checkpoint()
            async with await psycopg.AsyncConnection.connect(db.libpq_url) as other:
                # Another transaction has written (not committed) the row of run a's next
                # checkpoint: run a's write waits for it.
                await other.execute(
                    "INSERT INTO checkpoints (thread_id, checkpoint_ns, checkpoint_id, "
                    "checkpoint, metadata) VALUES (%s, '', %s, '{}', '{}')",
                    ("a", held["id"]),
                )
                waiting = asyncio.create_task(saver.aput(thread("a"), held, {}, {}))
                await waiting_on_a_lock(db.libpq_url)
                written = await asyncio.wait_for(saver.aput(thread("b"), free, {}, {}), 10)
                assert written["configurable"]["checkpoint_id"] == free["id"]
                assert not waiting.done()
                await other.rollback()
            await asyncio.wait_for(waiting, 10)
            stored = await saver.aget_tuple(thread("a"))
            assert stored is not None and stored.checkpoint["id"] == held["id"]
