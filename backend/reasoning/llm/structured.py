"""Asking a chat model for a step's JSON through its provider's own mechanism.

OpenAI and OpenAI-compatible servers get the schema as ``response_format`` (json_schema),
Anthropic as one forced tool call, Ollama as ``format``: LangChain's
``with_structured_output(..., include_raw=True)`` builds each request, so the provider packages
do the wire format. The schema sent is a portable one (every property required, no extra
properties, no keywords OpenAI's strict mode refuses); the engine still validates the answer
with its own pydantic model, so a server that ignores the schema, or answers in text anyway,
is caught the same way as one asked with the prompt only.
"""

from __future__ import annotations

import json
from typing import Any

from langchain_core.language_models.chat_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage
from langchain_core.utils.function_calling import convert_to_openai_function
from pydantic import BaseModel

from backend.llm import StructuredOutput

_REFUSED_BY_STRICT = ("default", "minLength", "maxLength")
"""Keywords OpenAI's strict schemas refuse; the engine's own validation still applies them."""

CUT_REASONS = frozenset({"length", "max_tokens"})
"""Stop reasons of an answer cut at the output bound (OpenAI and Ollama; Anthropic)."""


class StructuredUnavailable(Exception):
    """The chat model class cannot be asked for structured output at all."""


def _portable(node: Any) -> Any:
    if isinstance(node, list):
        return [_portable(item) for item in node]
    if not isinstance(node, dict):
        return node
    out = {k: _portable(v) for k, v in node.items() if k not in _REFUSED_BY_STRICT}
    if out.get("type") == "object" and isinstance(out.get("properties"), dict):
        out["required"] = list(out["properties"])
        out["additionalProperties"] = False
    return out


def output_schema(name: str, model: type[BaseModel], description: str = "") -> dict[str, Any]:
    """``model``'s JSON schema as sent to the provider, named ``name`` (the tool's or the
    response format's name): references inlined, titles gone, every property required and no
    other allowed, the keywords strict mode refuses left out."""
    parameters = convert_to_openai_function(model)["parameters"]
    return {
        "title": name,
        "description": description or f"The answer of MARSA's {name} step.",
        **_portable(parameters),
    }


async def ask(
    model: BaseChatModel,
    how: StructuredOutput,
    messages: list[BaseMessage],
    schema: dict[str, Any],
) -> tuple[BaseMessage, dict[str, Any] | None]:
    """(the model's raw message, its structured answer when the provider returned one that
    parses as JSON). None for the second means: read the raw message's text instead (a server
    that answered in prose, an invalid tool call, a cut answer)."""
    kwargs: dict[str, Any] = {"strict": True} if how.strict else {}
    try:
        runnable = model.with_structured_output(
            schema, method=how.method, include_raw=True, **kwargs
        )
    except NotImplementedError as exc:  # a chat model class without it
        raise StructuredUnavailable(f"{type(model).__name__} has no structured output") from exc
    out = await runnable.ainvoke(messages)
    assert isinstance(out, dict)  # include_raw=True: {"raw", "parsed", "parsing_error"}
    parsed = out.get("parsed")
    return out["raw"], parsed if isinstance(parsed, dict) else None


def cut_answer(exc: BaseException) -> AIMessage | None:
    """The answer inside the OpenAI SDK's ``LengthFinishReasonError`` (a structured request
    cut at the output bound raises it instead of returning), with its token counts; None for
    any other error."""
    completion = getattr(exc, "completion", None)
    if type(exc).__name__ != "LengthFinishReasonError" or completion is None:
        return None
    choices = getattr(completion, "choices", None) or []
    content = choices[0].message.content if choices else None
    usage = getattr(completion, "usage", None)
    tokens_in = int(getattr(usage, "prompt_tokens", 0) or 0)
    tokens_out = int(getattr(usage, "completion_tokens", 0) or 0)
    return AIMessage(
        content=content or "",
        response_metadata={"finish_reason": "length"},
        usage_metadata={
            "input_tokens": tokens_in,
            "output_tokens": tokens_out,
            "total_tokens": tokens_in + tokens_out,
        },
    )


def was_cut(message: BaseMessage) -> bool:
    """Whether the provider says the answer stopped at the output bound (MARSA_LLM_MAX_TOKENS)."""
    meta = message.response_metadata or {}
    reason = meta.get("finish_reason") or meta.get("stop_reason") or meta.get("done_reason")
    return reason in CUT_REASONS


def tool_arguments(message: BaseMessage) -> str:
    """The arguments of the first tool call the model made that did not parse (as sent), or
    "": a forced tool call whose arguments are not valid JSON is still the model's answer."""
    calls = getattr(message, "invalid_tool_calls", None) or []
    return str(calls[0].get("args") or "") if calls else ""


def text_of(payload: dict[str, Any] | None, text: str) -> str:
    """What the model said, for a re-ask's excerpt: the structured answer as JSON, else its text."""
    return json.dumps(payload, ensure_ascii=False) if payload is not None else text
