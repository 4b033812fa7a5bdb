"""What routes get from the application: settings, the run manager, the MCP hub, auth."""

from __future__ import annotations

import secrets
from typing import Annotated

from fastapi import Depends, HTTPException, Request, status

from backend.api.runner import RunManager
from backend.config import Settings
from backend.mcp_client import MCPHub


def get_settings_dep(request: Request) -> Settings:
    settings: Settings = request.app.state.settings
    return settings


def get_manager(request: Request) -> RunManager:
    manager: RunManager = request.app.state.manager
    return manager


def get_hub(request: Request) -> MCPHub:
    hub: MCPHub = request.app.state.hub
    return hub


def bearer_token(header: str) -> str:
    """The token of an ``Authorization: Bearer <token>`` header (the scheme in any case, as
    RFC 9110 says); "" for a missing header or any other scheme (Basic, Token, none)."""
    scheme, _, token = header.strip().partition(" ")
    return token.strip() if scheme.lower() == "bearer" else ""


def require_token(request: Request) -> None:
    """With MARSA_API_TOKEN set: 'Authorization: Bearer <token>', or ?access_token= (the
    browser's EventSource cannot send headers). Any other scheme carries no token, whatever
    follows it, for every method."""
    settings: Settings = request.app.state.settings
    if settings.api_token is None:
        return
    expected = settings.api_token.get_secret_value()
    given = bearer_token(request.headers.get("authorization", ""))
    if not given and request.method == "GET":
        # Only for reading: event streams and download links cannot carry a header.
        given = request.query_params.get("access_token", "")
    if not given or not secrets.compare_digest(given.encode(), expected.encode()):
        raise HTTPException(
            status_code=status.HTTP_401_UNAUTHORIZED,
            detail="this API needs a token: send 'Authorization: Bearer <MARSA_API_TOKEN>'",
            headers={"WWW-Authenticate": "Bearer"},
        )


SettingsDep = Annotated[Settings, Depends(get_settings_dep)]
ManagerDep = Annotated[RunManager, Depends(get_manager)]
HubDep = Annotated[MCPHub, Depends(get_hub)]
