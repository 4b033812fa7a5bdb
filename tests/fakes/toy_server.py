"""A tiny MCP server for testing the client: echo, a slow tool, a crash and a per-process counter.

Run it as ``python -m tests.fakes.toy_server`` (stdio) with the repository on PYTHONPATH,
or ``python -m tests.fakes.toy_server --port N`` for streamable HTTP on 127.0.0.1:N/mcp.
"""

from __future__ import annotations

import asyncio
import itertools
import os
import sys
from typing import Annotated, Any

from fastmcp import FastMCP
from pydantic import Field
from starlette.requests import Request
from starlette.responses import JSONResponse

READ_ONLY = {"readOnlyHint": True, "openWorldHint": False}

mcp: FastMCP = FastMCP("marsa-toy")
_counter = itertools.count(1)


@mcp.tool(annotations=READ_ONLY)
def echo(text: Annotated[str, Field(description="What to send back.")]) -> dict[str, Any]:
    """Send the text back."""
    return {"text": text}


@mcp.tool(annotations=READ_ONLY)
async def slow(
    seconds: Annotated[float, Field(ge=0, le=120, description="How long to sleep.")],
) -> dict[str, Any]:
    """Sleep, then answer: a tool that outlasts a short timeout."""
    await asyncio.sleep(seconds)
    return {"slept": seconds}


@mcp.tool
def crash() -> dict[str, Any]:
    """End this server process at once with exit code 3 (the answer never comes)."""
    os._exit(3)


@mcp.tool(annotations=READ_ONLY)
def count() -> dict[str, Any]:
    """How many times this process has answered count(), and its pid."""
    return {"count": next(_counter), "pid": os.getpid()}


@mcp.custom_route("/health", methods=["GET"])
async def health(_: Request) -> JSONResponse:
    """Readiness probe for the HTTP transport."""
    return JSONResponse({"status": "ok", "pid": os.getpid()})


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "--port":
        mcp.run(transport="http", host="127.0.0.1", port=int(sys.argv[2]), show_banner=False)
    else:
        mcp.run(transport="stdio", show_banner=False)
