"""SearXNG's JSON search API over httpx, and its failures as messages a caller can act on.

SearXNG answers ``format=json`` only when its ``settings.yml`` lists ``json`` under
``search: formats``; otherwise it answers 403. Its bot limiter answers 429.
"""

from __future__ import annotations

import math
from collections.abc import Awaitable, Callable
from typing import Any

import httpx
from fastmcp.exceptions import ToolError

from mcp_servers.common.polite import RequestSpacer, TooSoon, retry_after_seconds
from mcp_servers.searxng.models import SearchRequest
from mcp_servers.searxng.settings import SearxngSettings

NOT_CONFIGURED = (
    "Key-free web search is not configured: set MARSA_SEARXNG_URL to the root URL of a SearXNG "
    "instance, e.g. http://127.0.0.1:8888 (`docker run -p 8888:8080 searxng/searxng`), whose "
    "settings.yml lists json under search: formats."
)


async def fetch_results(
    client: httpx.AsyncClient,
    settings: SearxngSettings,
    spacer: RequestSpacer,
    request: SearchRequest,
    sleep: Callable[[float], Awaitable[Any]],
) -> dict[str, Any]:
    """GET <url>/search?format=json in turn; SearXNG's JSON body, or an actionable ToolError."""
    base = (settings.searxng_url or "").rstrip("/")
    try:
        wait = spacer.reserve()
    except TooSoon as exc:
        hint = (
            "raise MARSA_SEARXNG_RATE_PER_MINUTE if the instance allows more"
            if exc.reason.startswith("this server")
            else "the instance answered 429 (too many requests) earlier"
        )
        raise ToolError(
            f"SearXNG: {exc.reason}, so the search was not sent; retry in "
            f"{math.ceil(exc.retry_after)} s ({hint}). Earlier results are cached."
        ) from exc
    if wait > 0:
        await sleep(wait)
    try:
        response = await client.get(
            f"{base}/search", params=request.params(), timeout=settings.searxng_timeout
        )
    except httpx.TimeoutException as exc:
        raise ToolError(
            f"SearXNG at {base} did not answer within {settings.searxng_timeout:g} s (its "
            "engines may be slow); retry, or raise MARSA_SEARXNG_TIMEOUT"
        ) from exc
    except httpx.TransportError as exc:
        raise ToolError(
            f"Could not reach SearXNG at {base} ({type(exc).__name__}); check that the instance "
            "is running and MARSA_SEARXNG_URL is its root URL"
        ) from exc
    return _body(response, base, spacer)


def _body(response: httpx.Response, base: str, spacer: RequestSpacer) -> dict[str, Any]:
    status = response.status_code
    if status == 403:
        raise ToolError(
            f"The SearXNG instance at {base} refused format=json (HTTP 403): its JSON output is "
            "disabled. Add json to search: formats in its settings.yml (formats: [html, json]) "
            "and restart it, or set MARSA_SEARXNG_URL to an instance that allows it."
        )
    if status == 429:
        seconds = retry_after_seconds(response.headers.get("retry-after"))
        if seconds is not None:
            spacer.back_off(seconds)
        when = f"retry after {seconds} s" if seconds is not None else "wait a minute and retry"
        raise ToolError(
            f"The SearXNG instance at {base} is rate limiting this server (HTTP 429, its bot "
            f"limiter); {when}. On your own instance, turn server: limiter off or let this "
            "host through (botdetection pass_ip); or lower MARSA_SEARXNG_RATE_PER_MINUTE."
        )
    if status == 404:
        raise ToolError(
            f"{base}/search was not found (HTTP 404); set MARSA_SEARXNG_URL to the instance's "
            "root URL (the page with the search box)"
        )
    if status >= 500:
        raise ToolError(f"SearXNG at {base} had a server error (HTTP {status}); retry later")
    if status != 200:
        raise ToolError(f"SearXNG at {base} answered HTTP {status}; check MARSA_SEARXNG_URL")
    try:
        body = response.json()
    except ValueError:
        body = None
    if not isinstance(body, dict) or not isinstance(body.get("results"), list):
        kind = response.headers.get("content-type", "unknown type")
        raise ToolError(
            f"{base}/search answered with something other than SearXNG's JSON ({kind}); check "
            "that MARSA_SEARXNG_URL is a SearXNG instance's root URL"
        )
    return body
