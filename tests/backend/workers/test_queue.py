"""The worker's queue connections, on a fresh PostgreSQL database."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator

import pytest

from backend.workers.queue import ListeningApartDriver, connect
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
