"""``python -m mcp_servers.searxng [--transport stdio|http] [--host H] [--port 8105]``."""

from mcp_servers.common.standalone import run_standalone
from mcp_servers.searxng.server import create_server, health_check
from mcp_servers.searxng.settings import SearxngSettings

DEFAULT_PORT = 8105


def main() -> None:
    """Run the SearXNG server with the settings of this process's environment."""
    settings = SearxngSettings()
    token = settings.mcp_token.get_secret_value() if settings.mcp_token else None
    run_standalone(
        lambda: create_server(settings),
        token=token,
        default_port=DEFAULT_PORT,
        health=health_check(settings),
    )


if __name__ == "__main__":
    main()
