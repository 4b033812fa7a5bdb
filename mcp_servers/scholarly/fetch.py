"""One polite GET to OpenAlex or arXiv: spaced by the source's rate limit, answered from
nowhere else, and every failure turned into a message a caller can act on."""

from __future__ import annotations

import math
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

import httpx
from fastmcp.exceptions import ToolError

from mcp_servers.common.polite import RequestSpacer, TooSoon, retry_after_seconds
from mcp_servers.scholarly.models import Source

Sleep = Callable[[float], Awaitable[Any]]
PASSED_THROUGH = (200, 400, 404)
"""Statuses the source modules read themselves (results, a refused query, no such paper)."""


class SourceError(ToolError):
    """A source could not answer; the message says what to do."""

    def __init__(self, source: Source, message: str):
        super().__init__(message)
        self.source = source


@dataclass
class SourceApi:
    """How to reach one source politely, and what to call it in messages."""

    source: Source
    label: str
    base_url: str
    url_variable: str
    rate_variable: str
    rate_hint: str
    spacer: RequestSpacer
    sleep: Sleep
    timeout: float

    def fail(self, message: str) -> SourceError:
        """A SourceError of this source."""
        return SourceError(self.source, message)

    async def get(
        self, client: httpx.AsyncClient, url: str, params: dict[str, Any] | None = None
    ) -> httpx.Response:
        """GET ``url`` in turn; a response with a status in ``PASSED_THROUGH``, or a
        SourceError."""
        try:
            wait = self.spacer.reserve()
        except TooSoon as exc:
            hint = (
                f"raise {self.rate_variable} if you are sure {self.label} allows more"
                if exc.reason.startswith("this server")
                else f"{self.label} answered 429 (too many requests) earlier"
            )
            raise self.fail(
                f"{self.label}: {exc.reason}, so the request was not sent; retry in "
                f"{math.ceil(exc.retry_after)} s ({hint}). Earlier results are cached."
            ) from exc
        if wait > 0:
            await self.sleep(wait)
        try:
            response = await client.get(url, params=params, timeout=self.timeout)
        except httpx.TimeoutException as exc:
            raise self.fail(
                f"{self.label} did not answer within {self.timeout:g} s; retry, or raise "
                "MARSA_SCHOLARLY_TIMEOUT"
            ) from exc
        except httpx.TransportError as exc:
            raise self.fail(
                f"Could not reach {self.label} at {self.base_url} ({type(exc).__name__}); "
                f"check the network, a proxy (HTTPS_PROXY) or {self.url_variable}"
            ) from exc
        status = response.status_code
        if status in PASSED_THROUGH:
            return response
        if status == 429:
            seconds = retry_after_seconds(response.headers.get("retry-after"))
            if seconds is not None:
                self.spacer.back_off(seconds)
            when = f"retry after {seconds} s" if seconds is not None else "wait a minute, retry"
            raise self.fail(
                f"{self.label} is rate limiting this server (HTTP 429); {when}. {self.rate_hint}"
            )
        if status >= 500:
            raise self.fail(f"{self.label} had a server error (HTTP {status}); retry in a minute")
        raise self.fail(f"{self.label} answered HTTP {status}; check {self.url_variable}")
