"""Who researches which run, and which runs were asked to stop: one row per run in
PostgreSQL, shared by every API replica and worker.

A worker *claims* a run before researching it and keeps the claim fresh with heartbeats. A
claim belongs to a dead worker, and may be taken over, once no database session carries the
worker's id as its application name (a process that ends, even by SIGKILL, has its connections
closed by the kernel, and PostgreSQL ends their sessions at once), or once its heartbeat is
older than MARSA_WORKER_STALE_SECONDS (a stalled worker, or a host gone without closing its
connections). Every claim won bumps the run's *epoch*: a worker's writes to a run carry
the epoch it claimed at and are refused once another worker has claimed the run since (a
worker that was stalled, not dead, must not write into a run it lost). A cancel is a flag
here (the one truth) plus a Redis message (the fast path): a worker that misses the message
still sees the flag on its next look.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

import sqlalchemy as sa
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from backend.persistence import Guard, WriteRefused
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
    # Bumped by every claim won: the fencing token of the claim (see guard()).
    sa.Column("epoch", sa.BigInteger, nullable=False, server_default="0"),
    # Pickups in a row that did not take the run to an end, a review or a stop: a run that
    # fails at every pickup (or stops every worker that takes it) is failed, not looped.
    sa.Column("pickups", sa.Integer, nullable=False, server_default="0"),
    sa.Column("pickup_error", sa.Text, nullable=True),
)

_activity = sa.table("pg_stat_activity", sa.column("application_name", sa.String))


def _connected(worker_id: sa.ColumnElement[str]) -> sa.ColumnElement[bool]:
    """The worker has a session in the database (its connections carry its id as their
    application name: ``Database.named``)."""
    return sa.exists(
        sa.select(sa.literal(1))
        .select_from(_activity)
        .where(_activity.c.application_name == worker_id)
    )


@dataclass(frozen=True)
class Claim:
    """What a claim attempt found: whether this worker holds the run now, and who held it
    before (a dead worker's id when this claim took its run over)."""

    won: bool
    previous: str | None
    epoch: int = 0
    """The claim's fencing token (when won): writes carrying an older one are refused."""
    heartbeat: datetime | None = None
    """When not won: the holder's last heartbeat (a holder that beats again is alive)."""
    pickups: int = 0
    """When won: pickups of the run in a row, this one included, that did not get it to an
    end, a review or a stop."""
    pickup_error: str | None = None
    """Why the last of those failed, when a worker could tell."""


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
            # Tables made before the epoch existed.
            for column in (
                "epoch BIGINT NOT NULL DEFAULT 0",
                "pickups INTEGER NOT NULL DEFAULT 0",
                "pickup_error TEXT",
            ):
                await conn.execute(
                    sa.text(f"ALTER TABLE marsa_run_control ADD COLUMN IF NOT EXISTS {column}")
                )

    def _dead(self) -> sa.ColumnElement[bool]:
        """The run's holder is gone: no session of it in the database, or a stale heartbeat."""
        stale = control_table.c.heartbeat_at < sa.func.now() - sa.func.make_interval(
            0, 0, 0, 0, 0, 0, self.stale
        )
        return sa.or_(stale, ~_connected(control_table.c.worker_id))

    async def claim(self, run_id: str, worker_id: str) -> Claim:
        """Take the run for ``worker_id`` unless a live worker (connected, with a fresh
        heartbeat) holds it."""
        async with self.engine.begin() as conn:
            await conn.execute(
                pg_insert(control_table).values(run_id=run_id).on_conflict_do_nothing()
            )
            row = (
                await conn.execute(
                    sa.select(
                        control_table.c.worker_id,
                        control_table.c.heartbeat_at,
                        self._dead().label("dead"),
                    )
                    .where(control_table.c.run_id == run_id)
                    .with_for_update()
                )
            ).one()
            holder = row.worker_id
            if holder is not None and holder != worker_id and not row.dead:
                return Claim(won=False, previous=holder, heartbeat=row.heartbeat_at)
            won = (
                await conn.execute(
                    control_table.update()
                    .where(control_table.c.run_id == run_id)
                    .values(
                        worker_id=worker_id,
                        heartbeat_at=sa.func.now(),
                        epoch=control_table.c.epoch + 1,
                        pickups=control_table.c.pickups + 1,
                    )
                    .returning(
                        control_table.c.epoch,
                        control_table.c.pickups,
                        control_table.c.pickup_error,
                    )
                )
            ).one()
        return Claim(
            won=True,
            previous=holder if holder != worker_id else None,
            epoch=won.epoch,
            pickups=won.pickups,
            pickup_error=won.pickup_error,
        )

    def guard(self, run_id: str, worker_id: str, epoch: int) -> Guard:
        """A check for a write's transaction: the run is still claimed by ``worker_id`` at
        ``epoch``. The row is share-locked until the write commits, so a take-over (which
        locks it for update) cannot slip in between the check and the write."""

        async def check(conn: AsyncConnection) -> None:
            held = (
                await conn.execute(
                    sa.select(control_table.c.run_id)
                    .where(
                        control_table.c.run_id == run_id,
                        control_table.c.worker_id == worker_id,
                        control_table.c.epoch == epoch,
                    )
                    .with_for_update(read=True)
                )
            ).first()
            if held is None:
                raise WriteRefused(f"run {run_id} is no longer held by worker {worker_id}")

        return check

    async def holds(self, run_id: str, worker_id: str, epoch: int) -> bool:
        """Whether the claim is still this one (for writes that cannot run the guard inside
        their own transaction, such as the graph's checkpoints)."""
        async with self.engine.connect() as conn:
            try:
                await self.guard(run_id, worker_id, epoch)(conn)
            except WriteRefused:
                return False
        return True

    async def orphans(self, queue_table: str, older_than: float) -> list[str]:
        """Runs queued or running that nothing will move: no job for them in the queue, and no
        live claim (none, or a stale one), unchanged for ``older_than`` seconds. A job
        dropped on an error at pickup leaves such a run."""
        since = (datetime.now(UTC) - timedelta(seconds=older_than)).isoformat(
            timespec="microseconds"
        )
        jobs = sa.table(queue_table, sa.column("payload", sa.LargeBinary))
        job_run = sa.cast(
            sa.func.convert_from(jobs.c.payload, "UTF8"), sa.dialects.postgresql.JSONB
        )["run_id"].astext
        query = (
            sa.select(runs_table.c.id)
            .select_from(
                runs_table.outerjoin(control_table, control_table.c.run_id == runs_table.c.id)
            )
            .where(
                runs_table.c.status.in_(("queued", "running")),
                runs_table.c.updated_at < since,
                sa.or_(control_table.c.worker_id.is_(None), self._dead()),
                ~sa.exists(
                    sa.select(sa.literal(1)).select_from(jobs).where(job_run == runs_table.c.id)
                ),
            )
        )
        async with self.engine.connect() as conn:
            return [row[0] for row in await conn.execute(query)]

    async def release(self, run_id: str, worker_id: str) -> None:
        """Give the run up (its segment ended here). A run that got to an end, a review or a
        stop starts its count of failed pickups again."""
        status = sa.select(runs_table.c.status).where(runs_table.c.id == run_id).scalar_subquery()
        still = sa.func.coalesce(status, "").in_(("queued", "running"))
        async with self.engine.begin() as conn:
            await conn.execute(
                control_table.update()
                .where(control_table.c.run_id == run_id, control_table.c.worker_id == worker_id)
                .values(
                    worker_id=None,
                    heartbeat_at=None,
                    pickups=sa.case((still, control_table.c.pickups), else_=0),
                    pickup_error=sa.case((still, control_table.c.pickup_error), else_=None),
                )
            )

    async def pickup_failed(self, run_id: str, error: str) -> None:
        """Say why a pickup of the run failed (the message of the run if it is given up)."""
        async with self.engine.begin() as conn:
            await conn.execute(
                control_table.update()
                .where(control_table.c.run_id == run_id)
                .values(pickup_error=error[:500])
            )

    async def heartbeat(self, worker_id: str, run_ids: list[str]) -> set[str]:
        """This worker is alive and still researching these runs; which of them it still
        holds (one taken over by another worker while this one was stalled is not)."""
        if not run_ids:
            return set()
        async with self.engine.begin() as conn:
            rows = await conn.execute(
                control_table.update()
                .where(control_table.c.worker_id == worker_id, control_table.c.run_id.in_(run_ids))
                .values(heartbeat_at=sa.func.now())
                .returning(control_table.c.run_id)
            )
            return {row[0] for row in rows}

    async def requeue(self, run_id: str, updated_at: str) -> bool:
        """Mark an orphaned run queued, if it has not changed since ``updated_at``: of two
        workers sweeping at once, one wins."""
        async with self.engine.begin() as conn:
            result = await conn.execute(
                runs_table.update()
                .where(
                    runs_table.c.id == run_id,
                    runs_table.c.updated_at == updated_at,
                    runs_table.c.status.in_(("queued", "running")),
                )
                .values(status="queued", updated_at=now_iso())
            )
        return bool(result.rowcount)

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
