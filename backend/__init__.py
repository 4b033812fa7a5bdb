"""MARSA backend: configuration, the unified MCP client, the research graph, the API and CLI."""
