"""The Tavily client as MARSA uses it, and its failures translated into actionable ToolErrors.

tavily-python turns 429 into an exception without the Retry-After header and
maps 403, 432 and 433 to one ``ForbiddenError``; an httpx response hook records
the status and header of each exchange so the messages can tell them apart.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any, Protocol

import httpx
from fastmcp.exceptions import ToolError
from tavily import AsyncTavilyClient, BadRequestError, InvalidAPIKeyError, UsageLimitExceededError
from tavily.errors import ForbiddenError
from tavily.errors import TimeoutError as TavilyTimeoutError

from marsa_common.secrets import scrub
from mcp_servers.common.polite import retry_after_seconds
from mcp_servers.tavily_search.settings import WebSettings

KEY_HINT = (
    "set TAVILY_API_KEY in the environment of the web-search server, or put "
    "TAVILY_API_KEY=tvly-... in a .env file in its working directory "
    "(keys: https://app.tavily.com)"
)


class SearchClient(Protocol):
    """What the server needs from a Tavily client."""

    async def search(self, query: str, **kwargs: Any) -> dict[str, Any]: ...

    async def close(self) -> None: ...


ClientFactory = Callable[[WebSettings], SearchClient]


@dataclass
class _Exchange:
    status: int | None = None
    retry_after: str | None = None


_current_exchange: ContextVar[_Exchange | None] = ContextVar("tavily_exchange", default=None)


async def _remember_response(response: httpx.Response) -> None:
    exchange = _current_exchange.get()
    if exchange is not None:
        exchange.status = response.status_code
        exchange.retry_after = response.headers.get("retry-after")


class TavilySearch:
    """tavily-python's ``AsyncTavilyClient`` over an httpx client that records each response."""

    def __init__(self, settings: WebSettings):
        key = settings.tavily_api_key.get_secret_value() if settings.tavily_api_key else None
        self._http = httpx.AsyncClient(
            base_url=settings.tavily_base_url, event_hooks={"response": [_remember_response]}
        )
        self._tavily = AsyncTavilyClient(
            api_key=key, api_base_url=settings.tavily_base_url, client=self._http
        )

    async def search(self, query: str, **kwargs: Any) -> dict[str, Any]:
        """Tavily's POST /search."""
        return await self._tavily.search(query, **kwargs)

    async def close(self) -> None:
        """Release the connection pool (tavily-python leaves a passed-in client open)."""
        await self._http.aclose()


def _with_detail(message: str, exc: Exception) -> str:
    detail = str(exc).strip()
    return f"{message} (Tavily said: {detail})" if detail else message


def _explain(exc: Exception, exchange: _Exchange, settings: WebSettings) -> str | None:
    """An actionable message for a known failure, or None to let it propagate."""
    status = exchange.status
    if isinstance(exc, InvalidAPIKeyError) or (isinstance(exc, ForbiddenError) and status == 403):
        return _with_detail(
            f"Tavily rejected the API key (HTTP {status or 401}); check TAVILY_API_KEY: {KEY_HINT}",
            exc,
        )
    if isinstance(exc, ForbiddenError) and status == 433:
        return _with_detail(
            "Tavily refused the search: the pay-as-you-go spending limit is reached (HTTP 433); "
            "raise the limit at https://app.tavily.com or wait for it to reset",
            exc,
        )
    if isinstance(exc, ForbiddenError):
        return _with_detail(
            f"Tavily refused the search: the key's plan or usage limit is reached "
            f"(HTTP {status or 432}); upgrade the plan or wait for credits to renew, "
            "and prefer search_depth='basic' (it costs fewer credits)",
            exc,
        )
    if isinstance(exc, UsageLimitExceededError):
        seconds = retry_after_seconds(exchange.retry_after)
        when = f"retry after {seconds} s" if seconds is not None else "wait a minute and retry"
        return _with_detail(
            f"Tavily is rate limiting this key (HTTP 429); {when}, or lower "
            "MARSA_TAVILY_RATE_PER_MINUTE so this server stays under the limit",
            exc,
        )
    if isinstance(exc, TavilyTimeoutError):
        return (
            f"Tavily did not answer within {settings.tavily_timeout:g} s; retry, use "
            "search_depth='basic', or raise MARSA_TAVILY_TIMEOUT (at most 120 s)"
        )
    if isinstance(exc, BadRequestError):
        return _with_detail("Tavily rejected the arguments (HTTP 400); fix them and retry", exc)
    if isinstance(exc, httpx.HTTPStatusError):
        code = exc.response.status_code
        if code >= 500:
            return f"Tavily had a server error (HTTP {code}); retry in a minute"
        return f"Tavily answered HTTP {code} to the search; check MARSA_TAVILY_BASE_URL"
    if isinstance(exc, httpx.TransportError):
        return (
            f"Could not reach Tavily at {settings.tavily_base_url} ({type(exc).__name__}); "
            "check the network, a proxy (HTTPS_PROXY) or MARSA_TAVILY_BASE_URL"
        )
    if isinstance(exc, ValueError):  # a 200 whose body is not JSON
        return "Tavily returned a response that is not JSON; retry, or check MARSA_TAVILY_BASE_URL"
    return None


async def search_tavily(
    client: SearchClient, arguments: dict[str, Any], settings: WebSettings
) -> list[dict[str, Any]]:
    """Run one search; return Tavily's ``results`` list or raise an actionable ToolError."""
    exchange = _Exchange()
    token = _current_exchange.set(exchange)
    try:
        body = await client.search(**arguments, timeout=settings.tavily_timeout)
    except (
        InvalidAPIKeyError,
        ForbiddenError,
        UsageLimitExceededError,
        TavilyTimeoutError,
        BadRequestError,
        httpx.HTTPError,
        json.JSONDecodeError,
    ) as exc:
        message = _explain(exc, exchange, settings) or f"Tavily search failed: {exc}"
        raise ToolError(scrub(message, settings.secrets())) from exc
    finally:
        _current_exchange.reset(token)
    results = body.get("results") if isinstance(body, dict) else None
    if not isinstance(results, list) or not all(
        isinstance(item, dict) and item.get("url") for item in results
    ):
        raise ToolError("Tavily returned a response without a valid 'results' list; retry later")
    return results
