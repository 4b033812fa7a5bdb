"""Claims, cancel flags and status moves of runs, on a fresh PostgreSQL database."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import psycopg
import pytest
from sqlalchemy.exc import IntegrityError

from backend.config import Settings
from backend.persistence import RunStore, database_target
from backend.trace import Tracer
from backend.workers.control import RunControl
from backend.workers.queue import RunJob, RunQueue
from tests.backend.api.conftest import fresh_postgres


@pytest.fixture
async def store() -> AsyncIterator[RunStore]:
    with fresh_postgres() as url:
        store = RunStore(database_target(Settings(database_url=url)))
        await store.open()
        try:
            yield store
        finally:
            await store.close()


async def _control(store: RunStore, stale_seconds: float = 30.0) -> RunControl:
    assert store.engine is not None
    control = RunControl(store.engine, stale_seconds)
    await control.setup()
    return control


async def _session(store: RunStore, worker_id: str) -> psycopg.AsyncConnection:
    """A database session of the worker ``worker_id`` (what keeps it alive to the others)."""
    return await psycopg.AsyncConnection.connect(
        store.db.named(worker_id).libpq_url, autocommit=True
    )


async def test_a_run_held_by_a_live_worker_is_not_claimed_by_another(store: RunStore) -> None:
    control = await _control(store)
    async with await _session(store, "w1"):
        assert (await control.claim("r1", "w1")).won
        second = await control.claim("r1", "w2")
        assert not second.won and second.previous == "w1"
        await control.release("r1", "w1")
        assert (await control.claim("r1", "w2")).won


async def test_a_run_whose_worker_has_no_session_left_is_taken_over_at_once(
    store: RunStore,
) -> None:
    control = await _control(store, stale_seconds=3600)  # its heartbeat stays fresh
    async with await _session(store, "w1"):
        assert (await control.claim("r1", "w1")).won
        assert not (await control.claim("r1", "w2")).won
    # w1's connections are closed (as the kernel closes a killed process's).

    async def take_over() -> str | None:
        while not (claim := await control.claim("r1", "w2")).won:
            await asyncio.sleep(0.02)
        return claim.previous

    assert await asyncio.wait_for(take_over(), 5) == "w1"


async def test_a_stale_claim_is_taken_over_and_says_whose_it_was(store: RunStore) -> None:
    control = await _control(store, stale_seconds=0.2)
    # Still connected, but no heartbeat (stalled, or a host gone with its sessions open).
    stalled = await _session(store, "w1")
    assert (await control.claim("r1", "w1")).won

    async def take_over() -> str | None:
        while not (claim := await control.claim("r1", "w2")).won:
            await asyncio.sleep(0.05)
        return claim.previous

    assert await asyncio.wait_for(take_over(), 10) == "w1"
    assert await control.holder("r1") == "w2"
    await stalled.close()


async def test_pickups_that_did_not_get_the_run_anywhere_are_counted_until_one_does(
    store: RunStore,
) -> None:
    control = await _control(store)
    await store.create("r1", "q", {})
    await control.move("r1", ("queued",), "running")
    assert (await control.claim("r1", "w1")).pickups == 1
    await control.pickup_failed("r1", "OperationalError: gone")
    await control.release("r1", "w1")  # still running: the pickup failed
    again = await control.claim("r1", "w2")
    assert (again.pickups, again.pickup_error) == (2, "OperationalError: gone")
    await store.update("r1", status="done")
    await control.release("r1", "w2")
    assert (await control.claim("r1", "w1")).pickups == 1


async def test_of_two_racing_status_moves_only_the_first_wins(store: RunStore) -> None:
    control = await _control(store)
    await store.create("r1", "q", {})
    assert await control.move("r1", ("queued",), "running")
    assert not await control.move("r1", ("queued", "awaiting_review"), "cancelled")
    record = await store.get("r1")
    assert record is not None and record.status == "running"


async def test_a_cancel_flag_is_seen_until_the_run_starts_again(store: RunStore) -> None:
    control = await _control(store)
    await control.request_cancel("r1")
    assert await control.cancelled(["r1", "r2"]) == {"r1"}
    await control.clear_cancel("r1")
    assert await control.cancelled(["r1"]) == set()


async def test_an_event_number_cannot_be_stored_twice_for_a_run(store: RunStore) -> None:
    await store.create("r1", "q", {})
    event = Tracer("r1", last_seq=4).emit("run", "info", "once")
    await store.add_events([event])
    with pytest.raises(IntegrityError):
        await store.add_events([Tracer("r1", last_seq=4).emit("run", "info", "twice")])
    assert [e.message for e in await store.events("r1")] == ["once"]


async def test_the_run_queue_puts_again_after_postgresql_dropped_its_connection(
    store: RunStore,
) -> None:
    queue = await RunQueue.open(store.db.libpq_url)
    try:
        await queue.put(RunJob("r1", "start"))
        pid = queue.connection.info.backend_pid
        async with await psycopg.AsyncConnection.connect(
            store.db.libpq_url, autocommit=True
        ) as admin:
            await admin.execute("SELECT pg_terminate_backend(%s)", (pid,))
        await queue.put(RunJob("r2", "start"))  # a replica's next start, after the restart
        assert await queue.size() == 2
    finally:
        await queue.close()
