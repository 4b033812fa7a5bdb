"""A TTL cache and a sliding-window rate limiter, both driven by an injectable clock."""

from __future__ import annotations

import math
import time
from collections import OrderedDict, deque
from collections.abc import Callable, Hashable
from typing import Generic, TypeVar

Clock = Callable[[], float]
V = TypeVar("V")

_WINDOW_S = 60.0


class TTLCache(Generic[V]):
    """Entries live ``ttl`` seconds; the least recently used goes first when full.

    A ``ttl`` of 0 turns the cache off.
    """

    def __init__(self, ttl: float, max_entries: int = 256, clock: Clock = time.monotonic):
        self.ttl = ttl
        self.max_entries = max_entries
        self._clock = clock
        self._entries: OrderedDict[Hashable, tuple[float, V]] = OrderedDict()

    def __len__(self) -> int:
        return len(self._entries)

    def get(self, key: Hashable) -> V | None:
        """The live value for ``key``, or None when absent or expired."""
        entry = self._entries.get(key)
        if entry is None:
            return None
        expires_at, value = entry
        if expires_at <= self._clock():
            del self._entries[key]
            return None
        self._entries.move_to_end(key)
        return value

    def put(self, key: Hashable, value: V) -> None:
        """Store ``value`` for ``ttl`` seconds (no-op when the cache is off)."""
        if self.ttl <= 0:
            return
        self._entries[key] = (self._clock() + self.ttl, value)
        self._entries.move_to_end(key)
        while len(self._entries) > self.max_entries:
            self._entries.popitem(last=False)


class RateLimited(Exception):
    """The next request slot is further away than the caller is willing to wait."""

    def __init__(self, retry_after: float):
        super().__init__(f"rate limit reached; retry in {math.ceil(retry_after)} s")
        self.retry_after = retry_after


class RateLimiter:
    """At most ``per_minute`` admissions in any 60-second window.

    ``reserve()`` is synchronous so that checking and claiming a slot cannot be
    interleaved by another task; it returns how long the caller must wait before
    sending, and raises ``RateLimited`` when that wait exceeds ``max_wait``.
    """

    def __init__(self, per_minute: int, max_wait: float = 1.0, clock: Clock = time.monotonic):
        self.per_minute = per_minute
        self.max_wait = max_wait
        self._clock = clock
        self._admitted: deque[float] = deque()

    def reserve(self) -> float:
        """Claim the next slot; return the seconds to wait before using it."""
        now = self._clock()
        while self._admitted and self._admitted[0] <= now - _WINDOW_S:
            self._admitted.popleft()
        admit_at = now
        if len(self._admitted) >= self.per_minute:
            admit_at = self._admitted[-self.per_minute] + _WINDOW_S
        if self._admitted:
            admit_at = max(admit_at, self._admitted[-1])
        wait = admit_at - now
        if wait > self.max_wait:
            raise RateLimited(wait)
        self._admitted.append(admit_at)
        return wait
