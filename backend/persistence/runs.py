"""Runs and their trace events in the database (SQLAlchemy Core, async)."""

from __future__ import annotations

import uuid
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine, create_async_engine

from backend.persistence.database import SCHEMA_LOCK, Database
from backend.trace import TraceEvent

metadata = sa.MetaData()

runs_table = sa.Table(
    "marsa_runs",
    metadata,
    sa.Column("id", sa.String(32), primary_key=True),
    sa.Column("query", sa.Text, nullable=False),
    sa.Column("status", sa.String(32), nullable=False),
    sa.Column("options", sa.JSON, nullable=False),
    sa.Column("created_at", sa.String(40), nullable=False, index=True),
    sa.Column("updated_at", sa.String(40), nullable=False),
    sa.Column("plan", sa.JSON, nullable=True),
    sa.Column("sub_queries", sa.JSON, nullable=True),
    sa.Column("result", sa.JSON, nullable=True),
    sa.Column("answer", sa.Text, nullable=True),
    sa.Column("answer_found", sa.Boolean, nullable=True),
    sa.Column("error", sa.Text, nullable=True),
    sa.Column("elapsed_ms", sa.Float, nullable=False, default=0.0),
    # A follow-up's earlier run (added to older databases by _add_missing_columns).
    sa.Column("parent_run_id", sa.String(32), nullable=True),
)

events_table = sa.Table(
    "marsa_run_events",
    metadata,
    sa.Column("run_id", sa.String(32), primary_key=True),
    sa.Column("seq", sa.Integer, primary_key=True),
    sa.Column("event", sa.JSON, nullable=False),
)

RUN_ID_PATTERN = r"^[0-9a-f]{12}$"
"""What every run id looks like (``new_run_id``); anything else names no run."""

Guard = Callable[[AsyncConnection], Awaitable[None]]
"""Run inside a write's transaction before it: raises WriteRefused to refuse the write."""


class WriteRefused(Exception):
    """A guarded write refused: the writer no longer owns the run (another worker took it
    over while this one was stalled), so nothing it writes may reach the run."""


ACTIVE = ("queued", "running")
"""Statuses of a run that is going on in this process (interrupted if the process dies)."""


def new_run_id() -> str:
    """A fresh run id: 12 lowercase hex characters (48 random bits)."""
    return uuid.uuid4().hex[:12]


def now_iso() -> str:
    """UTC now, in a fixed-width ISO form that sorts as text."""
    return datetime.now(UTC).isoformat(timespec="microseconds")


@dataclass
class RunRecord:
    """One research run as stored."""

    id: str
    query: str
    status: str
    options: dict[str, Any]
    created_at: str
    updated_at: str
    plan: dict[str, Any] | None = None
    sub_queries: list[dict[str, Any]] = field(default_factory=list)
    result: dict[str, Any] | None = None
    answer: str | None = None
    answer_found: bool | None = None
    """Whether the sources answered the question; None until the run has a result."""
    error: str | None = None
    elapsed_ms: float = 0.0
    parent_run_id: str | None = None
    """For a follow-up: the run whose sources and answer it started from."""


def _record(row: sa.Row[Any]) -> RunRecord:
    m = row._mapping
    return RunRecord(
        id=m["id"],
        query=m["query"],
        status=m["status"],
        options=m["options"] or {},
        created_at=m["created_at"],
        updated_at=m["updated_at"],
        plan=m["plan"],
        sub_queries=m["sub_queries"] or [],
        result=m["result"],
        answer=m["answer"],
        answer_found=m["answer_found"],
        error=m["error"],
        elapsed_ms=m["elapsed_ms"] or 0.0,
        parent_run_id=m["parent_run_id"],
    )


