"""``python -m mcp_servers.tavily_search [--transport stdio|http] [--port 8102]``."""

from mcp_servers.common.runner import run_server
from mcp_servers.tavily_search.server import create_server, health_check
from mcp_servers.tavily_search.settings import WebSettings


def main() -> None:
    """Run the web-search server with the process settings."""
    settings = WebSettings()
    run_server(
        lambda: create_server(settings),
        default_port=8102,
        health=lambda _server: health_check(settings),
    )


if __name__ == "__main__":
    main()
