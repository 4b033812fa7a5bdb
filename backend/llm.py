"""The only place chat models are built, from a ``provider:model`` setting."""

from __future__ import annotations

import importlib
import re
import socket
import ssl
import sys
from dataclasses import dataclass
from typing import Any, Literal

import httpx
from langchain_core.exceptions import (
    ContextOverflowError,
    ModelAuthenticationError,
    ModelConnectionError,
    ModelError,
    ModelNotFoundError,
    ModelPermissionDeniedError,
    ModelTimeoutError,
)
from langchain_core.language_models.chat_models import BaseChatModel
from pydantic import SecretStr

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

SDK_DEAD_ENDS = (
    ("openai", "APIConnectionError"),  # APITimeoutError is one too
    ("openai", "AuthenticationError"),
    ("openai", "PermissionDeniedError"),
    ("openai", "NotFoundError"),
    ("anthropic", "APIConnectionError"),
    ("anthropic", "AuthenticationError"),
    ("anthropic", "PermissionDeniedError"),
    ("anthropic", "NotFoundError"),
)
"""Provider SDK errors that mean the model is unreachable or refuses us (see :func:`dead_end`)."""

TRANSPORT_ERRORS: tuple[type[Exception], ...] = (
    ConnectionError,
    TimeoutError,
    socket.gaierror,
    ssl.SSLError,
)
"""The transport failing under a model call: refused or broken connection, timeout, DNS, TLS."""

DEAD_END_STATUS = frozenset({401, 403, 404})
"""HTTP statuses a later call would get again: bad key, no access, no such model or URL."""


class LLMConfigError(ValueError):
    """The configured model cannot be built, with what to do about it."""


class LLMPackageMissing(LLMConfigError):
    """The provider's LangChain package is not installed: runs can still use the offline
    engine, and installing ``package`` fixes it."""

    def __init__(self, spec: str, package: str):
        super().__init__(f"MARSA_LLM={spec} needs: pip install {package}")
        self.package = package


def _model_class(settings: Settings) -> tuple[type[BaseChatModel], dict[str, Any]]:
    """The chat model class ``settings.llm`` names and its arguments, without building it."""
    spec = settings.llm or ""
    provider, _, model = spec.partition(":")
    if provider not in PROVIDERS or not model:
        raise LLMConfigError(
            f"MARSA_LLM={spec!r} is not provider:model; providers: {', '.join(PROVIDERS)} "
            "(leave it unset for the built-in offline engine)"
        )
    module_name, class_name, package = PROVIDERS[provider]
    try:
        module = importlib.import_module(module_name)
    except ImportError as exc:
        raise LLMPackageMissing(spec, package) from exc
    kwargs: dict[str, Any] = {"model": model}
    if not is_reasoning_model(provider, model):
        kwargs["temperature"] = settings.llm_temperature  # reasoning models refuse one
    elif settings.llm_reasoning_effort:
        kwargs["reasoning_effort"] = settings.llm_reasoning_effort
    key = settings.llm_api_key.get_secret_value() if settings.llm_api_key else None
    if provider == "ollama":
        kwargs["num_predict"] = settings.llm_max_tokens
        kwargs["client_kwargs"] = {"timeout": settings.llm_timeout}
        if settings.llm_base_url:
            kwargs["base_url"] = settings.llm_base_url
    else:
        kwargs["max_tokens"] = settings.llm_max_tokens
        kwargs["timeout"] = settings.llm_timeout
        kwargs["max_retries"] = settings.llm_max_retries
        if key:
            kwargs["api_key"] = key
        if settings.llm_base_url:
            kwargs["base_url"] = settings.llm_base_url
        elif provider == "openai-compatible":
            raise LLMConfigError(
                "openai-compatible needs MARSA_LLM_BASE_URL (e.g. http://127.0.0.1:8000/v1)"
            )
    model_class: type[BaseChatModel] = getattr(module, class_name)
    return model_class, kwargs


_REASONING_MODEL = re.compile(r"^(?:o\d|gpt-5)", re.I)


def is_reasoning_model(provider: str, model: str) -> bool:
    """OpenAI's reasoning models (o1, o3, o4-mini, gpt-5 …) refuse a temperature: every
    step would answer 400 and fall back."""
    return provider == "openai" and _REASONING_MODEL.match(model) is not None


@dataclass(frozen=True)
class StructuredOutput:
    """How a chat model is held to a step's JSON schema: LangChain's ``with_structured_output``
    method (``json_schema``: OpenAI's ``response_format``, Ollama's ``format``, Anthropic's
    ``output_config``; ``function_calling``: one forced tool call) and whether the schema is
    sent as strict (OpenAI's API)."""

    method: Literal["json_schema", "function_calling"]
    strict: bool = False


_AUTO_METHOD: dict[str, Literal["json_schema", "function_calling"]] = {
    "openai": "json_schema",
    "openai-compatible": "json_schema",  # llama.cpp, vLLM, LM Studio: response_format
    "anthropic": "function_calling",
    "ollama": "json_schema",  # its ``format``
}