def _add_missing_columns(conn: sa.Connection) -> None:
    """Columns added to ``marsa_runs`` after a database was made (create_all only makes
    missing tables): added empty, so older runs read as not known."""
    present = {c["name"] for c in sa.inspect(conn).get_columns(runs_table.name)}
    for column in runs_table.columns:
        if column.name not in present and column.nullable:
            kind = column.type.compile(dialect=conn.dialect)
            conn.execute(sa.text(f"ALTER TABLE {runs_table.name} ADD COLUMN {column.name} {kind}"))


def _like_escape(text: str) -> str:
    return text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")


class RunStore:
    """Create, update, list and delete runs; append and read their events."""

    def __init__(self, db: Database):
        self.db = db
        self.engine: AsyncEngine | None = None

    async def open(self) -> None:
        """Connect and create the tables if they are missing."""
        kwargs: dict[str, Any] = {}
        if self.db.kind == "sqlite":
            assert self.db.sqlite_path is not None
            self.db.sqlite_path.parent.mkdir(parents=True, exist_ok=True)
            kwargs["connect_args"] = {"timeout": 30}
        self.engine = create_async_engine(self.db.sqlalchemy_url, **kwargs)
        if self.db.kind == "sqlite":
            # WAL lets the checkpointer's connection write while this one reads.
            @sa.event.listens_for(self.engine.sync_engine, "connect")
            def _wal(dbapi_conn: Any, _record: Any) -> None:
                cursor = dbapi_conn.cursor()
                cursor.execute("PRAGMA journal_mode=WAL")
                cursor.execute("PRAGMA busy_timeout=30000")
                cursor.close()

        async with self.engine.begin() as conn:
            if self.db.kind == "postgresql":
                await conn.execute(
                    sa.text("SELECT pg_advisory_xact_lock(:key)"), {"key": SCHEMA_LOCK}
                )
            await conn.run_sync(metadata.create_all)
            await conn.run_sync(_add_missing_columns)

    async def close(self) -> None:
        """Release the connections."""
        if self.engine is not None:
            await self.engine.dispose()
            self.engine = None

    def _engine(self) -> AsyncEngine:
        if self.engine is None:
            raise RuntimeError("RunStore.open() was not called")
        return self.engine

    async def create(
        self, run_id: str, query: str, options: dict[str, Any], parent_run_id: str | None = None
    ) -> RunRecord:
        """A new queued run (a follow-up of ``parent_run_id`` when given)."""
        stamp = now_iso()
        values = {
            "id": run_id,
            "query": query,
            "status": "queued",
            "options": options,
            "created_at": stamp,
            "updated_at": stamp,
            "elapsed_ms": 0.0,
            "parent_run_id": parent_run_id,
        }
        async with self._engine().begin() as conn:
            await conn.execute(runs_table.insert().values(**values))
        return RunRecord(
            id=run_id,
            query=query,
            status="queued",
            options=options,
            created_at=stamp,
            updated_at=stamp,
            parent_run_id=parent_run_id,
        )

    async def add_finished(self, record: RunRecord, events: list[TraceEvent]) -> None:
        """Keep a run made elsewhere (``marsa research``) with its events, all at once: it
        is never seen half-written, and never as going on (a starting API marks runs that
        are going on as interrupted)."""
        values = {
            "id": record.id,
            "query": record.query,
            "status": record.status,
            "options": record.options,
            "created_at": record.created_at,
            "updated_at": record.updated_at,
            "plan": record.plan,
            "sub_queries": record.sub_queries,
            "result": record.result,
            "answer": record.answer,
            "answer_found": record.answer_found,
            "error": record.error,
            "elapsed_ms": record.elapsed_ms,
            "parent_run_id": record.parent_run_id,
        }
        rows = [
            {"run_id": e.run_id, "seq": e.seq, "event": e.model_dump(mode="json")} for e in events
        ]
        async with self._engine().begin() as conn:
            await conn.execute(runs_table.insert().values(**values))
            if rows:
                await conn.execute(events_table.insert(), rows)

    async def update(self, run_id: str, *, guard: Guard | None = None, **values: Any) -> None:
        """Change some columns of a run (updated_at follows); ``guard`` may refuse it."""
        values["updated_at"] = now_iso()
        async with self._engine().begin() as conn:
            if guard is not None:
                await guard(conn)
            await conn.execute(
                runs_table.update().where(runs_table.c.id == run_id).values(**values)
            )

    async def get(self, run_id: str) -> RunRecord | None:
        """One run, or None."""
        async with self._engine().connect() as conn:
            row = (
                await conn.execute(sa.select(runs_table).where(runs_table.c.id == run_id))
            ).first()
        return None if row is None else _record(row)

    async def page(
        self, *, limit: int, offset: int, text: str | None
    ) -> tuple[int, list[RunRecord]]:
        """Runs newest first, optionally only those whose question contains ``text``."""
        where: sa.ColumnElement[bool] = sa.true()
        if text:
            where = runs_table.c.query.ilike(f"%{_like_escape(text)}%", escape="\\")
        query = (
            sa.select(runs_table)
            .where(where)
            .order_by(runs_table.c.created_at.desc(), runs_table.c.id.desc())
            .limit(limit)
            .offset(offset)
        )
        async with self._engine().connect() as conn:
            total = (
                await conn.execute(sa.select(sa.func.count()).select_from(runs_table).where(where))
            ).scalar_one()
            rows = (await conn.execute(query)).all()
        return int(total), [_record(r) for r in rows]

    async def with_status(self, status: str) -> list[RunRecord]:
        """Every run in one status, oldest first."""
        query = (
            sa.select(runs_table)
            .where(runs_table.c.status == status)
            .order_by(runs_table.c.created_at)
        )
        async with self._engine().connect() as conn:
            return [_record(r) for r in (await conn.execute(query)).all()]

    async def delete(self, run_id: str) -> bool:
        """Remove a run and its events; False when there was no such run."""
        async with self._engine().begin() as conn:
            await conn.execute(events_table.delete().where(events_table.c.run_id == run_id))
            gone = await conn.execute(runs_table.delete().where(runs_table.c.id == run_id))
        return bool(gone.rowcount)

    async def mark_interrupted(self) -> list[str]:
        """Runs left queued or running by a process that stopped: now ``interrupted``."""
        async with self._engine().begin() as conn:
            ids = [
                r[0]
                for r in (
                    await conn.execute(
                        sa.select(runs_table.c.id).where(runs_table.c.status.in_(ACTIVE))
                    )
                ).all()
            ]
            if ids:
                await conn.execute(
                    runs_table.update()
                    .where(runs_table.c.id.in_(ids))
                    .values(
                        status="interrupted",
                        error="the API stopped while this run was going; resume it",
                        updated_at=now_iso(),
                    )
                )
        return ids

    async def add_events(self, events: list[TraceEvent], *, guard: Guard | None = None) -> None:
        """Append trace events (each run's seq is unique); ``guard`` may refuse them."""
        if not events:
            return
        rows = [
            {"run_id": e.run_id, "seq": e.seq, "event": e.model_dump(mode="json")} for e in events
        ]
        async with self._engine().begin() as conn:
            if guard is not None:
                await guard(conn)
            await conn.execute(events_table.insert(), rows)

    async def events(self, run_id: str, after: int = 0) -> list[TraceEvent]:
        """A run's events with seq > ``after``, in order."""
        query = (
            sa.select(events_table.c.event)
            .where(events_table.c.run_id == run_id, events_table.c.seq > after)
            .order_by(events_table.c.seq)
        )
        async with self._engine().connect() as conn:
            rows = (await conn.execute(query)).all()
        return [TraceEvent.model_validate(r[0]) for r in rows]

    async def last_seq(self, run_id: str) -> int:
        """The highest stored seq of a run (0 when none)."""
        query = sa.select(sa.func.max(events_table.c.seq)).where(events_table.c.run_id == run_id)
        async with self._engine().connect() as conn:
            value = (await conn.execute(query)).scalar()
        return int(value or 0)
