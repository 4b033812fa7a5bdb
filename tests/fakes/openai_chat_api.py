"""A local server speaking OpenAI's chat-completions API (POST /v1/chat/completions), so the
real langchain-openai client runs against it: scripted replies (``model_api.Reply``), honouring
what the request asks for: a structured answer goes in a tool call when the request offered
tools, in the message text otherwise (``response_format``); ``refuse_response_format`` answers
a request carrying one with HTTP 400, as servers without structured output do."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from tests.fakes.model_api import ModelApi, Reply

_ERROR_TYPES = {400: "invalid_request_error", 429: "rate_limit_error", 500: "server_error"}


@dataclass
class OpenAIChatApi(ModelApi):
    """Start with ``OpenAIChatApi(script=[...]).start()``; the client's base URL is ``base``."""

    path: str = "/v1/chat/completions"
    refuse_response_format: bool = False

    @property
    def base(self) -> str:
        """The base URL the OpenAI client is given (…/v1)."""
        return f"{self.url}/v1"

    def render(self, body: dict[str, Any], reply: Reply) -> tuple[int, dict[str, Any]]:
        if self.refuse_response_format and "response_format" in body:
            reply = Reply(status=400, error="response_format is not supported by this server")
        if reply.status != 200:
            error = {
                "message": reply.error,
                "type": _ERROR_TYPES.get(reply.status, "server_error"),
                "param": None,
                "code": None,
            }
            return reply.status, {"error": error}
        message: dict[str, Any] = {"role": "assistant", "content": reply.text}
        finish = "length" if reply.cut else "stop"
        arguments = json.dumps(reply.data) if reply.data is not None else reply.arguments
        if arguments is not None and body.get("tools"):
            message["content"] = None
            message["tool_calls"] = [
                {
                    "id": "call_1",
                    "type": "function",
                    "function": {"name": _tool_name(body), "arguments": arguments},
                }
            ]
            finish = "length" if reply.cut else "tool_calls"
        elif reply.data is not None:
            message["content"] = json.dumps(reply.data)
        return 200, {
            "id": f"chatcmpl-{len(self.bodies)}",
            "object": "chat.completion",
            "created": 0,
            "model": body.get("model", "fake"),
            "choices": [{"index": 0, "message": message, "finish_reason": finish}],
            "usage": {
                "prompt_tokens": reply.input_tokens,
                "completion_tokens": reply.output_tokens,
                "total_tokens": reply.input_tokens + reply.output_tokens,
            },
        }


def _tool_name(body: dict[str, Any]) -> str:
    """The tool the request forces, else the first it offers."""
    choice = body.get("tool_choice")
    if isinstance(choice, dict):
        return str(choice["function"]["name"])
    return str(body["tools"][0]["function"]["name"])


def prompt_text(body: dict[str, Any]) -> str:
    """Every message's text in a request, joined."""
    parts = []
    for message in body.get("messages", []):
        content = message.get("content")
        if isinstance(content, list):
            parts += [str(block.get("text", "")) for block in content if isinstance(block, dict)]
        elif content:
            parts.append(str(content))
    return "\n".join(parts)
