"""Tool calls, usage details and client limits of the chat-completions layer."""

from __future__ import annotations

import asyncio
import gzip
import json

import pytest
from aiohttp import web

from physbench.core.items import Message, ToolCall
from physbench.core.tools import ToolSpec
from physbench.models.base import ModelError
from physbench.models.chat_json import encode_messages, read_chat_response
from physbench.models.openai_compat import OpenAIModel
from physbench.models.pricing import Price, load_price


def _body(message, usage=None):
    return json.dumps({"choices": [{"message": message, "finish_reason": "tool_calls"}], "usage": usage}).encode()


def test_tool_calls_are_read_and_malformed_arguments_are_kept_with_an_error():
    calls = [{"id": "a", "type": "function", "function": {"name": "calc", "arguments": '{"x": 2}'}},
             {"id": "b", "type": "function", "function": {"name": "calc", "arguments": '{"x": '}}]
    text, finish, _, _, _, got = read_chat_response(_body({"role": "assistant", "content": None, "tool_calls": calls}))
    assert (text, finish) == ("", "tool_calls")
    assert got[0] == ToolCall("a", "calc", '{"x": 2}', {"x": 2}, None)
    assert got[1].parsed is None and "not valid JSON" in got[1].error and got[1].arguments == '{"x": '


def test_a_tool_call_without_a_function_name_is_a_retryable_malformed_reply():
    with pytest.raises(ModelError) as info:
        read_chat_response(_body({"role": "assistant", "content": None, "tool_calls": [{"id": "a"}]}))
    assert info.value.retryable


def test_assistant_tool_calls_and_tool_results_are_encoded_in_the_openai_shape():
    call = ToolCall("c1", "calc", '{"x": 1}', {"x": 1})
    out = json.loads(encode_messages([Message("assistant", "", (call,)), Message("tool", "3", tool_call_id="c1")]))
    assert out == [{"role": "assistant", "content": None,
                    "tool_calls": [{"id": "c1", "type": "function", "function": {"name": "calc", "arguments": '{"x": 1}'}}]},
                   {"role": "tool", "content": "3", "tool_call_id": "c1"}]


def test_cached_and_reasoning_tokens_are_read_into_usage():
    usage = {"prompt_tokens": 100, "completion_tokens": 50, "prompt_tokens_details": {"cached_tokens": 80},
             "completion_tokens_details": {"reasoning_tokens": 30}}
    _, _, got, _, _, _ = read_chat_response(_body({"role": "assistant", "content": "hi"}, usage))
    assert got == {"prompt_tokens": 100, "completion_tokens": 50, "total_tokens": 150, "cached_tokens": 80,
                   "reasoning_tokens": 30}


def test_cached_input_price_applies_to_cached_prompt_tokens(tmp_path):
    path = tmp_path / "p.json"
    path.write_text(json.dumps({"m": {"input": 2.0, "output": 8.0, "cached_input": 0.5}}))
    price = load_price(str(path), "m")
    # 20 uncached x 2 + 80 cached x 0.5 + 50 x 8 = 480 USD per million tokens
    assert price.cost({"prompt_tokens": 100, "completion_tokens": 50, "cached_tokens": 80}) == pytest.approx(480e-6)
    assert Price(2.0, 8.0).cost({"prompt_tokens": 100, "completion_tokens": 50, "cached_tokens": 80}) == pytest.approx(600e-6)


async def _serve(handler):
    app = web.Application()
    app.router.add_post("/v1/chat/completions", handler)
    runner = web.AppRunner(app)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    port = site._server.sockets[0].getsockname()[1]
    return runner, f"http://127.0.0.1:{port}/v1"


def _call(handler, **kw):
    async def go():
        runner, url = await _serve(handler)
        model = OpenAIModel("m", base_url=url, **kw)
        try:
            return await model.generate([Message("user", "q")],
                                        tools=[ToolSpec("calc", "adds")], tool_choice="auto")
        finally:
            await model.aclose()
            await runner.cleanup()
    return asyncio.run(go())


def test_a_server_dripping_bytes_cannot_hold_a_call_past_the_deadline():
    async def drip(request):
        response = web.StreamResponse()
        await response.prepare(request)
        for _ in range(100):
            await response.write(b" ")
            await asyncio.sleep(0.1)
        return response
    with pytest.raises(ModelError, match="timeout") as info:
        _call(drip, timeout_s=0.5)
    assert info.value.retryable


