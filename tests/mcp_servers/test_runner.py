"""The command line every server shares (mcp_servers/common/runner.py), in process."""

from __future__ import annotations

import pytest
from fastmcp import FastMCP

from mcp_servers.common.runner import run_server


def _never_built() -> FastMCP:
    raise AssertionError("the server must not be built")


# docker-compose passes an unset variable as "": that is no token either.
@pytest.mark.parametrize("token", [None, ""], ids=["unset", "blank"])
def test_http_on_every_interface_without_a_token_refuses_to_start(
    token: str | None, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    if token is not None:
        monkeypatch.setenv("MARSA_MCP_TOKEN", token)
    with pytest.raises(SystemExit) as stopped:
        run_server(
            _never_built, default_port=8999, argv=["--transport", "http", "--host", "0.0.0.0"]
        )

    assert stopped.value.code == 2
    err = capsys.readouterr().err
    assert "MARSA_MCP_TOKEN" in err and "0.0.0.0" in err
