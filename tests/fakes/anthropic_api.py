"""A local server speaking Anthropic's Messages API (POST /v1/messages), so the real
langchain-anthropic client runs against it: scripted replies (``model_api.Reply``); a
structured answer is a ``tool_use`` block when the request offered tools, text otherwise;
errors come in Anthropic's shape (``{"type": "error", "error": {"type", "message"}}``)."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from tests.fakes.model_api import ModelApi, Reply

_ERROR_TYPES = {
    400: "invalid_request_error",
    401: "authentication_error",
    404: "not_found_error",
    429: "rate_limit_error",
    500: "api_error",
    529: "overloaded_error",
}


@dataclass
class AnthropicApi(ModelApi):
    """Start with ``AnthropicApi(script=[...]).start()``; the client's base URL is ``url``."""

    path: str = "/v1/messages"

    def render(self, body: dict[str, Any], reply: Reply) -> tuple[int, dict[str, Any]]:
        if reply.status != 200:
            error = {"type": _ERROR_TYPES.get(reply.status, "api_error"), "message": reply.error}
            return reply.status, {"type": "error", "error": error}
        stop = "max_tokens" if reply.cut else "end_turn"
        if reply.blocks is not None:
            content = reply.blocks
        elif reply.data is not None and body.get("tools"):
            content = [
                {"type": "tool_use", "id": "toolu_1", "name": _tool_name(body), "input": reply.data}
            ]
            stop = "max_tokens" if reply.cut else "tool_use"
        elif reply.data is not None:
            content = [{"type": "text", "text": json.dumps(reply.data)}]
        else:
            content = [{"type": "text", "text": reply.text or ""}]
        return 200, {
            "id": f"msg_{len(self.bodies)}",
            "type": "message",
            "role": "assistant",
            "model": body.get("model", "fake"),
            "content": content,
            "stop_reason": stop,
            "stop_sequence": None,
            "usage": {"input_tokens": reply.input_tokens, "output_tokens": reply.output_tokens},
        }


def _tool_name(body: dict[str, Any]) -> str:
    """The tool the request forces, else the first it offers."""
    choice = body.get("tool_choice")
    if isinstance(choice, dict) and choice.get("type") == "tool":
        return str(choice["name"])
    return str(body["tools"][0]["name"])


def prompt_text(body: dict[str, Any]) -> str:
    """The system prompt and every message's text in a request, joined."""
    system = body.get("system")
    parts = [system] if isinstance(system, str) else []
    if isinstance(system, list):
        parts += [str(b.get("text", "")) for b in system if isinstance(b, dict)]
    for message in body.get("messages", []):
        content = message.get("content")
        if isinstance(content, list):
            parts += [str(b.get("text", "")) for b in content if isinstance(b, dict)]
        elif content:
            parts.append(str(content))
    return "\n".join(parts)
