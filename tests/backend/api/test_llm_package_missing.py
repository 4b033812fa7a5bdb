"""MARSA_LLM names a provider whose package is not installed: the API says so on /api/health
with the fix, and runs go on with the offline engine, saying why."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.backend.api.conftest import ApiServer, api_server, ingest_corpus, read_sse

MODULE = "tests.backend.api.no_llm_package_serve"
FIX = "pip install langchain-openai"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ApiServer]:
    home: Path = tmp_path_factory.mktemp("no-llm-package")
    settings = {"llm": "openai-compatible:x", "llm_base_url": "http://127.0.0.1:9/v1"}
    with api_server(home, module=MODULE, **settings) as running:
        ingest_corpus(running)
        yield running


def test_health_is_degraded_and_names_the_package_to_install(server: ApiServer) -> None:
    health = server.client.get("/api/health").json()
    assert health["status"] == "degraded"
    assert health["engine"] == "offline"
    assert FIX in health["engine_note"] and "offline engine" in health["engine_note"]


def test_a_run_is_done_by_the_offline_engine_and_says_why(server: ApiServer) -> None:
    run = server.research()
    done = server.wait_status(run["id"], {"done", "failed"})
    assert done["status"] == "done", done.get("error")
    assert done["engine"] == "offline" and "full moon" in done["report"]
    assert [e for e in done["errors"] if FIX in e], done["errors"]
    trace = [
        e["data"] for e in read_sse(server.client, f"/api/research/{run['id']}/events").of("trace")
    ]
    fallbacks = [e for e in trace if e["kind"] == "fallback"]
    assert fallbacks and fallbacks[0]["data"] == {"engine": "offline", "fix": FIX}
