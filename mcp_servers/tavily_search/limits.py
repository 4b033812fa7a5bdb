"""A sliding-window rate limiter driven by an injectable clock. (The TTL cache is the one every
server shares: ``mcp_servers.common.polite.TTLCache``.)"""

from __future__ import annotations

import math
import time
from collections import deque

from mcp_servers.common.polite import Clock

_WINDOW_S = 60.0


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
