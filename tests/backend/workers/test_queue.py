"""The worker's queue: its connections and its queue manager, on a fresh PostgreSQL database."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator, Callable
from datetime import timedelta
from typing import Any

import pytest
from pgqueuer import Job, Queries

from backend.workers.queue import (
    ENTRYPOINT,
    ListeningApartDriver,
    SlotAwareQueueManager,
    connect,
    install,
)
from tests.backend.api.conftest import fresh_postgres


@pytest.fixture
async def driver() -> AsyncIterator[ListeningApartDriver]:
    with fresh_postgres() as url:
        taking, listening = await connect(url), await connect(url)
        try:
            async with ListeningApartDriver(taking, listening) as driver:
                yield driver
        finally:
            await taking.close()
            await listening.close()


async def test_the_queue_answers_at_once_while_it_listens_for_new_jobs(
    driver: ListeningApartDriver,
) -> None:
    heard: list[str] = []
    await driver.add_listener("marsa_jobs", lambda payload: heard.append(str(payload)))
    began = time.monotonic()
    for _ in range(5):  # on the listening connection, each waited for the 1-s listen to end
        assert await driver.fetch("SELECT 1 AS one") == [{"one": 1}]
    assert time.monotonic() - began < 1.0


async def test_a_notify_still_reaches_the_queues_listener(driver: ListeningApartDriver) -> None:
    heard: list[str] = []
    await driver.add_listener("marsa_jobs", lambda payload: heard.append(str(payload)))
    await driver.notify("marsa_jobs", "a job")
    end = time.monotonic() + 10
    while not heard:
        assert time.monotonic() < end, "the NOTIFY was not heard"
        await asyncio.sleep(0.02)
    assert heard == ["a job"]


async def test_a_full_worker_asks_for_no_job_until_one_of_its_own_ends(
    driver: ListeningApartDriver,
) -> None:
    queries = Queries(driver)
    await install(queries)
    qm = SlotAwareQueueManager(queries, slots=2)
    started: list[bytes] = []
    release = asyncio.Event()

    @qm.entrypoint(ENTRYPOINT)
    async def research(job: Job) -> None:
        started.append(job.payload or b"")
        if len(started) <= 2:
            await release.wait()

    asked: list[float] = []
    dequeue = queries.dequeue

    async def counted(*args: Any, **kwargs: Any) -> Any:
        asked.append(time.monotonic())
        return await dequeue(*args, **kwargs)

    queries.dequeue = counted  # type: ignore[method-assign]
    for i in range(4):
        await queries.enqueue(ENTRYPOINT, f"run {i}".encode())
    running = asyncio.create_task(
        qm.run(
            batch_size=1,
            max_concurrent_tasks=2,
            dequeue_timeout=timedelta(seconds=30),  # longer than the test: NOTIFY wakes it
        )
    )
    try:
        await until(lambda: len(started) == 2, "two jobs taken")
        full_since = time.monotonic()
        await asyncio.sleep(1.0)  # pgqueuer alone asks every 0.1 s while jobs wait
        assert [t for t in asked if t > full_since] == []
        release.set()
        await until(lambda: len(started) == 4, "the other two taken once a slot freed", 5)
    finally:
        qm.shutdown.set()
        await asyncio.wait_for(running, 30)


async def until(check: Callable[[], bool], what: str, deadline_s: float = 10) -> None:
    end = time.monotonic() + deadline_s
    while not check():
        assert time.monotonic() < end, f"not within {deadline_s}s: {what}"
        await asyncio.sleep(0.02)
