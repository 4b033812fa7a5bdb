"""Something to research on first use: an empty document store gets MARSA's own docs/.

Used by `marsa research` and by the API at start (``MARSA_SEED_DOCS``).
"""

from __future__ import annotations

import base64
from pathlib import Path

from rich.console import Console

from backend.mcp_client import MCPHub, ToolCallError

PROJECT_DOCS = Path(__file__).resolve().parents[1] / "docs"
# docs/journal/ is the evaluation's pass-by-pass log: figures about MARSA rather than a
# description of it, and two thirds of docs/ by size (a minute more of embedding on first use).
NOT_SEEDED = ("journal",)


def seed_files(docs: Path) -> list[Path]:
    """The Markdown files of ``docs`` that first use ingests, in order."""
    return sorted(
        p
        for p in docs.rglob("*.md")
        if p.is_file() and p.relative_to(docs).parts[0] not in NOT_SEEDED
    )


async def ensure_documents(hub: MCPHub, console: Console) -> None:
    """On first use with an empty store, ingest the project's own docs/ and say so."""
    if "docs" not in hub.available():
        return
    listing = await hub.call("docs", "list_documents", {"limit": 1})
    if listing.structured.get("total", 0) or not PROJECT_DOCS.is_dir():
        return
    files = seed_files(PROJECT_DOCS)
    console.print(
        f"[yellow]The document store is empty: ingesting MARSA's own docs/ "
        f"({len(files)} files) so there is something to research.[/]"
    )
    for file in files:
        # As bytes: the server reads no path outside MARSA_DOCS_INGEST_ROOTS, and may be remote.
        arguments = {
            "filename": file.name,
            "data_base64": base64.b64encode(file.read_bytes()).decode("ascii"),
            "relative_path": file.relative_to(PROJECT_DOCS).as_posix(),
        }
        try:
            await hub.call("docs", "ingest_file", arguments)
        except ToolCallError as exc:
            console.print(f"[red]not ingested[/] {file}: {exc.message}")
