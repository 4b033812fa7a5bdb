"""A scripted chat model: answers from a list, records every prompt it was given.

An answer is a string, a function of the messages returning one, or an exception to raise
(a provider that is down, rate-limited, or refusing the key)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from langchain_core.language_models.chat_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage
from langchain_core.outputs import ChatGeneration, ChatResult
from pydantic import Field, SecretStr

Answer = str | list[Any] | BaseException | Callable[[list[BaseMessage]], str]
"""A list is content blocks, as Anthropic with thinking or OpenAI's Responses API send."""


class ScriptedChatModel(BaseChatModel):
    """Returns the scripted answers in order; fails loudly when the script runs out."""

    answers: list[Answer] = Field(default_factory=list)
    prompts: list[list[BaseMessage]] = Field(default_factory=list)
    input_tokens: int = 100
    output_tokens: int = 20
    api_key: SecretStr | None = None
    """Held as the providers' chat models hold theirs, so the engine can scrub it."""

    @property
    def _llm_type(self) -> str:
        return "scripted"

    def _generate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: Any = None,
        **kwargs: Any,
    ) -> ChatResult:
        self.prompts.append(list(messages))
        if not self.answers:
            raise AssertionError(f"the script has no answer left for call {len(self.prompts)}")
        answer = self.answers.pop(0)
        if isinstance(answer, BaseException):
            raise answer
        content = answer(messages) if callable(answer) else answer
        message = AIMessage(
            content=content,
            usage_metadata={
                "input_tokens": self.input_tokens,
                "output_tokens": self.output_tokens,
                "total_tokens": self.input_tokens + self.output_tokens,
            },
        )
        return ChatResult(generations=[ChatGeneration(message=message)])

    def prompt_text(self, call: int) -> str:
        """Everything sent in one call (0-based), joined."""
        return "\n".join(str(m.content) for m in self.prompts[call])
