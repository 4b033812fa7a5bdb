"""The Redis bus between replicas and workers, over a redis-server of the test's own."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator

import pytest

from backend.workers.bus import EventBus
from tests.backend.workers.conftest import Redis
from tests.helpers import free_port


@pytest.fixture
def redis_url() -> Iterator[str]:
    redis = Redis()
    redis.start()
    try:
        yield redis.url
    finally:
        redis.stop()


async def _healthy(*buses: EventBus, deadline_s: float = 10.0) -> None:
    async def wait() -> None:
        while not all(bus.healthy for bus in buses):
            await asyncio.sleep(0.02)

    await asyncio.wait_for(wait(), deadline_s)


async def test_an_announcement_wakes_the_followers_of_that_run_on_another_bus(
    redis_url: str,
) -> None:
    replica, worker = EventBus(redis_url), EventBus(redis_url)
    await replica.start()
    await worker.start()
    try:
        await _healthy(replica, worker)
        followed, other = replica.watch("run1"), replica.watch("run2")
        await worker.announce("run1", 7, "running")
        await asyncio.wait_for(followed.wait(), 5)
        assert not other.is_set()
    finally:
        await replica.close()
        await worker.close()


async def test_a_cancel_reaches_the_bus_that_listens_for_cancels(redis_url: str) -> None:
    cancelled: list[str] = []
    replica, worker = EventBus(redis_url), EventBus(redis_url, on_cancel=cancelled.append)
    await replica.start()
    await worker.start()
    try:
        await _healthy(replica, worker)
        await replica.send_cancel("run1")

        async def heard() -> None:
            while not cancelled:
                await asyncio.sleep(0.02)

        await asyncio.wait_for(heard(), 5)
        assert cancelled == ["run1"]
    finally:
        await replica.close()
        await worker.close()


async def test_without_redis_announcing_only_wakes_this_process() -> None:
    bus = EventBus(f"redis://127.0.0.1:{free_port()}/0")
    await bus.start()
    try:
        followed = bus.watch("run1")
        await bus.announce("run1", 3, "running")  # no error: the database has the events
        assert followed.is_set() and not bus.healthy
    finally:
        await bus.close()


async def test_a_bus_that_does_not_hear_runs_is_not_woken_by_their_announcements(
    redis_url: str,
) -> None:
    cancelled: list[str] = []
    replica = EventBus(redis_url, hear_cancels=False)
    worker = EventBus(redis_url, on_cancel=cancelled.append, hear_runs=False)
    await replica.start()
    await worker.start()
    try:
        await _healthy(replica, worker)
        followed = worker.watch("run1")
        await replica.announce("run1", 7, "running")
        await replica.send_cancel("run2")  # published after the announcement

        async def heard() -> None:
            while not cancelled:
                await asyncio.sleep(0.02)

        # Messages reach a subscriber in the order they were published: by the time the
        # cancel has arrived, the announcement would have woken the follower.
        await asyncio.wait_for(heard(), 5)
        assert cancelled == ["run2"] and not followed.is_set()
    finally:
        await replica.close()
        await worker.close()
