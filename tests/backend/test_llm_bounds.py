"""The chat model is bounded in tokens, time and retries, and reasoning models get no
temperature: checked against a local server speaking OpenAI's API (the real client runs)."""

from __future__ import annotations

import time
from collections.abc import Iterator

import pytest

from backend.config import Settings
from backend.llm import build_chat_model
from backend.reasoning.factory import make_engine
from backend.trace import Tracer
from tests.fakes.model_api import Reply
from tests.fakes.openai_chat_api import OpenAIChatApi


@pytest.fixture
def api() -> Iterator[OpenAIChatApi]:
    fake = OpenAIChatApi(script=lambda body: Reply(text="ok")).start()
    try:
        yield fake
    finally:
        fake.stop()


def _settings(url: str, model: str = "gpt-4o-mini", **extra: object) -> Settings:
    return Settings(llm=f"openai:{model}", llm_api_key="sk-test", llm_base_url=url, **extra)


async def test_every_request_carries_the_max_tokens_bound(
    api: OpenAIChatApi,
) -> None:
    url = api.base
    model = build_chat_model(_settings(url, llm_max_tokens=300))
    answer = await model.ainvoke("Say ok.")
    assert answer.content == "ok"
    (body,) = api.bodies
    assert (body.get("max_tokens") or body.get("max_completion_tokens")) == 300
    assert body["temperature"] == 0.0


async def test_a_reasoning_model_is_sent_no_temperature(
    api: OpenAIChatApi,
) -> None:
    url = api.base
    await build_chat_model(_settings(url, model="o3-mini")).ainvoke("Say ok.")
    (body,) = api.bodies
    assert "temperature" not in body


async def test_a_server_that_never_answers_is_given_up_after_the_timeout_and_retries(
    api: OpenAIChatApi,
) -> None:
    url = api.base
    api.script = lambda body: Reply(hold=True)
    model = build_chat_model(_settings(url, llm_timeout=0.5, llm_max_retries=1))
    started = time.monotonic()
    with pytest.raises(Exception, match="(?i)time"):
        await model.ainvoke("Say ok.")
    elapsed = time.monotonic() - started
    assert len(api.bodies) == 2  # the first try and one retry, then it stops
    assert elapsed < 10  # the SDK's own default would wait 600 s, three times


async def test_a_call_that_got_no_answer_is_traced_with_its_duration(
    api: OpenAIChatApi, settings: Settings
) -> None:
    api.script = lambda body: Reply(hold=True)
    tracer = Tracer()
    fields = {"llm_timeout": 0.5, "llm_max_retries": 0, "data_dir": settings.data_dir}
    engine = make_engine(_settings(api.base, **fields), tracer)
    await engine.plan("Which magazine started first?", ["docs"])
    (call,) = [e for e in tracer.events if e.kind == "llm_call"]
    assert call.data["outcome"] == "error" and call.data["attempt"] == 1
    assert "Timeout" in call.data["error"] and call.data["output"] == "json_schema"
    assert call.duration_ms is not None and call.duration_ms >= 500


async def test_a_reasoning_model_is_sent_the_effort_setting(api: OpenAIChatApi) -> None:
    settings = _settings(api.base, model="o3-mini", llm_reasoning_effort="low")
    await build_chat_model(settings).ainvoke("Say ok.")
    await build_chat_model(_settings(api.base, llm_reasoning_effort="low")).ainvoke("Say ok.")
    reasoning, plain = api.bodies
    assert reasoning["reasoning_effort"] == "low"
    assert "reasoning_effort" not in plain  # gpt-4o-mini would refuse it
