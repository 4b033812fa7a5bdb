"""The application's own checks, in process (no lifespan, no MCP servers): the Host header,
and errors nobody expected."""

from __future__ import annotations

import logging

import httpx
import pytest
from fastapi import FastAPI

from backend.api.guards import allowed_host_names, host_name
from backend.api.main import create_app
from backend.config import Settings


async def _get(
    app: FastAPI, url: str, path: str = "/openapi.json", host: str | None = None
) -> httpx.Response:
    """GET ``path``; httpx's ASGI transport reports ``url``'s host as the server's address,
    as uvicorn reports the address the connection came in on. ``host`` overrides the Host
    header the URL would give."""
    transport = httpx.ASGITransport(app=app, raise_app_exceptions=False)
    headers = {"host": host} if host is not None else {}
    async with httpx.AsyncClient(transport=transport, base_url=url) as client:
        return await client.get(path, headers=headers)


@pytest.mark.parametrize(
    "url",
    ["http://localhost:8000", "http://127.0.0.1:8765", "http://[::1]:8000", "http://LOCALHOST"],
)
async def test_the_local_host_names_are_answered_by_default(settings: Settings, url: str) -> None:
    assert (await _get(create_app(settings), url)).status_code == 200


async def test_a_host_name_that_was_not_allowed_is_refused_with_the_setting_to_change(
    settings: Settings,
) -> None:
    response = await _get(create_app(settings), "http://attacker.example:8765")
    assert response.status_code == 400
    assert response.headers["content-type"] == "application/json"
    assert "'attacker.example:8765'" in response.json()["detail"]
    assert "MARSA_ALLOWED_HOSTS" in response.json()["detail"]


async def test_allowed_hosts_replace_the_default_list(settings: Settings) -> None:
    app = create_app(settings.model_copy(update={"allowed_hosts": ["marsa.internal", "*.lan"]}))
    assert (await _get(app, "http://marsa.internal:8000")).status_code == 200
    assert (await _get(app, "http://box.lan")).status_code == 200
    assert (await _get(app, "http://localhost:8000")).status_code == 400


async def test_the_host_marsa_serve_binds_is_answered(settings: Settings) -> None:
    app = create_app(settings, serve_host="marsa-box.example")
    assert (await _get(app, "http://marsa-box.example:8000")).status_code == 200


async def test_binding_every_interface_does_not_allow_every_host(settings: Settings) -> None:
    app = create_app(settings, serve_host="0.0.0.0")
    assert (await _get(app, "http://attacker.example:8000")).status_code == 400


async def test_an_ip_address_the_server_was_reached_on_is_answered(settings: Settings) -> None:
    # httpx's ASGI transport reports the URL's host as the server's address, as uvicorn
    # reports the address the connection came in on.
    assert (await _get(create_app(settings), "http://192.0.2.7:8000")).status_code == 200


async def test_an_ipv6_host_marsa_serve_binds_is_answered(settings: Settings) -> None:
    app = create_app(settings.model_copy(update={"allowed_hosts": []}), serve_host="fe80::1")
    # Reached on another address, so only the --host value can allow it.
    assert (await _get(app, "http://192.0.2.7:8000", host="[fe80::1]:8000")).status_code == 200
    assert (await _get(app, "http://192.0.2.7:8000", host="[fe80::]:8000")).status_code == 400


def test_a_bare_ipv6_address_keeps_every_colon() -> None:
    assert host_name("::1") == "::1"
    assert host_name("FE80::1") == "fe80::1"
    assert host_name("[::1]:8000") == "::1"
    assert allowed_host_names(["localhost"], "::1") == {"localhost", "::1"}


async def test_an_allowed_ipv6_address_matches_however_it_is_written(settings: Settings) -> None:
    app = create_app(settings.model_copy(update={"allowed_hosts": ["0:0::1"]}))
    assert (await _get(app, "http://192.0.2.7:8000", host="[::1]:8000")).status_code == 200


async def test_an_ipv6_address_the_server_was_reached_on_is_answered(settings: Settings) -> None:
    app = create_app(settings, serve_host="::")
    assert (await _get(app, "http://[2001:db8::7]:8000")).status_code == 200
    assert (await _get(app, "http://[2001:db8::7]")).status_code == 200


async def test_an_ipv4_client_of_a_dual_stack_socket_is_answered(settings: Settings) -> None:
    # On a socket bound to '::', an IPv4 connection's local address is '::ffff:a.b.c.d'.
    app = create_app(settings, serve_host="::")
    response = await _get(app, "http://[::ffff:192.0.2.7]:8000", host="192.0.2.7:8000")
    assert response.status_code == 200


async def test_another_address_than_the_one_reached_on_is_refused(settings: Settings) -> None:
    app = create_app(settings, serve_host="::")
    assert (await _get(app, "http://[2001:db8::7]:8000", host="[2001:db8::8]")).status_code == 400


async def test_an_unexpected_error_is_answered_as_json_and_logged(
    settings: Settings, caplog: pytest.LogCaptureFixture
) -> None:
    app = create_app(settings)

    @app.get("/api/boom")
    async def boom() -> None:
        raise RuntimeError("the disk caught fire")

    with caplog.at_level(logging.ERROR, logger="marsa.api"):
        response = await _get(app, "http://127.0.0.1:8000", "/api/boom")
    assert response.status_code == 500
    assert response.json() == {
        "detail": "internal error (RuntimeError); the server's log has the details"
    }
    logged = [r for r in caplog.records if r.name == "marsa.api"]
    assert logged and logged[0].exc_info is not None
    assert "GET /api/boom" in logged[0].getMessage()


def test_allowed_hosts_are_read_comma_separated_or_as_json(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("MARSA_ALLOWED_HOSTS", "localhost, api")
    assert Settings().allowed_hosts == ["localhost", "api"]
    monkeypatch.setenv("MARSA_ALLOWED_HOSTS", '["api", "[::1]"]')
    assert Settings().allowed_hosts == ["api", "[::1]"]
    monkeypatch.setenv("MARSA_ALLOWED_HOSTS", " [ ] ")
    assert Settings().allowed_hosts == []


def test_allowed_hosts_read_comma_separated_may_start_with_a_bracketed_ipv6_address(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("MARSA_ALLOWED_HOSTS", "[::1],localhost")
    assert Settings().allowed_hosts == ["[::1]", "localhost"]
    monkeypatch.setenv("MARSA_ALLOWED_HOSTS", "[::1]")
    assert Settings().allowed_hosts == ["[::1]"]
