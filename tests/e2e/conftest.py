"""Browser tests: the real `marsa serve` as a subprocess, driven by Debian's Chromium.

Playwright never downloads a browser here: it launches /usr/bin/chromium. When that is
missing the tests skip (saying why) on a developer's machine and fail under CI (``CI`` set).

The server also runs the gate search server (tests/fakes/gate_search_server.py) as an extra
MCP server named "gate": while ``Server.gate`` exists, a search there waits, holding the run.
"""

from __future__ import annotations

import asyncio
import os
import sys
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import pytest

from backend.config import Settings
from backend.persistence import RunRecord, RunStore, database_target
from backend.persistence.runs import now_iso
from backend.trace import Tracer
from tests.helpers import REPO_ROOT, free_port, gate_mcp_config, running_process, serve_env

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--disable-background-networking",
]

# Three short documents about one topic, so a question about tides has material to cite.
TIDE_DOCS = [
    {
        "title": "Tides and the Moon",
        "content": "# Tides and the Moon\n\nOcean tides are caused mainly by the gravitational "
        "pull of the Moon on the Earth's oceans. The Moon's gravity pulls water toward it, "
        "creating a bulge on the side facing the Moon. A second bulge forms on the opposite "
        "side because of inertia. Most coasts see two high tides and two low tides every "
        "lunar day of about 24 hours and 50 minutes.",
        "source_url": "https://example.org/tides-moon",
        "published_date": "2024-03-01",
    },
    {
        "title": "The Sun and spring tides",
        "content": "# The Sun and spring tides\n\nThe Sun also raises tides, but its effect is "
        "about 46 percent of the Moon's because it is much farther away. When the Sun and "
        "Moon line up at new and full moon, their pulls add together and produce spring "
        "tides with the largest range. At quarter moons they pull at right angles and "
        "produce neap tides with the smallest range.",
        "published_date": "2025-01-15",
    },
    {
        "title": "Coastline shape and tidal range",
        "content": "# Coastline shape and tidal range\n\nThe shape of the coastline and the "
        "depth of the sea floor change how large tides are. The Bay of Fundy in Canada has "
        "the largest tidal range in the world, over 16 metres, because the bay resonates "
        "with the tide. Enclosed seas like the Mediterranean have very small tides.",
        "published_date": "2023-06-10",
    },
]


@dataclass
class Server:
    """A running `marsa serve` and an HTTP client for setting things up."""

    url: str
    client: httpx.Client
    gate: Path
    """While this file exists, a search on the "gate" MCP server waits."""
    data_dir: Path
    """The server's MARSA_DATA_DIR (its runs database is the SQLite file in it)."""

    def research(self, query: str, **options: Any) -> str:
        """Start a run through the API; return its id."""
        response = self.client.post("/api/research", json={"query": query, **options})
        assert response.status_code == 202, response.text
        return str(response.json()["id"])


@dataclass
class PageProblems:
    """What went wrong in the page: console errors, uncaught errors, dialogs."""

    console: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    dialogs: list[str] = field(default_factory=list)
    accept_dialogs: bool = False


@contextmanager
def marsa_server(home: Path, **settings: str) -> Iterator[Server]:
    """`marsa serve` on a free port with its own data directory and the tide documents.

    ``settings`` become MARSA_<NAME> variables (e.g. api_token="s3cret").
    """
    config, gate = gate_mcp_config(home)
    env = serve_env(home, mcp_config=str(config), **settings)
    headers = (
        {"Authorization": f"Bearer {settings['api_token']}"} if "api_token" in settings else {}
    )
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    command = [
        sys.executable,
        "-m",
        "backend.cli",
        "serve",
        "--host",
        "127.0.0.1",
        "--port",
        str(port),
    ]
    with (
        running_process(command, f"{url}/openapi.json", env),
        httpx.Client(base_url=url, timeout=60, headers=headers) as client,
    ):
        for doc in TIDE_DOCS:
            response = client.post("/api/documents", json=doc)
            assert response.status_code == 201, response.text
        yield Server(url=url, client=client, gate=gate, data_dir=home / "data")


def store_run(
    server: Server,
    query: str,
    result: dict[str, Any],
    middle: tuple[tuple[str, str, str, dict[str, Any]], ...] = (),
) -> str:
    """A finished run written into the server's runs database, as `marsa research` keeps
    one: for what the offline engine does not produce on demand (a "not found" answer,
    claims quoting Markdown, an LLM's calls). ``middle`` are (node, kind, message, data)
    between its start and end. Returns its id."""
    tracer = Tracer()
    events = [
        tracer.emit("run", "run_start", f"research: {query}", query=query),
        *(tracer.emit(node, kind, message, **data) for node, kind, message, data in middle),
        tracer.emit("run", "run_end", "run done", status="done"),
    ]
    record = RunRecord(
        id=tracer.run_id,
        query=query,
        status="done",
        options={"sources": ["docs"], "max_iterations": 2, "review_plan": False},
        created_at=now_iso(),
        updated_at=now_iso(),
        result={**result, "run_id": tracer.run_id},
        answer=result.get("answer"),
        answer_found=result.get("answer_found"),
    )

    async def write() -> None:
        store = RunStore(database_target(Settings(data_dir=server.data_dir)))
        await store.open()
        try:
            await store.add_finished(record, events)
        finally:
            await store.close()

    # In a thread of its own: Playwright's sync API keeps an event loop running in this one.
    with ThreadPoolExecutor(max_workers=1) as pool:
        pool.submit(asyncio.run, write()).result()
    return tracer.run_id


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """One server per test module; each test adds only its own runs and documents."""
    with marsa_server(tmp_path_factory.mktemp("e2e")) as running:
        yield running


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """Debian's Chromium, headless, launched by Playwright (which downloads nothing)."""
    if not Path(CHROMIUM).exists():
        reason = f"{CHROMIUM} is missing: install Debian's chromium package to run browser tests"
        if os.environ.get("CI"):
            pytest.fail(reason)
        pytest.skip(reason)
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield launched
        launched.close()


@pytest.fixture
def problems() -> PageProblems:
    return PageProblems()


@pytest.fixture
def page(browser: Any, problems: PageProblems) -> Iterator[Any]:
    """A fresh desktop-sized page that records console errors, page errors and dialogs."""
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    tab = context.new_page()
    tab.set_default_timeout(30_000)
    watch(tab, problems)
    yield tab
    context.close()


def watch(tab: Any, problems: PageProblems) -> None:
    """Record the page's console errors, uncaught errors and dialogs in ``problems``."""
    tab.on("console", lambda m: problems.console.append(m.text) if m.type == "error" else None)
    tab.on("pageerror", lambda exc: problems.errors.append(str(exc)))

    def dialog(d: Any) -> None:
        problems.dialogs.append(f"{d.type}: {d.message}")
        if problems.accept_dialogs:
            d.accept()
        else:
            d.dismiss()

    tab.on("dialog", dialog)


@pytest.fixture(scope="session")
def artifacts() -> Path:
    """Where screenshots go: MARSA_ARTIFACTS_DIR, or test-artifacts/screenshots/."""
    target = Path(
        os.environ.get("MARSA_ARTIFACTS_DIR") or Path(REPO_ROOT) / "test-artifacts" / "screenshots"
    )
    target.mkdir(parents=True, exist_ok=True)
    return target
