"""Shared fixtures: every test gets its own data directory and no keys from the machine."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from backend.config import Settings, get_settings

_KEY_VARS = ("TAVILY_API_KEY", "MARSA_TAVILY_API_KEY", "GITHUB_TOKEN", "MARSA_GITHUB_TOKEN")


@pytest.fixture(autouse=True)
def isolated_env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """No test reads the developer's keys or data directory."""
    for var in _KEY_VARS:
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
