"""The command line of servers that own their settings (mcp_servers/common/standalone.py)."""

from __future__ import annotations

import pytest
from fastmcp import FastMCP

from mcp_servers.common.standalone import run_standalone


def _never_built() -> FastMCP:
    raise AssertionError("the server must not be built")


@pytest.mark.parametrize("token", [None, ""], ids=["unset", "blank"])
def test_http_on_every_interface_without_a_token_refuses_to_start(
    token: str | None, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as stopped:
        run_standalone(
            _never_built,
            token=token,
            default_port=8999,
            argv=["--transport", "http", "--host", "0.0.0.0"],
        )

    assert stopped.value.code == 2
    err = capsys.readouterr().err
    assert "MARSA_MCP_TOKEN" in err and "0.0.0.0" in err
