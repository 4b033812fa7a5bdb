"""A local server speaking Ollama's chat API (POST /api/chat), so the real langchain-ollama
client runs against it: scripted replies (``model_api.Reply``) sent as the one line of a
streamed answer; a structured answer is the message text (Ollama constrains it with
``format``); ``refuse_format`` answers a request carrying one with HTTP 400, as an old server
does; errors come in Ollama's shape (``{"error": "…"}``)."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from tests.fakes.model_api import ModelApi, Reply


@dataclass
class OllamaApi(ModelApi):
    """Start with ``OllamaApi(script=[...]).start()``; the client's base URL is ``url``."""

    path: str = "/api/chat"
    refuse_format: bool = False

    def render(self, body: dict[str, Any], reply: Reply) -> tuple[int, dict[str, Any]]:
        if self.refuse_format and isinstance(body.get("format"), dict):
            reply = Reply(status=400, error='invalid format: expected "json" or a JSON schema')
        if reply.status != 200:
            return reply.status, {"error": reply.error}
        text = json.dumps(reply.data) if reply.data is not None else reply.text or ""
        return 200, {
            "model": body.get("model", "fake"),
            "created_at": "2026-01-01T00:00:00Z",
            "message": {"role": "assistant", "content": text},
            "done": True,
            "done_reason": "length" if reply.cut else "stop",
            "prompt_eval_count": reply.input_tokens,
            "eval_count": reply.output_tokens,
        }
