"""``python -m mcp_servers.tavily_search [--transport stdio|http] [--port 8102]``."""

from backend.config import get_settings
from mcp_servers.common.runner import run_server
from mcp_servers.tavily_search.server import create_server, health_check


def main() -> None:
    """Run the web-search server with the process settings."""
    settings = get_settings()
    run_server(
        lambda: create_server(settings),
        default_port=8102,
        health=lambda _server: health_check(settings),
    )


if __name__ == "__main__":
    main()
