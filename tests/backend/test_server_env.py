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
from backend.mcp_client.registry import settings_for
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
PACKAGES = {"docs": "document_store", "web": "tavily_search", "github": "github_server"}


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


@pytest.mark.parametrize("name", ["docs", "web", "github"])
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


@pytest.mark.parametrize("name", ["docs", "web", "github"])
def test_every_setting_a_server_reads_is_in_its_allow_list(name: str) -> None:
    source = "\n".join(
        path.read_text() for path in (Path(REPO_ROOT) / "mcp_servers" / PACKAGES[name]).glob("*.py")
    )
    read = set(re.findall(r"settings\.(\w+)", source)) & set(Settings.model_fields)
    assert read, "the pattern found no setting: the test no longer sees what the server reads"
    assert read - set(settings_for(name)) == set()
