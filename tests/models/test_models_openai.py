"""The OpenAI-compatible model: request shape, response parsing, error classes, keys, prices."""

from __future__ import annotations

import asyncio
import json

import pytest

from physbench.core import Message, UserError
from physbench.models import ModelError, ModelOptions, make_model
from physbench.models.chat_json import read_chat_response
from physbench.models.openai_compat import OpenAIModel
from physbench.models.pricing import load_price
from physbench.runner.mock_server import FaultRule, MockConfig, MockServer

MSGS = (Message("system", "sys"), Message("user", "q"))


@pytest.fixture
def server():
    s = MockServer(MockConfig(reply="\\boxed{2 Gy}", record=True, faults=[])).start()
    yield s
    s.stop()


def _call(model, messages=MSGS, **params):
    async def go():
        try:
            return await model.generate(messages, **params)
        finally:
            await model.aclose()

    return asyncio.run(go())


def test_a_completion_carries_text_usage_finish_reason_and_latency(server):
    c = _call(OpenAIModel("m", base_url=server.base_url), temperature=0.0, max_tokens=9, repeat=3)
    assert c.text == "\\boxed{2 Gy}" and c.finish_reason == "stop" and c.latency > 0
    assert c.usage["total_tokens"] == c.usage["prompt_tokens"] + c.usage["completion_tokens"]
    sent = json.loads(server.bodies[-1])
    assert sent == {"model": "m", "messages": [{"role": "system", "content": "sys"}, {"role": "user", "content": "q"}],
                    "temperature": 0.0, "max_tokens": 9}  # `repeat` is not an API parameter


@pytest.mark.parametrize("step, retryable", [("429", True), ("500", True), ("503", True), ("400", False),
                                             ("401", False), ("malformed", True), ("close", True)])
def test_http_failures_are_classified_for_the_retry_policy(step, retryable):
    with MockServer(MockConfig(faults=[FaultRule("", [step])], retry_after="7")) as s:
        with pytest.raises(ModelError) as err:
            _call(OpenAIModel("m", base_url=s.base_url))
    assert err.value.retryable is retryable
    assert err.value.retry_after == (7.0 if step == "429" else None)


def test_a_timeout_is_retryable():
    with MockServer(MockConfig(faults=[FaultRule("", ["timeout"])], hang_s=5)) as s:
        with pytest.raises(ModelError, match="timeout") as err:
            _call(OpenAIModel("m", base_url=s.base_url, timeout_s=0.2))
    assert err.value.retryable


def test_a_refused_connection_is_retryable():
    with pytest.raises(ModelError, match="connection error") as err:
        _call(OpenAIModel("m", base_url="http://127.0.0.1:9/v1"))
    assert err.value.retryable


@pytest.mark.parametrize("body", [b"", b"{", b"[]", b'{"choices": []}', b'{"choices": [{"message": {"content": 5}}]}',
                                  b'{"error": {"message": "overloaded"}}'])
def test_malformed_bodies_raise_a_retryable_error_and_never_crash(body):
    with pytest.raises(ModelError) as err:
        read_chat_response(body)
    assert err.value.retryable


def test_null_content_without_tool_calls_is_a_retryable_malformed_reply():
    body = json.dumps({"choices": [{"message": {"role": "assistant", "content": None, "reasoning_content": "think"},
                                    "finish_reason": "stop"}]}).encode()
    with pytest.raises(ModelError) as info:
        read_chat_response(body)
    assert info.value.retryable


def test_a_choice_without_a_message_is_a_retryable_malformed_reply():
    with pytest.raises(ModelError) as info:
        read_chat_response(json.dumps({"choices": [{"finish_reason": "stop"}]}).encode())
    assert info.value.retryable


def test_extras_beside_the_text_are_kept():
    body = json.dumps({"choices": [{"message": {"role": "assistant", "content": "", "reasoning_content": "think"},
                                    "finish_reason": "stop"}]}).encode()
    text, finish, usage, raw, extras, _calls = read_chat_response(body)
    assert (text, finish, usage) == ("", "stop", {})
    assert extras == {"reasoning_content": "think"}


def test_the_api_key_comes_from_the_environment_and_is_never_in_info(monkeypatch):
    monkeypatch.setenv("MY_KEY", "sk-secret-123")
    model = OpenAIModel("m", base_url="http://127.0.0.1:9/v1", api_key_env="MY_KEY")
    assert model._headers["Authorization"] == "Bearer sk-secret-123"
    assert "sk-secret" not in json.dumps(model.info())
    monkeypatch.delenv("MY_KEY")
    with pytest.raises(UserError, match="MY_KEY"):
        OpenAIModel("m", base_url="http://127.0.0.1:9/v1", api_key_env="MY_KEY")


def test_a_bad_base_url_is_a_user_error():
    with pytest.raises(UserError, match="http"):
        OpenAIModel("m", base_url="ftp://x")


def test_cost_follows_the_price_table(tmp_path, server):
    table = tmp_path / "prices.json"
    table.write_text(json.dumps({"m": {"input": 2.0, "output": 8.0}, "*": {"input": 1, "output": 1}}))
    model = make_model("openai/m", options=ModelOptions(base_url=server.base_url, price_table=str(table)))
    c = _call(model)
    assert c.cost == pytest.approx((c.usage["prompt_tokens"] * 2.0 + c.usage["completion_tokens"] * 8.0) / 1e6)
    assert load_price(str(table), "other").input_per_mtok == 1.0
    table.write_text("{")
    with pytest.raises(UserError, match="not valid JSON"):
        load_price(str(table), "m")
