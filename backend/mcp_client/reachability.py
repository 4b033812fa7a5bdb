"""Whether the outside API a server depends on answers: a cheap GET with a short timeout,
remembered for a minute, so health shows a server whose process is up but whose API cannot be
reached (GitHub on a machine with no route to api.github.com) as degraded, not green.

The API is asked from this process, at the address the server is given (its settings): on a
deployment where the servers run elsewhere, it says whether this host reaches the API.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable

import httpx

from backend.config import Settings
from backend.mcp_client.registry import setting_value
from backend.sources import SourceSpec

Clock = Callable[[], float]


class Reachability:
    """Probes outside APIs and remembers each answer for ``ttl`` seconds."""

    def __init__(
        self,
        ttl: float = 60.0,
        timeout: float = 3.0,
        clock: Clock = time.monotonic,
        transport: httpx.AsyncBaseTransport | None = None,
    ):
        self.ttl = ttl
        self.timeout = timeout
        self._clock = clock
        self._transport = transport
        self._known: dict[str, tuple[float, str | None]] = {}

    async def problem(self, url: str) -> str | None:
        """None when ``url`` answers (any status below 500), else why it does not."""
        known = self._known.get(url)
        if known is not None and known[0] > self._clock():
            return known[1]
        found = await self._ask(url)
        self._known[url] = (self._clock() + self.ttl, found)
        return found

    async def _ask(self, url: str) -> str | None:
        try:
            async with httpx.AsyncClient(
                timeout=self.timeout, transport=self._transport, follow_redirects=False
            ) as client:
                response = await client.get(url)
        except httpx.TimeoutException:
            return f"{_site(url)} did not answer within {self.timeout:g} s"
        except httpx.HTTPError as exc:
            return f"{_site(url)} cannot be reached ({type(exc).__name__}: {exc})"
        if response.status_code >= 500:
            return f"{_site(url)} answered HTTP {response.status_code}"
        return None

    async def problems(self, spec: SourceSpec, settings: Settings) -> list[str]:
        """Why the outside APIs ``spec`` depends on do not answer (empty: they all do, or it
        names none, or none is configured)."""
        urls = []
        for setting, path in spec.probes:
            base = setting_value(settings, setting)
            if base:
                urls.append(str(base).rstrip("/") + path)
        found = await asyncio.gather(*(self.problem(url) for url in urls))
        return [p for p in found if p is not None]


def _site(url: str) -> str:
    parts = httpx.URL(url)
    return f"{parts.scheme}://{parts.netloc.decode()}"


REACHABILITY = Reachability()
"""The process's probes: `marsa servers` and /api/health share its minute-long memory."""
