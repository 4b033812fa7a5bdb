"""``python -m mcp_servers.searxng [--transport stdio|http] [--host H] [--port 8105]``."""

from mcp_servers.common.runner import run_server
from mcp_servers.searxng.server import create_server, health_check
from mcp_servers.searxng.settings import SearxngSettings

DEFAULT_PORT = 8105


def main() -> None:
    """Run the SearXNG server with the settings of this process's environment."""
    settings = SearxngSettings()
    run_server(
        lambda: create_server(settings),
        default_port=DEFAULT_PORT,
        health=lambda _server: health_check(settings),
    )


if __name__ == "__main__":
    main()
