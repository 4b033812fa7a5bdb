"""MARSA_API_TOKEN over real HTTP: only 'Authorization: Bearer <token>' carries it, for
every method; another scheme in front of the right token is no token at all."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from tests.backend.api.conftest import API_TOKEN as TOKEN
from tests.backend.api.conftest import QUESTION, ApiServer

UNKNOWN_RUN = "0123456789ab"

# One route per method, each answering something other than 401 once the token is accepted.
REQUESTS: list[tuple[str, str, dict[str, Any] | None]] = [
    ("GET", "/api/research", None),
    ("POST", "/api/research", {"query": QUESTION, "sources": ["docs"], "review_plan": True}),
    ("POST", f"/api/research/{UNKNOWN_RUN}/cancel", None),
    ("DELETE", f"/api/research/{UNKNOWN_RUN}", None),
]
IDS = [f"{method} {path}" for method, path, _ in REQUESTS]


def _send(server: ApiServer, method: str, path: str, body: Any, authorization: str) -> int:
    with httpx.Client(base_url=server.url, timeout=30) as bare:
        response = bare.request(method, path, json=body, headers={"Authorization": authorization})
    return response.status_code


@pytest.mark.parametrize("scheme", ["Basic", "Xyz", "Token", "Digest"])
@pytest.mark.parametrize(("method", "path", "body"), REQUESTS, ids=IDS)
def test_the_right_token_under_another_scheme_is_refused(
    token_server: ApiServer, method: str, path: str, body: Any, scheme: str
) -> None:
    assert _send(token_server, method, path, body, f"{scheme} {TOKEN}") == 401


@pytest.mark.parametrize("scheme", ["Bearer", "bearer"])
@pytest.mark.parametrize(("method", "path", "body"), REQUESTS, ids=IDS)
def test_the_token_as_bearer_is_accepted_in_any_case(
    token_server: ApiServer, method: str, path: str, body: Any, scheme: str
) -> None:
    assert _send(token_server, method, path, body, f"{scheme} {TOKEN}") in {200, 202, 404}
