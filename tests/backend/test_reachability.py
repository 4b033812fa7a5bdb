"""Health tells the truth about outside APIs: a server whose process is up but whose API does
not answer is degraded, with the reason (backend/mcp_client/reachability.py)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from backend.config import Settings
from backend.mcp_client.health import probe_server
from backend.mcp_client.reachability import Reachability
from backend.sources import BUILTINS
from tests.fakes.github_api import FakeGitHub
from tests.fakes.searxng_api import FakeSearxng
from tests.helpers import free_port


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def github() -> Iterator[FakeGitHub]:
    fake = FakeGitHub().start()
    yield fake
    fake.stop()


@pytest.fixture
def searxng() -> Iterator[FakeSearxng]:
    fake = FakeSearxng().start()
    yield fake
    fake.stop()


async def test_an_api_that_answers_is_no_problem(searxng: FakeSearxng) -> None:
    assert await Reachability().problem(f"{searxng.url}/healthz") is None


async def test_a_closed_port_is_a_problem_naming_the_site() -> None:
    url = f"http://127.0.0.1:{free_port()}"
    problem = await Reachability().problem(f"{url}/rate_limit")
    assert problem is not None and problem.startswith(f"{url} cannot be reached (ConnectError")


async def test_an_api_answering_a_server_error_is_a_problem(searxng: FakeSearxng) -> None:
    searxng.status = 503
    assert await Reachability().problem(f"{searxng.url}/search") == (
        f"{searxng.url} answered HTTP 503"
    )


async def test_an_answer_is_remembered_until_its_time_to_live_passes(
    searxng: FakeSearxng,
) -> None:
    clock = Clock()
    reach = Reachability(ttl=60, clock=clock)
    url = f"{searxng.url}/healthz"
    assert await reach.problem(url) is None
    searxng.status = 503
    clock.now += 59
    assert await reach.problem(url) is None
    clock.now += 2
    assert await reach.problem(url) is not None
    assert len(searxng.requests) == 2


async def test_a_source_asks_the_api_its_settings_point_at(searxng: FakeSearxng) -> None:
    settings = Settings(searxng_url=searxng.url)
    assert await Reachability().problems(BUILTINS["searxng"], settings) == []
    assert [r.path for r in searxng.requests] == ["/healthz"]


async def test_a_source_whose_api_is_not_configured_asks_nothing() -> None:
    assert await Reachability().problems(BUILTINS["searxng"], Settings()) == []


async def test_github_whose_api_answers_is_up(settings: Settings, github: FakeGitHub) -> None:
    health = await probe_server(
        "github", settings.model_copy(update={"github_base_url": github.url}), reach=Reachability()
    )
    assert health.status == "up"


async def test_github_whose_api_cannot_be_reached_is_degraded_with_the_reason(
    settings: Settings,
) -> None:
    unreachable = f"http://127.0.0.1:{free_port()}"
    health = await probe_server(
        "github",
        settings.model_copy(update={"github_base_url": unreachable}),
        reach=Reachability(),
    )
    assert health.status == "degraded"
    assert f"{unreachable} cannot be reached" in health.note
    assert "search_code" in health.tools  # the process itself answered