def test_a_chunked_body_past_the_cap_is_refused():
    async def big(request):
        response = web.StreamResponse()
        response.enable_chunked_encoding()
        await response.prepare(request)
        for _ in range(20):
            await response.write(b"x" * 1000)
        return response
    with pytest.raises(ModelError, match="exceeds the limit"):
        _call(big, max_body_bytes=5000)


def test_a_compressed_body_is_capped_by_what_it_expands_to():
    async def bomb(request):  # a small Content-Length that inflates past the cap
        packed = gzip.compress(b"{" + b" " * 200_000 + b"}")
        return web.Response(body=packed, headers={"Content-Encoding": "gzip", "Content-Type": "application/json"})
    with pytest.raises(ModelError, match="exceeds the limit"):
        _call(bomb, max_body_bytes=5000)


@pytest.mark.parametrize("status", [401, 403])
def test_auth_failures_are_not_retried(status):
    async def deny(request):
        return web.Response(status=status, text="no", headers={"Retry-After": "1"})
    with pytest.raises(ModelError) as info:
        _call(deny)
    assert not info.value.retryable


def test_retry_after_is_capped_by_the_option():
    async def busy(request):
        return web.Response(status=429, text="busy", headers={"Retry-After": "86400"})
    with pytest.raises(ModelError) as info:
        _call(busy, max_retry_after_s=30.0)
    assert info.value.retryable and info.value.retry_after == 30.0


def test_tools_are_sent_and_tool_calls_come_back():
    seen = {}

    async def tooling(request):
        seen.update(await request.json())
        return web.json_response({"choices": [{"finish_reason": "tool_calls", "message": {
            "role": "assistant", "content": None,
            "tool_calls": [{"id": "k", "type": "function", "function": {"name": "calc", "arguments": "{}"}}]}}]})
    completion = _call(tooling)
    assert seen["tools"][0]["function"]["name"] == "calc" and seen["tool_choice"] == "auto"
    assert completion.tool_calls[0].name == "calc" and completion.tool_calls[0].parsed == {}


from hypothesis import given, settings, strategies as st  # noqa: E402

JSON = st.recursive(st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=8),
                    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=3),
                    max_leaves=12)
CALL = st.fixed_dictionaries({}, optional={"id": JSON, "type": JSON, "function": st.fixed_dictionaries(
    {}, optional={"name": JSON | st.text(max_size=5), "arguments": JSON | st.text(max_size=20)})})


@settings(max_examples=300, deadline=None)
@given(content=JSON, calls=JSON | st.lists(CALL, max_size=3), usage=JSON)
def test_hostile_messages_give_a_completion_or_a_model_error_never_anything_else(content, calls, usage):
    body = json.dumps({"choices": [{"message": {"role": "assistant", "content": content, "tool_calls": calls}}],
                       "usage": usage}).encode()
    try:
        _, _, got_usage, _, _, got_calls = read_chat_response(body)
    except ModelError:
        return
    assert all(isinstance(v, int) for v in got_usage.values())
    assert all((c.parsed is None) == (c.error is not None) for c in got_calls)


def test_a_content_length_beside_chunked_encoding_does_not_lift_the_cap():
    """A server announcing a small Content-Length while sending a large chunked body."""
    async def go():
        async def serve(reader, writer):
            await reader.readuntil(b"\r\n\r\n")
            writer.write(b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 10\r\n"
                         b"Transfer-Encoding: chunked\r\n\r\n")
            for _ in range(20):
                writer.write(b"3e8\r\n" + b" " * 1000 + b"\r\n")
            writer.write(b"0\r\n\r\n")
            await writer.drain()
            writer.close()
        server = await asyncio.start_server(serve, "127.0.0.1", 0)
        port = server.sockets[0].getsockname()[1]
        model = OpenAIModel("m", base_url=f"http://127.0.0.1:{port}/v1", max_body_bytes=5000)
        try:
            return await model.generate([Message("user", "q")])
        finally:
            await model.aclose()
            server.close()
    with pytest.raises(ModelError) as info:  # refused at the cap, or the framing itself refused
        asyncio.run(go())
    assert "exceeds the limit" in str(info.value) or "connection error" in str(info.value)
