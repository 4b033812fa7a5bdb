"""Bearer-token access to a server over HTTP: fastmcp's token-verifier hook, one shared token.

fastmcp puts a ``TokenVerifier`` in front of the MCP endpoint: a request without
``Authorization: Bearer <token>``, or with a token the verifier does not accept, is answered
401 before it reaches a tool. Custom routes (``GET /health``) stay open, so a container
health check needs no token; they show no document and no key.
"""

from __future__ import annotations

import hmac
import ipaddress

from fastmcp.server.auth import AccessToken, TokenVerifier

TOKEN_VARIABLE = "MARSA_MCP_TOKEN"


class SharedTokenVerifier(TokenVerifier):
    """Accepts exactly one token, the one the operator gave server and client.

    fastmcp's ``StaticTokenVerifier`` does the same with a dictionary lookup and is meant for
    development; this compares in constant time, so the token cannot be guessed byte by byte
    from how long a refusal takes.
    """

    def __init__(self, token: str):
        if not token:
            raise ValueError(f"{TOKEN_VARIABLE} is empty")
        super().__init__()
        self._token = token.encode()

    async def verify_token(self, token: str) -> AccessToken | None:
        """The access the token grants (every tool), or None for any other token."""
        if not hmac.compare_digest(token.encode(), self._token):
            return None
        return AccessToken(token=token, client_id="marsa", scopes=[])


def is_loopback(host: str) -> bool:
    """Whether ``--host`` binds only this machine (127.0.0.0/8, ::1, 'localhost')."""
    name = host.strip().strip("[]").lower()
    if name == "localhost":
        return True
    try:
        return ipaddress.ip_address(name).is_loopback
    except ValueError:
        return False  # a host name: it may resolve to an address other machines reach
