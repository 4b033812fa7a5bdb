"""``python -m mcp_servers.scholarly [--transport stdio|http] [--host H] [--port 8104]``."""

from mcp_servers.common.standalone import run_standalone
from mcp_servers.scholarly.server import create_server, health_check
from mcp_servers.scholarly.settings import ScholarlySettings

DEFAULT_PORT = 8104


def main() -> None:
    """Run the scholarly server with the settings of this process's environment."""
    settings = ScholarlySettings()
    token = settings.mcp_token.get_secret_value() if settings.mcp_token else None
    run_standalone(
        lambda: create_server(settings),
        token=token,
        default_port=DEFAULT_PORT,
        health=health_check(settings),
    )


if __name__ == "__main__":
    main()
