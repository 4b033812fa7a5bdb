"""Redis pub/sub between API replicas and workers: "run X has events up to N" and "stop run X".

Only a nudge: the database is the one truth. A follower woken by a message reads the run's
new events from the database; a lost message costs latency (the follower reads again after a
short wait anyway), never an event. With no Redis configured, or Redis down, ``healthy`` is
False and followers read the database every ``POLL_SECONDS``.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import Callable

import redis.asyncio as aioredis
from redis.exceptions import RedisError

log = logging.getLogger("marsa.bus")

RUNS_CHANNEL = "marsa:runs"
CANCEL_CHANNEL = "marsa:cancel"
POLL_SECONDS = 0.5
"""How often a follower reads the database when it cannot count on being woken."""
RECONNECT_SECONDS = 1.0


class EventBus:
    """Publish run progress and cancels; wake local followers when another process publishes."""

    def __init__(
        self,
        url: str | None,
        on_cancel: Callable[[str], None] | None = None,
        *,
        hear_runs: bool = True,
        hear_cancels: bool = True,
    ):
        self.url = url
        self.on_cancel = on_cancel
        # What this process listens to: a replica follows runs and never stops one, a worker
        # stops runs and follows none. Every message on a channel costs every subscriber a
        # read and a parse (a run's event batches reach every process otherwise).
        self.channels = [
            name
            for name, wanted in ((RUNS_CHANNEL, hear_runs), (CANCEL_CHANNEL, hear_cancels))
            if wanted
        ]
        self.healthy = False
        self._client: aioredis.Redis | None = None
        self._listener: asyncio.Task[None] | None = None
        self._watchers: dict[str, set[asyncio.Event]] = {}

    async def start(self) -> None:
        """Connect and listen in the background (reconnecting while Redis is down)."""
        if self.url is None:
            return
        self._client = aioredis.Redis.from_url(
            self.url, socket_connect_timeout=2, socket_timeout=None, health_check_interval=5
        )
        if self.channels:
            self._listener = asyncio.create_task(self._listen(), name="marsa-bus")

    async def close(self) -> None:
        """Stop listening and disconnect."""
        if self._listener is not None:
            self._listener.cancel()
            await asyncio.gather(self._listener, return_exceptions=True)
        if self._client is not None:
            await self._client.aclose()
        self.healthy = False

    async def ping(self, timeout: float = 2.0) -> str | None:
        """None when Redis answers a PING now, else why not."""
        if self._client is None:
            return "MARSA_REDIS_URL is not set"
        try:
            await asyncio.wait_for(self._client.ping(), timeout)
        except (RedisError, OSError, TimeoutError) as exc:
            return f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__
        return None

    # --- followers in this process ---------------------------------------------------

    def watch(self, run_id: str) -> asyncio.Event:
        """An event set whenever a message about the run arrives (register before reading
        the database, so nothing published in between is missed)."""
        event = asyncio.Event()
        self._watchers.setdefault(run_id, set()).add(event)
        return event

    def unwatch(self, run_id: str, event: asyncio.Event) -> None:
        watchers = self._watchers.get(run_id)
        if watchers is not None:
            watchers.discard(event)
            if not watchers:
                del self._watchers[run_id]

    def wake_all(self) -> None:
        """Wake every follower in this process (Redis came back, or the process stops)."""
        for run_id in list(self._watchers):
            self.wake(run_id)

    def wake(self, run_id: str) -> None:
        """Wake this process's followers of a run (also used for changes made here)."""
        for event in self._watchers.get(run_id, ()):
            event.set()

    # --- publishing ------------------------------------------------------------------

    async def announce(self, run_id: str, seq: int, status: str) -> None:
        """The run has stored events up to ``seq`` and is ``status``."""
        self.wake(run_id)
        await self._publish(RUNS_CHANNEL, {"run": run_id, "seq": seq, "status": status})

    async def send_cancel(self, run_id: str) -> None:
        """Ask whichever worker holds the run to stop it."""
        await self._publish(CANCEL_CHANNEL, {"run": run_id})

    async def _publish(self, channel: str, message: dict[str, object]) -> None:
        if self._client is None:
            return
        try:
            await self._client.publish(channel, json.dumps(message))
        except (RedisError, OSError) as exc:
            # The database has it; followers elsewhere read it on their next poll.
            log.warning("redis publish failed (%s): followers fall back to polling", exc)
            self.healthy = False

    # --- listening -------------------------------------------------------------------

    async def _listen(self) -> None:
        assert self._client is not None
        while True:
            pubsub = self._client.pubsub(ignore_subscribe_messages=True)
            try:
                await pubsub.subscribe(*self.channels)
                self.healthy = True
                # Wake everyone: what was published while Redis was away was not heard.
                self.wake_all()
                while True:
                    message = await pubsub.get_message(timeout=5.0)
                    if message is not None:
                        self._dispatch(message)
            except (RedisError, OSError) as exc:
                if self.healthy:
                    log.warning("redis unreachable (%s): streams read the database", exc)
                self.healthy = False
            finally:
                with contextlib.suppress(RedisError, OSError):
                    await pubsub.aclose()
            await asyncio.sleep(RECONNECT_SECONDS)

    def _dispatch(self, message: dict[str, object]) -> None:
        data = message.get("data")
        if not isinstance(data, bytes | str):
            return
        try:
            body = json.loads(data)
        except ValueError:
            log.warning("ignored a malformed bus message: %r", data[:200])
            return
        run_id = str(body.get("run", ""))
        channel = message.get("channel")
        channel = channel.decode() if isinstance(channel, bytes) else channel
        if channel == CANCEL_CHANNEL:
            if self.on_cancel is not None:
                self.on_cancel(run_id)
            return
        self.wake(run_id)
