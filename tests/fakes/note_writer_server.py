"""An extra MCP server for tests with no search-like tool: one tool that writes."""

from __future__ import annotations

from typing import Annotated, Any

from fastmcp import FastMCP
from pydantic import Field

mcp: FastMCP = FastMCP("marsa-note-writer")


@mcp.tool
def append_note(note: Annotated[str, Field(min_length=1)]) -> dict[str, Any]:
    """Append a note (a write: a researcher must never call it)."""
    raise RuntimeError(f"append_note must not be called by research (got {note!r})")


if __name__ == "__main__":
    mcp.run(transport="stdio", show_banner=False)