def structured_output(settings: Settings) -> StructuredOutput | None:
    """How ``settings.llm`` is asked for structured output (``MARSA_LLM_STRUCTURED``); None:
    the schema is only in the prompt and the answer is parsed from its text."""
    provider = (settings.llm or "").partition(":")[0]
    if settings.llm_structured == "off" or provider not in _AUTO_METHOD:
        return None
    method: Literal["json_schema", "function_calling"]
    if settings.llm_structured == "auto":
        method = _AUTO_METHOD[provider]
    else:
        method = "json_schema" if settings.llm_structured == "json_schema" else "function_calling"
    # OpenAI's API constrains decoding to a strict schema; Anthropic's strict tools need the
    # newest models, and Ollama has no such flag.
    return StructuredOutput(method, strict=provider in ("openai", "openai-compatible"))


REFUSED_STATUS = frozenset({400, 422})
"""Statuses a server answers a request it cannot take: for a structured request, often the
``response_format``, ``tools`` or ``format`` it does not support."""


def refused_request(exc: BaseException) -> bool:
    """Whether a provider error is the server refusing the request as invalid (HTTP 400 or
    422), not the prompt being too long for it: with structured output asked for, the way
    to ask is what it refused."""
    if isinstance(exc, ContextOverflowError):
        return False
    status = getattr(exc, "status_code", None)
    if isinstance(exc, httpx.HTTPStatusError):
        status = exc.response.status_code
    return status in REFUSED_STATUS


def build_chat_model(settings: Settings) -> BaseChatModel:
    """A LangChain chat model for ``settings.llm`` (e.g. ``anthropic:claude-sonnet-4-5``)."""
    model_class, kwargs = _model_class(settings)
    return model_class(**kwargs)


def llm_problem(settings: Settings) -> LLMConfigError | None:
    """Why the configured chat model cannot be built (with the fix), or None when it can or
    none is configured. Imports the provider's package but builds nothing and calls no one,
    so a health check may ask it each time."""
    if not settings.llm:
        return None
    try:
        _model_class(settings)
    except LLMConfigError as exc:
        return exc
    return None


def _sdk_classes(names: tuple[tuple[str, str], ...]) -> list[type[Exception]]:
    """Classes of provider SDKs, looked up only among modules already imported (the SDK is
    imported when its chat model is built, so this never imports an SDK that is not in use)."""
    found: list[type[Exception]] = []
    for module_name, class_name in names:
        cls = getattr(sys.modules.get(module_name), class_name, None)
        if isinstance(cls, type) and issubclass(cls, Exception):
            found.append(cls)
    return found


def provider_errors() -> tuple[type[Exception], ...]:
    """The exceptions that mean "the model could not answer", not "the code is wrong".

    LangChain's ``ModelError`` family (connection, timeout, rate limit, auth, 5xx) where a
    provider integration maps its errors to it; the transport's own failures (the Ollama client
    turns a refused connection into the builtin ``ConnectionError``; ``TimeoutError``, a DNS
    failure, a TLS failure); ``httpx.HTTPError`` for clients that let httpx's errors through;
    and the base error class of each provider SDK in use. Other ``OSError``s
    (``FileNotFoundError`` for a bad CA-bundle path, ``PermissionError``…) are local faults, and
    programming errors (``TypeError``, ``KeyError``…) are bugs: both must surface as
    tracebacks, not be hidden behind a fallback.
    """
    return (ModelError, *TRANSPORT_ERRORS, httpx.HTTPError, *_sdk_classes(SDK_ERRORS))


def dead_end(exc: BaseException) -> bool:
    """Whether a provider error would happen again on every later call in this run.

    True when the model cannot be reached (refused or failed connection, DNS or TLS failure,
    timeout) or refuses us (bad key, no permission, no such model: HTTP 401, 403, 404), so
    calling it again would only add another wait. False for what may pass or depends on the
    prompt: rate limits, server errors, a request rejected as invalid or too long.
    """
    dead = (
        *TRANSPORT_ERRORS,
        httpx.ConnectError,
        httpx.TimeoutException,
        ModelConnectionError,
        ModelTimeoutError,
        ModelAuthenticationError,
        ModelPermissionDeniedError,
        ModelNotFoundError,
        *_sdk_classes(SDK_DEAD_ENDS),
    )
    if isinstance(exc, dead):
        return True
    # Ollama's ResponseError and the SDKs' status errors carry the HTTP status.
    status = getattr(exc, "status_code", None)
    if isinstance(exc, httpx.HTTPStatusError):
        status = exc.response.status_code
    return status in DEAD_END_STATUS


def model_secrets(model: BaseChatModel) -> list[str]:
    """The secret values a chat model holds (its API key), to scrub from its error messages."""
    values = (getattr(model, name, None) for name in type(model).model_fields)
    return [
        v.get_secret_value() for v in values if isinstance(v, SecretStr) and v.get_secret_value()
    ]
