"""Who researches which run, and which runs were asked to stop: one row per run in
PostgreSQL, shared by every API replica and worker.

A worker *claims* a run before researching it and keeps the claim fresh with heartbeats; a
claim whose heartbeat is older than MARSA_WORKER_STALE_SECONDS belongs to a dead worker and
may be taken over. A cancel is a flag here (the one truth) plus a Redis message (the fast
path): a worker that misses the message still sees the flag on its next look.
"""

from __future__ import annotations

from dataclasses import dataclass

import sqlalchemy as sa
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.ext.asyncio import AsyncEngine

from backend.persistence.database import SCHEMA_LOCK
from backend.persistence.runs import now_iso, runs_table

metadata = sa.MetaData()

control_table = sa.Table(
    "marsa_run_control",
    metadata,
    sa.Column("run_id", sa.String(32), primary_key=True),
    sa.Column("worker_id", sa.String(120), nullable=True),
    sa.Column("heartbeat_at", sa.DateTime(timezone=True), nullable=True),
    sa.Column("cancel_requested", sa.Boolean, nullable=False, server_default=sa.false()),
)


@dataclass(frozen=True)
class Claim:
    """What a claim attempt found: whether this worker holds the run now, and who held it
    before (a dead worker's id when this claim took its run over)."""

    won: bool
    previous: str | None


class RunControl:
    """Claims, heartbeats and cancel flags of runs (PostgreSQL only)."""

    def __init__(self, engine: AsyncEngine, stale_seconds: float):
        self.engine = engine
        self.stale = stale_seconds

    async def setup(self) -> None:
        """Create the table if it is missing."""
        async with self.engine.begin() as conn:
            await conn.execute(sa.text("SELECT pg_advisory_xact_lock(:key)"), {"key": SCHEMA_LOCK})
            await conn.run_sync(metadata.create_all)

    async def claim(self, run_id: str, worker_id: str) -> Claim:
        """Take the run for ``worker_id`` unless a live worker (fresh heartbeat) holds it."""
        async with self.engine.begin() as conn:
            await conn.execute(
                pg_insert(control_table).values(run_id=run_id).on_conflict_do_nothing()
            )
            stale = control_table.c.heartbeat_at < sa.func.now() - sa.func.make_interval(
                0, 0, 0, 0, 0, 0, self.stale
            )
            row = (
                await conn.execute(
                    sa.select(control_table.c.worker_id, stale.label("stale"))
                    .where(control_table.c.run_id == run_id)
                    .with_for_update()
                )
            ).one()
            holder, is_stale = row.worker_id, bool(row.stale)
            if holder is not None and holder != worker_id and not is_stale:
                return Claim(won=False, previous=holder)
            await conn.execute(
                control_table.update()
                .where(control_table.c.run_id == run_id)
                .values(worker_id=worker_id, heartbeat_at=sa.func.now())
            )
        return Claim(won=True, previous=holder if holder != worker_id else None)

    async def release(self, run_id: str, worker_id: str) -> None:
        """Give the run up (its segment ended here)."""
        async with self.engine.begin() as conn:
            await conn.execute(
                control_table.update()
                .where(control_table.c.run_id == run_id, control_table.c.worker_id == worker_id)
                .values(worker_id=None, heartbeat_at=None)
            )

    async def heartbeat(self, worker_id: str, run_ids: list[str]) -> None:
        """This worker is alive and still researching these runs."""
        if not run_ids:
            return
        async with self.engine.begin() as conn:
            await conn.execute(
                control_table.update()
                .where(control_table.c.worker_id == worker_id, control_table.c.run_id.in_(run_ids))
                .values(heartbeat_at=sa.func.now())
            )

    async def holder(self, run_id: str) -> str | None:
        """The worker that holds the run now, if any."""
        async with self.engine.connect() as conn:
            return (
                await conn.execute(
                    sa.select(control_table.c.worker_id).where(control_table.c.run_id == run_id)
                )
            ).scalar()

    async def request_cancel(self, run_id: str) -> None:
        """Flag the run for cancelling (whoever holds it, now or later, stops it)."""
        async with self.engine.begin() as conn:
            await conn.execute(
                pg_insert(control_table)
                .values(run_id=run_id, cancel_requested=True)
                .on_conflict_do_update(
                    index_elements=[control_table.c.run_id], set_={"cancel_requested": True}
                )
            )

    async def clear_cancel(self, run_id: str) -> None:
        """A run started again (approved, resumed) carries no cancel from before."""
        async with self.engine.begin() as conn:
            await conn.execute(
                control_table.update()
                .where(control_table.c.run_id == run_id)
                .values(cancel_requested=False)
            )

    async def cancelled(self, run_ids: list[str]) -> set[str]:
        """Which of these runs were asked to stop."""
        if not run_ids:
            return set()
        async with self.engine.connect() as conn:
            rows = await conn.execute(
                sa.select(control_table.c.run_id).where(
                    control_table.c.run_id.in_(run_ids), control_table.c.cancel_requested
                )
            )
            return {r[0] for r in rows}

    async def forget(self, run_id: str) -> None:
        """The run was deleted."""
        async with self.engine.begin() as conn:
            await conn.execute(control_table.delete().where(control_table.c.run_id == run_id))

    async def move(self, run_id: str, before: tuple[str, ...], after: str) -> bool:
        """Set the run's status to ``after`` only if it is one of ``before`` now: the one
        who moves it (a replica cancelling, a worker starting it) wins any race."""
        async with self.engine.begin() as conn:
            result = await conn.execute(
                runs_table.update()
                .where(runs_table.c.id == run_id, runs_table.c.status.in_(before))
                .values(status=after, updated_at=now_iso())
            )
        return bool(result.rowcount)
