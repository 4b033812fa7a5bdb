"""Nothing imports "upwards": the servers and the backend meet only in marsa_common.

Read from the source (the AST), so an import inside a function counts as much as one at the
top of a module.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from tests.helpers import REPO_ROOT

ROOT = Path(REPO_ROOT)

# The benchmark harness loads the document store in-process on purpose: retrieval latency
# measured without a transport, and a corpus bulk-loaded before the hub opens the same store.
# It runs only behind `marsa eval`, never in a research run, the API or a server.
HARNESS = "backend/evals/"


def _imports(package: str) -> list[tuple[str, str]]:
    """(file, imported module) for every import in every module under ``package``."""
    found = []
    for path in sorted((ROOT / package).rglob("*.py")):
        tree = ast.parse(path.read_text(), filename=str(path))
        rel = path.relative_to(ROOT).as_posix()
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                found += [(rel, alias.name) for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                found += [(rel, node.module)]
                found += [(rel, f"{node.module}.{alias.name}") for alias in node.names]
    return found


def _offending(package: str, forbidden: tuple[str, ...], allowed_files: str = "~") -> set[str]:
    return {
        f"{path} imports {module}"
        for path, module in _imports(package)
        if module.split(".")[0] in forbidden
        or any(module == f or module.startswith(f"{f}.") for f in forbidden)
        if not path.startswith(allowed_files)
    }


def test_no_server_module_imports_the_backend() -> None:
    assert _offending("mcp_servers", ("backend",)) == set()


def test_no_backend_module_imports_a_server() -> None:
    assert _offending("backend", ("mcp_servers",), allowed_files=HARNESS) == set()


def test_the_shared_package_imports_neither_side() -> None:
    assert _offending("marsa_common", ("backend", "mcp_servers")) == set()


@pytest.mark.parametrize(
    ("package", "forbidden"),
    [
        ("backend/reasoning", ("backend.graph", "backend.api", "backend.cli")),
        ("backend/api", ("backend.cli", "backend.research_cli", "backend.ingest_cli")),
        ("backend/scoring.py", ("backend.graph", "backend.reasoning", "backend.sources")),
    ],
)
def test_nothing_imports_upwards(package: str, forbidden: tuple[str, ...]) -> None:
    path = ROOT / package
    if path.is_file():
        tree = ast.parse(path.read_text())
        modules = [
            n.module for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) and n.module
        ] + [a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names]
        assert [m for m in modules if m.startswith(forbidden)] == []
        return
    assert {
        f"{file} imports {module}"
        for file, module in _imports(package)
        if any(module == f or module.startswith(f"{f}.") for f in forbidden)
    } == set()


def test_outside_the_client_every_tool_call_goes_through_the_hub() -> None:
    # call_tool/server_session are the client's own plumbing (no retry, no timeout of their
    # own): the CLI, the API, the graph and the evals call tools with MCPHub.call.
    plumbing = ("call_tool", "server_session")
    assert {
        f"{path} imports {module}"
        for path, module in _imports("backend")
        if module.rsplit(".", 1)[-1] in plumbing and not path.startswith("backend/mcp_client/")
    } == set()
