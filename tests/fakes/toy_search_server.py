"""An extra MCP server for tests: a search-like tool over a tiny built-in corpus."""

from __future__ import annotations

from typing import Annotated, Any

from fastmcp import FastMCP
from pydantic import Field

mcp: FastMCP = FastMCP("marsa-toy-search")
NOTES = [
    {
        "title": "Lab notebook: tides",
        "url": "https://lab.example.org/notes/tides",
        "text": "Our gauge recorded spring tides two days after the full moon.",
    },
    {
        "title": "Lab notebook: magazines",
        "url": "https://lab.example.org/notes/magazines",
        "text": "The archive holds every issue of Arthur's Magazine from 1844 to 1846.",
    },
]


@mcp.tool(annotations={"readOnlyHint": True})
def lookup(query: Annotated[str, Field(min_length=1)]) -> dict[str, Any]:
    """Notes whose words overlap the query."""
    words = set(query.lower().split())
    hits = [n for n in NOTES if words & set(f"{n['title']} {n['text']}".lower().split())]
    return {"results": hits}


if __name__ == "__main__":
    mcp.run(transport="stdio", show_banner=False)
