"""Shared fixtures: every test gets its own data directory and no keys from the machine."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

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
