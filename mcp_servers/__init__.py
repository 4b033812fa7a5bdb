"""MARSA's MCP servers: document store (ChromaDB), web search (Tavily) and GitHub.

Each server is its own process: ``python -m mcp_servers.<name>`` over stdio, or
``--transport http --port N`` over streamable HTTP.
"""

import os

# fastmcp reads these at import time; without them it prints a banner and asks
# the network whether a newer release exists, which hangs on a closed network.
os.environ.setdefault("FASTMCP_SHOW_CLI_BANNER", "false")
os.environ.setdefault("FASTMCP_SHOW_SERVER_BANNER", "false")
os.environ.setdefault("FASTMCP_CHECK_FOR_UPDATES", "off")
# fastmcp logs every failed call with its full arguments (a 10 MB query, verbatim);
# ToolCallLogMiddleware writes one bounded line per call instead.
os.environ.setdefault("FASTMCP_LOG_LEVEL", "CRITICAL")
# Chroma otherwise sends anonymous usage events.
os.environ.setdefault("ANONYMIZED_TELEMETRY", "False")
