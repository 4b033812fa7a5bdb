"""The only place chat models are built, from a ``provider:model`` setting."""

from __future__ import annotations

from typing import Any

from langchain_core.language_models.chat_models import BaseChatModel

from backend.config import Settings

PROVIDERS = {
    "anthropic": ("langchain_anthropic", "ChatAnthropic", "langchain-anthropic"),
    "openai": ("langchain_openai", "ChatOpenAI", "langchain-openai"),
    "openai-compatible": ("langchain_openai", "ChatOpenAI", "langchain-openai"),
    "ollama": ("langchain_ollama", "ChatOllama", "langchain-ollama"),
}


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
