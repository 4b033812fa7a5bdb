"""Shared fixtures: every test gets its own data directory and no keys from the machine."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from backend.config import Settings, get_settings

PROVIDER_PREFIXES = ("OPENAI_", "ANTHROPIC_", "OLLAMA_", "TAVILY_")
"""Variables a model, embedder or search provider's client reads (keys, base URLs, orgs)."""
PROVIDER_VARS = ("GITHUB_TOKEN", "GH_TOKEN")
TEST_KNOBS = ("MARSA_TEST_PG", "MARSA_TEST_REDIS", "MARSA_ARTIFACTS_DIR")
"""Where the tests find PostgreSQL and Redis and put screenshots: no MARSA setting."""


def machine_settings(environ: dict[str, str]) -> list[str]:
    """The variables of ``environ`` that would change what MARSA or a provider does: every
    ``MARSA_*`` setting and every provider key, base URL or organisation."""
    return sorted(
        name
        for name in environ
        if (name.startswith("MARSA_") and name not in TEST_KNOBS)
        or name.startswith(PROVIDER_PREFIXES)
        or name in PROVIDER_VARS
    )


def pytest_configure(config: pytest.Config) -> None:
    """Before any fixture starts a server: the session's own environment is clean too."""
    for var in machine_settings(dict(os.environ)):
        del os.environ[var]


@pytest.fixture(autouse=True)
def isolated_env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """No test reads the developer's settings, keys or data directory."""
    for var in machine_settings(dict(os.environ)):
        monkeypatch.delenv(var, raising=False)
    data_dir = tmp_path / "marsa-data"
    monkeypatch.setenv("MARSA_DATA_DIR", str(data_dir))
    monkeypatch.chdir(tmp_path)
    get_settings.cache_clear()
    yield data_dir
    get_settings.cache_clear()


@pytest.fixture
def settings(isolated_env: Path) -> Settings:
    """Settings for a test: a fresh data directory, no keys."""
    return Settings(data_dir=isolated_env)


# How the two CI workers share the suite (scripts/test.sh: -n 2 --dist loadfile). xdist's
# loadfile gives whole files to a worker, largest test count first, so a package whose files
# share servers (a package-scoped fixture) was split between the workers and left between
# its files: each time, its servers stopped and started again (10-15 s each). And files with
# few but slow tests (real CLI runs, a cluster of processes) came last, one worker busy with
# them while the other had nothing left. Here a package whose files share servers is one
# unit of work, and the units go out slowest first.
ONE_UNIT = ("tests/backend/api/",)
"""Packages whose files share package-scoped servers (tests/backend/api/conftest.py)."""
SLOW_FIRST = (
    "tests/backend/api/",
    "tests/backend/test_research_cli.py",
    "tests/backend/test_cli.py",
    "tests/backend/workers/test_cluster.py",
    "tests/bench/test_cluster_bench.py",
    "tests/mcp_servers/test_store_replace.py",
    "tests/backend/graph/test_research_graph.py",
    "tests/backend/reasoning/test_llm_http_runs.py",
    "tests/mcp_servers/test_tavily_search.py",
    "tests/mcp_servers/test_document_store_transports.py",
)
"""Units measured slowest (pytest --durations), in that order; the rest follow by test count."""


def work_unit(nodeid: str) -> str:
    """The unit of work a test belongs to: its package for those in ONE_UNIT, else its file."""
    path = nodeid.split("::", 1)[0]
    return next((p for p in ONE_UNIT if path.startswith(p)), path)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Units in the order they should be handed out (each unit's tests keep their order)."""
    if getattr(config.option, "dist", "no") != "loadfile":
        return
    count: dict[str, int] = {}
    for item in items:
        count[work_unit(item.nodeid)] = count.get(work_unit(item.nodeid), 0) + 1

    def rank(item: pytest.Item) -> tuple[int, int]:
        unit = work_unit(item.nodeid)
        slow = next((i for i, p in enumerate(SLOW_FIRST) if unit.startswith(p)), len(SLOW_FIRST))
        return slow, -count[unit]

    items.sort(key=rank)  # stable: a unit's tests stay together and in order


@pytest.hookimpl(tryfirst=True)  # before xdist's own, which would answer first
def pytest_xdist_make_scheduler(config: pytest.Config, log: Any) -> Any:
    """For --dist loadfile: whole units (ONE_UNIT packages, other files) in the order
    pytest_collection_modifyitems gave them."""
    if config.getvalue("dist") != "loadfile":
        return None
    from xdist.scheduler import LoadFileScheduling

    class UnitScheduling(LoadFileScheduling):
        def _split_scope(self, nodeid: str) -> str:
            return work_unit(nodeid)

    config.option.loadscopereorder = False  # the collection's order, not by test count
    return UnitScheduling(config, log)
