"""A developer's shell never reaches a test: every MARSA_* setting and provider key is gone."""

from __future__ import annotations

import os

from backend.config import Settings
from tests.conftest import TEST_KNOBS, machine_settings

DEVELOPER_SHELL = {
    "MARSA_LLM": "openai:gpt-4o",
    "MARSA_EMBEDDER": "openai:text-embedding-3-small",
    "MARSA_API_TOKEN": "s3cret",
    "OPENAI_API_KEY": "sk-dev",
    "ANTHROPIC_API_KEY": "sk-ant-dev",
    "OPENAI_BASE_URL": "http://127.0.0.1:9/v1",
    "TAVILY_API_KEY": "tvly-dev",
    "GITHUB_TOKEN": "ghp-dev",
}


def test_every_marsa_setting_and_provider_variable_is_cleared() -> None:
    shell = {**DEVELOPER_SHELL, "PATH": "/usr/bin", "HOME": "/home/dev", "MARSA_TEST_PG": "pg"}
    assert machine_settings(shell) == sorted(DEVELOPER_SHELL)


def test_every_variable_a_setting_is_read_from_is_cleared() -> None:
    variables = set()
    for field, info in Settings.model_fields.items():
        alias = info.validation_alias
        choices = getattr(alias, "choices", None) or [f"MARSA_{field.upper()}"]
        variables |= {c for c in choices if isinstance(c, str)}
    assert set(machine_settings(dict.fromkeys(variables, "x"))) == variables - set(TEST_KNOBS)


def test_a_test_sees_the_defaults_not_the_developers_settings() -> None:
    # scripts/test.sh runs the suite with a developer's MARSA_LLM, OPENAI_API_KEY and
    # MARSA_EMBEDDER set, so this fails there if any of them gets through.
    assert machine_settings(dict(os.environ)) == ["MARSA_DATA_DIR"]
    settings = Settings()
    assert settings.llm is None
    assert settings.embedder == "minilm-onnx"
    assert settings.llm_api_key is None
