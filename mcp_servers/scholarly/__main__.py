"""``python -m mcp_servers.scholarly [--transport stdio|http] [--host H] [--port 8104]``."""

from mcp_servers.common.runner import run_server
from mcp_servers.scholarly.server import create_server, health_check
from mcp_servers.scholarly.settings import ScholarlySettings

DEFAULT_PORT = 8104


def main() -> None:
    """Run the scholarly server with the settings of this process's environment."""
    settings = ScholarlySettings()
    run_server(
        lambda: create_server(settings),
        default_port=DEFAULT_PORT,
        health=lambda _server: health_check(settings),
    )


if __name__ == "__main__":
    main()
