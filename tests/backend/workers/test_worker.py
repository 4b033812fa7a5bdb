"""A worker's run manager in this process, on a fresh PostgreSQL database and the gate search
server as its one source: checkpoints before events, take-over of a stalled worker's run
(fencing), and runs whose job was dropped on a database error."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import psycopg
import pytest
from langgraph.checkpoint.base import BaseCheckpointSaver
from langgraph.graph import START
from sqlalchemy.exc import OperationalError

from backend.api.runner import LiveRun
from backend.config import Settings
from backend.graph.run import initial_state
from backend.mcp_client import MCPHub
from backend.persistence import RunStore, database_target, open_checkpointer
from backend.persistence.runs import Guard
from backend.trace import TraceEvent, Tracer
from backend.workers.bus import EventBus
from backend.workers.control import RunControl
from backend.workers.queue import RunJob, RunQueue
from backend.workers.worker import MAX_PICKUPS, WorkerRunManager
from tests.backend.api.conftest import QUESTION, fresh_postgres
from tests.helpers import gate_mcp_config

STALE_SECONDS = 1.0


class ProbeStore(RunStore):
    """The run store, noting whether the run had a checkpoint when its first events were
    stored, and failing ``last_seq`` once when asked to (a database error at pickup)."""

    checkpointed_at_first_event: bool | None = None
    fail_last_seq: int = 0
    """Pickups to fail (``last_seq`` raising, as with the database away)."""
    last_seq_error: Exception | None = None
    """What ``last_seq`` raises when it fails, if not a database error."""
    batches: int = 0

    async def add_events(self, events: list[TraceEvent], *, guard: Guard | None = None) -> None:
        self.batches += bool(events)
        if events and self.checkpointed_at_first_event is None:
            url = self.db.libpq_url
            async with await psycopg.AsyncConnection.connect(url) as conn:
                row = await (
                    await conn.execute(
                        "SELECT count(*) FROM checkpoints WHERE thread_id = %s",
                        (events[0].run_id,),
                    )
                ).fetchone()
            self.checkpointed_at_first_event = bool(row and row[0])
        await super().add_events(events, guard=guard)

    async def last_seq(self, run_id: str) -> int:
        if self.fail_last_seq > 0:
            self.fail_last_seq -= 1
            if self.last_seq_error is not None:
                raise self.last_seq_error
            raise OperationalError("SELECT max(seq)", {}, Exception("server closed the connection"))
        return await super().last_seq(run_id)


@dataclass
class World:
    settings: Settings
    store: ProbeStore
    control: RunControl
    queue: RunQueue
    hub: MCPHub
    gate: Path
    database_url: str

    def manager(
        self, worker_id: str, saver: BaseCheckpointSaver, **settings: Any
    ) -> WorkerRunManager:
        return WorkerRunManager(
            self.settings.model_copy(update=settings),
            self.store,
            saver,
            self.hub,
            bus=EventBus(None),
            control=self.control,
            queue=self.queue,
            worker_id=worker_id,
        )

    async def new_run(self, **options: Any) -> str:
        run_id = f"{time.time_ns() % 16**12:012x}"
        await self.store.create(
            run_id, QUESTION, {"sources": ["gate"], "max_iterations": 1, **options}
        )
        return run_id

    def jobs_for(self, run_id: str) -> int:
        with psycopg.connect(self.database_url, autocommit=True) as conn:
            row = conn.execute(
                "SELECT count(*) FROM pgqueuer "
                "WHERE convert_from(payload, 'UTF8')::jsonb->>'run_id' = %s",
                (run_id,),
            ).fetchone()
        return int(row[0]) if row else 0


@pytest.fixture
async def world(tmp_path: Path) -> AsyncIterator[World]:
    config, gate = gate_mcp_config(tmp_path)
    with fresh_postgres() as url:
        settings = Settings(
            database_url=url,
            run_in="workers",
            data_dir=tmp_path / "data",
            mcp_config=config,
            worker_stale_seconds=STALE_SECONDS,
            seed_docs=False,
        )
        store = ProbeStore(database_target(settings))
        await store.open()
        assert store.engine is not None
        control = RunControl(store.engine, STALE_SECONDS)
        await control.setup()
        queue = await RunQueue.open(store.db.libpq_url)
        try:
            async with MCPHub(settings, servers=[]) as hub:
                yield World(settings, store, control, queue, hub, gate, url)
        finally:
            await queue.close()
            await store.close()


async def until(check: Callable[[], Awaitable[bool]], what: str, deadline_s: float = 60) -> None:
    end = time.monotonic() + deadline_s
    while not await check():
        assert time.monotonic() < end, f"not within {deadline_s}s: {what}"
        await asyncio.sleep(0.05)


async def test_a_runs_question_is_checkpointed_before_its_first_event_is_stored(
    world: World,
) -> None:
    slow: set[str] = set()

    async def slow_first_write(run_id: str) -> None:
        # A checkpoint connection busy with other runs: the first write of a run waits.
        if run_id not in slow:
            slow.add(run_id)
            await asyncio.sleep(0.5)

    async with open_checkpointer(world.store.db, fence=slow_first_write) as saver:
        manager = world.manager("w1", saver)
        run_id = await world.new_run()
        await manager.take(RunJob(run_id, "start"))
    record = await world.store.get(run_id)
    assert record is not None and record.status == "done"
    # A worker killed once the run's first events are stored leaves a checkpoint to go on from.
    assert world.store.checkpointed_at_first_event is True


async def test_a_stalled_workers_run_is_taken_over_and_the_stalled_worker_writes_nothing_more(
    world: World,
) -> None:
    # A stalled worker (SIGSTOP) keeps its database sessions: only its silence gives it away.
    # (The managers here share one pool whose connections carry no worker's name; without
    # this session worker A would look gone at once, and B would take the run over while A
    # still trusts its claim without asking.)
    with psycopg.connect(world.database_url, application_name="worker-a"):
        async with (
            open_checkpointer(world.store.db, fence=lambda r: a.check_claim(r)) as saver_a,
            open_checkpointer(world.store.db, fence=lambda r: b.check_claim(r)) as saver_b,
        ):
            a = world.manager("worker-a", saver_a)
            b = world.manager("worker-b", saver_b)
            run_id = await world.new_run()
            world.gate.touch()
            try:
                # Worker A researches the run but sends no heartbeat (its watcher is not running):
                # to the others it looks stalled, as after SIGSTOP.
                taking_a = asyncio.create_task(a.take(RunJob(run_id, "start")))

                async def researching() -> bool:
                    events = await world.store.events(run_id)
                    return (
                        sum(e.node == "researcher" and e.kind == "node_start" for e in events) >= 1
                    )

                await until(researching, "worker A reaches the researcher")
                taking_b = asyncio.create_task(b.take(RunJob(run_id, "start")))

                async def taken_over() -> bool:
                    return await world.control.holder(run_id) == "worker-b"

                await until(taken_over, "worker B takes the run over")
            finally:
                world.gate.unlink()  # both searches answer: A wakes up in a run it lost
            await asyncio.wait_for(taking_b, 60)
            await asyncio.wait_for(taking_a, 60)
            record = await world.store.get(run_id)
            assert record is not None and record.status == "done", record
            events = await world.store.events(run_id)
            await asyncio.sleep(0.5)  # anything A might still write would show by now
            assert await world.store.events(run_id) == events
            assert (await world.store.get(run_id)).status == "done"  # type: ignore[union-attr]
    assert [e.seq for e in events] == list(range(1, len(events) + 1))
    starts = [e.message for e in events if e.kind == "run_start"]
    assert starts == [f"research: {QUESTION}", "taken over from a stopped worker (worker-a)"]
    assert sum(e.message == "planning the research" for e in events) == 1
    assert events[-1].kind == "run_end" and events[-1].data["status"] == "done"
    assert a.live == {} and b.live == {}


async def test_a_database_error_at_pickup_queues_the_run_again(world: World) -> None:
    async with open_checkpointer(world.store.db) as saver:
        manager = world.manager("w1", saver)
        run_id = await world.new_run()
        world.store.fail_last_seq = 1  # after the run was moved to running
        await manager.take(RunJob(run_id, "start"))
        record = await world.store.get(run_id)
        assert record is not None and record.status == "queued"
        assert world.jobs_for(run_id) == 1
        assert await world.control.holder(run_id) is None
        await manager.take(RunJob(run_id, "resume"))  # the job queued again
    record = await world.store.get(run_id)
    assert record is not None and record.status == "done"


async def test_a_run_that_fails_at_every_pickup_ends_failed_saying_why(world: World) -> None:
    async with open_checkpointer(world.store.db) as saver:
        manager = world.manager("w1", saver)
        run_id = await world.new_run()
        world.store.fail_last_seq = MAX_PICKUPS
        for _ in range(MAX_PICKUPS):
            await manager.take(RunJob(run_id, "start"))  # fails, and queues the run again
            assert (await world.store.get(run_id)).status == "queued"  # type: ignore[union-attr]
        await manager.take(RunJob(run_id, "resume"))
    record = await world.store.get(run_id)
    assert record is not None and record.status == "failed"
    assert record.error is not None
    assert f"{MAX_PICKUPS} pickups in a row failed" in record.error
    assert "OperationalError" in record.error
    events = await world.store.events(run_id)
    assert events[-1].kind == "run_end" and events[-1].data["status"] == "failed"
    assert await world.control.holder(run_id) is None


async def test_a_run_whose_pickup_fails_on_a_bug_is_failed_with_it_after_the_last_try(
    world: World,
) -> None:
    async with open_checkpointer(world.store.db) as saver:
        manager = world.manager("w1", saver)
        run_id = await world.new_run()
        world.store.fail_last_seq = MAX_PICKUPS
        world.store.last_seq_error = KeyError("plan")
        for _ in range(MAX_PICKUPS):
            # The queue logs the error; the sweep queues the run again (a new job).
            with pytest.raises(KeyError):
                await manager.take(RunJob(run_id, "start"))
        await manager.take(RunJob(run_id, "resume"))
    record = await world.store.get(run_id)
    assert record is not None and record.status == "failed"
    assert record.error is not None and "(the last: KeyError: 'plan')" in record.error


async def test_a_job_for_a_run_a_live_worker_researches_ends_without_waiting_for_it(
    world: World,
) -> None:
    async with (
        open_checkpointer(world.store.db) as saver,
        await psycopg.AsyncConnection.connect(
            world.store.db.named("w-alive").libpq_url, autocommit=True
        ),
    ):
        manager = world.manager("w2", saver)
        run_id = await world.new_run()
        assert (await world.control.claim(run_id, "w-alive")).won
        await world.store.update(run_id, status="running")

        async def beating() -> None:
            while True:
                await asyncio.sleep(0.1)
                await world.control.heartbeat("w-alive", [run_id])

        beats = asyncio.create_task(beating())
        try:
            # A second job for the run (or its own, back from the queue after a slow beat).
            await asyncio.wait_for(manager.take(RunJob(run_id, "resume")), 10)
        finally:
            beats.cancel()
        assert await world.control.holder(run_id) == "w-alive"
        assert await world.store.events(run_id) == []


async def test_a_run_left_running_with_no_job_and_no_live_claim_is_queued_again(
    world: World,
) -> None:
    async with open_checkpointer(world.store.db) as saver:
        manager = world.manager("w1", saver)
        orphan = await world.new_run()
        queued = await world.new_run()
        for run_id in (orphan, queued):
            assert (await world.control.claim(run_id, "dead-worker")).won
            await world.store.update(run_id, status="running")
        await world.queue.put(RunJob(queued, "start"))  # this one still has its job
        swept: list[str] = []

        async def swept_some() -> bool:
            swept.extend(await manager.sweep())
            return bool(swept)

        await until(swept_some, "the sweep finds the orphan", deadline_s=30)
        assert swept == [orphan]
        assert world.jobs_for(orphan) == 1
        assert (await world.store.get(orphan)).status == "queued"  # type: ignore[union-attr]
        assert (await world.store.get(queued)).status == "running"  # type: ignore[union-attr]
        assert await manager.sweep() == []  # queued once, not on every sweep


@pytest.mark.parametrize(
    "gap",
    [
        pytest.param(0.01, id="close together (a node's start, a call, its end)"),
        pytest.param(0.03, id="a step's events 30 ms apart, the last 60 ms after the first"),
    ],
)
async def test_a_worker_stores_what_a_run_emits_within_a_tenth_of_a_second_in_one_batch(
    world: World, gap: float
) -> None:
    async with open_checkpointer(world.store.db) as saver:
        manager = world.manager("w1", saver)
        run_id = await world.new_run()
        record = await world.store.get(run_id)
        assert record is not None
        live = LiveRun(record=record)
        tracer = Tracer(run_id)
        tracer.subscribe(manager._on_event(live))
        writer = asyncio.create_task(manager._writer(live))
        for i in range(3):
            tracer.emit("run", "info", f"step {i}")
            await asyncio.sleep(gap)
        await until(lambda: asyncio.sleep(0, live.stored_seq == 3), "the batch stored", 5)
        await manager._stop_writer(live, writer)
    assert [e.seq for e in await world.store.events(run_id)] == [1, 2, 3]
    assert world.store.batches == 1


async def test_a_run_taken_over_before_any_event_was_stored_still_opens_with_its_question(
    world: World,
) -> None:
    async with open_checkpointer(world.store.db) as saver:
        manager = world.manager("w2", saver)
        run_id = await world.new_run()
        # What a worker killed just after the question's checkpoint leaves (its first events
        # were still waiting for the writer): a checkpoint, no event, the run running.
        config = {"configurable": {"thread_id": run_id}}
        await manager.graph.aupdate_state(config, initial_state(QUESTION, 1, None), as_node=START)
        assert (await world.control.claim(run_id, "dead-worker")).won
        await world.store.update(run_id, status="running")
        await manager.take(RunJob(run_id, "start"))  # waits until the dead claim is stale
    events = await world.store.events(run_id)
    starts = [e.message for e in events if e.kind == "run_start"]
    assert starts == [f"research: {QUESTION}", "taken over from a stopped worker (dead-worker)"]
    assert events[0].data["query"] == QUESTION
    assert [e.seq for e in events] == list(range(1, len(events) + 1))
    assert (await world.store.get(run_id)).status == "done"  # type: ignore[union-attr]


async def test_a_run_taken_over_before_its_first_checkpoint_says_so_and_starts_once(
    world: World,
) -> None:
    async with open_checkpointer(world.store.db) as saver:
        manager = world.manager("w2", saver)
        run_id = await world.new_run()
        # A worker killed just after moving the run to running: no checkpoint, no event.
        assert (await world.control.claim(run_id, "dead-worker")).won
        await world.store.update(run_id, status="running")
        await manager.take(RunJob(run_id, "start"))
    events = await world.store.events(run_id)
    assert [e.message for e in events[:2]] == [
        f"research: {QUESTION}",
        "taken over from a stopped worker (dead-worker): nothing checkpointed yet, from the start",
    ]
    assert sum(e.kind == "run_start" for e in events) == 1
    assert (await world.store.get(run_id)).status == "done"  # type: ignore[union-attr]
