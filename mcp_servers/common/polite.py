"""Polite use of a free outside API: a TTL cache, a request spacer that also honours a
``Retry-After`` the API sent, and the parsing of that header. Time comes from an injectable
clock, so tests move it instead of sleeping.
"""

from __future__ import annotations

import math
import time
from collections import OrderedDict
from collections.abc import Callable, Hashable
from datetime import UTC, datetime
from email.utils import parsedate_to_datetime
from typing import Generic, TypeVar

Clock = Callable[[], float]
V = TypeVar("V")


class TTLCache(Generic[V]):
    """Entries live ``ttl`` seconds; the least recently used goes first when full.
    A ``ttl`` of 0 turns the cache off."""

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


class TooSoon(Exception):
    """The next request may only go out later than the caller is willing to wait."""

    def __init__(self, retry_after: float, reason: str):
        super().__init__(f"{reason}; retry in {math.ceil(retry_after)} s")
        self.retry_after = retry_after
        self.reason = reason


class RequestSpacer:
    """At most ``per_minute`` requests, spaced evenly (``60 / per_minute`` seconds apart), as
    arXiv asks ("no more than one request every three seconds") and as a burst-free way to stay
    under OpenAlex's per-second limit.

    ``reserve()`` is synchronous, so checking and claiming a slot cannot be interleaved by
    another task; it returns how long to wait before sending, or raises ``TooSoon`` when that is
    more than ``max_wait``. ``back_off(seconds)`` holds every request until the API's
    ``Retry-After`` has passed, so a 429 is not answered with more requests.
    """

    def __init__(self, per_minute: int, max_wait: float, clock: Clock = time.monotonic):
        self.per_minute = per_minute
        self.interval = 60.0 / per_minute
        self.max_wait = max_wait
        self._clock = clock
        self._next_free = -math.inf
        self._blocked_until = -math.inf

    def reserve(self) -> float:
        """Claim the next slot; return the seconds to wait before using it."""
        now = self._clock()
        if self._blocked_until > now:
            raise TooSoon(self._blocked_until - now, "the API asked this server to wait")
        admit_at = max(now, self._next_free)
        wait = admit_at - now
        if wait > self.max_wait:
            raise TooSoon(wait, f"this server's limit of {self.per_minute} requests/min")
        self._next_free = admit_at + self.interval
        return wait

    def back_off(self, seconds: float) -> None:
        """Send nothing for ``seconds`` (the API's Retry-After)."""
        self._blocked_until = max(self._blocked_until, self._clock() + seconds)


def retry_after_seconds(value: str | None) -> int | None:
    """Retry-After as whole seconds; it may be a number or an HTTP date."""
    if not value:
        return None
    try:
        return max(0, math.ceil(float(value)))
    except ValueError:
        pass
    try:
        when = parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    if when.tzinfo is None:
        when = when.replace(tzinfo=UTC)
    return max(0, math.ceil((when - datetime.now(UTC)).total_seconds()))
