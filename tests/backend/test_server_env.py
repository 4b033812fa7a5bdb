"""Each built-in stdio server gets its own settings and key and no other server's: read from
/proc/<pid>/environ of the real processes the hub starts with every key set."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
from pydantic import SecretStr

from backend.config import Settings
from backend.mcp_client import SERVERS, MCPHub
from backend.mcp_client.registry import _variable, server_env, settings_for
from mcp_servers.common.settings import ServerSettings
from mcp_servers.document_store.settings import DocsSettings
from mcp_servers.github_server.settings import GithubSettings
from mcp_servers.scholarly.settings import ScholarlySettings
from mcp_servers.searxng.settings import SearxngSettings
from mcp_servers.tavily_search.settings import WebSettings
from tests.helpers import REPO_ROOT

KEYS = {
    "tavily_api_key": "tvly-only-for-web",
    "github_token": "ghp-only-for-github",
    "embedder_api_key": "sk-only-for-docs",
    "llm_api_key": "sk-for-no-server",
    "api_token": "api-token-for-no-server",
}
OWN = {"docs": "embedder_api_key", "web": "tavily_api_key", "github": "github_token"}
OWN_VARIABLE = {"docs": "MARSA_EMBEDDER_API_KEY", "web": "TAVILY_API_KEY", "github": "GITHUB_TOKEN"}
PACKAGES = {
    "docs": "document_store",
    "web": "tavily_search",
    "github": "github_server",
    "scholarly": "scholarly",
    "searxng": "searxng",
}
SERVER_SETTINGS: dict[str, type[ServerSettings]] = {
    "docs": DocsSettings,
    "web": WebSettings,
    "github": GithubSettings,
    "scholarly": ScholarlySettings,
    "searxng": SearxngSettings,
}
NAMES = list(SERVER_SETTINGS)


@pytest.fixture(autouse=True)
def repo_on_pythonpath(monkeypatch: pytest.MonkeyPatch) -> None:
    """Built-in servers get PYTHONPATH from the environment (registry.server_env)."""
    monkeypatch.setenv("PYTHONPATH", REPO_ROOT)


def environ_of_child(module: str) -> dict[str, str]:
    """The environment of this process's one live child running ``module``."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            ppid = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
            cmdline = (entry / "cmdline").read_bytes().split(b"\0")
            environ = (entry / "environ").read_bytes()
        except OSError:
            continue  # the process ended while we looked
        if ppid == os.getpid() and module.encode() in cmdline:
            found.append(environ)
    assert len(found) == 1, f"{len(found)} processes run {module}"
    pairs = (item.partition(b"=") for item in found[0].split(b"\0") if item)
    return {k.decode(): v.decode() for k, _, v in pairs}


@pytest.mark.parametrize("name", ["docs", "web", "github"])  # the servers with a key
async def test_a_stdio_server_holds_its_own_key_and_no_other(settings: Settings, name: str) -> None:
    keyed = settings.model_copy(
        update={
            **{field: SecretStr(value) for field, value in KEYS.items()},
            "github_base_url": "http://127.0.0.1:9",  # nothing leaves the machine
            "tavily_base_url": "http://127.0.0.1:9",
        }
    )
    async with MCPHub(keyed, servers=[name]) as hub:
        assert hub.available() == [name]
        environ = environ_of_child(SERVERS[name].module)
    own = KEYS[OWN[name]]
    others = [value for field, value in KEYS.items() if field != OWN[name]]
    assert environ[OWN_VARIABLE[name]] == own
    assert set(OWN_VARIABLE.values()) & set(environ) == {OWN_VARIABLE[name]}
    assert [v for v in others if any(v in shown for shown in environ.values())] == []


@pytest.mark.parametrize("name", NAMES)
def test_every_setting_a_server_reads_is_in_its_allow_list(name: str) -> None:
    source = "\n".join(
        path.read_text() for path in (Path(REPO_ROOT) / "mcp_servers" / PACKAGES[name]).glob("*.py")
    )
    fields = set(Settings.model_fields) | set(SERVER_SETTINGS[name].model_fields)
    read = set(re.findall(r"settings\.(\w+)", source)) & fields
    assert read, "the pattern found no setting: the test no longer sees what the server reads"
    assert read - set(settings_for(name)) == set()


@pytest.mark.parametrize("name", NAMES)
def test_a_source_module_declares_exactly_its_servers_own_settings(name: str) -> None:
    assert set(settings_for(name)) == set(SERVER_SETTINGS[name].model_fields)


@pytest.mark.parametrize("name", NAMES)
def test_the_client_and_the_server_read_a_setting_from_the_same_variable(name: str) -> None:
    server = SERVER_SETTINGS[name]
    for field in settings_for(name):
        alias = server.model_fields[field].validation_alias
        expected = alias.choices[0] if alias is not None else f"MARSA_{field.upper()}"  # type: ignore[union-attr]
        assert _variable(field) == expected


def _every_setting_set(settings: Settings) -> Settings:
    """Settings with every optional value given, so nothing is left out for being unset."""
    update: dict[str, object] = {}
    for field, info in Settings.model_fields.items():
        if getattr(settings, field) is None:
            kind = str(info.annotation)
            if "SecretStr" in kind:
                update[field] = SecretStr("x")
            elif "Path" in kind:
                update[field] = Path("/x")
            elif "str" in kind:
                update[field] = "x"
    return settings.model_copy(update=update)


@pytest.mark.parametrize("name", NAMES)
def test_a_stdio_servers_environment_holds_only_its_own_settings_variables(
    settings: Settings, name: str
) -> None:
    env = server_env(name, _every_setting_set(settings))
    own = {_variable(field) for field in SERVER_SETTINGS[name].model_fields}
    every = {_variable(field) for field in Settings.model_fields}
    assert {var for var in env if var in every or var.startswith("MARSA_")} == own


@pytest.mark.parametrize("name", NAMES)
def test_a_servers_settings_read_the_variables_and_defaults_docs_configuration_lists(
    name: str,
) -> None:
    for field, info in SERVER_SETTINGS[name].model_fields.items():
        listed = Settings.model_fields[field]  # docs/configuration.md is generated from these
        assert info.validation_alias == listed.validation_alias, field
        assert info.get_default(call_default_factory=True) == listed.get_default(
            call_default_factory=True
        ), field
