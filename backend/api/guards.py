"""What the API checks before a route runs: the Host header, and the size of request bodies
as their bytes arrive."""

from __future__ import annotations

import ipaddress
import json
from collections.abc import Callable, Iterable

from starlette.types import ASGIApp, Message, Receive, Scope, Send

WILDCARD_BINDS = frozenset({"0.0.0.0", "::", ""})
"""``marsa serve --host`` values that name no single host a browser would ask for."""


def _ip(name: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    """``name`` as an IP address, an IPv4 address mapped into IPv6 (``::ffff:a.b.c.d``, how a
    dual-stack socket reports an IPv4 connection) as the IPv4 one; None for a host name."""
    try:
        address = ipaddress.ip_address(name)
    except ValueError:
        return None
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        return address.ipv4_mapped
    return address


def host_name(header: str) -> str:
    """The host of a Host header (or of a ``--host`` or allowed-hosts value), without its
    port, lower case, IPv6 without brackets; an IP address in its canonical form.

    An IPv6 literal with a port is written ``[addr]:port``; a value with more than one ``:``
    and no brackets is a bare IPv6 address (``::1``, ``fe80::1``), not a name and a port.
    """
    value = header.strip().lower()
    if value.startswith("["):
        value = value[1:].split("]", 1)[0]
    elif value.count(":") == 1:
        name, _, port = value.partition(":")
        if name and port.isdigit():
            value = name
    value = value.rstrip(".")
    address = _ip(value)
    return str(address) if address is not None else value


def allowed_host_names(hosts: Iterable[str], serve_host: str | None = None) -> frozenset[str]:
    """The configured host names (and the one ``marsa serve --host`` binds), normalized."""
    names = {host_name(h) if h.strip() != "*" else "*" for h in hosts}
    if serve_host is not None and host_name(serve_host) not in WILDCARD_BINDS:
        names.add(host_name(serve_host))
    return frozenset(n for n in names if n)


def host_allowed(header: str, allowed: frozenset[str], local_address: str | None) -> bool:
    """Whether a request's Host header names this server.

    A browser sends the name it resolved: a page on ``attacker.example`` whose DNS now points
    at 127.0.0.1 (DNS rebinding) arrives with ``Host: attacker.example``, which is refused.
    An IP address that is the address the connection came in on is allowed too: a browser
    asked for that address itself, so no other site's name is involved (this is what lets
    ``marsa serve --host 0.0.0.0`` or ``--host ::`` answer on the machine's own addresses).
    ``allowed`` holds ``host_name`` values, so IP addresses compare in canonical form.
    """
    name = host_name(header)
    if not name:
        return False
    if "*" in allowed or name in allowed:
        return True
    if any(a.startswith("*.") and name.endswith(a[1:]) for a in allowed):
        return True
    address = _ip(name)
    return address is not None and local_address is not None and address == _ip(local_address)


class BodyTooLarge(Exception):
    """A request body passed its route's limit (HTTP 413)."""


async def _send_json(send: Send, status: int, detail: str) -> None:
    body = json.dumps({"detail": detail}).encode()
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(body)).encode()),
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})


class BodyLimit:
    """ASGI middleware: count each request body's bytes as they arrive and answer 413 as soon
    as the route's limit is passed, whatever Content-Length or Transfer-Encoding say.

    ``limit_for(path)`` gives the limit and the setting that raises it (or ""). A declared
    Content-Length over the limit is refused before the route runs. Otherwise the route reads
    through a counting ``receive``; once the count passes the limit, ``receive`` raises
    ``BodyTooLarge`` (nothing more reaches the route, nothing more is parsed or spooled to
    disk) and whatever the route answers instead is replaced by the 413.
    """

    def __init__(self, app: ASGIApp, limit_for: Callable[[str], tuple[int, str]]) -> None:
        self.app = app
        self.limit_for = limit_for

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        limit, setting = self.limit_for(scope["path"])
        detail = f"request body larger than {limit:,} bytes" + (f" ({setting})" if setting else "")
        declared = dict(scope["headers"]).get(b"content-length", b"")
        if declared.isdigit() and int(declared) > limit:
            await _send_json(send, 413, detail)
            return
        received = 0
        exceeded = started = False

        async def counting_receive() -> Message:
            nonlocal received, exceeded
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > limit:
                    exceeded = True
                    raise BodyTooLarge(detail)
            return message

        async def guarded_send(message: Message) -> None:
            nonlocal started
            if exceeded and not started:
                return  # the route's answer to a body it could not read: the 413 replaces it
            started = started or message["type"] == "http.response.start"
            await send(message)

        try:
            await self.app(scope, counting_receive, guarded_send)
        except BodyTooLarge:
            if started:
                raise  # too late to answer 413: let the server log it and close
        if exceeded and not started:
            await _send_json(send, 413, detail)
