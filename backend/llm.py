"""The only place chat models are built, from a ``provider:model`` setting."""

from __future__ import annotations

import sys
from typing import Any

import httpx
from langchain_core.exceptions import ModelError
from langchain_core.language_models.chat_models import BaseChatModel

from backend.config import Settings

PROVIDERS = {
    "anthropic": ("langchain_anthropic", "ChatAnthropic", "langchain-anthropic"),
    "openai": ("langchain_openai", "ChatOpenAI", "langchain-openai"),
    "openai-compatible": ("langchain_openai", "ChatOpenAI", "langchain-openai"),
    "ollama": ("langchain_ollama", "ChatOllama", "langchain-ollama"),
}

SDK_ERRORS = (
    ("openai", "OpenAIError"),
    ("anthropic", "AnthropicError"),
    ("ollama", "ResponseError"),
    ("ollama", "RequestError"),
)
"""Base classes of the provider SDKs' own errors (API status, rate limit, connection, auth)."""


class LLMConfigError(ValueError):
    """The configured model cannot be built, with what to do about it."""


def build_chat_model(settings: Settings) -> BaseChatModel:
    """A LangChain chat model for ``settings.llm`` (e.g. ``anthropic:claude-sonnet-4-5``)."""
    spec = settings.llm or ""
    provider, _, model = spec.partition(":")
    if provider not in PROVIDERS or not model:
        raise LLMConfigError(
            f"MARSA_LLM={spec!r} is not provider:model; providers: {', '.join(PROVIDERS)} "
            "(leave it unset for the built-in offline engine)"
        )
    module_name, class_name, package = PROVIDERS[provider]
    try:
        module = __import__(module_name, fromlist=[class_name])
    except ImportError as exc:
        raise LLMConfigError(f"MARSA_LLM={spec} needs: pip install {package}") from exc
    kwargs: dict[str, Any] = {"model": model, "temperature": settings.llm_temperature}
    key = settings.llm_api_key.get_secret_value() if settings.llm_api_key else None
    if provider == "ollama":
        if settings.llm_base_url:
            kwargs["base_url"] = settings.llm_base_url
    else:
        if key:
            kwargs["api_key"] = key
        if settings.llm_base_url:
            kwargs["base_url"] = settings.llm_base_url
        elif provider == "openai-compatible":
            raise LLMConfigError(
                "openai-compatible needs MARSA_LLM_BASE_URL (e.g. http://127.0.0.1:8000/v1)"
            )
    model_class: type[BaseChatModel] = getattr(module, class_name)
    return model_class(**kwargs)


def provider_errors() -> tuple[type[Exception], ...]:
    """The exceptions that mean "the model could not answer", not "the code is wrong".

    LangChain's ``ModelError`` family (connection, timeout, rate limit, auth, 5xx) where a
    provider integration maps its errors to it; ``OSError`` for the transport (the Ollama client
    turns a refused connection into the builtin ``ConnectionError``; ``TimeoutError`` is one too);
    ``httpx.HTTPError`` for clients that let httpx's errors through; and the base error class of
    each provider SDK, looked up only among modules already imported (the SDK is imported when
    its chat model is built, so this never imports an SDK that is not in use). Programming
    errors (``TypeError``, ``KeyError``, ``AttributeError``…) are deliberately not here: they
    must surface as tracebacks, not be hidden behind a fallback.
    """
    found: list[type[Exception]] = [ModelError, OSError, httpx.HTTPError]
    for module_name, class_name in SDK_ERRORS:
        cls = getattr(sys.modules.get(module_name), class_name, None)
        if isinstance(cls, type) and issubclass(cls, Exception):
            found.append(cls)
    return tuple(found)
