"""An extra MCP server for tests: a search tool that waits while a gate file exists.

A test creates the file, starts a run that searches here, and can then cancel the run or
kill the API while the researcher is waiting; removing the file lets searches answer.
"""

from __future__ import annotations

import asyncio
import os
from pathlib import Path
from typing import Annotated, Any

from fastmcp import FastMCP
from pydantic import Field

mcp: FastMCP = FastMCP("marsa-gate-search")
GATE = Path(os.environ.get("GATE_FILE", "/nonexistent/gate"))
NOTE = {
    "title": "Gate notes: tides",
    "url": "https://gate.example.org/tides",
    "text": "Spring tides come a day or two after the full moon and the new moon.",
}


@mcp.tool(annotations={"readOnlyHint": True})
async def lookup(query: Annotated[str, Field(min_length=1)]) -> dict[str, Any]:
    """The gate note, once the gate file is gone (waits up to 120 s)."""
    for _ in range(2400):
        if not GATE.exists():
            break
        await asyncio.sleep(0.05)
    return {"results": [NOTE]}


if __name__ == "__main__":
    mcp.run(transport="stdio", show_banner=False)
