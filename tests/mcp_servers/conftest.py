"""Fixtures shared by the MCP server tests."""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.helpers import free_port, running_process


@pytest.fixture(scope="module")
def chroma_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """``chroma run`` on a free port with its own persistence directory."""
    chroma = Path(sys.executable).with_name("chroma")
    path = tmp_path_factory.mktemp("chroma-server")
    port = free_port()
    env = {**os.environ, "ANONYMIZED_TELEMETRY": "False"}
    command = [str(chroma), "run", "--path", str(path), "--host", "127.0.0.1", "--port", str(port)]
    with running_process(command, f"http://127.0.0.1:{port}/api/v2/heartbeat", env, path):
        yield f"http://127.0.0.1:{port}"
